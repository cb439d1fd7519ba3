// A failure's typed cause, set where it happens, and the words every front end shows
// for it (app/common/diag/cause_words.h): a one-artifact runtime installed from the
// loopback server under each fault (wrong bytes, wrong size, 404, a refused connection, a
// server that never answers, a refused certificate, a full disk, a read-only disk), a
// mirror that sends the wrong file, the session's Failed event and its JSON, and the
// CLI's line in English and in Simplified Chinese.

#include "app/common/diag/cause_words.h"
#include "app/common/session/session.h"
#include "install_fixture.h"
#include "support/loopback.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <cerrno>
#include <cstring>
#include <sys/mount.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace sp;
using namespace sp::test;

namespace {

// Causes are compared by their JSON ids: QTest would find sp::toString(Cause) for its
// own messages, which it cannot use.
QString id(Cause c)
{
    return QString::fromLatin1(toString(c));
}

// A 64 KiB tmpfs mounted on `dir` while it lives (root only; CI runs as root). `why`
// says why not otherwise.
struct SmallDisk
{
    fs::path dir;
    bool mounted = false;
    std::string why;

    SmallDisk(fs::path d, bool readOnly) : dir(std::move(d))
    {
        fs::create_directories(dir);
        if (::geteuid() != 0) {
            why = "not root";
            return;
        }
        if (::mount("tmpfs", dir.c_str(), "tmpfs", readOnly ? MS_RDONLY : 0, "size=64k") != 0) {
            why = std::string("mount -t tmpfs: ") + std::strerror(errno);
            return;
        }
        mounted = true;
    }
    ~SmallDisk()
    {
        if (mounted)
            ::umount2(dir.c_str(), MNT_DETACH);
    }
    SmallDisk(const SmallDisk&) = delete;
    SmallDisk& operator=(const SmallDisk&) = delete;
};

// What the words of `cause` must say (the acceptance wording).
void checkWords(Cause cause)
{
    const QString w = causeWords(cause);
    QVERIFY2(!w.isEmpty(), toString(cause));
    auto has = [&w](const char* s) { return w.contains(QLatin1String(s), Qt::CaseInsensitive); };
    switch (cause) {
    case Cause::Checksum:
    case Cause::Size:
        QVERIFY2(has("the file is not the one expected"), qPrintable(w));
        QVERIFY2(!has("internet") && !has("connection"), qPrintable(w));
        break;
    case Cause::NotFound:
        QVERIFY2(has("no longer at this address"), qPrintable(w));
        break;
    case Cause::Network:
        QVERIFY2(has("download server") && has("internet connection") && has("proxy"),
                 qPrintable(w));
        break;
    case Cause::DiskFull:
        QVERIFY2(has("The disk is full"), qPrintable(w));
        break;
    case Cause::Tls:
        QVERIFY2(has("certificate"), qPrintable(w));
        break;
    case Cause::Permission:
        QVERIFY2(has("refused to let StackPilot write"), qPrintable(w));
        break;
    default:
        break;
    }
}

} // namespace

class TestFailureCause : public QObject
{
    Q_OBJECT

    HttpTestServer m_server;
    std::string m_bytes; // a tar.gz of about 1 MiB that does not compress
    Artifact m_good;     // its artifact, served at /rt/pkg.tar.gz

    Runtime runtimeAt(std::vector<std::string> urls, bool declareSize = true) const
    {
        Artifact a = m_good;
        a.url = urls.front();
        a.mirrors.assign(urls.begin() + 1, urls.end());
        if (!declareSize)
            a.size.reset();
        return runtimeWith("cause-rt", {a});
    }

    static InstallOptions options(const fs::path& prefix, const fs::path& cache)
    {
        auto o = quickOptions(prefix, cache);
        o.downloader.lowSpeedTime = std::chrono::seconds(1); // a silent server: 1 s a try
        o.downloader.connectTimeout = std::chrono::seconds(5);
        return o;
    }

    static Cause installCause(const Runtime& rt, const InstallOptions& o)
    {
        Installer installer(o);
        auto r = installer.install(rt);
        if (r) {
            qWarning("the install succeeded");
            return Cause::Unknown;
        }
        qInfo("%s", r.error().message.c_str());
        return r.error().cause;
    }

private slots:
    void initTestCase()
    {
        m_bytes = buildArchive({TestEntry::file("pkg/big.bin", mixedBytes(1 << 20, 7))}, "tar.gz");
        m_server.addBlob("/rt/pkg.tar.gz", m_bytes);
        m_server.addBlob("/rt/longer.tar.gz", m_bytes + "trailing bytes");
        std::string other = m_bytes; // the same size, another file
        other[other.size() / 2] ^= 0x5a;
        m_server.addBlob("/rt/other.tar.gz", other);
        m_server.addBlob("/rt/shorter.tar.gz", m_bytes.substr(0, m_bytes.size() / 2));
        QVERIFY2(m_server.start(), m_server.error().c_str());
        m_good = artifactFor(m_server.url("/rt/pkg.tar.gz"), m_bytes, "tar.gz");
        m_good.stripComponents = 1;
    }

