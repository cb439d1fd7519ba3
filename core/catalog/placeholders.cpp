#include "core/catalog/placeholders.h"

namespace sp {

namespace {

bool nameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == ':' || c == '.' ||
           c == '-';
}

// Calls fn(start, end, name) for each placeholder; end is one past the '}'.
template <class Fn> void scan(const std::string& text, Fn&& fn)
{
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '{')
            continue;
        std::size_t j = i + 1;
        while (j < text.size() && nameChar(text[j]))
            ++j;
        if (j < text.size() && text[j] == '}' && j > i + 1) {
            fn(i, j + 1, text.substr(i + 1, j - i - 1));
            i = j;
        }
    }
}

} // namespace

std::vector<std::string> findPlaceholders(const std::string& text)
{
    std::vector<std::string> out;
    scan(text, [&](std::size_t, std::size_t, std::string name) { out.push_back(std::move(name)); });
    return out;
}

bool isKnownPlaceholder(const std::string& name, std::string* error)
{
    if (name == "gfx" || name == "gpu_index" || name == "data" || name == "cache" ||
        name == "python" || name == "base_python" || name == "venv" || name == "checks")
        return true;
    if (name.rfind("runtime:", 0) == 0 && name.size() > 8)
        return true;
    if (error)
        *error = "unknown placeholder {" + name +
                 "} (known: {gfx}, {gpu_index}, {data}, {cache}, {python}, {base_python}, "
                 "{venv}, {checks}, {runtime:ID})";
    return false;
}

std::string
expandPlaceholders(const std::string& text,
                   const std::function<std::optional<std::string>(const std::string&)>& resolve)
{
    std::string out;
    std::size_t last = 0;
    scan(text, [&](std::size_t start, std::size_t end, const std::string& name) {
        out += text.substr(last, start - last);
        auto v = resolve(name);
        out += v ? *v : text.substr(start, end - start);
        last = end;
    });
    out += text.substr(last);
    return out;
}

} // namespace sp
