// The headers most test files include, parsed once per flavour (tests/StackPilotTest.cmake)
// instead of once per file: a third of a test file's compile time in the CI build.
#pragma once

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>