    void everyCauseHasWords()
    {
        for (Cause c :
             {Cause::Unknown, Cause::NotFound, Cause::Network, Cause::Tls, Cause::Checksum,
              Cause::Size, Cause::DiskFull, Cause::Permission, Cause::Cancelled, Cause::Internal})
            checkWords(c);
        QCOMPARE(id(Cause::NotFound), QStringLiteral("not_found"));
        QCOMPARE(id(Cause::DiskFull), QStringLiteral("disk_full"));
        QCOMPARE(id(Error::cancelled().cause), QStringLiteral("cancelled"));
        QCOMPARE(id(Error::runtime("x").cause), QStringLiteral("unknown"));
        QCOMPARE(id(causeFromErrno(ENOSPC)), QStringLiteral("disk_full"));
        QCOMPARE(id(causeFromErrno(EDQUOT)), QStringLiteral("disk_full"));
        QCOMPARE(id(causeFromErrno(EACCES)), QStringLiteral("permission"));
        QCOMPARE(id(causeFromErrno(EROFS)), QStringLiteral("permission"));
        QCOMPARE(id(causeFromErrno(EIO)), QStringLiteral("unknown"));
        QCOMPARE(id(causeFromError(std::make_error_code(std::errc::no_space_on_device))),
                 QStringLiteral("disk_full"));
        // Re-worded errors keep their cause.
        const Error e = Error::invalid("bad").withCause(Cause::Size).prefixed("installing 'x': ");
        QCOMPARE(id(e.cause), QStringLiteral("size"));
        QCOMPARE(e.code, ErrorCode::InvalidInput);
        QCOMPARE(e.message, std::string("installing 'x': bad"));
    }

    void downloadFaults_data()
    {
        QTest::addColumn<int>("fault");
        QTest::addColumn<QString>("cause");
        QTest::newRow("wrong bytes") << 0 << QStringLiteral("checksum");
        QTest::newRow("more bytes than the catalog's size") << 1 << QStringLiteral("size");
        QTest::newRow("404") << 2 << QStringLiteral("not_found");
        QTest::newRow("410") << 3 << QStringLiteral("not_found");
        QTest::newRow("connection refused") << 4 << QStringLiteral("network");
        QTest::newRow("a server that never answers") << 5 << QStringLiteral("network");
        QTest::newRow("503 every time") << 6 << QStringLiteral("network");
        QTest::newRow("a certificate nobody trusts") << 7 << QStringLiteral("tls");
        QTest::newRow("refused, then a mirror with the wrong file")
            << 8 << QStringLiteral("checksum");
        QTest::newRow("the wrong file, then a refused mirror") << 9 << QStringLiteral("checksum");
        QTest::newRow("404, then a mirror that never answers") << 10 << QStringLiteral("not_found");
        QTest::newRow("a shorter file, then a refused mirror") << 11 << QStringLiteral("size");
    }

