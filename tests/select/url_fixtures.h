#pragma once
// A catalog text for test_select_rules' URL-evidence test (kept out of the moc-scanned test
// file: moc reads the "//" of a URL inside a raw string literal as a comment).

namespace {

[[maybe_unused]] const char* kUrlEvidenceCatalog = R"({"schema_version": 1,
      "runtimes": [
        {"id": "py", "kind": "python", "version": "3.11", "system": true},
        {"id": "seen", "kind": "llama-cpp", "version": "1", "artifacts": [
          {"url": "https://example.org/a-1.zip", "format": "zip", "unpinned": true,
           "url_evidence": ["https://example.org/releases/tag/1"]}]},
        {"id": "guessed", "kind": "llama-cpp", "version": "1", "artifacts": [
          {"url": "https://example.org/b-1.zip", "format": "zip", "unpinned": true,
           "url_unverified": true}]}],
      "workloads": [{"id": "w", "name": "W", "command": ["run"]}],
      "profiles": [
        {"id": "a-guessed", "workload": "w", "status": "community", "runtimes": ["py", "guessed"]},
        {"id": "b-seen", "workload": "w", "status": "community", "runtimes": ["py", "seen"]},
        {"id": "c-seen-experimental", "workload": "w", "status": "experimental",
         "runtimes": ["py", "seen"]}]})";

} // namespace
