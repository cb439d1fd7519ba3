#include "installers/receipt.h"

#include "core/json_file.h"
#include "core/paths.h"
#include "core/qt_text.h"
#include "installers/sha256.h"

#include <QByteArray>
#include <QFile>
#include <QSaveFile>
#include <QString>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;

namespace sp {

namespace {

const char* typeName(FileRecord::Type t)
{
    switch (t) {
    case FileRecord::Type::File:
        return "file";
    case FileRecord::Type::Symlink:
        return "symlink";
    case FileRecord::Type::Directory:
        return "dir";
    }
    return "file";
}

} // namespace

std::string Receipt::toJson() const
{
    json j;
    j["schema"] = schema;
    j["id"] = id;
    j["kind"] = kind;
    j["version"] = version;
    j["installed_at"] = installedAt;
    j["artifacts"] = json::array();
    for (const auto& a : artifacts) {
        json e = {{"url", a.url},       {"origin", a.origin}, {"source", a.source},
                  {"sha256", a.sha256}, {"size", a.size},     {"format", a.format}};
        if (!a.commit.empty())
            e["commit"] = a.commit;
        j["artifacts"].push_back(std::move(e));
    }
    j["files"] = json::array();
    for (const auto& f : files) {
        json e = {{"path", f.path}, {"type", typeName(f.type)}};
        if (f.type == FileRecord::Type::File) {
            e["size"] = f.size;
            e["sha256"] = f.sha256;
            if (f.executable)
                e["executable"] = true;
        } else if (f.type == FileRecord::Type::Symlink) {
            e["target"] = f.target;
        }
        j["files"].push_back(std::move(e));
    }
    j["warnings"] = warnings;
    if (!installDir.empty())
        j["install_dir"] = installDir;
    return j.dump(1) + "\n";
}

Expected<Receipt> Receipt::parse(const std::string& text, const std::string& name)
{
    auto parsed = parseJsonText(text, name, kReceiptLimits);
    if (!parsed)
        return parsed.error();
    const json j = std::move(*parsed);
    try {
        Receipt r;
        r.schema = j.at("schema").get<int>();
        r.id = j.at("id").get<std::string>();
        r.kind = j.value("kind", "");
        r.version = j.value("version", "");
        r.installedAt = j.value("installed_at", "");
        for (const auto& a : j.at("artifacts"))
            r.artifacts.push_back({a.value("url", ""), a.value("origin", ""), a.value("source", ""),
                                   a.value("sha256", ""), a.value("size", std::uint64_t{0}),
                                   a.value("format", ""), a.value("commit", "")});
        for (const auto& f : j.at("files")) {
            FileRecord rec;
            rec.path = f.at("path").get<std::string>();
            const auto t = f.at("type").get<std::string>();
            rec.type = t == "symlink" ? FileRecord::Type::Symlink
                       : t == "dir"   ? FileRecord::Type::Directory
                                      : FileRecord::Type::File;
            rec.size = f.value("size", std::uint64_t{0});
            rec.sha256 = f.value("sha256", "");
            rec.target = f.value("target", "");
            rec.executable = f.value("executable", false);
            r.files.push_back(std::move(rec));
        }
        if (j.contains("warnings"))
            r.warnings = j["warnings"].get<std::vector<std::string>>();
        r.installDir = j.value("install_dir", "");
        return r;
    } catch (const json::exception& e) {
        return Error::invalid(name + ": not a StackPilot receipt: " + e.what());
    }
}

Expected<Receipt> Receipt::load(const fs::path& file)
{
    auto text = readRegularFile(file, kReceiptLimits.maxBytes, "receipt");
    if (!text)
        return text.error();
    return parse(*text, paths::toUtf8(file));
}

Expected<void> Receipt::save(const fs::path& file) const
{
    // QSaveFile writes a temporary file, flushes it to disk and renames it over
    // the target on commit(), so a crash leaves the old receipt or the new one.
    QSaveFile f(qpath(file));
    // Qt keeps only the text of a failed write: its errno says a full disk.
    auto failed = [&f, &file](int err) {
        return Error::runtime(paths::toUtf8(file) +
                              ": cannot write: " + f.errorString().toStdString())
            .withCause(f.error() == QFileDevice::PermissionsError ? Cause::Permission
                                                                  : causeFromErrno(err));
    };
    if (!f.open(QIODevice::WriteOnly))
        return failed(errno);
    const std::string text = toJson();
    if (f.write(text.data(), static_cast<qint64>(text.size())) !=
            static_cast<qint64>(text.size()) ||
        !f.commit())
        return failed(errno);
    return {};
}

namespace {

// A receipt path names something inside the runtime's folder only when it is relative,
// has no '..' and passes through no symlink on the way (the last part may be one).
bool staysInside(const fs::path& dir, const std::string& rel)
{
    const fs::path p = paths::fromUtf8(rel);
    if (rel.empty() || p.is_absolute() || p.has_root_name() || p.has_root_directory())
        return false;
    fs::path walk = dir;
    std::error_code ec;
    for (auto it = p.begin(); it != p.end(); ++it) {
        if (*it == ".." || *it == ".")
            return false;
        if (walk != dir && fs::is_symlink(fs::symlink_status(walk, ec)))
            return false;
        walk /= *it;
    }
    return true;
}

} // namespace

std::vector<VerifyProblem> verifyTree(const fs::path& dir, const Receipt& receipt)
{
    std::vector<VerifyProblem> problems;
    for (const auto& rec : receipt.files) {
        if (!staysInside(dir, rec.path)) {
            // Never read outside the prefix: the receipt itself is damaged.
            problems.push_back({rec.path, "outside-prefix",
                                "the receipt names a path outside the runtime's folder"});
            continue;
        }
        const fs::path p = dir / paths::fromUtf8(rec.path);
        std::error_code ec;
        const auto st = fs::symlink_status(p, ec);
        if (st.type() == fs::file_type::not_found) {
            problems.push_back({rec.path, "missing", {}});
            continue;
        }
        switch (rec.type) {
        case FileRecord::Type::Directory:
            if (st.type() != fs::file_type::directory)
                problems.push_back({rec.path, "wrong-type", "expected a folder"});
            break;
        case FileRecord::Type::Symlink:
            if (st.type() != fs::file_type::symlink) {
                problems.push_back({rec.path, "wrong-type", "expected a symlink"});
            } else if (const auto t = paths::toUtf8(fs::read_symlink(p, ec)); t != rec.target) {
                problems.push_back({rec.path, "wrong-target", "points to '" + t + "'"});
            }
            break;
        case FileRecord::Type::File: {
            if (st.type() != fs::file_type::regular) {
                problems.push_back({rec.path, "wrong-type", "expected a file"});
                break;
            }
            const auto size = fs::file_size(p, ec);
            if (ec || size != rec.size) {
                problems.push_back(
                    {rec.path, "modified",
                     "size " + std::to_string(size) + ", expected " + std::to_string(rec.size)});
                break;
            }
            auto sha = Sha256::ofFile(p);
            if (!sha)
                problems.push_back({rec.path, "modified", sha.error().message});
            else if (*sha != rec.sha256)
                problems.push_back({rec.path, "modified", "SHA-256 differs"});
            break;
        }
        }
    }
    return problems;
}

} // namespace sp
