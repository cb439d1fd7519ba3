// The model vault on the loopback server (installers/model_vault.h): a GGUF and a
// safetensors file pulled and readable in the vault, a bad piece fetched again alone,
// a wrong file without piece digests fetched whole with the reason said, a pull cut off
// resumed with little more than what was missing, a disk too small refused before the
// first byte, and remove deleting only StackPilot's own blobs.

#include "core/models/gguf.h"
#include "core/models/safetensors.h"
#include "installers/model_vault.h"
#include "installers/sha256.h"
#include "support/http_test_server.h"
#include "support/model_files.h"

#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <thread>

using namespace sp;
using namespace sp::test;

namespace fs = std::filesystem;

namespace {

struct World
{
    QTemporaryDir tmp;
    HttpTestServer server;
    ModelVault vault{fs::path(tmp.path().toStdString()) / "models"};

    World()
    {
        if (!server.start())
            qFatal("server: %s", server.error().c_str());
    }
    ModelFile serve(const std::string& path, const std::string& bytes, std::uint64_t pieceSize = 0)
    {
        server.addBlob(path, bytes);
        ModelFile f;
        f.url = server.url(path);
        f.sha256 = Sha256::ofBytes(bytes.data(), bytes.size());
        f.size = bytes.size();
        if (pieceSize) {
            ModelChunks c{pieceSize, {}};
            for (std::size_t at = 0; at < bytes.size(); at += pieceSize) {
                const std::string piece = bytes.substr(at, pieceSize);
                c.sha256.push_back(Sha256::ofBytes(piece.data(), piece.size()));
            }
            f.chunks = c;
        }
        return f;
    }
    PullOptions options() const
    {
        PullOptions o;
        o.downloader.cacheDir = fs::path(tmp.path().toStdString()) / "cache";
        o.downloader.maxTriesPerUrl = 1;
        o.downloader.sleep = [](std::chrono::milliseconds) {};
        return o;
    }
};

Model modelOf(const std::string& id, std::vector<ModelFile> files)
{
    Model m;
    m.id = id;
    m.kind = "gguf";
    m.files = std::move(files);
    return m;
}

} // namespace

class TestModelVault : public QObject
{
    Q_OBJECT
private slots:
    void aGgufAndASafetensorsArePulledAndRead()
    {
        World w;
        const Model llm = modelOf("tiny", {w.serve("/m/tiny.gguf", tinyLlamaGguf())});
        const Model sd = modelOf(
            "sd",
            {w.serve("/m/sd.safetensors", tinySafetensors({"model.diffusion_model.x",
                                                           "cond_stage_model.transformer.y"}))});
        for (const Model* m : {&llm, &sd}) {
            auto r = w.vault.pull(*m, w.options());
            QVERIFY2(r.ok(), r ? "" : r.error().message.c_str());
            QVERIFY(!r->alreadyThere);
        }
        const auto gguf = models::readGguf(*w.vault.pathOf(llm));
        QVERIFY(gguf && gguf->quant == "Q4_K_M");
        const auto st = models::readSafetensors(*w.vault.pathOf(sd));
        QVERIFY(st && st->kind == "sd15-checkpoint");
        QCOMPARE(*w.vault.pathOf(llm), w.vault.blobPath(llm.files[0].sha256));
        QVERIFY(w.vault.verify()->empty());
        const int requests = w.server.totalRequests();
        auto again = w.vault.pull(llm, w.options());
        QVERIFY(again && again->alreadyThere);
        QCOMPARE(w.server.totalRequests(), requests); // nothing fetched twice
        QCOMPARE(w.vault.files()->size(), std::size_t(2));
    }

    void aBadPieceIsFetchedAgainAlone()
    {
        World w;
        const std::string bytes = patternedBytes(8 << 20, 1);
        const Model m = modelOf("chunked", {w.serve("/m/c.gguf", bytes, 1 << 20)});
        w.server.setFault("/m/c.gguf", Fault::corrupt((3 << 20) + 12345, 1));
        auto r = w.vault.pull(m, w.options());
        QVERIFY2(r.ok(), r ? "" : r.error().message.c_str());
        QCOMPARE(r->piecesRefetched, 1);
        const auto sent = w.server.stats("/m/c.gguf").bodyBytes;
        qInfo("sent %llu bytes for a file of %zu", (unsigned long long)sent, bytes.size());
        QVERIFY(sent <= bytes.size() + 2 * (1 << 20)); // at most 2 pieces again
        QCOMPARE(*Sha256::ofFile(*w.vault.pathOf(m)), m.files[0].sha256);
        QVERIFY(!r->notes.empty() && r->notes[0].find("1 of 8 pieces") != std::string::npos);
    }

    void withoutPiecesAWrongFileIsFetchedWhole()
    {
        World w;
        const std::string bytes = patternedBytes(4 << 20, 2);
        const Model m = modelOf("whole", {w.serve("/m/w.gguf", bytes)});
        w.server.setFault("/m/w.gguf", Fault::corrupt(1000, 1));
        auto r = w.vault.pull(m, w.options());
        QVERIFY2(r.ok(), r ? "" : r.error().message.c_str());
        QCOMPARE(w.server.stats("/m/w.gguf").bodyBytes, 2 * bytes.size());
        QVERIFY(!r->notes.empty());
        QVERIFY2(r->notes[0].find("no piece digests, so all of it was fetched again") !=
                     std::string::npos,
                 r->notes[0].c_str());
    }

