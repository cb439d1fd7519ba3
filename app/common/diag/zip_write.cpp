// The bundle as a zip (libarchive), and its placement: a temporary file in the target's
// folder, renamed into place, never over a file the user did not name.

#include "app/common/diag/bundle.h"
#include "core/output_file.h"
#include "core/paths.h"
#include "core/qt_text.h"

#include <QFile>
#include <QTemporaryFile>
#include <archive.h>
#include <archive_entry.h>
#include <chrono>
#include <memory>

#ifndef _WIN32
#include <unistd.h>
#endif

namespace fs = std::filesystem;

namespace sp::diag {

namespace {

struct WriteFree
{
    void operator()(archive* a) const { archive_write_free(a); }
};
struct EntryFree
{
    void operator()(archive_entry* e) const { archive_entry_free(e); }
};

la_ssize_t appendCb(archive*, void* out, const void* data, size_t size)
{
    static_cast<std::string*>(out)->append(static_cast<const char*>(data), size);
    return static_cast<la_ssize_t>(size);
}

// The temporary files of exports that died before their rename (kill -9): named as
// write() names them, regular, and older than any export takes to write its bytes.
void removeStaleParts(const fs::path& dir)
{
    constexpr auto kStale = std::chrono::minutes(10);
    std::error_code ec;
    const auto now = fs::file_time_type::clock::now();
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string n = paths::toUtf8(it->path().filename());
        const std::string prefix = ".stackpilot-diagnostics-", suffix = ".part";
        if (n.size() != prefix.size() + 6 + suffix.size() || n.rfind(prefix, 0) != 0 ||
            n.compare(n.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        std::error_code e1, e2;
        const bool regular = it->is_regular_file(e1);
        const auto modified = it->last_write_time(e2);
        if (regular && !e1 && !e2 && modified < now - kStale)
            fs::remove(it->path(), e1);
    }
}

} // namespace

std::vector<ListItem> list(const Bundle& bundle)
{
    std::vector<ListItem> out;
    for (const auto& e : bundle.entries)
        out.push_back({e.name, e.bytes.size(), e.redactions, e.note});
    return out;
}

nlohmann::json listJson(const Bundle& bundle)
{
    nlohmann::json entries = nlohmann::json::array();
    for (const auto& item : list(bundle)) {
        nlohmann::json j = {
            {"name", item.name}, {"bytes", item.bytes}, {"redactions", item.redactions.toJson()}};
        if (!item.note.empty())
            j["note"] = item.note;
        entries.push_back(std::move(j));
    }
    return {{"entries", entries}, {"redactions", bundle.redactions.toJson()}};
}

Expected<std::string> zipBytes(const Bundle& bundle)
{
    std::string out;
    std::unique_ptr<archive, WriteFree> a(archive_write_new());
    const auto failed = [&a](const std::string& what) {
        const char* why = archive_error_string(a.get());
        return Error::runtime("cannot build the bundle zip: " + what + ": " +
                              (why ? why : "unknown error"));
    };
    if (archive_write_set_format_zip(a.get()) != ARCHIVE_OK ||
        archive_write_set_options(a.get(), "zip:compression=deflate") != ARCHIVE_OK ||
        archive_write_set_bytes_per_block(a.get(), 0) != ARCHIVE_OK ||
        archive_write_set_bytes_in_last_block(a.get(), 1) != ARCHIVE_OK ||
        archive_write_open(a.get(), &out, nullptr, &appendCb, nullptr) != ARCHIVE_OK)
        return failed("setup");
    for (const auto& e : bundle.entries) {
        std::unique_ptr<archive_entry, EntryFree> entry(archive_entry_new());
        archive_entry_set_pathname_utf8(entry.get(), e.name.c_str());
        archive_entry_set_filetype(entry.get(), AE_IFREG);
        archive_entry_set_perm(entry.get(), 0644);
        archive_entry_set_size(entry.get(), static_cast<la_int64_t>(e.bytes.size()));
        // No times, no owner: the headers then depend on nothing but the bytes.
        if (archive_write_header(a.get(), entry.get()) != ARCHIVE_OK ||
            archive_write_data(a.get(), e.bytes.data(), e.bytes.size()) !=
                static_cast<la_ssize_t>(e.bytes.size()))
            return failed(e.name);
    }
    if (archive_write_close(a.get()) != ARCHIVE_OK)
        return failed("close");
    return out;
}

Expected<void> write(const Bundle& bundle, const fs::path& file, Overwrite mode)
{
    const std::string name = paths::toUtf8(file);
    std::error_code ec;
    const auto st = fs::symlink_status(file, ec);
    if (fs::exists(st) && mode == Overwrite::Never)
        return Error::runtime(name + ": exists; not replaced (name it with -o to replace it)");
    if (auto ok = checkOutputFile(file); !ok)
        return ok.error();
    const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec))
        return Error::runtime(paths::toUtf8(dir) + ": no such folder");
    removeStaleParts(dir);

    const auto zipped = zipBytes(bundle);
    if (!zipped)
        return zipped.error();
    const std::string& bytes = *zipped;
    QTemporaryFile tmp(qpath(dir / ".stackpilot-diagnostics-XXXXXX.part"));
    tmp.setAutoRemove(false);
    if (!tmp.open())
        return Error::runtime(paths::toUtf8(dir) +
                              ": cannot create a file: " + tmp.errorString().toStdString());
    const QString tmpName = tmp.fileName();
    const bool written = tmp.write(bytes.data(), static_cast<qint64>(bytes.size())) ==
                             static_cast<qint64>(bytes.size()) &&
                         tmp.flush();
#ifndef _WIN32
    const bool synced = written && ::fsync(tmp.handle()) == 0;
#else
    const bool synced = written;
#endif
    tmp.close();
    if (!synced) {
        QFile::remove(tmpName);
        return Error::runtime(paths::toUtf8(dir) +
                              ": cannot write the bundle: " + tmp.errorString().toStdString());
    }
    bool renamed = false;
    std::string why = "it exists";
    if (mode == Overwrite::Never) {
        // QFile::rename refuses to replace, atomically (renameat2 / link on Unix).
        renamed = QFile::rename(tmpName, qpath(file));
    } else {
        fs::rename(toPath(tmpName), file, ec);
        renamed = !ec;
        why = ec.message();
    }
    if (!renamed) {
        QFile::remove(tmpName);
        return Error::runtime(name + ": cannot put the bundle in place: " + why);
    }
    return {};
}

std::string defaultFileName(const Clock& clock)
{
    return "stackpilot-diagnostics-" + compactTime(clock.now()) + ".zip";
}

Expected<fs::path> writeNew(const Bundle& bundle, const fs::path& dir, const Clock& clock)
{
    const std::string base = defaultFileName(clock);
    const std::string stem = base.substr(0, base.size() - 4);
    for (int n = 1; n < 1000; ++n) {
        const fs::path file =
            dir / paths::fromUtf8(n == 1 ? base : stem + "-" + std::to_string(n) + ".zip");
        std::error_code ec;
        if (fs::exists(fs::symlink_status(file, ec)))
            continue;
        auto w = write(bundle, file, Overwrite::Never);
        if (w)
            return file;
        if (!fs::exists(fs::symlink_status(file, ec)))
            return w.error(); // not a race with another writer: a real failure
    }
    return Error::runtime(paths::toUtf8(dir) + ": too many bundles named " + base);
}

} // namespace sp::diag
