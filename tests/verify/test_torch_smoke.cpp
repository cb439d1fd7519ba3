// The PyTorch smoke test (profiles/checks/torch_smoke.py) run for real: Debian's
// python3-torch (CPU) in a profile that uses the system interpreter, through
// `stackpilot-cli verify-stack`. What it proves: the verify path launches the smoke
// test in the composed environment, reads its JSON line and records the result.

#include "verify_fixture.h"

#include <QTest>

using namespace sp::test;
using nlohmann::json;

class TestTorchSmoke : public QObject
{
    Q_OBJECT

    static void writeCatalog(const std::filesystem::path& dir)
    {
        std::filesystem::create_directories(dir);
        const json doc = {
            {"schema_version", 1},
            {"workloads",
             {{{"id", "torchwork"},
               {"name", "PyTorch on the system interpreter"},
               {"command", {"{python}", "-c", "print('hello')"}},
               {"references", {"https://packages.debian.org/bookworm/python3-torch"}}}}},
            {"profiles",
             {{{"id", "torch-system-cpu"},
               {"workload", "torchwork"},
               {"status", "community"},
               {"fallback", true},
               {"python", "/usr/bin/python3"},
               {"match", {{"os", {"linux"}}}},
               {"verify", {"{python}", "{checks}/torch_smoke.py"}},
               {"references", {"https://packages.debian.org/bookworm/python3-torch"}}},
              {{"id", "torch-system-gpu"},
               {"workload", "torchwork"},
               {"status", "community"},
               {"python", "/usr/bin/python3"},
               {"match", {{"os", {"linux"}}}},
               {"verify", {"{python}", "{checks}/torch_smoke.py", "--expect-gpu"}},
               {"references", {"https://packages.debian.org/bookworm/python3-torch"}}}}}};
        std::ofstream(dir / "torch.json") << doc.dump(2);
    }

    static json verified(const CliRun& r)
    {
        const auto v = events(jsonLines(r.out), "verified");
        return v.empty() ? json() : v.back();
    }

    // `verify-stack PROFILE --json` with the torch catalog, as the real process: the real
    // PyTorch smoke test is its child, under the verify deadline.
    static CliRun verifyStack(const VerifyWorld& w, const char* profile)
    {
        writeCatalog(w.root / "torch-catalog");
        return runCliBinary({QStringLiteral("verify-stack"), QString::fromLatin1(profile),
                             QStringLiteral("--json"), QStringLiteral("--catalog-dir"),
                             QString::fromStdString((w.root / "torch-catalog").string()),
                             QStringLiteral("--hardware"),
                             QString::fromStdString((w.root / "snap.json").string())},
                            180000);
    }

private slots:
    void theRealPyTorchPassesOnTheCpu()
    {
        VerifyWorld w;
        const auto r = verifyStack(w, "torch-system-cpu");
        const json v = verified(r);
        QVERIFY2(r.rc == 0 && v.value("passed", false), (r.out + r.err).c_str());
        // Its JSON names the torch version Debian ships, and the timed part ran.
        const std::string torch = v["result"].value("torch", "");
        QVERIFY2(!torch.empty() && std::isdigit(static_cast<unsigned char>(torch[0])),
                 v.dump().c_str());
        QVERIFY(v["result"].value("seconds", 0.0) > 0.0);
        QVERIFY(v["result"].value("max_error", 1.0) < 1e-2);
        // The result is this machine's evidence now.
        std::ifstream in(w.home / "data" / "evidence.json");
        const json evidence = json::parse(in, nullptr, false);
        QCOMPARE(evidence["records"].size(), std::size_t(1));
        QCOMPARE(evidence["records"][0].value("profile", ""), std::string("torch-system-cpu"));
    }

    void aCpuOnlyTorchFailsAGpuStack()
    {
        VerifyWorld w;
        const auto r = verifyStack(w, "torch-system-gpu");
        const json v = verified(r);
        QCOMPARE(r.rc, 1);
        QCOMPARE(v.value("passed", true), false);
        QVERIFY2(v.value("reason", "").find("torch sees no GPU") != std::string::npos,
                 v.dump().c_str());
    }
};

QTEST_GUILESS_MAIN(TestTorchSmoke)
#include "test_torch_smoke.moc"
