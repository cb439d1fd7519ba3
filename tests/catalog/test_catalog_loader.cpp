// The catalog loader: every error class names file:line:col, unknown fields warn,
// user files override built-in entries with a notice, broken user files are skipped,
// and the loader accepts exactly the field names the JSON Schema documents.

#include "core/catalog/loader.h"
#include "core/catalog/version_range.h"
#include "loader_fixtures.h"

#include <QTemporaryDir>
#include <QTest>
#include <fstream>

namespace {

std::string load(const std::string& text, std::vector<std::string>* warnings = nullptr)
{
    sp::CatalogLoader loader;
    auto r = loader.addText(text, "c.json");
    if (r)
        r = loader.checkReferences();
    if (warnings)
        *warnings = loader.warnings();
    return r ? std::string() : r.error().message;
}

void write(const std::filesystem::path& p, const std::string& text)
{
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

} // namespace

class TestCatalogLoader : public QObject
{
    Q_OBJECT
private slots:
    void baseLoads()
    {
        std::vector<std::string> w;
        QCOMPARE(load(kBase, &w), std::string());
        QVERIFY(w.empty());
    }

    void syntaxErrorHasLineAndColumn()
    {
        const auto e = load("{\"schema_version\": 1,\n  \"runtimes\": [,]\n}");
        QVERIFY2(e.rfind("c.json:2:16: invalid JSON", 0) == 0, e.c_str());
    }

    void wrongTypeHasPosition()
    {
        const auto e = load("{\"schema_version\": 1,\n\"workloads\": [{\"id\": \"w\", \"name\": 5, "
                            "\"command\": [\"x\"]}]}");
        QVERIFY2(e == "c.json:2:27: 'name' must be a string", e.c_str());
    }

    void workloadPortIsRead()
    {
        auto e = load("{\"schema_version\": 1,\n\"workloads\": [{\"id\": \"w\", \"name\": \"W\", "
                      "\"command\": [\"x\"], \"default_port\": 0}]}");
        QVERIFY2(e.find("'default_port' must be 1..65535") != std::string::npos, e.c_str());
        sp::CatalogLoader loader;
        QVERIFY(loader
                    .addFile(std::filesystem::path(STACKPILOT_SOURCE_DIR) /
                             "profiles/catalog/workloads.json")
                    .ok());
        QCOMPARE(loader.catalog().workload("comfyui")->defaultPort, std::optional<int>(8188));
    }

    void duplicateIdHasPosition()
    {
        const auto e = load("{\"schema_version\": 1, \"workloads\": [\n {\"id\": \"w\", \"name\": "
                            "\"a\", \"command\": [\"x\"]},\n"
                            " {\"id\": \"w\", \"name\": \"b\", \"command\": [\"x\"]}]}");
        QVERIFY2(e == "c.json:3:3: duplicate id 'w' in workloads", e.c_str());
    }

    void duplicateKeyHasPosition()
    {
        const auto e = load("{\"schema_version\": 1,\n \"schema_version\": 1}");
        QVERIFY2(e.rfind("c.json:2:2: duplicate key", 0) == 0, e.c_str());
    }

    void missingRuntimeHasPosition()
    {
        std::string text = kBase;
        text.replace(text.find("\"runtimes\": [\"rt\"]"), 18, "\"runtimes\": [\"rt\",\n \"nope\"]");
        const auto e = load(text);
        QVERIFY2(e.rfind("c.json:6:2: profile 'p' names runtime 'nope'", 0) == 0, e.c_str());
    }

    void badVersionRangeHasPosition()
    {
        const auto e =
            load("{\"schema_version\": 1, \"profiles\": [{\"id\": \"p\", \"workload\": \"w\",\n"
                 "  \"status\": \"community\", \"match\": {\"compute_capability\": \">=6.x\"}}]}");
        QVERIFY2(e.rfind("c.json:2:36: bad version range '>=6.x'", 0) == 0, e.c_str());
    }

    void badRegexHasPosition()
    {
        const auto e =
            load("{\"schema_version\": 1, \"known_issues\": [{\"id\": \"k\", \"title\": \"t\",\n"
                 "  \"signatures\": [\"ok\",\n    \"(unclosed\"]}]}");
        QVERIFY2(e.rfind("c.json:3:5: regex does not compile", 0) == 0, e.c_str());
    }

