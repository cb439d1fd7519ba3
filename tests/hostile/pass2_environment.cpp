// Issue 20 (second hostile pass), items 2 and 9's environment and argument findings,
// through the real stackpilot-cli: stale GPU variables planted in the caller's
// environment (dry run of the shipped pytorch-rocm7.2 on an RX 7900 XTX, a real launch
// of a shell workload, and `doctor`), an env name holding '=', a value that is not
// UTF-8, add_args that split a flag from its value, and a 200 KB value.

#include "hostile_support.h"

#include <QTest>

using namespace sp::hostile;
using nlohmann::json;

namespace {

// What someone who followed old guides has in their shell profile.
const std::vector<std::pair<const char*, const char*>> kStale = {
    {"HSA_OVERRIDE_GFX_VERSION", "10.3.0"},
    {"HIP_VISIBLE_DEVICES", "1"},
    {"ROCR_VISIBLE_DEVICES", "1"},
    {"CUDA_VISIBLE_DEVICES", "1"},
    {"ROCM_PATH", "/opt/rocm-6.1.0"},
    {"ROCM_HOME", "/opt/rocm-6.1.0"},
    {"HIP_PATH", "/opt/rocm-6.1.0"},
    {"HIP_PATH_61", "/opt/rocm-6.1.0"},
    {"CUDA_PATH", "/usr/local/cuda-12.4"},
    {"CUDA_PATH_V12_4", "/usr/local/cuda-12.4"},
    {"CUDA_HOME", "/usr/local/cuda-12.4"},
    {"LD_LIBRARY_PATH", "/opt/rocm-6.1.0/lib:/usr/local/cuda/lib64"}};

void plantStale(QProcessEnvironment& env)
{
    for (const auto& [name, value] : kStale)
        env.insert(QString::fromLatin1(name), QString::fromLatin1(value));
    env.insert(QStringLiteral("PATH"),
               QStringLiteral("/opt/rocm-6.1.0/bin:/usr/local/cuda-12.4/bin:") +
                   env.value(QStringLiteral("PATH")));
}

// NAME=VALUE entries, NUL-separated, as `env -0` writes them.
std::map<std::string, std::string> readEnv(const fs::path& f)
{
    std::map<std::string, std::string> out;
    const std::string all = readAll(f);
    std::size_t at = 0;
    for (std::size_t end; (end = all.find('\0', at)) != std::string::npos; at = end + 1) {
        const std::string entry = all.substr(at, end - at);
        const auto eq = entry.find('=');
        out[entry.substr(0, eq)] = eq == std::string::npos ? "" : entry.substr(eq + 1);
    }
    return out;
}

// The value of `name`, or "<unset>": safe in a failure message.
std::string valueOf(const std::map<std::string, std::string>& env, const std::string& name)
{
    const auto it = env.find(name);
    return it == env.end() ? "<unset>" : it->second;
}

const json* changeOf(const json& dry, const std::string& name)
{
    for (const auto& c : dry.at("changes"))
        if (c.at("name") == name)
            return &c;
    return nullptr;
}

void writeSettings(const ShellWorld& w, const json& workload)
{
    writeFile(w.home / "config" / "settings.json",
              json{{"workloads", {{"hostile", workload}}}}.dump(2));
}

} // namespace

class Pass2Environment : public QObject
{
    Q_OBJECT

private slots:
    // HSA_OVERRIDE_GFX_VERSION=10.3.0 from an old guide reached pytorch-rocm7.2 on an
    // RX 7900 XTX unchanged and unlisted, with nothing from doctor; CUDA_VISIBLE_DEVICES,
    // ROCM_PATH and ROCM_HOME passed too, and a foreign LD_LIBRARY_PATH was kept.
    void pass2_staleGpuVariablesNeverReachTheWorkload()
    {
        ShellWorld w;
        plantStale(w.env);
        writeFile(w.root / "rx7900.json",
                  R"({"schema": 1, "os": {"family": "linux"},
                      "home": {"path": "/home/u", "filesystem": "ext4"},
                      "gpus": [{"vendor": "amd", "name": "AMD Radeon RX 7900 XTX",
                                "gfx": "gfx1100", "vram_mb": 24576}]})");
        const Run r = w.cli({QStringLiteral("launch"), QStringLiteral("pytorch-rocm7.2"),
                             QStringLiteral("--hardware"), q(w.root / "rx7900.json"),
                             QStringLiteral("--dry-run"), QStringLiteral("--json")});
        QVERIFY2(r.rc == 0, r.err.c_str());
        const json dry = json::parse(r.out);
        const json& env = dry.at("env");
        for (const auto& [name, value] : kStale) {
            QVERIFY2(env.value(name, std::string()) != value, name);
            QVERIFY2(changeOf(dry, name), (std::string(name) + " changed but not listed").c_str());
        }
        QVERIFY(!env.contains("HSA_OVERRIDE_GFX_VERSION")); // gfx1100 needs none
        QCOMPARE(changeOf(dry, "HSA_OVERRIDE_GFX_VERSION")->value("change", ""),
                 std::string("removed"));
        QVERIFY(env.at("PATH").get<std::string>().find("/opt/rocm-6.1.0") == std::string::npos);

