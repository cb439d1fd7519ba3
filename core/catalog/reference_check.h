#pragma once
// The checks that need the whole catalog (CatalogLoader::checkReferences): every name a
// file refers to exists, every {runtime:ID} a profile runs is listed by it, a `tested`
// profile is fully pinned, and a profile that runs {python} has a Python of its own.

#include "core/catalog/types.h"

#include <functional>
#include <string>

namespace sp {

// "file:line:col" of the entry `key` ("profile:ID") at JSON pointer `sub` below it.
using CatalogLocator = std::function<std::string(const std::string& key, const std::string& sub)>;

// The first problem as "file:line:col: reason", or empty.
std::string checkCatalogReferences(const Catalog& catalog, const CatalogLocator& at);

} // namespace sp
