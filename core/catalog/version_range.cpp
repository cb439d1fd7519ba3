#include "core/catalog/version_range.h"

#include <cctype>
#include <sstream>

namespace sp {

std::optional<Version> parseVersion(const std::string& text)
{
    Version v;
    std::size_t i = 0;
    while (i < text.size()) {
        if (!std::isdigit(static_cast<unsigned char>(text[i])))
            break;
        long part = 0;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
            if (part > 100000000)
                return std::nullopt; // absurd, and keeps the arithmetic far from overflow
            part = part * 10 + (text[i] - '0');
            ++i;
        }
        v.push_back(part);
        if (i < text.size() && text[i] == '.' && i + 1 < text.size() &&
            std::isdigit(static_cast<unsigned char>(text[i + 1])))
            ++i;
        else
            break;
    }
    if (v.empty())
        return std::nullopt;
    return v;
}

std::optional<CcBuild> parseCcBuild(const std::string& text)
{
    static const std::string kPtx = "+PTX";
    const bool ptx = text.size() > kPtx.size() &&
                     text.compare(text.size() - kPtx.size(), kPtx.size(), kPtx) == 0;
    const std::string cc = ptx ? text.substr(0, text.size() - kPtx.size()) : text;
    const auto v = parseVersion(cc);
    if (!v || v->size() != 2 || cc.find_first_not_of("0123456789.") != std::string::npos)
        return std::nullopt;
    return CcBuild{*v, ptx};
}

int compareVersions(const Version& a, const Version& b)
{
    const std::size_t n = std::max(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        const long x = i < a.size() ? a[i] : 0;
        const long y = i < b.size() ? b[i] : 0;
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

std::optional<VersionRange> VersionRange::parse(const std::string& text, std::string* error)
{
    VersionRange r;
    std::istringstream in(text);
    std::string word;
    while (in >> word) {
        Term t{Op::Eq, {}};
        std::size_t skip = 0;
        if (word.rfind(">=", 0) == 0) {
            t.op = Op::Ge;
            skip = 2;
        } else if (word.rfind("<=", 0) == 0) {
            t.op = Op::Le;
            skip = 2;
        } else if (word.rfind('>', 0) == 0) {
            t.op = Op::Gt;
            skip = 1;
        } else if (word.rfind('<', 0) == 0) {
            t.op = Op::Lt;
            skip = 1;
        } else if (word.rfind('=', 0) == 0) {
            skip = 1;
        }
        const std::string rest = word.substr(skip);
        auto v = parseVersion(rest);
        // The whole word must be a dotted number: "6.x" or ">=abc" are mistakes.
        bool clean = v.has_value();
        for (char c : rest)
            clean = clean && (std::isdigit(static_cast<unsigned char>(c)) || c == '.');
        if (!clean || rest.empty() || rest.back() == '.') {
            if (error)
                *error = "bad version range '" + text + "': '" + word +
                         "' is not a comparator and a dotted version";
            return std::nullopt;
        }
        t.v = *v;
        r.m_terms.push_back(std::move(t));
    }
    if (r.m_terms.empty()) {
        if (error)
            *error = "bad version range '" + text + "': empty";
        return std::nullopt;
    }
    return r;
}

bool VersionRange::contains(const Version& v) const
{
    for (const auto& t : m_terms) {
        bool ok = false;
        switch (t.op) {
        case Op::Eq: {
            // Exact on the parts the range names: "6.1" holds for 6.1.x.
            ok = v.size() >= t.v.size() || compareVersions(v, t.v) == 0;
            for (std::size_t i = 0; ok && i < t.v.size(); ++i)
                ok = (i < v.size() ? v[i] : 0) == t.v[i];
            break;
        }
        case Op::Lt:
            ok = compareVersions(v, t.v) < 0;
            break;
        case Op::Le:
            ok = compareVersions(v, t.v) <= 0;
            break;
        case Op::Gt:
            ok = compareVersions(v, t.v) > 0;
            break;
        case Op::Ge:
            ok = compareVersions(v, t.v) >= 0;
            break;
        }
        if (!ok)
            return false;
    }
    return true;
}

bool VersionRange::contains(const std::string& v) const
{
    auto parsed = parseVersion(v);
    return parsed && contains(*parsed);
}

} // namespace sp
