#include "core/catalog/user_text.h"

#include "core/strings.h"

#include <algorithm>
#include <cctype>

namespace sp {

namespace {

bool asciiAlpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool asciiAlnum(char c)
{
    return asciiAlpha(c) || (c >= '0' && c <= '9');
}
bool wordChar(char c)
{
    return asciiAlnum(c) || c == '_' || c == '.' || c == '-';
}

bool hasThreeLetters(std::string_view w)
{
    int run = 0;
    for (char c : w) {
        run = asciiAlpha(c) ? run + 1 : 0;
        if (run >= 3)
            return true;
    }
    return false;
}

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool fileName(std::string_view word)
{
    const std::string w = lower(word);
    return endsWith(w, ".dll") || endsWith(w, ".so") || endsWith(w, ".exe") || endsWith(w, ".bat");
}

// HIP_PATH, PYTHONUTF8: capitals with an underscore or a digit.
bool envName(std::string_view word)
{
    const bool caps = std::all_of(word.begin(), word.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
    return caps && word.find_first_of("_0123456789") != std::string_view::npos;
}

// `id` at `pos` of `text` as a whole word: no id character around it (a '.' after it
// ends a sentence unless a letter or digit follows).
bool wholeWordAt(std::string_view text, std::size_t pos, std::size_t len)
{
    auto idChar = [](char c) { return asciiAlnum(c) || c == '_' || c == '-'; };
    if (pos > 0 && (idChar(text[pos - 1]) || text[pos - 1] == '.'))
        return false;
    const std::size_t end = pos + len;
    if (end < text.size() && idChar(text[end]))
        return false;
    return !(end + 1 < text.size() && text[end] == '.' && asciiAlnum(text[end + 1]));
}

bool containsWord(std::string_view text, std::string_view id)
{
    for (auto pos = text.find(id); pos != std::string_view::npos; pos = text.find(id, pos + 1))
        if (wholeWordAt(text, pos, id.size()))
            return true;
    return false;
}

// "seed", "seeds", "Seed 000" but not "unseeded"; `lowered` is the text in lower case.
bool startsWord(const std::string& lowered, std::string_view word)
{
    for (auto pos = lowered.find(word); pos != std::string::npos; pos = lowered.find(word, pos + 1))
        if (pos == 0 || !asciiAlpha(lowered[pos - 1]))
            return true;
    return false;
}

std::string issueNumber(const std::string& lowered)
{
    for (std::size_t i = 0; i + 1 < lowered.size(); ++i)
        if (lowered[i] == '#' && std::isdigit(static_cast<unsigned char>(lowered[i + 1])))
            return "an issue number ('#" + std::string(1, lowered[i + 1]) + "...')";
    for (auto pos = lowered.find("issue"); pos != std::string::npos;
         pos = lowered.find("issue", pos + 1)) {
        auto i = pos + 5;
        while (i < lowered.size() && lowered[i] == ' ')
            ++i;
        if (i > pos + 5 && i < lowered.size() &&
            std::isdigit(static_cast<unsigned char>(lowered[i])))
            return "an issue number ('issue " + std::string(1, lowered[i]) + "...')";
    }
    return {};
}

// A workload id that its own display name carries ("llamafile", "llama-server").
bool displayName(const Catalog& cat, const std::string& id)
{
    return std::any_of(cat.workloads.begin(), cat.workloads.end(), [&](const Workload& w) {
        return w.id == id && (containsWord(w.name, id) || containsWord(w.ui.name.en, id));
    });
}

template <class T>
std::string idIn(std::string_view text, const std::vector<T>& entries, const char* kind)
{
    for (const auto& e : entries)
        if (containsWord(text, e.id))
            return std::string(kind) + " id '" + e.id + "'";
    return {};
}

} // namespace

std::vector<std::string> untranslatedWords(std::string_view zhText)
{
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < zhText.size()) {
        if (!wordChar(zhText[i])) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < zhText.size() && wordChar(zhText[j]))
            ++j;
        std::string_view w = zhText.substr(i, j - i);
        i = j;
        while (!w.empty() && (w.front() == '.' || w.front() == '-'))
            w.remove_prefix(1);
        while (!w.empty() && (w.back() == '.' || w.back() == '-'))
            w.remove_suffix(1);
        if (hasThreeLetters(w) && !isKnownName(w) && !fileName(w) && !envName(w))
            out.emplace_back(w);
    }
    return out;
}

std::string internalWord(std::string_view text, const Catalog& catalog)
{
    const std::string lowered = lower(text);
    if (startsWord(lowered, "seed"))
        return "the word 'seed'";
    if (startsWord(lowered, "preference"))
        return "the word 'preference'";
    if (lowered.find("stackpilot-cli") != std::string::npos)
        return "a command line ('stackpilot-cli')";
    if (auto n = issueNumber(lowered); !n.empty())
        return n;
    for (const auto& w : catalog.workloads)
        if (containsWord(text, w.id) && !displayName(catalog, w.id))
            return "workload id '" + w.id + "'";
    if (auto s = idIn(text, catalog.profiles, "profile"); !s.empty())
        return s;
    if (auto s = idIn(text, catalog.runtimes, "runtime"); !s.empty())
        return s;
    return idIn(text, catalog.knownIssues, "known issue");
}

} // namespace sp
