// The catalog's "models" (docs/CATALOG.md, "Models"): a model with pinned files, pieces
// and a license is read as written, and each way a model entry can be wrong is refused
// with one line that names the file, the line and the column.

#include "core/catalog/loader.h"

#include <QTest>
#include <nlohmann/json.hpp>

using namespace sp;
using nlohmann::json;

namespace {

const std::string kHash(64, 'a');

json aModel()
{
    return json{
        {"id", "tiny-q4"},
        {"kind", "gguf"},
        {"workloads", {"llama-server"}},
        {"family", "tiny"},
        {"files",
         {{{"url", "https://huggingface.co/org/tiny/resolve/main/tiny-Q4_K_M.gguf"},
           {"sha256", kHash},
           {"size", 3 * 1048576 + 5},
           {"chunks", {{"size", 1048576}, {"sha256", {kHash, kHash, kHash, kHash}}}},
           {"url_evidence", {"https://huggingface.co/org/tiny/blob/main/tiny-Q4_K_M.gguf"}}}}},
        {"license", {{"id", "apache-2.0"}, {"url", "https://example.org/license"}}},
        {"params", "1B"},
        {"quant", "Q4_K_M"},
        {"context_length", 32768},
        {"min_vram_mb", 1024},
        {"recommended_vram_mb", 2048},
        {"references", {"https://huggingface.co/org/tiny"}},
        {"ui", {{"name", {{"en", "Tiny"}, {"zh_CN", "Tiny"}}}}}};
}

Expected<void> load(const json& model, CatalogLoader& loader)
{
    const json doc = {{"schema_version", 1}, {"models", {model}}};
    return loader.addText(doc.dump(2), "m.json");
}

} // namespace

class TestCatalogModels : public QObject
{
    Q_OBJECT
private slots:
    void aModelIsReadAsWritten()
    {
        CatalogLoader loader;
        const auto r = load(aModel(), loader);
        QVERIFY2(r.ok(), r ? "" : r.error().message.c_str());
        const Model* m = loader.catalog().model("tiny-q4");
        QVERIFY(m);
        QCOMPARE(m->kind, std::string("gguf"));
        QCOMPARE(m->workloads, std::vector<std::string>{"llama-server"});
        QCOMPARE(m->files.size(), std::size_t(1));
        QCOMPARE(m->files[0].displayName(), std::string("tiny-Q4_K_M.gguf"));
        QCOMPARE(m->files[0].chunks->sha256.size(), std::size_t(4));
        QCOMPARE(m->bytes(), std::uint64_t(3 * 1048576 + 5));
        QCOMPARE(m->license.id, std::string("apache-2.0"));
        QCOMPARE(m->contextLength.value_or(0), 32768u);
        QCOMPARE(m->ui.name.en, std::string("Tiny"));
        QVERIFY(m->where.line > 0);
    }

    // The starter set: each file's digest and size were read in a named public repository
    // at a commit (docs/research/models-sources.md), and each model says what it is in
    // both languages.
    void shippedModelsAreSourced()
    {
        CatalogLoader loader;
        QVERIFY(loader.addFile(STACKPILOT_SOURCE_DIR "/profiles/catalog/models.json"));
        const auto& models = loader.catalog().models;
        QVERIFY(models.size() >= 6);
        for (const Model& m : models) {
            QVERIFY2(!m.references.empty() && !m.workloads.empty(), m.id.c_str());
            QVERIFY2(!m.ui.name.en.empty() && !m.ui.name.zhCN.empty(), m.id.c_str());
            for (const ModelFile& f : m.files) {
                const bool atCommit =
                    std::any_of(f.urlEvidence.begin(), f.urlEvidence.end(), [](const auto& e) {
                        return e.rfind("https://github.com/", 0) == 0 &&
                               e.find("/blob/") != std::string::npos;
                    });
                QVERIFY2(atCommit, m.id.c_str());
                QVERIFY2(f.url.rfind("https://huggingface.co/", 0) == 0, m.id.c_str());
            }
        }
    }

    void badModels_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value"); // JSON; "" removes the field
        QTest::addColumn<QString>("says");
        QTest::newRow("no sha256") << "/files/0/sha256"
                                   << ""
                                   << "'sha256'";
        QTest::newRow("bad sha256") << "/files/0/sha256"
                                    << "\"ABC\""
                                    << "64 lower-case hex";
        QTest::newRow("no size") << "/files/0/size"
                                 << ""
                                 << "needs its 'size'";
        QTest::newRow("pieces") << "/files/0/chunks/sha256"
                                << QString::fromStdString(json{kHash, kHash}.dump())
                                << "needs 4 digests, not 2";
        QTest::newRow("small piece") << "/files/0/chunks/size"
                                     << "4096"
                                     << "at least 1048576";
        QTest::newRow("file url") << "/files/0/url"
                                  << "\"file:///etc/passwd\""
                                  << "http(s) URLs";
        QTest::newRow("no name") << "/files/0/url"
                                 << "\"https://h.example/\""
                                 << "end in a file name";
        QTest::newRow("kind") << "/kind"
                              << "\"GGUF file\""
                              << "'kind' is lower-case";
        QTest::newRow("gated") << "/license"
                               << R"({"id": "llama3.2", "accept_required": true})"
                               << "needs the 'url'";
        QTest::newRow("no files") << "/files"
                                  << "[]"
                                  << "at least one file";
    }
    void badModels()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, says);
        json m = aModel();
        const json::json_pointer at(pointer.toStdString());
        if (value.isEmpty())
            m[at.parent_pointer()].erase(at.back());
        else
            m[at] = json::parse(value.toStdString());
        CatalogLoader loader;
        const auto r = load(m, loader);
        QVERIFY(!r);
        const std::string& msg = r.error().message;
        QVERIFY2(msg.find(says.toStdString()) != std::string::npos, msg.c_str());
        QVERIFY2(msg.rfind("m.json:", 0) == 0 && std::isdigit(static_cast<unsigned char>(msg[7])),
                 msg.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCatalogModels)
#include "test_catalog_models.moc"
