#pragma once
// Template placeholders in catalog commands, args, steps and env values:
// {gfx}, {gpu_index}, {data}, {cache}, {python}, {base_python}, {venv}, {runtime:ID}. A '{' that
// does not start "{name}" with name made of [a-z0-9_:.-] is literal text.

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sp {

// Names inside braces, in order of appearance ("runtime:hip-sdk-5.7.1", "gfx").
std::vector<std::string> findPlaceholders(const std::string& text);
// Whether the loader accepts the name; on false, *error says why.
bool isKnownPlaceholder(const std::string& name, std::string* error);
// Replaces each placeholder with resolve(name); a nullopt leaves it as written.
std::string
expandPlaceholders(const std::string& text,
                   const std::function<std::optional<std::string>(const std::string&)>& resolve);

} // namespace sp