    void downloadFaults()
    {
        QFETCH(int, fault);
        QFETCH(QString, cause);
        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path());
        // A refused connection and one the kernel takes but nobody answers are below
        // HTTP, where the test server cannot go: plain sockets (support/loopback.h).
        LoopbackSocket refused(false), silent(true);
        QVERIFY(refused.port() && silent.port());
        HttpTestServer tls;
        m_server.clearFaults();
        const std::string good = m_server.url("/rt/pkg.tar.gz");
        Runtime rt = runtimeAt({good});
        switch (fault) {
        case 0:
            m_server.setFault("/rt/pkg.tar.gz", Fault::corrupt(1000, -1));
            break;
        case 1:
            rt = runtimeAt({m_server.url("/rt/longer.tar.gz")});
            break;
        case 2:
            rt = runtimeAt({m_server.url("/rt/gone.tar.gz")});
            break;
        case 3:
            m_server.setFault("/rt/pkg.tar.gz", Fault::statusFor(410, -1));
            break;
        case 4:
            rt = runtimeAt({refused.url("/rt/pkg.tar.gz")});
            break;
        case 5:
            rt = runtimeAt({silent.url("/rt/pkg.tar.gz")});
            break;
        case 6:
            m_server.setFault("/rt/pkg.tar.gz", Fault::statusFor(503, -1));
            break;
        case 7: {
            const fs::path cert = base / "cert.pem", key = base / "key.pem";
            QVERIFY(HttpTestServer::writeSelfSignedCertificate(cert, key, "IP:127.0.0.1"));
            QVERIFY(tls.enableTls(cert, key));
            tls.addBlob("/rt/pkg.tar.gz", m_bytes);
            QVERIFY2(tls.start(), tls.error().c_str());
            rt = runtimeAt({tls.url("/rt/pkg.tar.gz")});
            break;
        }
        case 8:
            rt = runtimeAt({refused.url("/rt/pkg.tar.gz"), m_server.url("/rt/other.tar.gz")});
            break;
        case 9:
            rt = runtimeAt({m_server.url("/rt/other.tar.gz"), refused.url("/rt/pkg.tar.gz")});
            break;
        case 10:
            rt = runtimeAt({m_server.url("/rt/gone.tar.gz"), silent.url("/rt/pkg.tar.gz")});
            break;
        case 11:
            rt = runtimeAt({m_server.url("/rt/shorter.tar.gz"), refused.url("/rt/pkg.tar.gz")});
            break;
        }
        const Cause got = installCause(rt, options(base / "prefix", base / "cache"));
        m_server.clearFaults();
        QCOMPARE(id(got), cause);
        checkWords(got);
        QVERIFY(!fs::exists(base / "prefix" / "cause-rt"));
    }

    // A full disk, wherever the write fails: the free-space check before the download
    // (a declared size), the download's partial file, the extraction. A read-only disk
    // refuses the write.
    void diskFaults_data()
    {
        QTest::addColumn<int>("where");
        QTest::addColumn<QString>("cause");
        QTest::newRow("declared size larger than the free space")
            << 0 << QStringLiteral("disk_full");
        QTest::newRow("the download's partial file") << 1 << QStringLiteral("disk_full");
        QTest::newRow("the extraction") << 2 << QStringLiteral("disk_full");
        QTest::newRow("a read-only install folder") << 3 << QStringLiteral("permission");
    }

    void diskFaults()
    {
        QFETCH(int, where);
        QFETCH(QString, cause);
        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path());
        SmallDisk disk(base / "small", where == 3);
        if (!disk.mounted) {
            if (where == 2 && unprivilegedMountWorks())
                return fullDiskThroughTheCli(base, disk.why);
            QSKIP(qPrintable(QStringLiteral("no small disk to fill (%1); the CLI row under "
                                            "unshare covers the extraction where it can")
                                 .arg(QString::fromStdString(disk.why))));
        }
        const fs::path onDisk = disk.dir / "x";
        const fs::path prefix = where == 1 ? base / "prefix" : onDisk;
        const fs::path cache = where == 1 ? onDisk : base / "cache";
        const Runtime rt = runtimeAt({m_server.url("/rt/pkg.tar.gz")}, where == 0);
        const Cause got = installCause(rt, options(prefix, cache));
        QCOMPARE(id(got), cause);
        checkWords(got);
    }

    // The session's Failed event carries the cause, and `run --json` writes its id.
    void theFailedEventCarriesTheCause()
    {
        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path());
        m_server.setFault("/rt/pkg.tar.gz", Fault::corrupt(1000, -1));
        std::vector<session::Failed> failed;
        session::Session s({}, [&](const session::Event& e) {
            if (const auto* f = std::get_if<session::Failed>(&e))
                failed.push_back(*f);
        });
        session::InstallWork work;
        work.runtimes.push_back(runtimeAt({m_server.url("/rt/pkg.tar.gz")}));
        work.options = options(base / "prefix", base / "cache");
        QSignalSpy done(&s, &session::Session::finished);
        QVERIFY(s.startInstall(std::move(work)));
        QVERIFY(done.wait(60000));
        m_server.clearFaults();
        const auto& r = s.outcome().result;
        QVERIFY(!r);
        QCOMPARE(id(r.error().cause), QStringLiteral("checksum"));
        QCOMPARE(failed.size(), std::size_t(1));
        QCOMPARE(id(failed[0].cause), QStringLiteral("checksum"));
        const auto j = session::toJson(failed[0]);
        QCOMPARE(QString::fromStdString(j.at("cause").get<std::string>()),
                 QStringLiteral("checksum"));
        QCOMPARE(QString::fromStdString(j.at("event").get<std::string>()), QStringLiteral("error"));
    }

    // The CLI prints the same words as causeWords(), in English by default and in
    // Simplified Chinese when the environment asks for it.
    void theCliSaysTheSameWordsInEnglishAndChinese()
    {
        QTemporaryDir tmp;
        const fs::path base = toPath(tmp.path());
        m_server.setFault("/rt/pkg.tar.gz", Fault::corrupt(1000, -1));
        const Runtime rt = runtimeAt({m_server.url("/rt/pkg.tar.gz")});
        writeCatalog(base / "catalog", {rt});
        auto install = [&](const QStringList& env) {
            return runCli(
                base,
                {QStringLiteral("install"), QStringLiteral("cause-rt"), QStringLiteral("--json")},
                env);
        };
        const QString english = causeWords(Cause::Checksum);
        const auto en = install({});
        QCOMPARE(en.code, 3); // a digest mismatch is invalid input (docs: "Contracts")
        QVERIFY2(en.err.contains(english), qPrintable(en.err));
        const auto report = nlohmann::json::parse(en.out.toStdString());
        QCOMPARE(QString::fromStdString(report.at("cause").get<std::string>()),
                 QStringLiteral("checksum"));

        QTranslator zh;
        QVERIFY2(zh.load(QStringLiteral(STACKPILOT_CLI_QM)), STACKPILOT_CLI_QM);
        QCoreApplication::installTranslator(&zh);
        const QString chinese = causeWords(Cause::Checksum);
        QCoreApplication::removeTranslator(&zh);
        QVERIFY(chinese != english);
        QVERIFY2(chinese.contains(QStringLiteral("校验和")), qPrintable(chinese));

        for (const QStringList& env :
             {QStringList{QStringLiteral("LANG=zh_CN.UTF-8")},
              QStringList{QStringLiteral("LANG=en_US.UTF-8"), QStringLiteral("LANGUAGE=zh_CN:en")},
              QStringList{QStringLiteral("LC_ALL=zh_CN.UTF-8"), QStringLiteral("LANG=C")}}) {
            const auto r = install(env);
            QCOMPARE(r.code, 3);
            QVERIFY2(r.err.contains(chinese), qPrintable(env.join(QLatin1Char(' ')) + r.err));
            QVERIFY2(!r.err.contains(english), qPrintable(r.err));
        }
        // The C locale is English whatever LANGUAGE says.
        const auto c = install({QStringLiteral("LC_ALL=C"), QStringLiteral("LANGUAGE=zh_CN")});
        QVERIFY2(c.err.contains(english), qPrintable(c.err));
        m_server.clearFaults();
    }

