#pragma once
// The catalog of test_select_args_rules, kept out of the test's source: moc misreads a
// raw string literal holding "//" and then finds no Q_OBJECT class.

// One workload with two rules (<= 4 GB: --low; 4-8 GB: --mid), a GPU and a CPU profile.
inline const char* kArgsRulesCatalog = R"({"schema_version": 1,
      "runtimes": [{"id": "py", "kind": "python", "version": "3.11", "system": true,
                    "executable": {"linux": "bin/python3", "windows": "python.exe"}}],
      "workloads": [{"id": "sdapp", "name": "SD app", "command": ["{python}", "main.py"],
        "args_when": [
          {"when": {"max_vram_mb": 4096, "integrated": false}, "args": ["--low"],
           "unless_args": ["--normal", "--cpu"], "why": {"en": "small card"},
           "references": ["https://example.org/low"]},
          {"when": {"min_vram_mb": 4097, "max_vram_mb": 8192}, "args": ["--mid"],
           "unless_args": ["--normal", "--cpu"], "why": {"en": "mid card"},
           "references": ["https://example.org/mid"]}]}],
      "profiles": [
        {"id": "gpu", "workload": "sdapp", "status": "community", "match": {"os": ["linux"]},
         "runtimes": ["py"]},
        {"id": "cpu", "workload": "sdapp", "status": "community", "fallback": true,
         "runtimes": ["py"], "args": ["--cpu"]}]})";
