// What fits the card: one model in four quantizations (the sizes of Llama 3.1 8B
// Instruct's Q4_K_M, Q5_K_M, Q8_0 and F16) on cards of 4, 8, 12 and 24 GiB: the
// quantization chosen, the layers on the GPU and the context, as a table.

#include "core/models/model_fit.h"
#include "support/model_files.h"

#include <QTest>

using namespace sp;
using namespace sp::models;

namespace {

constexpr std::uint64_t GiB = std::uint64_t(1) << 30;

// An 8B llama shape: 32 layers, 32 heads of 128, 8 KV heads, trained for 131072 tokens.
std::string eightBHeader()
{
    return test::GgufBuilder()
        .text("general.architecture", "llama")
        .u64("llama.context_length", 131072)
        .u64("llama.block_count", 32)
        .u64("llama.embedding_length", 4096)
        .u64("llama.attention.head_count", 32)
        .u64("llama.attention.head_count_kv", 8)
        .tensor("t", {1})
        .build();
}

Model quantized(const char* name, std::uint64_t bytes)
{
    Model m;
    m.id = std::string("llama-3.1-8b-") + name;
    m.quant = name;
    m.files.push_back(ModelFile{});
    m.files[0].size = bytes;
    return m;
}

} // namespace

class TestModelFit : public QObject
{
    Q_OBJECT
private slots:
    void theTable_data()
    {
        QTest::addColumn<int>("gib");
        QTest::addColumn<QString>("quant");
        QTest::addColumn<int>("layers"); // -1: every layer
        QTest::addColumn<int>("context");
        QTest::newRow("4 GiB") << 4 << "Q4_K_M" << 20 << 2048;
        QTest::newRow("8 GiB") << 8 << "Q5_K_M" << -1 << 8192;
        QTest::newRow("12 GiB") << 12 << "Q8_0" << -1 << 8192;
        QTest::newRow("24 GiB") << 24 << "F16" << -1 << 8192;
    }
    void theTable()
    {
        QFETCH(int, gib);
        QFETCH(QString, quant);
        QFETCH(int, layers);
        QFETCH(int, context);
        const std::vector<Model> family = {
            quantized("Q4_K_M", 4920739168), quantized("Q5_K_M", 5732992672),
            quantized("Q8_0", 8540775072), quantized("F16", 16068891808)};
        std::vector<const Model*> all;
        for (const Model& m : family)
            all.push_back(&m);
        std::string why;
        const Model* picked = pickQuantization(all, gib * GiB, &why);
        QVERIFY(picked);
        QCOMPARE(QString::fromStdString(picked->quant), quant);
        QVERIFY(!why.empty());
        const std::string head = eightBHeader();
        const auto g =
            parseGguf(head, parseGguf(head, head.size(), "h")->dataOffset + picked->bytes(), "h");
        QVERIFY(g.ok());
        QCOMPARE(g->weightBytes, picked->bytes());
        const ModelFit fit = fitToCard(*g, gib * GiB);
        qInfo("%d GiB: %s; %s", gib, why.c_str(), fit.why.c_str());
        QCOMPARE(int(fit.context), context);
        QCOMPARE(fit.gpuLayers ? int(*fit.gpuLayers) : -1, layers);
        QCOMPARE(fit.fits, layers < 0);
        QVERIFY(fit.needBytes <= gib * GiB);
    }

    void withoutAGpuTheContextIsCapped()
    {
        const std::string head = eightBHeader();
        const auto g = parseGguf(head, head.size() + 4920739168, "h");
        const ModelFit fit = fitToCard(*g, std::nullopt);
        QCOMPARE(fit.context, kDefaultContext);
        QVERIFY(!fit.gpuLayers);
    }
};

QTEST_GUILESS_MAIN(TestModelFit)
#include "test_model_fit.moc"
