// `catalog check` against a loopback HTTP server and repositories made with the real
// git: one line per artifact, and exactly the broken ones reported (a 404, a wrong
// digest with --deep, a size the server contradicts, a tag moved to another commit).

#include "core/paths.h"
#include "feed_fixture.h"
#include "installers/sha256.h"
#include "support/cli_runner.h"
#ifdef __linux__
#include "support/git_daemon.h"
#endif
#include "support/http_test_server.h"

#include <QtTest>
#include <nlohmann/json.hpp>

using namespace sp;
using namespace sp::test;

namespace {

std::string bytesOf(int n, int seed)
{
    std::string s(static_cast<std::size_t>(n), '\0');
    for (int i = 0; i < n; ++i)
        s[static_cast<std::size_t>(i)] = static_cast<char>((i * 31 + seed) & 0xff);
    return s;
}

bool git(const fs::path& dir, const QStringList& args, std::string* out = nullptr)
{
    QProcess p;
    p.setWorkingDirectory(q(dir));
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("GIT_AUTHOR_NAME"), QStringLiteral("t"));
    env.insert(QStringLiteral("GIT_AUTHOR_EMAIL"), QStringLiteral("t@example.org"));
    env.insert(QStringLiteral("GIT_COMMITTER_NAME"), QStringLiteral("t"));
    env.insert(QStringLiteral("GIT_COMMITTER_EMAIL"), QStringLiteral("t@example.org"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral("git"), args);
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return false;
    if (out)
        *out = p.readAllStandardOutput().trimmed().toStdString();
    return true;
}

nlohmann::json fileArtifact(const std::string& url, const std::string& bytes)
{
    return {{"url", url},
            {"format", "file"},
            {"file_name", "a.bin"},
            {"sha256", Sha256::ofBytes(bytes.data(), bytes.size())},
            {"size", bytes.size()}};
}

void writeRuntimes(const fs::path& dir, const nlohmann::json& runtimes)
{
    fs::create_directories(dir);
    writeAll(dir / "runtimes.json",
             nlohmann::json{{"schema_version", 1}, {"runtimes", runtimes}}.dump(2));
}

std::vector<std::string> failedLines(const std::string& out)
{
    std::vector<std::string> v;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("FAILED", 0) == 0)
            v.push_back(line);
    return v;
}

} // namespace

class TestCatalogCheck : public QObject
{
    Q_OBJECT

    fs::path dir;
    HttpTestServer server;
    std::string good, missing, wrong, served;

    CliRun check(const fs::path& catalog, bool deep)
    {
        QStringList a{QStringLiteral("catalog"), QStringLiteral("check"), q(catalog)};
        if (deep)
            a << QStringLiteral("--deep");
        return runCliInProcess(a);
    }

private slots:
    void initTestCase()
    {
        dir = fs::path(qEnvironmentVariable("STACKPILOT_HOME").toStdString()) / "check";
        fs::remove_all(dir);
        fs::create_directories(dir);
        good = bytesOf(5000, 1);
        wrong = bytesOf(4000, 2);
        served = bytesOf(4000, 3); // same size, other bytes: only --deep can tell
        server.addBlob("/good.bin", good);
        server.addBlob("/wrong.bin", served);
        QVERIFY2(server.start(), server.error().c_str());
    }

    void reportsExactlyTheMissingAndTheWrongDigest()
    {
        const fs::path cat = dir / "http";
        writeRuntimes(cat, nlohmann::json::array(
                               {{{"id", "rt-good"},
                                 {"kind", "source"},
                                 {"version", "1"},
                                 {"artifacts", {fileArtifact(server.url("/good.bin"), good)}}},
                                {{"id", "rt-missing"},
                                 {"kind", "source"},
                                 {"version", "1"},
                                 {"artifacts", {fileArtifact(server.url("/gone.bin"), good)}}},
                                {{"id", "rt-wrong"},
                                 {"kind", "source"},
                                 {"version", "1"},
                                 {"artifacts", {fileArtifact(server.url("/wrong.bin"), wrong)}}}}));
        auto deep = check(cat, true);
        QCOMPARE(deep.rc, 1);
        const auto failed = failedLines(deep.out);
        QVERIFY2(failed.size() == 2, deep.out.c_str());
        QVERIFY2(failed[0].find("rt-missing") != std::string::npos &&
                     failed[0].find("404") != std::string::npos,
                 failed[0].c_str());
        QVERIFY2(failed[1].find("rt-wrong") != std::string::npos &&
                     failed[1].find(Sha256::ofBytes(served.data(), served.size())) !=
                         std::string::npos,
                 failed[1].c_str());
        QVERIFY2(deep.out.find("ok        rt-good ") != std::string::npos, deep.out.c_str());
        QVERIFY2(deep.out.find("3 artifact(s): 1 ok, 2 failed") != std::string::npos,
                 deep.out.c_str());
        // Without --deep only the 404 shows (HEAD); the digest needs the bytes.
        const auto bodyBefore = server.stats("/good.bin").bodyBytes;
        auto shallow = check(cat, false);
        QCOMPARE(shallow.rc, 1);
        const auto shallowFailed = failedLines(shallow.out);
        QVERIFY2(shallowFailed.size() == 1 &&
                     shallowFailed[0].find("rt-missing") != std::string::npos,
                 shallow.out.c_str());
        QCOMPARE(server.stats("/good.bin").bodyBytes, bodyBefore); // HEAD: no body
    }