    void unknownPlaceholderIsAnError()
    {
        std::string text = kBase;
        text.replace(text.find("[\"run\"]"), 7, "[\"run\", \"{gpu}\"]");
        const auto e = load(text);
        QVERIFY2(e.find("c.json:4:59:") == 0 &&
                     e.find("unknown placeholder {gpu}") != std::string::npos,
                 e.c_str());
        text = kBase;
        text.replace(text.find("[\"run\"]"), 7, "[\"{runtime:ghost}/run\"]");
        QVERIFY(
            load(text).find("placeholder {runtime:ghost} names a runtime that does not exist") !=
            std::string::npos);
    }

    void planMustInstallWhatItPointsAt()
    {
        // The workload runs from a runtime folder that its profile does not install.
        std::string text = kBase;
        text.replace(text.find("[\"run\"]"), 7, "[\"{runtime:rt}/run\"]");
        QCOMPARE(load(text), std::string()); // listed: fine
        text.replace(text.find("\"runtimes\": [\"rt\"]"), 18, "\"runtimes\": []");
        const auto e = load(text);
        QVERIFY2(e.rfind("c.json:5:", 0) == 0 &&
                     e.find("uses {runtime:rt}, but does not list runtime 'rt'") !=
                         std::string::npos,
                 e.c_str());
    }

    void unknownFieldWarns()
    {
        std::string text = kBase;
        text.replace(text.find("\"name\": \"W\""), 11, "\"name\": \"W\", \"colour\": \"blue\"");
        std::vector<std::string> w;
        QCOMPARE(load(text, &w), std::string());
        QCOMPARE(w.size(), std::size_t(1));
        QVERIFY2(w[0].rfind("c.json:4:", 0) == 0 &&
                     w[0].find("unknown field 'colour'") != std::string::npos,
                 w[0].c_str());
    }

    void testedProfileRefusesUnpinnedArtifact()
    {
        std::string text = kBase;
        text.replace(text.find("\"community\""), 11, "\"tested\"");
        const auto e = load(text);
        QVERIFY2(e.find("is 'tested' but runtime 'rt' has an unpinned artifact") !=
                     std::string::npos,
                 e.c_str());
        text.replace(text.find("\"unpinned\": true"), 16,
                     "\"sha256\": \"" + std::string(64, 'a') + "\"");
        QCOMPARE(load(text), std::string());
        // An artifact must say which: pinned or not.
        text = kBase;
        text.replace(text.find(", \"unpinned\": true"), 18, "");
        QVERIFY(load(text).find("pin it or mark it") != std::string::npos);
    }

    void gitArtifactNeedsAFullCommit()
    {
        const std::string art = "{\"url\": \"https://example.org/a.zip\", \"format\": \"zip\", "
                                "\"unpinned\": true}";
        auto withArtifact = [&](const std::string& a) {
            std::string text = kBase;
            text.replace(text.find(art), art.size(), a);
            text.replace(text.find("\"community\""), 11, "\"tested\"");
            return text;
        };
        const std::string commit(40, 'e');
        const std::string git = "{\"url\": \"https://example.org/r.git\", \"format\": \"git\"";
        // Pinned by its commit: a tested profile may use it, with no sha256.
        sp::CatalogLoader loader;
        auto r = loader.addText(
            withArtifact(git + ", \"commit\": \"" + commit + "\", \"tag\": \"v1\"}"), "c.json");
        QVERIFY2(r.ok() && loader.checkReferences().ok(), r.ok() ? "" : r.error().message.c_str());
        const auto& a = loader.catalog().runtimes.at(0).artifacts.at(0);
        QCOMPARE(a.commit.value_or(""), commit);
        QCOMPARE(a.tag, std::string("v1"));
        QVERIFY(a.pinned() && !a.sha256);
        // No commit, a short one, an upper-case one, a sha256 instead: refused at the spot.
        auto e = load(withArtifact(git + "}"));
        QVERIFY2(e.rfind("c.json:3:3: ", 0) == 0 && e.find("needs 'commit'") != std::string::npos,
                 e.c_str());
        e = load(withArtifact(git + ", \"commit\": \"" + commit.substr(0, 7) + "\"}"));
        QVERIFY2(e.rfind("c.json:3:", 0) == 0 && e.find("40 lower-case hex") != std::string::npos,
                 e.c_str());
        std::string upper = commit;
        upper[0] = 'E';
        e = load(withArtifact(git + ", \"commit\": \"" + upper + "\"}"));
        QVERIFY2(e.rfind("c.json:3:", 0) == 0 && e.find("40 lower-case hex") != std::string::npos,
                 e.c_str());
        e = load(withArtifact(git + ", \"sha256\": \"" + std::string(64, 'a') + "\"}"));
        QVERIFY2(e.rfind("c.json:3:", 0) == 0 && e.find("no 'sha256'") != std::string::npos,
                 e.c_str());
        // A commit on a tarball means nothing: refused rather than silently ignored.
        e = load(withArtifact("{\"url\": \"https://example.org/a.zip\", \"format\": \"zip\", "
                              "\"sha256\": \"" +
                              std::string(64, 'a') + "\", \"commit\": \"" + commit + "\"}"));
        QVERIFY2(e.rfind("c.json:3:", 0) == 0 &&
                     e.find("only for artifacts of format") != std::string::npos,
                 e.c_str());
    }

