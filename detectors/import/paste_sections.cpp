#include "detectors/import/paste_sections.h"

#include "core/strings.h"
#include "detectors/parsers/parsed_probe.h"

#include <cctype>

namespace sp::paste {

namespace {

bool isAlnum(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

// "C:\Users\me>" or "PS C:\>": a Windows prompt.
bool isWindowsPrompt(std::string_view t)
{
    if (t.substr(0, 3) == "PS ")
        t.remove_prefix(3);
    return t.size() > 3 && std::isalpha(static_cast<unsigned char>(t[0])) && t[1] == ':' &&
           t[2] == '\\' && t.find('>') != std::string_view::npos;
}

} // namespace

bool isPromptLine(std::string_view line)
{
    std::string_view t = trim(line);
    if (isWindowsPrompt(t))
        return true;
    // Decorations some shells draw before the prompt character ("╰─$ ").
    while (!t.empty() && !isAlnum(t.front()) && t.front() != '$' && t.front() != '#' &&
           t.front() != '%' && t.front() != '[' && t.front() != '~' && t.front() != ':' &&
           t.front() != '/' && t.front() != '.')
        t.remove_prefix(1);
    for (std::string_view p : {"$ ", "# ", "% "}) {
        if (t.substr(0, 2) == p && t.size() > 2)
            return true;
    }
    // "user@host:~/dir$ cmd", "[user@system:~]$ cmd", ":~/hipInfo$ ./hipInfo", "host:~ $ cmd"
    const auto space = t.find(' ');
    const std::string_view first = t.substr(0, space);
    std::string_view prompt = first;
    if (space != std::string_view::npos && (first.back() == '~' || first.back() == ':') &&
        t.size() > space + 2 && (t[space + 1] == '$' || t[space + 1] == '#') && t[space + 2] == ' ')
        return first.find_first_of("@:") != std::string_view::npos;
    if (prompt.size() < 2 || (prompt.back() != '$' && prompt.back() != '#') ||
        space == std::string_view::npos)
        return false;
    return prompt.find_first_of("@:~") != std::string_view::npos;
}

std::vector<std::string_view> splitSections(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t start = 0, pos = 0;
    auto cut = [&](std::size_t at) {
        if (at > start && out.size() + 1 < kMaxSections) {
            out.push_back(text.substr(start, at - start));
            start = at;
        }
    };
    while (pos < text.size()) {
        const auto nl = text.find('\n', pos);
        const std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
        const std::string_view raw = text.substr(pos, end - pos);
        if (parse_util::isFenceLine(raw) || isPromptLine(parse_util::cleanLine(raw)))
            cut(pos);
        pos = end;
    }
    if (start < text.size())
        out.push_back(text.substr(start));
    return out;
}

std::string inferOsFamily(std::string_view text)
{
    bool windows = false, linux = false;
    for (std::string_view w :
         {"C:\\", "WDDM", "hipInfo.exe", "PCI\\VEN_", "Get-PnpDevice", "Program Files", "HIP_PATH"})
        windows = windows || text.find(w) != std::string_view::npos;
    for (std::string_view w : {"/opt/rocm", "/sys/class", "/usr/", "ROCk module", "lspci",
                               "/dev/kfd", "Ubuntu", "Linux"})
        linux = linux || text.find(w) != std::string_view::npos;
    if (windows == linux)
        return {};
    return windows ? "windows" : "linux";
}

} // namespace sp::paste