        // A real launch sees none of them, except the one the user kept in settings.
        w.write("env -0 > \"$PIDS.env\"");
        writeSettings(w, json::object({{"env", {{"HSA_OVERRIDE_GFX_VERSION", "11.0.0"}}}}));
        const Run launched = w.cli(w.launchArgs({QStringLiteral("--json")}));
        QVERIFY2(launched.rc == 0, launched.err.c_str());
        const auto seen = readEnv(w.pids.string() + ".env");
        QVERIFY(seen.count("PATH"));
        for (const auto& [name, value] : kStale)
            if (std::string(name) != "HSA_OVERRIDE_GFX_VERSION")
                QVERIFY2(!seen.count(name) || valueOf(seen, name).find(value) == std::string::npos,
                         (std::string(name) + "=" + valueOf(seen, name)).c_str());
        QCOMPARE(valueOf(seen, "HSA_OVERRIDE_GFX_VERSION"), std::string("11.0.0"));
        for (const char* list : {"PATH", "LD_LIBRARY_PATH"}) // no foreign ROCm or CUDA folder
            for (const char* foreign : {"/opt/rocm-6.1.0", "/usr/local/cuda"})
                QVERIFY2(valueOf(seen, list).find(foreign) == std::string::npos,
                         (std::string(list) + "=" + valueOf(seen, list)).c_str());
        const json hostileDry = json::parse(
            w.cli(w.launchArgs({QStringLiteral("--dry-run"), QStringLiteral("--json")})).out);
        const json* kept = changeOf(hostileDry, "HSA_OVERRIDE_GFX_VERSION");
        QVERIFY(kept);
        QVERIFY2(kept->value("reason", "").find("the user's choice") != std::string::npos,
                 kept->dump().c_str());

