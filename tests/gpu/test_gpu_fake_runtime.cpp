// Issue 31: a stand-in workload on a fake multi-device runtime (fake_runtime.py) sees only
// the chosen card, in each API's numbering. For every recorded multi-GPU PC (pcs/) and every
// GPU choice of its manifest, the plan's environment is handed to a real process that
// enumerates that PC's devices per API, applies ROCR/HIP/CUDA/GGML_VK visibility the way
// the runtimes do, and prints which buses remain.

#include "tests/support/cli_runner.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

const std::string kPcs = GPU_PCS_DIR;

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

json readJson(const std::string& path)
{
    std::ifstream in(path);
    return json::parse(in);
}

// What the fake runtime sees with `env` (only the visibility variables, nothing inherited).
json seenWith(const std::string& snapshot, const json& env)
{
    QProcess p;
    QProcessEnvironment e;
    e.insert(QStringLiteral("PATH"), qEnvironmentVariable("PATH"));
    for (auto it = env.begin(); it != env.end(); ++it)
        e.insert(q(it.key()), q(it.value().get<std::string>()));
    p.setProcessEnvironment(e);
    p.start(QStringLiteral("python3"), {q(kPcs + "/../fake_runtime.py"), q(snapshot)});
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return json();
    return json::parse(p.readAllStandardOutput().toStdString(), nullptr, false);
}

// The APIs whose numbering the plan pinned, by the variables it set.
std::vector<std::string> pinnedApis(const json& env)
{
    std::vector<std::string> apis;
    if (env.contains("ROCR_VISIBLE_DEVICES") || env.contains("HIP_VISIBLE_DEVICES"))
        apis.push_back("hip");
    if (env.contains("CUDA_VISIBLE_DEVICES"))
        apis.push_back("cuda");
    if (env.contains("GGML_VK_VISIBLE_DEVICES"))
        apis.push_back("vulkan");
    return apis;
}

} // namespace

class TestGpuFakeRuntime : public QObject
{
    Q_OBJECT
private slots:
    void eachChoiceSeesOnlyItsCard()
    {
        QTemporaryDir home;
        qputenv("STACKPILOT_HOME", home.path().toUtf8());
        const json m = readJson(kPcs + "/manifest.json");
        int checked = 0;
        for (const auto& pc : m["pcs"]) {
            const std::string snap =
                home.filePath(q(pc["pc"]) + QStringLiteral(".json")).toStdString();
            QStringList args{QStringLiteral("snapshot"), QStringLiteral("import")};
            for (const auto& f : pc["files"])
                args << q(kPcs + "/" + pc["pc"].get<std::string>() + "/" + f.get<std::string>());
            args << QStringLiteral("--os") << q(pc["os"]) << QStringLiteral("-o") << q(snap);
            QVERIFY(sp::test::runCliInProcess(args).rc == 0);
            for (const auto& c : pc["cases"]) {
                QStringList planArgs{QStringLiteral("plan"),
                                     QStringLiteral("--workload"),
                                     q(c["workload"]),
                                     QStringLiteral("--hardware"),
                                     q(snap),
                                     QStringLiteral("--gpu"),
                                     q(c["gpu"]),
                                     QStringLiteral("--json")};
                if (c.contains("profile"))
                    planArgs << QStringLiteral("--profile") << q(c["profile"]);
                const auto r = sp::test::runCliInProcess(planArgs);
                QVERIFY2(r.rc == 0, r.err.c_str());
                const json plan = json::parse(r.out);
                json env = json::object();
                for (const auto& v : m["visibility_variables"])
                    if (plan["env"].contains(v.get<std::string>()))
                        env[v.get<std::string>()] = plan["env"][v.get<std::string>()];
                const json seen = seenWith(snap, env);
                const std::string bus = plan["gpu_card"]["pci_bus"];
                const std::string what = pc["pc"].get<std::string>() + " --gpu " +
                                         c["gpu"].get<std::string>() + ": " + seen.dump();
                QVERIFY2(!pinnedApis(env).empty(), what.c_str());
                for (const auto& api : pinnedApis(env)) {
                    QVERIFY2(seen[api] == json::array({bus}), (api + " in " + what).c_str());
                    ++checked;
                }
            }
        }
        qInfo("%d API numberings checked on a fake multi-device runtime", checked);
        QVERIFY(checked >= 18);
    }
};

QTEST_GUILESS_MAIN(TestGpuFakeRuntime)
#include "test_gpu_fake_runtime.moc"
