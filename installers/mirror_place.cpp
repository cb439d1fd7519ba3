// Which file under DIR mirrors a URL. Derived only from validated parts: a real host
// (core/web_url.h), a port, and path segments that are plain file names once decoded,
// so no URL can name a place outside DIR (issue 35, item 1).

#include "core/web_url.h"
#include "installers/mirror_export.h"

#include <cctype>

namespace sp {

namespace {

int hexValue(char c)
{
    return std::isdigit(static_cast<unsigned char>(c))
               ? c - '0'
               : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
}

// A segment's percent escapes decoded; nullopt for a broken escape.
std::optional<std::string> decodedSegment(const std::string& s)
{
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') {
            out += s[i];
            continue;
        }
        if (i + 2 >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[i + 1])) ||
            !std::isxdigit(static_cast<unsigned char>(s[i + 2])))
            return std::nullopt;
        out += static_cast<char>(hexValue(s[i + 1]) * 16 + hexValue(s[i + 2]));
        i += 2;
    }
    return out;
}

// Why `seg` (decoded) cannot be a file or folder name on Linux or Windows; "" when it can.
std::string segmentProblem(const std::string& seg)
{
    if (seg.empty() || seg == "." || seg == "..")
        return "an empty, \".\" or \"..\" part";
    for (unsigned char c : seg) {
        if (c < 0x20 || c == 0x7f)
            return "a NUL or control character";
        if (c == '/' || c == '\\')
            return "an encoded '/' or '\\'";
        if (c == ':' || c == '*' || c == '?' || c == '"' || c == '<' || c == '>' || c == '|')
            return "a character a file name cannot hold";
    }
    if (seg.back() == '.' || seg.back() == ' ')
        return "a part ending in '.' or a space";
    return {};
}

} // namespace

Expected<MirrorPlace> mirrorPlaceOf(const std::string& url)
{
    auto parsed = parseWebUrl(url);
    if (!parsed)
        return parsed.error();
    MirrorPlace p;
    p.authority = parsed->authority();
    p.folder = parsed->host;
    for (auto& c : p.folder)
        if (c == ':' || c == '[' || c == ']')
            c = '_';
    if (parsed->port)
        p.folder += "_" + std::to_string(*parsed->port);
    if (p.folder == "sha256" || p.folder == "mirrors.json")
        return Error::invalid(url + ": the host '" + p.folder + "' is a name the folder keeps");
    const std::string& raw = parsed->path;
    if (raw.size() < 2 || raw.front() != '/' || raw.back() == '/')
        return Error::invalid(url + ": no file name in the URL's path");
    for (std::size_t at = 1; at <= raw.size();) {
        const auto next = std::min(raw.find('/', at), raw.size());
        const auto seg = decodedSegment(raw.substr(at, next - at));
        const std::string problem = seg ? segmentProblem(*seg) : "a broken %-escape";
        if (!problem.empty())
            return Error::invalid(url + ": the URL's path has " + problem);
        p.segments.push_back(*seg);
        p.path += "/" + *seg;
        at = next + 1;
    }
    return p;
}

} // namespace sp