    void aPullCutOffResumes()
    {
        World w;
        const std::string bytes = patternedBytes(64 << 20, 3);
        const Model m = modelOf("big", {w.serve("/m/big.gguf", bytes, 4 << 20)});
        w.server.setFault("/m/big.gguf", Fault::dropAfter(40 << 20));
        QVERIFY(!w.vault.pull(m, w.options()));
        const auto first = w.server.stats("/m/big.gguf").bodyBytes;
        w.server.resetStats();
        auto r = w.vault.pull(m, w.options());
        QVERIFY2(r.ok(), r ? "" : r.error().message.c_str());
        const std::uint64_t missing = bytes.size() - first;
        const auto second = w.server.stats("/m/big.gguf").bodyBytes;
        qInfo("cut after %llu bytes; then sent %llu for %llu missing", (unsigned long long)first,
              (unsigned long long)second, (unsigned long long)missing);
        QVERIFY(second < missing * 11 / 10);
        QCOMPARE(r->replayedBytes + r->networkBytes, std::uint64_t(bytes.size()));
        QCOMPARE(*Sha256::ofFile(*w.vault.pathOf(m)), m.files[0].sha256);
    }

    // Two pulls of one model at once (two sessions, or the window and the CLI): one
    // transfer. The server holds the first one back, so the second finds it under way.
    void twoPullsOfOneModelShareOneTransfer()
    {
        World w;
        const std::string bytes = patternedBytes(8 << 20, 11);
        const Model m = modelOf("shared", {w.serve("/m/shared.bin", bytes)});
        w.server.setFault("/m/shared.bin",
                          Fault::stallAfter(1 << 20, std::chrono::milliseconds(1500)));
        Expected<PullReport> first = Error::runtime("not run"), second = Error::runtime("not run");
        PullOptions o = w.options();
        o.downloader.maxTriesPerUrl = 3; // the stall ends in a closed connection: resumed
        std::thread a([&] { first = w.vault.pull(m, o); });
        QVERIFY(QTest::qWaitFor([&] { return w.server.stats("/m/shared.bin").bodyBytes > 0; }));
        std::thread b([&] { second = w.vault.pull(m, o); });
        a.join();
        b.join();
        const std::string why = !first    ? first.error().message
                                : !second ? second.error().message
                                          : std::string();
        QVERIFY2(first && second, why.c_str());
        // The first pull's two requests (cut off, then resumed) carried the file once.
        QCOMPARE(w.server.stats("/m/shared.bin").bodyBytes, std::uint64_t(bytes.size()));
        QCOMPARE(second->files.front().path, first->files.front().path);
        QVERIFY2(!second->notes.empty() &&
                     second->notes.back().find("nothing fetched") != std::string::npos,
                 second->notes.empty() ? "no notes" : second->notes.back().c_str());
    }

    // A Hugging Face token goes to its host only: not to another host, and not where a
    // redirect from its host leads (issue 30, item 7).
    void aTokenGoesToItsHostOnly()
    {
        World w;
        const std::string bytes = patternedBytes(4096, 5);
        PullOptions o = w.options();
        o.downloader.bearer = DownloaderOptions::HostToken{"127.0.0.1", "hf_secret"};
        QVERIFY(w.vault.pull(modelOf("direct", {w.serve("/m/direct.bin", bytes)}), o));
        QCOMPARE(w.server.stats("/m/direct.bin").authorizations,
                 std::vector<std::string>{"Bearer hf_secret"});

        const std::string other = patternedBytes(4096, 6);
        ModelFile moved = w.serve("/m/target.bin", other);
        w.server.addRedirect("/m/moved.bin", "http://localhost:" + std::to_string(w.server.port()) +
                                                 "/m/target.bin");
        moved.url = w.server.url("/m/moved.bin");
        QVERIFY(w.vault.pull(modelOf("moved", {moved}), o));
        QCOMPARE(w.server.stats("/m/moved.bin").authorizations,
                 std::vector<std::string>{"Bearer hf_secret"});
        QCOMPARE(w.server.stats("/m/target.bin").authorizations, std::vector<std::string>{""});

        o.downloader.bearer = DownloaderOptions::HostToken{"huggingface.co", "hf_secret"};
        const std::string third = patternedBytes(4096, 7);
        QVERIFY(w.vault.pull(modelOf("elsewhere", {w.serve("/m/elsewhere.bin", third)}), o));
        QCOMPARE(w.server.stats("/m/elsewhere.bin").authorizations, std::vector<std::string>{""});
    }

    void aDiskTooSmallIsRefusedBeforeTheFirstByte()
    {
        World w;
        Model m = modelOf("huge", {w.serve("/m/h.gguf", "x")});
        m.files[0].size = std::uint64_t(1) << 60; // an exabyte
        auto r = w.vault.pull(m, w.options());
        QVERIFY(!r);
        QCOMPARE(r.error().cause, Cause::DiskFull);
        QVERIFY2(r.error().message.find("nothing was downloaded") != std::string::npos,
                 r.error().message.c_str());
        QCOMPARE(w.server.totalRequests(), 0);
    }

    void removeDeletesOnlyWhatNoOtherModelUses()
    {
        World w;
        const ModelFile f = w.serve("/m/s.gguf", tinyLlamaGguf());
        const Model a = modelOf("a", {f}), b = modelOf("b", {f});
        QVERIFY(w.vault.pull(a, w.options()));
        QVERIFY(w.vault.pull(b, w.options()));
        QCOMPARE(*w.vault.remove("a"), std::uint64_t(0)); // b still uses the bytes
        QVERIFY(fs::exists(w.vault.blobPath(f.sha256)));
        QCOMPARE(*w.vault.remove("b"), std::uint64_t(f.size));
        QVERIFY(!fs::exists(w.vault.blobPath(f.sha256)));
        QVERIFY(!w.vault.remove("b"));
    }
};

QTEST_GUILESS_MAIN(TestModelVault)
#include "test_model_vault.moc"
