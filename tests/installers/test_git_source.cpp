// A source runtime pinned to a commit, installed from a real repository: the test
// makes one with the `git` command (two commits and a tag), serves it with
// `git daemon` on 127.0.0.1, and installs the first commit through the Installer.
// Checked: the work tree is that commit's (not the branch head's), HEAD is the pin,
// the receipt names it, verify passes and sees damage, mirror rules apply; an
// unknown commit, an offline install and a cancel leave nothing in the prefix root.

#include "core/ownership.h"
#include "install_fixture.h"
#include "installers/receipt.h"
#include "support/git_daemon.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>

namespace fs = std::filesystem;
using namespace sp;
using namespace sp::test;

namespace {

// Runs git with a private, empty configuration; returns its trimmed stdout.
QString git(const fs::path& dir, const QStringList& args)
{
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1"));
    env.insert(QStringLiteral("GIT_CONFIG_GLOBAL"), QStringLiteral("/dev/null"));
    env.insert(QStringLiteral("GIT_AUTHOR_DATE"), QStringLiteral("2026-01-01T00:00:00Z"));
    env.insert(QStringLiteral("GIT_COMMITTER_DATE"), QStringLiteral("2026-01-01T00:00:00Z"));
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(qpath(dir));
    const QStringList base = {QStringLiteral("-c"), QStringLiteral("user.name=StackPilot Test"),
                              QStringLiteral("-c"), QStringLiteral("user.email=test@example.org"),
                              QStringLiteral("-c"), QStringLiteral("init.defaultBranch=master")};
    p.start(QStringLiteral("git"), base + args);
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        qFatal("git %s failed: %s", qPrintable(args.join(u' ')),
               p.readAllStandardError().constData());
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

void writeFile(const fs::path& p, const std::string& text)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

std::string readFile(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// What the prefix root holds besides the lock folder.
std::vector<std::string> leftovers(const fs::path& root)
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root, ec))
        if (e.path().filename() != ".locks")
            names.push_back(e.path().filename().string());
    return names;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string out;
    for (const auto& n : names)
        out += n + " ";
    return out;
}

} // namespace

