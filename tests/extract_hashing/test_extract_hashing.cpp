// Files of 1 MiB and more get their receipt digest from FileHasher's thread; these
// tests check that those digests match the bytes written, whatever the chunking,
// and for the cases where records change after the fact (hard links, an entry
// replaced by a later one of the same path).

#include "archive_builder.h"
#include "installers/extract.h"
#include "installers/file_hasher.h"
#include "installers/sha256.h"

#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <random>
#include <sstream>

namespace fs = std::filesystem;
using namespace sp;
using namespace sp::test;

namespace {

std::string readFile(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

const FileRecord* find(const std::vector<FileRecord>& records, const std::string& path)
{
    for (const auto& r : records)
        if (r.path == path)
            return &r;
    return nullptr;
}

} // namespace

class TestExtractHashing : public QObject
{
    Q_OBJECT

private slots:
    void hasherMatchesOneShotDigests()
    {
        // Small buffers and only two of them: update() must block and resume.
        FileHasher h(4096, 2);
        std::mt19937 rng(7);
        const std::vector<std::size_t> sizes = {0, 1, 4095, 4096, 4097, 1 << 20, (3 << 20) + 5};
        std::vector<std::string> data;
        std::vector<std::size_t> tickets;
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            data.push_back(mixedBytes(sizes[i], unsigned(i) + 1));
            tickets.push_back(h.begin());
            for (std::size_t pos = 0; pos < data.back().size();) {
                const std::size_t n =
                    std::min<std::size_t>(data.back().size() - pos, 1 + rng() % 20000);
                h.update(data.back().data() + pos, n);
                pos += n;
            }
            h.end();
        }
        h.wait();
        for (std::size_t i = 0; i < sizes.size(); ++i)
            QCOMPARE(h.digest(tickets[i]), Sha256::ofBytes(data[i].data(), data[i].size()));
        // It keeps working after a wait().
        const std::size_t t = h.begin();
        h.update("abc", 3);
        h.end();
        h.wait();
        QCOMPARE(h.digest(t), Sha256::ofBytes("abc", 3));
    }

    void largeFilesInAnArchive_data()
    {
        QTest::addColumn<QString>("format");
        for (const char* f : {"tar", "tar.gz", "zip"})
            QTest::newRow(f) << QString::fromUtf8(f);
    }

    void largeFilesInAnArchive()
    {
        QFETCH(QString, format);
        const std::string fmt = format.toStdString();
        const std::string big = mixedBytes((3 << 20) + 17, 11);
        const std::string exact = mixedBytes(1 << 20, 12);
        const std::string under = mixedBytes((1 << 20) - 1, 13);
        const std::string r1 = mixedBytes(2 << 20, 14), r2 = "small now\n";
        const std::string s1 = "small first\n", s2 = mixedBytes((2 << 20) + 3, 15);
        std::vector<TestEntry> entries = {
            TestEntry::file("pkg/big.bin", big),     TestEntry::file("pkg/exact.bin", exact),
            TestEntry::file("pkg/under.bin", under), TestEntry::file("pkg/r.bin", r1),
            TestEntry::file("pkg/r.bin", r2),        TestEntry::file("pkg/s.bin", s1),
            TestEntry::file("pkg/s.bin", s2),        TestEntry::file("pkg/tail.txt", "tail\n")};
        if (fmt != "zip") // zip has no hard links
            entries.push_back(TestEntry::hardlink("pkg/big-link.bin", "pkg/big.bin"));
        const std::string bytes = buildArchive(entries, fmt);

        QTemporaryDir tmp;
        const fs::path root = fs::path(tmp.path().toStdString()) / "staging";
        fs::create_directories(root);
        ExtractSink::Options o;
        o.root = root;
        o.format = fmt;
        o.archiveName = "test." + fmt;
        o.chunkBytes = 64 << 10;
        o.queueChunks = 2;
        auto sink = ExtractSink::create(o);
        QVERIFY(sink.ok());
        QVERIFY((*sink)->begin(bytes.size()).ok());
        std::mt19937 rng(3);
        for (std::size_t pos = 0; pos < bytes.size();) {
            const std::size_t n = std::min<std::size_t>(bytes.size() - pos, 1 + rng() % 70000);
            QVERIFY((*sink)->write(bytes.data() + pos, n).ok());
            pos += n;
        }
        auto done = (*sink)->finish();
        QVERIFY2(done.ok(), done.ok() ? "" : done.error().message.c_str());

        const auto& records = (*sink)->records();
        const std::vector<std::pair<std::string, const std::string*>> expected = {
            {"pkg/big.bin", &big},
            {"pkg/exact.bin", &exact},
            {"pkg/under.bin", &under},
            {"pkg/r.bin", &r2},
            {"pkg/s.bin", &s2}};
        for (const auto& [path, content] : expected) {
            const FileRecord* r = find(records, path);
            QVERIFY2(r, path.c_str());
            QCOMPARE(r->size, std::uint64_t(content->size()));
            QCOMPARE(r->sha256, Sha256::ofBytes(content->data(), content->size()));
            QCOMPARE(readFile(root / path), *content);
        }
        if (fmt != "zip") {
            const FileRecord* link = find(records, "pkg/big-link.bin");
            QVERIFY(link);
            QCOMPARE(link->sha256, Sha256::ofBytes(big.data(), big.size()));
        }
        for (const auto& r : records)
            if (r.type == FileRecord::Type::File)
                QCOMPARE(r.sha256.size(), std::size_t(64));
    }
};

QTEST_GUILESS_MAIN(TestExtractHashing)
#include "test_extract_hashing.moc"
