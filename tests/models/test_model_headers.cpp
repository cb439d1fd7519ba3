// The model readers on real files made byte by byte (tests/support/model_files.h): what a
// GGUF and a safetensors header say, the KV cache a context needs, the words a user
// sees, and every kind of bad header (cut anywhere, wrong magic, counts past the limits,
// offsets outside the file) refused with a line that names the file and the place.

#include "core/models/gguf.h"
#include "core/models/safetensors.h"
#include "support/model_files.h"

#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>

using namespace sp;
using namespace sp::models;
using sp::test::GgufBuilder;

namespace fs = std::filesystem;

namespace {

fs::path write(const QTemporaryDir& dir, const std::string& name, const std::string& bytes)
{
    const fs::path p = fs::path(dir.path().toStdString()) / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
}

std::string messageOf(const Expected<GgufInfo>& r)
{
    return r ? std::string("(parsed)") : r.error().message;
}

} // namespace

class TestModelHeaders : public QObject
{
    Q_OBJECT
private slots:
    void aGgufHeaderInWords()
    {
        const std::string file = test::tinyLlamaGguf();
        const auto g = parseGguf(file, file.size(), "tiny.gguf");
        QVERIFY2(g.ok(), messageOf(g).c_str());
        QCOMPARE(g->version, 3u);
        QCOMPARE(g->architecture, std::string("llama"));
        QCOMPARE(g->name, std::string("Tiny Llama Test"));
        QCOMPARE(g->quant, std::string("Q4_K_M"));
        QCOMPARE(g->contextLength.value_or(0), 4096u);
        QCOMPARE(g->blockCount.value_or(0), 2u);
        QCOMPARE(g->headCountKv.value_or(0), 2u);
        QCOMPARE(g->tensorCount, 2u);
        QCOMPARE(g->keyCount, 12u);
        QCOMPARE(g->parameters, std::uint64_t(16 * 3 + 16));
        QCOMPARE(g->dataOffset % 32, 0u);
        QCOMPARE(g->weightBytes, file.size() - g->dataOffset);
        QCOMPARE(g->weightBytes, std::uint64_t(192 + 64)); // two F32 tensors, aligned
        // 2 (K and V) x 4096 tokens x 2 layers x 2 KV heads x (4 + 4) wide, f16.
        QCOMPARE(kvCacheBytes(*g, 4096).value_or(0), std::uint64_t(2 * 4096 * 2 * 2 * 8));
        QCOMPARE(describe(*g), std::string("Tiny Llama Test 1K, Q4_K_M, 256 B, context 4096"));
    }

    void aFileIsReadInGrowingPieces()
    {
        // A vocabulary of 3 MiB: more than the first 1 MiB read.
        std::vector<std::string> tokens(3 << 10, std::string(1000, 't'));
        const std::string file = GgufBuilder()
                                     .text("general.architecture", "qwen2")
                                     .strings("tokenizer.ggml.tokens", tokens)
                                     .u64("qwen2.context_length", 32768)
                                     .tensor("w", {8})
                                     .build();
        QTemporaryDir dir;
        const auto g = readGguf(write(dir, "big-vocab.gguf", file));
        QVERIFY2(g.ok(), messageOf(g).c_str());
        QCOMPARE(g->contextLength.value_or(0), 32768u);
        QCOMPARE(g->weightBytes, 32u);
    }

    void aCutGgufIsRefusedWherever()
    {
        const std::string file = test::tinyLlamaGguf();
        const auto whole = parseGguf(file, file.size(), "x");
        QVERIFY(whole.ok());
        for (std::size_t n = 0; n < whole->dataOffset - 16; ++n) {
            const auto cut = parseGguf(std::string_view(file).substr(0, n), n, "cut.gguf");
            QVERIFY2(!cut, std::to_string(n).c_str());
            QCOMPARE(cut.error().code, ErrorCode::InvalidInput);
            QVERIFY(cut.error().message.rfind("cut.gguf: ", 0) == 0);
        }
        // The same bytes in a longer file: the reader is told to read more.
        const auto more = parseGguf(std::string_view(file).substr(0, 40), file.size(), "x");
        QVERIFY(!more && more.error().code == ErrorCode::Runtime);
    }