    void urlEvidenceIsRead()
    {
        const std::string mark = "\"unpinned\": true";
        auto with = [&](const std::string& extra) {
            std::string text = kBase;
            text.replace(text.find(mark), mark.size(), mark + ", " + extra);
            return text;
        };
        sp::CatalogLoader loader;
        auto r = loader.addText(
            with("\"url_evidence\": [\"https://example.org/r/releases/tag/v1\"]"), "c.json");
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        const auto& rt = loader.catalog().runtimes.at(0);
        QCOMPARE(rt.artifacts.at(0).urlEvidence.size(), std::size_t(1));
        QVERIFY(!rt.hasUnverifiedUrl());
        sp::CatalogLoader unverified;
        QVERIFY(unverified.addText(with("\"url_unverified\": true"), "c.json").ok());
        QVERIFY(unverified.catalog().runtimes.at(0).hasUnverifiedUrl());
        // Both at once, an empty list, or evidence that is not an address: refused at the spot.
        auto e = load(with("\"url_unverified\": true, \"url_evidence\": [\"https://e.org\"]"));
        QVERIFY2(e.rfind("c.json:3:", 0) == 0 &&
                     e.find("cannot be 'url_unverified'") != std::string::npos,
                 e.c_str());
        e = load(with("\"url_evidence\": []"));
        QVERIFY2(e.find("at least one address") != std::string::npos, e.c_str());
        e = load(with("\"url_evidence\": [\"a script somewhere\"]"));
        QVERIFY2(e.find("http(s) addresses") != std::string::npos, e.c_str());
    }

    // A size is checked (size), only shown (size + size_unverified) or said to be unknown
    // (size_unknown); the marks that contradict each other are refused where they stand.
    void sizesAreReadWithTheirStanding()
    {
        const std::string mark = "\"unpinned\": true";
        auto with = [&](const std::string& extra) {
            std::string text = kBase;
            text.replace(text.find(mark), mark.size(), mark + ", " + extra);
            return text;
        };
        auto artifactOf = [&](const std::string& extra) {
            sp::CatalogLoader loader;
            auto r = loader.addText(with(extra), "c.json");
            if (!r.ok())
                qWarning("%s", r.error().message.c_str());
            return r.ok() ? loader.catalog().runtimes.at(0).artifacts.at(0) : sp::Artifact{};
        };
        auto a = artifactOf("\"size\": 1234");
        QCOMPARE(a.size.value_or(0), std::uint64_t(1234));
        QCOMPARE(a.expectedSize().value_or(0), std::uint64_t(1234));
        QVERIFY(!a.unverifiedSize && !a.sizeUnknown);
        // An unverified size is told to the user but never handed to the downloader.
        a = artifactOf("\"size\": 1234, \"size_unverified\": true");
        QVERIFY(!a.size);
        QCOMPARE(a.unverifiedSize.value_or(0), std::uint64_t(1234));
        QCOMPARE(a.expectedSize().value_or(0), std::uint64_t(1234));
        a = artifactOf("\"size_unknown\": true");
        QVERIFY(a.sizeUnknown && !a.expectedSize());
        auto e = load(with("\"size\": 1, \"size_unknown\": true"));
        QVERIFY2(e.rfind("c.json:3:", 0) == 0 &&
                     e.find("cannot be 'size_unknown'") != std::string::npos,
                 e.c_str());
        e = load(with("\"size_unverified\": true"));
        QVERIFY2(e.rfind("c.json:3:", 0) == 0 &&
                     e.find("needs the 'size' it qualifies") != std::string::npos,
                 e.c_str());
    }

