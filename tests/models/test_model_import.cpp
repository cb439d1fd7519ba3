// `models import` on a fake Hugging Face cache, an Ollama store (a blob and its manifest)
// and an LM Studio folder: each model registered by its digest with 0 bytes copied (the
// vault's blob is the same inode, or the file is referenced where it is on another
// filesystem), the names shown as each app shows them, the user's files byte-identical
// afterwards, a second scan hashing nothing, and remove deleting only StackPilot's links.

#include "installers/file_identity.h"
#include "installers/model_import.h"
#include "installers/sha256.h"
#include "support/cli_runner.h"
#include "support/model_files.h"

#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/mount.h>
#include <unistd.h>

using namespace sp;
using namespace sp::test;
using nlohmann::json;

namespace fs = std::filesystem;

namespace {

void put(const fs::path& p, const std::string& bytes)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
}

std::string read(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Three apps' layouts under `root`; returns the user's model files.
std::vector<fs::path> makeLayouts(const fs::path& root)
{
    const std::string a = tinyLlamaGguf();
    const std::string b = a + std::string(64, 'b'); // a different file, still a GGUF header
    const std::string c = tinySafetensors({"model.diffusion_model.x"});
    const std::string sa = Sha256::ofBytes(a.data(), a.size());
    const fs::path hfBlob = root / "hf/models--Qwen--Tiny-GGUF/blobs" / sa;
    put(hfBlob, a);
    const fs::path snap = root / "hf/models--Qwen--Tiny-GGUF/snapshots/0123abc/tiny-q4.gguf";
    fs::create_directories(snap.parent_path());
    fs::create_symlink("../../blobs/" + sa, snap);
    const std::string sb = Sha256::ofBytes(b.data(), b.size());
    const fs::path ollamaBlob = root / "ollama/blobs" / ("sha256-" + sb);
    put(ollamaBlob, b);
    put(root / "ollama/manifests/registry.ollama.ai/library/llama3.2/1b",
        json{{"schemaVersion", 2},
             {"layers",
              {{{"mediaType", "application/vnd.ollama.image.model"},
                {"digest", "sha256:" + sb},
                {"size", b.size()}},
               {{"mediaType", "application/vnd.ollama.image.license"},
                {"digest", "sha256:" + std::string(64, '0')},
                {"size", 10}}}}}
            .dump());
    const fs::path lms = root / "lms/lmstudio-community/Tiny-SD/tiny.safetensors";
    put(lms, c);
    return {hfBlob, ollamaBlob, lms};
}

} // namespace

class TestModelImport : public QObject
{
    Q_OBJECT
private slots:
    void threeAppsLayoutsWithoutACopy()
    {
        QTemporaryDir tmp;
        const fs::path root(tmp.path().toStdString());
        const auto files = makeLayouts(root);
        std::vector<std::string> before;
        std::vector<std::int64_t> mtimes;
        for (const auto& f : files) {
            before.push_back(read(f));
            mtimes.push_back(fileIdentity(f)->mtimeNs);
        }
        ModelVault vault(root / "vault");
        std::vector<FoundModel> found;
        for (const char* d : {"hf", "ollama", "lms"}) {
            auto more = findModels(root / d);
            found.insert(found.end(), more.begin(), more.end());
        }
        QCOMPARE(found.size(), std::size_t(3));
        auto report = importModels(vault, found);
        QVERIFY2(report.ok(), report ? "" : report.error().message.c_str());
        QCOMPARE(report->hashed, 3);
        QCOMPARE(report->linked, 3);
        std::vector<std::string> names;
        for (const VaultFile& v : report->files) {
            names.push_back(v.model);
            QCOMPARE(v.storage, VaultStorage::Linked);
            QVERIFY(fs::equivalent(v.path, fs::path(v.source))); // the same inode: 0 bytes
        }
        QCOMPARE(names, (std::vector<std::string>{"Qwen/Tiny-GGUF/tiny-q4.gguf", "llama3.2:1b",
                                                  "lmstudio-community/Tiny-SD/tiny.safetensors"}));
        // Again: nothing hashed, nothing linked twice.
        auto again = importModels(vault, found);
        QVERIFY(again && again->hashed == 0 && again->linked == 0);
        QCOMPARE(vault.files()->size(), std::size_t(3));
        // Remove deletes the vault's link; the user's file stays as it was.
        const fs::path link = vault.blobPath(report->files[1].sha256);
        QVERIFY(vault.remove("llama3.2:1b"));
        QVERIFY(!fs::exists(link));
        for (std::size_t i = 0; i < files.size(); ++i) {
            QCOMPARE(read(files[i]), before[i]);
            QCOMPARE(fileIdentity(files[i])->mtimeNs, mtimes[i]);
        }
    }

    // On another filesystem a link cannot be made: the file is used where it is.
    void anotherFilesystemIsReferenced()
    {
        QTemporaryDir tmp;
        const fs::path root(tmp.path().toStdString());
        const fs::path vaultDir = root / "vault";
        fs::create_directories(vaultDir);
        if (::geteuid() != 0 || ::mount("tmpfs", vaultDir.c_str(), "tmpfs", 0, "size=1m") != 0)
            QSKIP("needs root to mount a small tmpfs as the vault's filesystem");
        const auto files = makeLayouts(root);
        {
            ModelVault vault(vaultDir);
            auto report = importModels(vault, findModels(root / "lms"));
            QVERIFY(report && report->referenced == 1 && report->linked == 0);
            QCOMPARE(report->files[0].path, files[2]);
            QVERIFY(!fs::exists(vault.blobPath(report->files[0].sha256)));
            QVERIFY(vault.remove(report->files[0].model));
        }
        ::umount(vaultDir.c_str());
        QVERIFY(fs::exists(files[2])); // remove forgot it, never deleted it
    }

    void theCliShowsTheNames()
    {
        QTemporaryDir tmp;
        const fs::path root(tmp.path().toStdString());
        makeLayouts(root);
        const auto r = runCliInProcess({QStringLiteral("models"), QStringLiteral("import"),
                                        QString::fromStdString((root / "ollama").string()),
                                        QString::fromStdString((root / "hf").string()),
                                        QStringLiteral("--models-dir"),
                                        QString::fromStdString((root / "vault").string())});
        QVERIFY2(r.rc == 0, r.err.c_str());
        QVERIFY2(r.out.find("llama3.2:1b") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("0 bytes copied") != std::string::npos, r.out.c_str());
        const auto bad = runCliInProcess({QStringLiteral("models"), QStringLiteral("import"),
                                          QString::fromStdString((root / "nowhere").string())});
        QCOMPARE(bad.rc, 2);
    }
};

QTEST_GUILESS_MAIN(TestModelImport)
#include "test_model_import.moc"
