#pragma once
// The rules for the catalog's user texts (the "ui" fields, docs/CATALOG.md "User
// texts"): complete in English and Simplified Chinese, free of the catalog's internal
// words, and no English left in a Chinese text except names. `catalog check` applies
// them to the shipped catalog; the window's tests use the two word helpers on what the
// widgets show.

#include "core/catalog/reference_check.h"
#include "core/catalog/types.h"

#include <string>
#include <string_view>
#include <vector>

namespace sp {

// The English words of a Simplified Chinese text that are not names: runs of ASCII
// letters (with digits, '.', '_', '-' inside) that hold three letters in a row and are
// neither in the names list (product, GPU, library and group names; see
// user_text_names.cpp), nor a file name ending in .dll, .so, .exe or .bat, nor an
// environment variable in capitals (HIP_PATH, PYTHONUTF8). In text order.
std::vector<std::string> untranslatedWords(std::string_view zhText);

// Whether `word` is one of the names a Chinese text may keep (case-insensitive).
bool isKnownName(std::string_view word);

// What in `text` only a maintainer would write: the id of a profile, runtime, known
// issue or workload (a workload id that is also its display name, "llamafile", is
// fine), "seed", "preference", an issue number ("#12", "issue 12") or "stackpilot-cli".
// Empty when there is none.
std::string internalWord(std::string_view text, const Catalog& catalog);
inline bool looksInternal(std::string_view text, const Catalog& catalog)
{
    return !internalWord(text, catalog).empty();
}

// Every problem of the user texts of `catalog`'s profiles, workloads and known issues,
// one line each: "file:line:col: reason" (a missing text, a warning count that differs
// from the entry's warnings, an internal word, English in a zh_CN text).
std::vector<std::string> checkUserTexts(const Catalog& catalog, const CatalogLocator& at);

} // namespace sp