private:
    struct Run
    {
        int code = -1;
        QString out, err;
    };

    // stackpilot-cli ARGS with this test's catalog and prefix, under `env` (NAME=value)
    // and no language variable but those; `wrap` runs it through another program.
    static Run runCli(const fs::path& base, QStringList args, const QStringList& env,
                      const QStringList& wrap = {})
    {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"})
            e.remove(QLatin1String(name));
        for (const QString& kv : env)
            e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
        e.insert(QStringLiteral("STACKPILOT_HOME"), qpath(base / "home"));
        args << QStringLiteral("--catalog-dir") << qpath(base / "catalog")
             << QStringLiteral("--prefix-root") << qpath(base / "prefix");
        QProcess p;
        p.setProcessEnvironment(e);
        if (wrap.isEmpty()) {
            p.start(cliPath(), args);
        } else {
            p.start(wrap.front(), wrap.mid(1) + QStringList{cliPath()} + args);
        }
        if (!p.waitForFinished(60000))
            p.kill();
        p.waitForFinished();
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }

    static bool unprivilegedMountWorks()
    {
        QProcess p;
        p.start(QStringLiteral("unshare"), {QStringLiteral("-rm"), QStringLiteral("true")});
        return p.waitForFinished(10000) && p.exitStatus() == QProcess::NormalExit &&
               p.exitCode() == 0;
    }

    // Not root: the CLI in its own user and mount namespace (unshare -rm), where the
    // prefix is a 64 KiB tmpfs.
    void fullDiskThroughTheCli(const fs::path& base, const std::string& why)
    {
        qInfo("%s: the full disk through `unshare -rm` and the CLI", why.c_str());
        const Runtime rt = runtimeAt({m_server.url("/rt/pkg.tar.gz")}, false);
        writeCatalog(base / "catalog", {rt}); // no size: the free-space check lets it through
        fs::create_directories(base / "prefix");
        const auto r = runCli(
            base, {QStringLiteral("install"), QStringLiteral("cause-rt"), QStringLiteral("--json")},
            {},
            {QStringLiteral("unshare"), QStringLiteral("-rm"), QStringLiteral("sh"),
             QStringLiteral("-c"),
             QStringLiteral("mount -t tmpfs -o size=64k tmpfs \"$1\" && shift && exec \"$@\""),
             QStringLiteral("sh"), qpath(base / "prefix")});
        QCOMPARE(r.code, 1);
        const auto report = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(QString::fromStdString(report.at("cause").get<std::string>()),
                 QStringLiteral("disk_full"));
        QVERIFY2(r.err.contains(causeWords(Cause::DiskFull)), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestFailureCause)
#include "test_failure_cause.moc"