    void badGgufHeaders_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        using B = GgufBuilder;
        QTest::newRow("magic") << QByteArray("GGML\3\0\0\0", 8) << "not a GGUF file";
        const std::string v1 = "GGUF" + B::bytes(std::uint32_t(1)) + std::string(16, '\0');
        QTest::newRow("version") << QByteArray::fromStdString(v1) << "GGUF version 1";
        const std::string many = "GGUF" + B::bytes(std::uint32_t(3)) +
                                 B::bytes(std::uint64_t(1) << 40) + B::bytes(std::uint64_t(0));
        QTest::newRow("tensors") << QByteArray::fromStdString(many) << "1099511627776 tensors";
        std::string dims = B().tensor("t", {1}).build();
        dims[4 + 4 + 8 + 8 + 8 + 1] = 5; // the tensor's dimension count
        QTest::newRow("dims") << QByteArray::fromStdString(dims) << "with 5 dimensions";
        const std::string align = B().u32("general.alignment", 48).tensor("t", {1}).build();
        QTest::newRow("alignment") << QByteArray::fromStdString(align) << "not a power of two";
        const std::string type = "GGUF" + B::bytes(std::uint32_t(3)) + B::bytes(std::uint64_t(0)) +
                                 B::bytes(std::uint64_t(1)) + B::str("k") +
                                 B::bytes(std::uint32_t(99));
        QTest::newRow("type") << QByteArray::fromStdString(type) << "a value of type 99";
        const std::string longString = "GGUF" + B::bytes(std::uint32_t(3)) +
                                       B::bytes(std::uint64_t(0)) + B::bytes(std::uint64_t(1)) +
                                       B::bytes(std::uint64_t(1) << 50);
        QTest::newRow("string") << QByteArray::fromStdString(longString) << "a string of";
    }
    void badGgufHeaders()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        const std::string_view view(bytes.constData(), std::size_t(bytes.size()));
        const auto r = parseGguf(view, view.size(), "bad.gguf");
        QVERIFY(!r);
        QVERIFY2(r.error().message.find(says.toStdString()) != std::string::npos,
                 r.error().message.c_str());
        QVERIFY2(r.error().message.rfind("bad.gguf: byte ", 0) == 0 ||
                     r.error().message.rfind("bad.gguf: general.alignment", 0) == 0,
                 r.error().message.c_str());
    }

    void checkpointsByTheirTensorNames()
    {
        const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
            {{"model.diffusion_model.input_blocks.0.0.weight",
              "conditioner.embedders.1.model.ln_final.weight"},
             "sdxl-checkpoint"},
            {{"model.diffusion_model.input_blocks.0.0.weight",
              "cond_stage_model.transformer.text_model.final_layer_norm.weight"},
             "sd15-checkpoint"},
            {{"encoder.conv_in.weight", "decoder.conv_out.weight", "quant_conv.weight"}, "vae"},
            {{"lora_unet_down_blocks_0.lora_up.weight", "lora_unet_down_blocks_0.lora_down.weight"},
             "lora"},
            {{"transformer.h.0.attn.weight"}, ""}};
        QTemporaryDir dir;
        for (const auto& [names, kind] : cases) {
            const auto s =
                readSafetensors(write(dir, "m.safetensors", test::tinySafetensors(names)));
            QVERIFY2(s.ok(), s ? "" : s.error().message.c_str());
            QCOMPARE(s->kind, kind);
            QCOMPARE(s->tensorCount, names.size());
            QCOMPARE(s->parameters, 16 * names.size());
            QCOMPARE(s->dataBytes, 32 * names.size());
            QCOMPARE(s->dtypes.at("F16"), names.size());
            QCOMPARE(s->metadata.at("format"), std::string("pt"));
        }
        const auto sdxl = parseSafetensors(
            test::tinySafetensors({"model.diffusion_model.x", "conditioner.embedders.1.y"}),
            8 + 1000000, "m");
        QVERIFY(sdxl.ok());
        QCOMPARE(describe(*sdxl), std::string("SDXL checkpoint, 32 parameters, F16, 64 B"));
    }

    void badSafetensorsHeaders_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        using B = GgufBuilder;
        auto file = [](const std::string& header, std::size_t data = 64) {
            return QByteArray::fromStdString(B::bytes(std::uint64_t(header.size())) + header +
                                             std::string(data, '\0'));
        };
        QTest::newRow("short") << QByteArray("abc") << "shorter than a safetensors header";
        QTest::newRow("length") << QByteArray::fromStdString(B::bytes(std::uint64_t(1) << 40))
                                << "a header of 1099511627776 bytes";
        QTest::newRow("json") << file("{\"a\": [1,") << "bad.safetensors";
        QTest::newRow("array") << file("[1, 2]") << "not a JSON object";
        QTest::newRow("deep") << file(std::string(40, '[') + std::string(40, ']')) << "nesting";
        QTest::newRow("fields") << file(R"({"t": {"dtype": "F16"}})") << "needs \"dtype\"";
        QTest::newRow("outside")
            << file(R"({"t": {"dtype": "F16", "shape": [4], "data_offsets": [0, 4096]}})")
            << "outside the file's 64 bytes";
        QTest::newRow("count")
            << file(R"({"t": {"dtype": "F32", "shape": [4], "data_offsets": [0, 8]}})")
            << "8 bytes for 4 F32 values";
        QTest::newRow("negative")
            << file(R"({"t": {"dtype": "F16", "shape": [-4], "data_offsets": [0, 8]}})")
            << "not a whole number";
    }
    void badSafetensorsHeaders()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        const std::string_view view(bytes.constData(), std::size_t(bytes.size()));
        const auto r = parseSafetensors(view, view.size(), "bad.safetensors");
        QVERIFY(!r);
        QVERIFY2(r.error().message.find(says.toStdString()) != std::string::npos,
                 r.error().message.c_str());
        QVERIFY(r.error().message.find("bad.safetensors") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestModelHeaders)
#include "test_model_headers.moc"