    void aSizeTheServerContradictsFailsWithoutDeep()
    {
        const fs::path cat = dir / "size";
        auto a = fileArtifact(server.url("/good.bin"), good);
        a["size"] = good.size() + 1;
        writeRuntimes(
            cat,
            nlohmann::json::array(
                {{{"id", "rt-size"}, {"kind", "source"}, {"version", "1"}, {"artifacts", {a}}}}));
        auto r = check(cat, false);
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.out.find("the server declares 5000 bytes, the catalog says 5001") !=
                     std::string::npos,
                 r.out.c_str());
    }

    // Issue 32: the catalog's sizes. Without --deep, the count of downloads without a
    // size (from the catalog alone) and, per artifact, what the server declares; with
    // --deep a missing size fails with the size to record, and an unverified one that is
    // wrong fails like any other.
    void sizesAreCountedAndAMissingOneFailsDeep()
    {
        const fs::path cat = dir / "sizes";
        auto unknown = fileArtifact(server.url("/good.bin"), good);
        unknown.erase("size");
        unknown["size_unknown"] = true;
        auto unmarked = fileArtifact(server.url("/good.bin"), good);
        unmarked.erase("size");
        auto unverified = fileArtifact(server.url("/good.bin"), good);
        unverified["size_unverified"] = true;
        writeRuntimes(cat, nlohmann::json::array(
                               {{{"id", "rt-sized"},
                                 {"kind", "source"},
                                 {"version", "1"},
                                 {"artifacts", {fileArtifact(server.url("/good.bin"), good)}}},
                                {{"id", "rt-unknown"},
                                 {"kind", "source"},
                                 {"version", "1"},
                                 {"artifacts", {unknown}}},
                                {{"id", "rt-unmarked"},
                                 {"kind", "source"},
                                 {"version", "1"},
                                 {"artifacts", {unmarked}}},
                                {{"id", "rt-unverified"},
                                 {"kind", "source"},
                                 {"version", "1"},
                                 {"artifacts", {unverified}}}}));
        auto shallow = check(cat, false);
        QVERIFY2(shallow.rc == 0, shallow.out.c_str()); // a missing size alone is no failure
        QVERIFY2(shallow.out.find("sizes: 4 download(s), 2 with a size (1 unverified), 2 without "
                                  "a size (1 marked size_unknown, 1 unmarked); 0 git "
                                  "checkout(s)") != std::string::npos,
                 shallow.out.c_str());
        QVERIFY2(shallow.out.find("no size   rt-unknown: good.bin") != std::string::npos &&
                     shallow.out.find("no size   rt-unmarked: good.bin") != std::string::npos,
                 shallow.out.c_str());
        QVERIFY2(shallow.out.find("rt-unknown " + server.url("/good.bin") +
                                  ": HTTP 200, 5000 bytes (the catalog has no size") !=
                     std::string::npos,
                 shallow.out.c_str());
        auto deep = check(cat, true);
        QCOMPARE(deep.rc, 1);
        const auto failed = failedLines(deep.out);
        QVERIFY2(failed.size() == 2, deep.out.c_str());
        QVERIFY2(failed[0].find("rt-unknown") != std::string::npos &&
                     failed[0].find("(marked size_unknown): record 5000") != std::string::npos,
                 failed[0].c_str());
        QVERIFY2(failed[1].find("rt-unmarked") != std::string::npos &&
                     failed[1].find("the catalog has no size: record 5000") != std::string::npos,
                 failed[1].c_str());
        // An unverified size is held to the file as well: a wrong one fails.
        unverified["size"] = good.size() - 1;
        writeRuntimes(cat, nlohmann::json::array({{{"id", "rt-unverified"},
                                                   {"kind", "source"},
                                                   {"version", "1"},
                                                   {"artifacts", {unverified}}}}));
        auto contradicted = check(cat, false);
        QCOMPARE(contradicted.rc, 1);
        QVERIFY2(contradicted.out.find("the server declares 5000 bytes, the catalog says 4999") !=
                     std::string::npos,
                 contradicted.out.c_str());
        QCOMPARE(check(cat, true).rc, 1);
        // The JSON report carries the same counts.
        auto json = runCliInProcess(
            {QStringLiteral("catalog"), QStringLiteral("check"), q(cat), QStringLiteral("--json")});
        const auto j = nlohmann::json::parse(json.out);
        QCOMPARE(j["sizes"]["with_size"].get<int>(), 1);
        QCOMPARE(j["sizes"]["unverified"].get<int>(), 1);
        QCOMPARE(j["sizes"]["without_size"].get<int>(), 0);
    }

    void aServerRefusingHeadIsAskedForOneByte()
    {
        const fs::path cat = dir / "nohead";
        server.addBlob("/nohead.bin", good);
        writeRuntimes(cat, nlohmann::json::array(
                               {{{"id", "rt-nohead"},
                                 {"kind", "source"},
                                 {"version", "1"},
                                 {"artifacts", {fileArtifact(server.url("/nohead.bin"), good)}}}}));
        server.setFault("/nohead.bin", Fault::statusFor(403, 1)); // the HEAD
        auto r = check(cat, false);
        QVERIFY2(r.rc == 0, r.out.c_str());
        QVERIFY2(r.out.find("ok        rt-nohead ") != std::string::npos, r.out.c_str());
        const auto st = server.stats("/nohead.bin");
        QCOMPARE(st.requests, 2);
        QCOMPARE(st.rangeRequests, 1);
        QVERIFY(st.bodyBytes <= 1);
        // Refused for the GET as well: a failure.
        server.setFault("/nohead.bin", Fault::statusFor(403, 2));
        r = check(cat, false);
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.out.find("FAILED    rt-nohead ") != std::string::npos &&
                     r.out.find("HTTP 403") != std::string::npos,
                 r.out.c_str());
    }

    // Issue 30: a catalog's models are checked like its artifacts, and with --deep each
    // piece of a file with `chunks` is compared: a served file with one bad piece names
    // the piece, and a right file whose catalog piece digest is wrong fails on the catalog.
    void modelsAndTheirPiecesAreChecked()
    {
        const std::uint64_t mib = 1024 * 1024;
        const std::string model = bytesOf(int(3 * mib), 4);
        std::string corrupt = model;
        corrupt[mib + 17] = char(corrupt[mib + 17] ^ 0x5a); // piece 2 of 3
        server.addBlob("/m/good.gguf", model);
        server.addBlob("/m/corrupt.gguf", corrupt);
        nlohmann::json pieces = nlohmann::json::array();
        for (std::uint64_t at = 0; at < model.size(); at += mib)
            pieces.push_back(Sha256::ofBytes(model.data() + at, mib));
        auto entry = [&](const char* id, const std::string& path, const nlohmann::json& digests) {
            return nlohmann::json{{"id", id},
                                  {"kind", "gguf"},
                                  {"workloads", nlohmann::json::array()},
                                  {"files",
                                   {{{"url", server.url(path)},
                                     {"sha256", Sha256::ofBytes(model.data(), model.size())},
                                     {"size", model.size()},
                                     {"chunks", {{"size", mib}, {"sha256", digests}}}}}},
                                  {"references", {"https://example.org/check-fixture"}}};
        };
        nlohmann::json wrongPieces = pieces;
        wrongPieces[2] = Sha256::ofBytes("x", 1);
        const fs::path cat = dir / "models";
        fs::create_directories(cat);
        writeAll(cat / "models.json",
                 nlohmann::json{{"schema_version", 1},
                                {"models",
                                 {entry("m-good", "/m/good.gguf", pieces),
                                  entry("m-corrupt", "/m/corrupt.gguf", pieces),
                                  entry("m-pieces", "/m/good.gguf", wrongPieces),
                                  entry("m-gone", "/m/gone.gguf", pieces)}}}
                     .dump(2));
        auto shallow = check(cat, false);
        auto failed = failedLines(shallow.out);
        QVERIFY2(failed.size() == 1 && failed[0].find("m-gone") != std::string::npos &&
                     failed[0].find("404") != std::string::npos,
                 (shallow.out + shallow.err).c_str());
        QVERIFY2(shallow.out.find("4 artifact(s): 3 ok, 1 failed") != std::string::npos,
                 shallow.out.c_str());
        auto deep = check(cat, true);
        QCOMPARE(deep.rc, 1);
        failed = failedLines(deep.out);
        QVERIFY2(failed.size() == 3, deep.out.c_str());
        QVERIFY2(deep.out.find("ok        m-good " + server.url("/m/good.gguf") +
                               ": 3145728 "
                               "bytes") != std::string::npos &&
                     deep.out.find("3 piece(s) as the catalog says") != std::string::npos,
                 deep.out.c_str());
        QVERIFY2(failed[0].find("m-corrupt") != std::string::npos &&
                     failed[0].find("wrong piece(s) 2 of 3") != std::string::npos,
                 failed[0].c_str());
        QVERIFY2(failed[1].find("m-pieces") != std::string::npos &&
                     failed[1].find("the catalog's digest of piece(s) 3 of 3 is wrong") !=
                         std::string::npos,
                 failed[1].c_str());
        QVERIFY2(failed[2].find("m-gone") != std::string::npos, failed[2].c_str());
    }

    void gitCommitsAndTags()
    {
#ifndef __linux__
        QSKIP("git daemon is started the Linux way");
#else
        const fs::path work = dir / "work", repos = dir / "repos", bare = repos / "repo.git";
        fs::create_directories(repos);
        fs::create_directories(work);
        std::string first, second;
        QVERIFY(git(work, {QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral(".")}));
        writeAll(work / "a.txt", "one\n");
        QVERIFY(git(work, {QStringLiteral("add"), QStringLiteral("a.txt")}));
        QVERIFY(git(work, {QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("1")}));
        QVERIFY(git(work, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")}, &first));
        writeAll(work / "a.txt", "two\n");
        QVERIFY(git(work, {QStringLiteral("commit"), QStringLiteral("-qam"), QStringLiteral("2")}));
        QVERIFY(git(work, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")}, &second));
        QVERIFY(git(work, {QStringLiteral("tag"), QStringLiteral("-a"), QStringLiteral("v2"),
                           QStringLiteral("-m"), QStringLiteral("v2")}));
        QVERIFY(git(dir, {QStringLiteral("clone"), QStringLiteral("-q"), QStringLiteral("--bare"),
                          q(work), q(bare)}));
        GitDaemon daemon;
        QVERIFY2(daemon.start(repos), "git daemon does not accept connections");
        const std::string url = daemon.url() + "/repo.git";
        auto gitArt = [&](const std::string& commit, const std::string& tag) {
            return nlohmann::json{
                {"url", url}, {"format", "git"}, {"commit", commit}, {"tag", tag}};
        };
        const fs::path cat = dir / "git";
        writeRuntimes(cat,
                      nlohmann::json::array({{{"id", "rt-tag"},
                                              {"kind", "source"},
                                              {"version", "1"},
                                              {"artifacts", {gitArt(second, "v2")}}},
                                             {{"id", "rt-moved"},
                                              {"kind", "source"},
                                              {"version", "1"},
                                              {"artifacts", {gitArt(first, "v2")}}},
                                             {{"id", "rt-old"},
                                              {"kind", "source"},
                                              {"version", "1"},
                                              {"artifacts", {gitArt(first, "")}}},
                                             {{"id", "rt-absent"},
                                              {"kind", "source"},
                                              {"version", "1"},
                                              {"artifacts", {gitArt(std::string(40, 'a'), "")}}}}));
        auto r = check(cat, false);
        QVERIFY2(r.rc == 1, (r.out + r.err).c_str());
        QVERIFY2(r.out.find("ok        rt-tag " + url + ": commit " + second +
                            " is refs/tags/v2") != std::string::npos,
                 r.out.c_str());
        QVERIFY2(r.out.find("FAILED    rt-moved " + url + ": tag v2 points at " + second) !=
                     std::string::npos,
                 r.out.c_str());
        QVERIFY2(r.out.find("unchecked rt-old ") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("unchecked rt-absent ") != std::string::npos, r.out.c_str());
        auto deep = check(cat, true);
        QVERIFY2(deep.out.find("ok        rt-old " + url + ": commit " + first +
                               " is in the history") != std::string::npos,
                 deep.out.c_str());
        QVERIFY2(deep.out.find("FAILED    rt-absent " + url + ": commit " + std::string(40, 'a') +
                               " is not in the repository") != std::string::npos,
                 deep.out.c_str());
        QVERIFY2(failedLines(deep.out).size() == 2, deep.out.c_str());
#endif
    }
};

QTEST_GUILESS_MAIN(TestCatalogCheck)
#include "test_catalog_check.moc"
