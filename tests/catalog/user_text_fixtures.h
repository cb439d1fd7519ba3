#pragma once
// Catalog texts for the user-text tests (kept out of the moc-scanned test file, as
// loader_fixtures.h is). Each has the text under test on a line of its own, so a test
// can tell that a message names the right line.

namespace {

// One workload, one profile with one warning, one known issue; SUMMARY_EN and
// SUMMARY_ZH are spliced in by the tests. The profile's summary is on line 9.
[[maybe_unused]] const char* kUiCatalog = R"({"schema_version": 1,
"workloads": [{"id": "imagegen", "name": "Image maker", "command": ["run"],
  "ui": {"name": {"en": "Image maker", "zh_CN": "图片生成器"},
         "about": {"en": "Makes pictures.", "zh_CN": "生成图片。"}}}],
"profiles": [{"id": "imagegen-zluda", "workload": "imagegen", "status": "community",
  "warnings": ["First run compiles for 20 minutes (seed 000)."],
  "ui": {
    "route": {"en": "AMD's ZLUDA route", "zh_CN": "AMD ZLUDA 方案"},
    "summary": {"en": SUMMARY_EN, "zh_CN": SUMMARY_ZH},
    "warnings": [{"en": "The first run takes up to 20 minutes.", "zh_CN": "首次运行最多需要 20 分钟。"}]}}],
"known_issues": [{"id": "rocblas-crash", "title": "rocblas.dll 0xC0000005",
  "ui": {"title": {"en": "The program crashed.", "zh_CN": "程序崩溃了。"},
         "fix": {"en": "Switch to the older SDK.", "zh_CN": "改用较旧的 SDK。"}}}]})";

} // namespace