        // doctor names the stale global variable and how to remove it.
        const Run doctor = w.cli({QStringLiteral("doctor")}, 60000);
        QVERIFY2(doctor.out.find("HSA_OVERRIDE_GFX_VERSION=10.3.0 is set in your environment") !=
                         std::string::npos &&
                     doctor.out.find("Remove the line that sets HSA_OVERRIDE_GFX_VERSION") !=
                         std::string::npos,
                 (doctor.out + doctor.err).c_str());
    }

    // An env name containing '=' showed as one thing in the dry run and reached the
    // workload as another (A=B=c is the variable A with the value B=c).
    void pass2_anEnvNameWithEqualsNeverReachesTheWorkload()
    {
        ShellWorld w;
        w.write("env -0 > \"$PIDS.env\"", json::object({{"env", {{"A=B", "c"}, {"PLAIN", "1"}}}}));
        const Run dry =
            w.cli(w.launchArgs({QStringLiteral("--dry-run"), QStringLiteral("--json")}));
        QVERIFY2(dry.rc == 0, dry.err.c_str());
        const json plan = json::parse(dry.out);
        const json* c = changeOf(plan, "A=B");
        QVERIFY2(c && c->value("change", "") == "removed" &&
                     c->value("reason", "").rfind("not set: ", 0) == 0,
                 dry.out.c_str());
        QVERIFY2(w.cli(w.launchArgs()).rc == 0, "the launch failed");
        const auto seen = readEnv(w.pids.string() + ".env");
        QCOMPARE(valueOf(seen, "PLAIN"), std::string("1"));
        QVERIFY2(!seen.count("A") && !seen.count("A=B"), valueOf(seen, "A").c_str());
    }

    // A caller's value that is not UTF-8 was rewritten to U+FFFD on its way.
    void pass2_aValueThatIsNotUtf8ReachesTheWorkloadUnchanged()
    {
        ShellWorld w;
        w.write("printf '%s' \"$RAW_VALUE\" > \"$PIDS.raw\"");
        const QByteArray raw("caf\xe9 \xff\xfe latin-1", 15);
        // QProcessEnvironment holds text; the bytes go through this process's environ.
        for (const QString& name : w.env.keys())
            qputenv(name.toLocal8Bit().constData(), w.env.value(name).toLocal8Bit());
        qputenv("RAW_VALUE", raw);
        QProcess p;
        p.start(cliPath(), w.launchArgs());
        QVERIFY(p.waitForFinished(30000));
        qunsetenv("RAW_VALUE");
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QCOMPARE(QByteArray::fromStdString(readAll(w.pids.string() + ".raw")).toHex(), raw.toHex());
    }

    // add_args de-duplicated element by element: ["--fixed", "yes"] became "--fixed"
    // when the profile's args already held a "yes". Applied as a user applies it, with
    // `remedy apply`, then launched; `remedy undo` takes exactly that unit back.
    void pass2_addArgsKeepAFlagWithItsValue()
    {
        ShellWorld w;
        w.write("printf '%s\\n' \"$@\" > \"$PIDS.args\"",
                json::object({{"args", {"--listen", "yes"}}}));
        writeFile(w.catalogDir / "issues.json",
                  json{{"schema_version", 1},
                       {"known_issues",
                        {{{"id", "needs-fixed"},
                          {"title", "t"},
                          {"signatures", {"never-matches-xyz"}},
                          {"applies", {{"workloads", {"hostile"}}}},
                          {"remedy",
                           {{"action", "add_args"}, {"args", {"--fixed", "yes"}}, {"text", "r"}}},
                          {"references", {"https://example.org/hostile"}}}}}}
                      .dump(2));
        const QStringList where{QStringLiteral("--hardware"), q(w.snapshot),
                                QStringLiteral("--catalog-dir"), q(w.catalogDir)};
        const Run applied =
            w.cli(QStringList{QStringLiteral("remedy"), QStringLiteral("apply"),
                              QStringLiteral("needs-fixed"), QStringLiteral("--workload"),
                              QStringLiteral("hostile")} +
                  where);
        QVERIFY2(applied.rc == 0, applied.err.c_str());
        // The summary names the flag with its value too.
        QVERIFY2(applied.out.find("args added: --fixed, yes") != std::string::npos ||
                     applied.out.find("args added: --fixed yes") != std::string::npos,
                 applied.out.c_str());
        Run r = w.cli(w.launchArgs({QStringLiteral("--json")}));
        QVERIFY2(r.rc == 0, r.err.c_str());
        QCOMPARE(readAll(w.pids.string() + ".args"), std::string("--listen\nyes\n--fixed\nyes\n"));
        const Run undone = w.cli(QStringList{QStringLiteral("remedy"), QStringLiteral("undo"),
                                             QStringLiteral("needs-fixed")} +
                                 where);
        QVERIFY2(undone.rc == 0, undone.err.c_str());
        r = w.cli(w.launchArgs({QStringLiteral("--json")}));
        QVERIFY2(r.rc == 0, r.err.c_str());
        QCOMPARE(readAll(w.pids.string() + ".args"), std::string("--listen\nyes\n"));
    }

    // A 200 KB value passed the dry run, and then the launch failed (no process can
    // hold it). The dry run says it will not be set, and the launch runs without it.
    void pass2_anOversizedValueIsLeftOutInTheDryRunAndTheLaunch()
    {
        ShellWorld w;
        w.write("env -0 > \"$PIDS.env\"");
        writeSettings(
            w, json::object({{"env", {{"BIG", std::string(200 * 1024, 'v')}, {"SMALL", "1"}}}}));
        const Run dry =
            w.cli(w.launchArgs({QStringLiteral("--dry-run"), QStringLiteral("--json")}));
        QVERIFY2(dry.rc == 0, dry.err.c_str());
        const json plan = json::parse(dry.out);
        QVERIFY(!plan.at("env").contains("BIG"));
        const json* c = changeOf(plan, "BIG");
        QVERIFY2(c && c->value("reason", "").rfind("not set: ", 0) == 0, dry.out.c_str());
        const Run r = w.cli(w.launchArgs());
        QVERIFY2(r.rc == 0, r.err.c_str());
        const auto seen = readEnv(w.pids.string() + ".env");
        QCOMPARE(valueOf(seen, "SMALL"), std::string("1"));
        QVERIFY(!seen.count("BIG"));
    }
};

QTEST_GUILESS_MAIN(Pass2Environment)
#include "pass2_environment.moc"
