#pragma once
// How a paste is cut into the tool outputs it holds. Users paste several commands with
// their prompts ("$ rocminfo | grep gfx" then "$ rocminfo"), or several fenced blocks;
// the same GPU then appears once per output, and only outputs that are apart may be
// merged as one GPU (two identical cards inside one output are two GPUs).

#include <string>
#include <string_view>
#include <vector>

namespace sp::paste {

// A shell prompt that starts a command: "$ nvidia-smi", "root@box:~$ rocminfo",
// "jgeerling@cm5:~ $ nvidia-smi", "C:\Users\me>hipinfo", "PS C:\> hipinfo",
// "╰─$ ./app", "# lspci -nnk". `line` is a cleaned line (parse_util::cleanLine).
bool isPromptLine(std::string_view line);

// The paste cut at Markdown fences and prompt lines; every part is a view into `text`.
// At most kMaxSections parts (the rest stays in the last one).
inline constexpr std::size_t kMaxSections = 256;
std::vector<std::string_view> splitSections(std::string_view text);

// "windows" or "linux" when the paste says so (a Windows path or driver model, a Linux
// path or tool), else empty. Both kinds of hints give empty.
std::string inferOsFamily(std::string_view text);

} // namespace sp::paste