    void knownIssueFieldsAreRead()
    {
        sp::CatalogLoader loader;
        auto r = loader.addText(kIssue, "k.json");
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        const auto& k = loader.catalog().knownIssues.at(0);
        QVERIFY(k.rejectsProfiles);
        QCOMPARE(k.signatures.at(0), std::string("rocblas\\.dll"));
        QVERIFY(k.remedy.action == sp::RemedyAction::SwitchProfile);
        QCOMPARE(sp::toString(k.remedy.action), std::string("switch_profile"));
        QCOMPARE(k.remedy.env.at("A"), std::string("1"));
        QCOMPARE(k.where.line, 1);
    }

    void remedyActionsAreTyped()
    {
        auto remedy = [](const std::string& r) {
            std::string text = kRemedyIssue;
            text.replace(text.find("REMEDY"), 6, r);
            return text;
        };
        sp::CatalogLoader loader;
        auto ok = loader.addText(remedy(R"({"action": "repair_runtime", "runtime_kind": "zluda"})"),
                                 "k.json");
        QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().message.c_str());
        const auto& r = loader.catalog().knownIssues.at(0).remedy;
        QVERIFY(r.action == sp::RemedyAction::RepairRuntime);
        QCOMPARE(r.runtimeKind, std::string("zluda"));
        QCOMPARE(load(remedy(R"({"action": "switch_profile", "profile": ""})")), std::string());

        // The old spellings and unknown actions are errors at the action's value.
        auto e = load(remedy(R"({"action": "switch-profile"})"));
        QVERIFY2(e.rfind("c.json:2:38: remedy 'action' 'switch-profile' is not one of", 0) == 0,
                 e.c_str());
        e = load(remedy(R"({"action": "reinstall"})"));
        QVERIFY2(e.find("'reinstall' is not one of") != std::string::npos, e.c_str());
        // Missing fields an action needs are errors at the remedy.
        e = load(remedy(R"({"action": "set_env"})"));
        QVERIFY2(e.rfind("c.json:2:27: a remedy 'set_env' needs a non-empty 'env'", 0) == 0,
                 e.c_str());
        e = load(remedy(R"({"action": "add_args", "args": []})"));
        QVERIFY2(e.rfind("c.json:2:60: a remedy 'add_args' needs a non-empty 'args'", 0) == 0,
                 e.c_str());
        e = load(remedy(R"({"action": "repair_runtime"})"));
        QVERIFY2(e.find("needs exactly one of 'runtime' or 'runtime_kind'") != std::string::npos,
                 e.c_str());
        e = load(remedy(R"({"action": "repair_runtime", "runtime": "nope"})"));
        QVERIFY2(e.find("names runtime 'nope', which does not exist") != std::string::npos,
                 e.c_str());
    }

    void versionRanges()
    {
        std::string err;
        auto r = sp::VersionRange::parse(">=6.1 <7.0", &err);
        QVERIFY(r && r->contains("6.1") && r->contains("6.9.2") && !r->contains("7.0") &&
                !r->contains("6.0"));
        r = sp::VersionRange::parse("6.1", &err);
        QVERIFY(r && r->contains("6.1") && r->contains("6.1.3") && !r->contains("6.2") &&
                !r->contains("6"));
        QVERIFY(!sp::VersionRange::parse("", &err));
        QVERIFY(!sp::VersionRange::parse("~6", &err));
        QVERIFY(!sp::VersionRange::parse(">=6.", &err));
    }

