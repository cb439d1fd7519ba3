#pragma once
// Where StackPilot keeps its files. STACKPILOT_HOME=DIR puts everything under DIR
// (portable mode, and what every test uses); otherwise the platform's usual places.

#include <filesystem>

namespace sp::paths {

std::filesystem::path configDir(); // catalog.d/, settings
std::filesystem::path dataDir();   // runtimes/, receipts
std::filesystem::path cacheDir();  // downloads keyed by hash, partial files
std::filesystem::path logDir();

// The user's install and cache folders from the settings ("install_dir", "cache_dir";
// empty = the defaults above). Each front end sets them after reading the settings;
// dataDir() and cacheDir() then return them. Logs and config stay where they were.
void setUserFolders(const std::filesystem::path& data, const std::filesystem::path& cache);

// Folder holding the read-only data shipped with the app (catalog, schema, GPU
// tables). STACKPILOT_DATA_DIR overrides; else next to the executable
// (../share/stackpilot), else the build tree's copy.
std::filesystem::path shippedDataDir();

// UTF-8 string <-> path, so non-ASCII folders survive on Windows too.
std::filesystem::path fromUtf8(const std::string& s);
std::string toUtf8(const std::filesystem::path& p);

} // namespace sp::paths
