#include "core/app_log.h"

#include "core/paths.h"
#include "core/text.h"

#include <fstream>
#include <mutex>

namespace fs = std::filesystem;

namespace sp::applog {

namespace {

std::mutex& logMutex()
{
    static std::mutex m;
    return m;
}

std::string oneLine(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : printable(text)) {
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += ' ';
        else
            out += c;
    }
    return out;
}

} // namespace

fs::path file()
{
    return paths::logDir() / "stackpilot.log";
}

fs::path rotatedFile()
{
    return paths::logDir() / "stackpilot.log.1";
}

void write(const std::string& source, const std::string& text, const Clock& clock)
{
    const std::string line =
        isoTime(clock.now()) + " " + oneLine(source) + " " + oneLine(text) + "\n";
    const std::lock_guard<std::mutex> lock(logMutex());
    std::error_code ec;
    const fs::path log = file();
    fs::create_directories(log.parent_path(), ec);
    if (ec)
        return;
    const auto size = fs::file_size(log, ec);
    // Rotate only a regular file under our own name: the .1 it replaces is our own too.
    if (!ec && size + line.size() > kMaxBytes && fs::is_regular_file(log, ec))
        fs::rename(log, rotatedFile(), ec);
    std::ofstream out(log, std::ios::binary | std::ios::app);
    if (out)
        out << line;
}

} // namespace sp::applog