    void userFilesOverrideWithNoticeAndBrokenUserFilesAreSkipped()
    {
        QTemporaryDir tmp;
        const std::filesystem::path root = tmp.path().toStdString();
        write(root / "builtin/a.json", kBase);
        write(root / "user/1-broken.json", "{\"schema_version\": 1, \"profiles\": [");
        write(root / "user/2-good.json", R"({"schema_version": 1, "profiles": [
            {"id": "p", "workload": "w", "status": "experimental", "runtimes": ["rt"]}]})");
        sp::CatalogLoadOptions o;
        o.builtinDir = root / "builtin";
        o.userDirPath = root / "user";
        auto r = sp::loadCatalog(o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(r->catalog.profile("p")->status == sp::ProfileStatus::Experimental);
        QCOMPARE(r->notices.size(), std::size_t(1));
        QVERIFY2(r->notices[0].find("2-good.json:2:13: notice") != std::string::npos &&
                     r->notices[0].find("replaces") != std::string::npos,
                 r->notices[0].c_str());
        QCOMPARE(r->warnings.size(), std::size_t(1));
        QVERIFY2(r->warnings[0].find("1-broken.json:1:") != std::string::npos &&
                     r->warnings[0].find("skipped") != std::string::npos,
                 r->warnings[0].c_str());
        // The same broken file given with --catalog-dir is an error.
        o.userDir = false;
        o.extraDirs = {root / "user"};
        r = sp::loadCatalog(o);
        QVERIFY(!r.ok() && r.error().code == sp::ErrorCode::InvalidInput);
        QVERIFY(r.error().message.find("1-broken.json:1:") != std::string::npos);
        // A user file with a dangling reference is skipped too, not fatal.
        write(root / "user2/x.json", R"({"schema_version": 1, "profiles": [
            {"id": "q", "workload": "w", "status": "community", "runtimes": ["ghost"]}]})");
        o.extraDirs.clear();
        o.userDir = true;
        o.userDirPath = root / "user2";
        r = sp::loadCatalog(o);
        QVERIFY(r.ok() && !r->catalog.profile("q") && r->warnings.size() == 1);
    }

    void shippedCatalogLoadsClean()
    {
        sp::CatalogLoadOptions o;
        o.builtinDir = STACKPILOT_SOURCE_DIR "/profiles/catalog";
        o.userDir = false;
        auto r = sp::loadCatalog(o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        for (const auto& w : r->warnings)
            qWarning("%s", w.c_str());
        for (const char* w : {"sdnext", "comfyui", "llamafile", "autotrain-advanced", "pytorch"})
            QVERIFY2(r->catalog.workload(w), w);
        for (const char* k : {"rocm-zluda-rocblas-access-violation", "cuda-arch-mismatch"})
            QVERIFY2(r->catalog.knownIssue(k) && r->catalog.knownIssue(k)->rejectsProfiles, k);
        for (const auto& p : r->catalog.profiles)
            QVERIFY2(!p.references.empty(), p.id.c_str());
    }

    void schemaDocumentsEveryAcceptedField()
    {
        std::ifstream in(STACKPILOT_SOURCE_DIR "/profiles/schema/catalog.schema.json");
        QVERIFY(in.good());
        const auto schema = nlohmann::json::parse(in);
        QCOMPARE(schema["$schema"].get<std::string>(),
                 std::string("https://json-schema.org/draft/2020-12/schema"));
        for (const auto& [section, fields] : sp::CatalogLoader::acceptedFields()) {
            const auto& props =
                section == "file" ? schema["properties"] : schema["$defs"][section]["properties"];
            QVERIFY2(props.is_object(), section.c_str());
            for (const auto& f : fields)
                QVERIFY2(props.contains(f), (section + "." + f).c_str());
            // And the other way: the schema documents nothing the loader would warn about.
            for (auto it = props.begin(); it != props.end(); ++it)
                QVERIFY2(std::find(fields.begin(), fields.end(), it.key()) != fields.end(),
                         (section + "." + it.key()).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestCatalogLoader)
#include "test_catalog_loader.moc"
