// Issue 35, item 12: an empty lock file blocked an install, or a partial download,
// forever. A crash between creating the lock and writing its holder leaves exactly that;
// QLockFile then finds no holder to ask and, with age alone never breaking a lock, waits
// for good. Each attack plants such a file where the real CLI will look for it and runs
// `install` against the loopback server: it finishes, within the stale age of an empty
// lock, with the bytes installed.

#include "core/paths.h"
#include "hostile/one_file_catalog.h"
#include "installers/install_lock.h"
#include "installers/sha256.h"
#include "support/cli_runner.h"
#include "support/http_test_server.h"

#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace sp;
using namespace sp::test;
using nlohmann::json;

namespace {

const std::string kBytes(100000, 'b');

std::string digest()
{
    return Sha256::ofBytes(kBytes.data(), kBytes.size());
}

// An empty lock file, as a crash right after creating it leaves, `age` old.
void plantEmptyLock(const fs::path& file, std::chrono::seconds age)
{
    fs::create_directories(file.parent_path());
    writeAll(file, "");
    fs::last_write_time(file, fs::file_time_type::clock::now() - age);
}

} // namespace

class HostileLocks : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    HttpTestServer m_server;
    fs::path cat, prefix;

    CliRun install()
    {
        // The real process: the finding was a hang, which only a child can be killed for.
        return runCliBinary({QStringLiteral("install"), QStringLiteral("lock-p"),
                             QStringLiteral("--catalog-dir"), q(cat),
                             QStringLiteral("--prefix-root"), q(prefix)},
                            30000);
    }

private slots:
    void initTestCase()
    {
        m_server.addBlob("/a.bin", kBytes);
        QVERIFY2(m_server.start(), m_server.error().c_str());
        cat = fs::path(m_tmp.path().toStdString()) / "catalog";
        writeOneFileCatalog(cat, "lock-p", "lock-rt", m_server.url("/a.bin"), kBytes);
    }
    void init()
    {
        prefix = fs::path(m_tmp.path().toStdString()) / "prefix";
        fs::remove_all(prefix);
        fs::remove_all(paths::cacheDir());
    }

    void item12_emptyInstallLockDoesNotBlockForever()
    {
        plantEmptyLock(InstallLock::lockFile(prefix, "lock-rt"), std::chrono::seconds(60));
        const auto r = install();
        QVERIFY2(r.rc == 0, (r.out + r.err).c_str()); // a hang is rc -2
        QCOMPARE(readAll(prefix / "lock-rt" / "a.bin"), kBytes);
    }

    // Planted just now: it may still be a holder about to write its name, so the
    // install waits the stale age of an empty lock, then goes on.
    void item12_freshEmptyInstallLockIsWaitedOutThenBroken()
    {
        plantEmptyLock(InstallLock::lockFile(prefix, "lock-rt"), std::chrono::seconds(0));
        QElapsedTimer t;
        t.start();
        const auto r = install();
        QVERIFY2(r.rc == 0, (r.out + r.err).c_str());
        QVERIFY2(t.elapsed() < 25000, std::to_string(t.elapsed()).c_str());
    }

    void item12_emptyPartialDownloadLockDoesNotBlockForever()
    {
        plantEmptyLock(paths::cacheDir() / "downloads" / "partial" / (digest() + ".part.lock"),
                       std::chrono::seconds(60));
        const auto r = install();
        QVERIFY2(r.rc == 0, (r.out + r.err).c_str());
        QCOMPARE(readAll(prefix / "lock-rt" / "a.bin"), kBytes);
    }

    // A lock whose holder is alive is still honoured: age alone never breaks it.
    void item12_liveHolderIsStillWaitedFor()
    {
        auto held = InstallLock::tryAcquire(prefix, "lock-rt");
        QVERIFY(held);
        fs::last_write_time(InstallLock::lockFile(prefix, "lock-rt"),
                            fs::file_time_type::clock::now() - std::chrono::hours(1));
        auto again = InstallLock::acquire(prefix, "lock-rt", std::chrono::milliseconds(0), {}, {});
        QVERIFY(!again);
        QVERIFY2(again.error().message.find("pid") != std::string::npos,
                 again.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(HostileLocks)
#include "files_locks.moc"