class TestGitSource : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    GitDaemon m_daemon;
    std::string m_url;
    std::string m_first;
    std::string m_second;

    fs::path base() const { return toPath(m_tmp.path()); }

    // Two commits on master, a tag on the first, and a bare copy to serve.
    void makeRepository()
    {
        const fs::path work = base() / "work";
        fs::create_directories(work);
        git(work, {QStringLiteral("init"), QStringLiteral("-q")});
        writeFile(work / "README.md", "first\n");
        writeFile(work / "modules/app.py", "print('v1')\n");
        git(work, {QStringLiteral("add"), QStringLiteral("-A")});
        git(work, {QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("one")});
        git(work, {QStringLiteral("tag"), QStringLiteral("v1.0")});
        m_first = git(work, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")}).toStdString();
        writeFile(work / "README.md", "second\n");
        writeFile(work / "added-later.txt", "2\n");
        git(work, {QStringLiteral("add"), QStringLiteral("-A")});
        git(work, {QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("two")});
        m_second = git(work, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")}).toStdString();
        git(base(), {QStringLiteral("clone"), QStringLiteral("-q"), QStringLiteral("--bare"),
                     QStringLiteral("work"), QStringLiteral("served/repo.git")});
    }

    void startDaemon()
    {
        QVERIFY2(m_daemon.start(base() / "served"), "git daemon does not accept connections");
        m_url = m_daemon.url() + "/repo.git";
    }

    Runtime pinned(const std::string& id, const std::string& commit) const
    {
        Artifact a;
        a.url = m_url;
        a.format = "git";
        a.commit = commit;
        a.tag = "v1.0";
        return runtimeWith(id, {a});
    }

    Expected<InstallResult> install(const Runtime& rt, InstallOptions o)
    {
        Installer installer(std::move(o));
        return installer.install(rt);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        makeRepository();
        QVERIFY(m_first.size() == 40 && m_first != m_second);
        startDaemon();
    }

    void cleanupTestCase() { m_daemon.stop(); }

    void installsThePinnedCommit()
    {
        auto o = quickOptions(base() / "prefix", base() / "cache");
        std::atomic<int> progress{0};
        o.onEvent = [&](const events::FromInstall& e) {
            progress += std::holds_alternative<events::ArtifactProgress>(e) ? 1 : 0;
        };
        auto r = install(pinned("repo-src", m_first), o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        const fs::path dir = r->dir;
        QCOMPARE(readFile(dir / "README.md"), std::string("first\n"));
        QCOMPARE(readFile(dir / "modules/app.py"), std::string("print('v1')\n"));
        QVERIFY(!fs::exists(dir / "added-later.txt"));
        QVERIFY(fs::is_directory(dir / ".git")); // SD.Next expects a work tree
        QCOMPARE(git(dir, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")}).toStdString(),
                 m_first);
        QVERIFY(progress.load() > 0);
        qInfo("checked out %s from %s with %d progress events", m_first.c_str(), m_url.c_str(),
              progress.load());

        PrefixStore store(base() / "prefix");
        auto receipt = store.receipt("repo-src");
        QVERIFY(receipt.ok());
        QCOMPARE(receipt->artifacts.at(0).commit, m_first);
        QCOMPARE(receipt->artifacts.at(0).format, std::string("git"));
        for (const auto& f : receipt->files)
            QVERIFY2(f.path.rfind(".git", 0) != 0, f.path.c_str());
        QVERIFY(verifyTree(dir, *receipt).empty());
        // Same pin again: nothing to do.
        auto again = install(pinned("repo-src", m_first), quickOptions(base() / "prefix", {}));
        QVERIFY(again.ok() && again->alreadyInstalled);
        // verify still sees damage to the checked-out files.
        writeFile(dir / "README.md", "edited\n");
        const auto problems = verifyTree(dir, *receipt);
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(problems[0].path, std::string("README.md"));
    }

    void unknownCommitFailsAndLeavesNothing()
    {
        const fs::path prefix = base() / "prefix-bad";
        const std::string missing(40, 'f');
        auto r = install(pinned("bad-src", missing), quickOptions(prefix, base() / "cache"));
        QVERIFY(!r.ok());
        const std::string& m = r.error().message;
        qInfo("%s", m.c_str());
        QVERIFY2(m.find(missing) != std::string::npos && m.find(m_url) != std::string::npos,
                 m.c_str());
        QVERIFY(m.find('\n') == std::string::npos);
        QVERIFY2(leftovers(prefix).empty(), joined(leftovers(prefix)).c_str());
    }

    void mirrorRulesApplyToGitUrls()
    {
        Runtime rt = pinned("mirrored-src", m_first);
        rt.artifacts[0].url = "git://github.invalid/repo.git";
        auto o = quickOptions(base() / "prefix-mirror", base() / "cache");
        o.settings.mirrors["github.invalid"] = {m_url.substr(0, m_url.rfind('/'))};
        auto r = install(rt, o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->artifacts.at(0).fetch.origin, m_url);
        QCOMPARE(readFile(r->dir / "README.md"), std::string("first\n"));
        // `origin` names the catalog URL, not the mirror that served the objects.
        QCOMPARE(git(r->dir, {QStringLiteral("remote"), QStringLiteral("get-url"),
                              QStringLiteral("origin")}),
                 QStringLiteral("git://github.invalid/repo.git"));
    }

    void offlineRefusesAGitCheckout()
    {
        const fs::path prefix = base() / "prefix-offline";
        auto o = quickOptions(prefix, base() / "cache");
        o.allowNetwork = false;
        auto r = install(pinned("offline-src", m_first), o);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("needs the network") != std::string::npos,
                 r.error().message.c_str());
        QVERIFY2(leftovers(prefix).empty(), joined(leftovers(prefix)).c_str());
    }

    void cancelDuringTheFetchLeavesNothing()
    {
        const fs::path prefix = base() / "prefix-cancel";
        auto o = quickOptions(prefix, base() / "cache");
        CancelToken cancel;
        o.cancel = cancel;
        o.onEvent = [cancel](const events::FromInstall& e) {
            if (std::holds_alternative<events::ArtifactProgress>(e))
                cancel.cancel();
        };
        auto r = install(pinned("cancel-src", m_first), o);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Cancelled);
        qInfo("%s", r.error().message.c_str());
        QVERIFY2(leftovers(prefix).empty(), joined(leftovers(prefix)).c_str());
    }
};

QTEST_GUILESS_MAIN(TestGitSource)
#include "test_git_source.moc"
