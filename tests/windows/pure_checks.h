#pragma once
// The pure Windows-detection checks, written once and run twice: by the Qt Test
// on Linux (test_windows_pure) and by wine_detect.exe under Wine, so the MinGW
// build of the same code is checked too. No Qt, no windows.h.

#include <string>
#include <vector>

namespace sp::wintest {

// Each appends one line per failed expectation ("file:line: what") and returns
// how many expectations it checked.
int checkHardwareIds(std::vector<std::string>& failures);
int checkHomeClassification(std::vector<std::string>& failures);
int checkCombine(std::vector<std::string>& failures);

} // namespace sp::wintest
