#pragma once
// Catalog texts for the loader tests (kept out of the moc-scanned test file:
// moc mis-reads raw string literals that contain backslashes).

namespace {

[[maybe_unused]] const char* kBase = R"({"schema_version": 1,
"runtimes": [{"id": "rt", "kind": "rocm", "version": "6.2", "artifacts": [
  {"url": "https://example.org/a.zip", "format": "zip", "unpinned": true}]}],
"workloads": [{"id": "w", "name": "W", "command": ["run"]}],
"profiles": [{"id": "p", "workload": "w", "status": "community", "runtimes": ["rt"]}]})";

[[maybe_unused]] const char* kIssue =
    R"({"schema_version": 1, "known_issues": [{"id": "k", "title": "T",
            "applies": {"os": ["windows"], "runtimes": [{"kind": "hip-sdk", "version": ">=6.1 <6.2"}]},
            "rejects_profiles": true, "signatures": ["rocblas\\.dll"], "literals": ["rocblas"],
            "remedy": {"action": "switch_profile", "text": "x", "profile": "p", "env": {"A": "1"}, "args": ["--y"]},
            "references": ["https://example.org"]}]})";

// A known issue whose remedy is REMEDY (spliced in by the tests), on line 2.
[[maybe_unused]] const char* kRemedyIssue = R"({"schema_version": 1, "known_issues": [
{"id": "k", "title": "T", "remedy": REMEDY}]})";

} // namespace
