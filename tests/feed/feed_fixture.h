#pragma once
// Feeds for tests, made the way a maintainer makes them: `catalog publish` (publishFeed)
// writes the folder and the real `minisign` tool generates the keys and signs.

#include "core/catalog/feed/minisign.h"
#include "core/catalog/feed/publish.h"
#include "core/paths.h"
#include "core/qt_text.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace sp::test {

namespace fs = std::filesystem;

inline bool haveMinisign()
{
    return !QStandardPaths::findExecutable(QStringLiteral("minisign")).isEmpty();
}

inline bool runMinisign(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral("minisign"), args);
    p.closeWriteChannel();
    return p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

inline std::string readAll(const fs::path& f)
{
    std::ifstream in(f, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline void writeAll(const fs::path& f, const std::string& bytes)
{
    std::ofstream(f, std::ios::binary | std::ios::trunc) << bytes;
}

inline QString q(const fs::path& p)
{
    return qpath(p);
}

// A minisign key pair without a password: dir/name.pub and dir/name.key.
struct KeyPair
{
    fs::path pub, key;
    bool generate(const fs::path& dir, const std::string& name)
    {
        pub = dir / (name + ".pub");
        key = dir / (name + ".key");
        return runMinisign({QStringLiteral("-G"), QStringLiteral("-W"), QStringLiteral("-p"),
                            q(pub), QStringLiteral("-s"), q(key)});
    }
    std::string line() const
    {
        std::string text = readAll(pub);
        while (!text.empty() && text.back() == '\n')
            text.pop_back();
        return text.substr(text.rfind('\n') + 1);
    }
    feed::PublicKey publicKey() const { return *feed::parsePublicKey(line()); }
    // minisign -Sm FILE (prehashed, minisign's default) or -l (legacy "Ed").
    bool sign(const fs::path& file, bool legacy = false) const
    {
        QStringList args{QStringLiteral("-S"), QStringLiteral("-m"), q(file), QStringLiteral("-s"),
                         q(key)};
        if (legacy)
            args << QStringLiteral("-l");
        return runMinisign(args);
    }
};

// Publishes `catalog` into `out` as feed `version` and signs it with `key`.
inline bool makeFeed(const fs::path& catalog, const fs::path& out, std::int64_t version,
                     const KeyPair& key, const std::string& expires = "2099-01-01T00:00:00Z")
{
    feed::PublishOptions o;
    o.version = version;
    o.expires = expires;
    if (!feed::publishFeed(catalog, out, o))
        return false;
    return key.sign(out / "manifest.json");
}

// Every file under `dir` with its bytes: "unchanged byte for byte" is equality.
inline std::map<std::string, std::string> snapshotTree(const fs::path& dir)
{
    std::map<std::string, std::string> out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec))
            out[paths::toUtf8(fs::relative(it->path(), dir))] = readAll(it->path());
    return out;
}

inline void flipByte(const fs::path& file, std::size_t offset)
{
    std::string bytes = readAll(file);
    bytes[offset % bytes.size()] = static_cast<char>(bytes[offset % bytes.size()] ^ 0x01);
    writeAll(file, bytes);
}

} // namespace sp::test
