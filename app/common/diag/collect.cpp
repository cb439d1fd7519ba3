// collect(): gathers the report and the files, verifies the installed runtimes and
// redacts everything, the slow parts (verify, redaction of logs) on worker threads.

#include "app/common/diag/bundle.h"
#include "app/common/diag/collect_parts.h"
#include "core/json_file.h"
#include "core/launch/launch_prep.h"
#include "core/os_family.h"
#include "core/paths.h"
#include "installers/prefix_store.h"
#include "stackpilot_version.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace fs = std::filesystem;

namespace sp::diag {

using detail::RawEntry;

namespace {

// Runs jobs on worker threads; the calling thread reports progress as they finish.
void runJobs(const std::vector<std::function<void()>>& jobs, const CollectOptions& o,
             const std::string& step)
{
    std::atomic<std::size_t> next{0};
    std::size_t finished = 0;
    std::mutex m;
    std::condition_variable cv;
    const std::size_t workers =
        std::min<std::size_t>(jobs.size(), std::max(2u, std::thread::hardware_concurrency()));
    std::vector<std::thread> threads;
    for (std::size_t w = 0; w < workers; ++w)
        threads.emplace_back([&] {
            for (std::size_t i; (i = next++) < jobs.size();) {
                if (!o.cancel.cancelled())
                    jobs[i]();
                const std::lock_guard<std::mutex> lock(m);
                ++finished;
                cv.notify_one();
            }
        });
    for (std::size_t reported = 0; reported < jobs.size();) {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return finished > reported; });
        reported = finished;
        lock.unlock();
        if (o.progress)
            o.progress({step, static_cast<int>(reported), static_cast<int>(jobs.size())});
    }
    for (auto& t : threads)
        t.join();
}

struct Machine
{
    HardwareSnapshot snap;
    std::vector<RawProbeOutput> raw;
    std::string source; // "detected" or the file
};

Machine machine(const CollectOptions& o)
{
    if (o.snapshot)
        return {*o.snapshot, {}, o.snapshotOrigin.empty() ? "file" : "file " + o.snapshotOrigin};
    Machine m;
    m.snap = detectHardware(o.detect, &m.raw);
    m.source = "detected";
    return m;
}

// The workload the report looks at closely.
std::string focusWorkload(const CollectOptions& o, const detail::Plans& plans,
                          const std::vector<LaunchRecord>& launches)
{
    if (!o.workload.empty())
        return o.workload;
    if (!launches.empty() && plans.byWorkload.count(launches.front().workload))
        return launches.front().workload;
    for (const auto& id : plans.order)
        if (auto it = plans.byWorkload.find(id);
            it != plans.byWorkload.end() && !it->second.profile.empty())
            return id;
    return {};
}

// A variable's name and value sit in separate fields of the environment difference:
// values of secret-named variables are removed here, the rest by Redactor::json.
void redactEnvChanges(nlohmann::json& report, RedactionCounts& counts)
{
    if (!report.contains("environment"))
        return;
    for (auto& c : report["environment"]["changes"]) {
        if (!Redactor::isSecretName(c.value("name", "")))
            continue;
        for (const char* field : {"before", "after"})
            if (!c[field].get<std::string>().empty()) {
                c[field] = Redactor::marker(RedactionKind::SecretVariable);
                counts.add(RedactionKind::SecretVariable);
            }
    }
}

Entry redactEntry(const Redactor& r, const RawEntry& raw)
{
    Entry e;
    e.name = r.text(raw.name, e.redactions);
    e.bytes = raw.json ? r.jsonText(raw.bytes, e.redactions) : r.text(raw.bytes, e.redactions);
    e.note = raw.note;
    return e;
}

// Steps reported through options.progress; false once cancelled.
class Steps
{
public:
    explicit Steps(const CollectOptions& o) : m_o(o) {}
    bool next(const std::string& name)
    {
        if (m_o.progress)
            m_o.progress({name, m_done++, kTotal});
        return !m_o.cancel.cancelled();
    }
    void finish() const
    {
        if (m_o.progress)
            m_o.progress({"done", kTotal, kTotal});
    }

private:
    static constexpr int kTotal = 6;
    const CollectOptions& m_o;
    int m_done = 0;
};

// What collect() gathers before anything is redacted.
struct State
{
    nlohmann::json report;
    std::vector<RawEntry> raw;
    std::vector<std::string> runtimeIds;
};

// The report's sections that need the catalog: plans, the focus workload's environment
// and doctor findings, recent launches.
void addPlanSections(nlohmann::json& report, const CollectOptions& o, const Machine& m,
                     const LoadedCatalog* catalog, const Settings& settings, const EnvMap& env,
                     const std::vector<LaunchRecord>& launches)
{
    detail::Plans plans;
    if (catalog)
        plans = detail::makePlans(m.snap, catalog->catalog, settings);
    const std::string focus = focusWorkload(o, plans, launches);
    const auto it = plans.byWorkload.find(focus);
    const Plan* plan =
        it == plans.byWorkload.end() || it->second.profile.empty() ? nullptr : &it->second;
    const bool thisMachine = !o.snapshot || m.snap.os.family == toString(hostOs());
    report["plans"] = plans.json;
    report["focus_workload"] = focus;
    report["launches"] = detail::launchesJson(launches, catalog ? &catalog->catalog : nullptr);
    report["doctor"] = catalog
                           ? detail::doctorJson(m.snap, catalog->catalog, plan, env, thisMachine)
                           : nlohmann::json::array();
    if (plan)
        report["environment"] = detail::environmentJson(*plan, env, m.snap.os.family);
}

std::vector<RawEntry> fileEntries(const Machine& m, const std::vector<std::string>& ids,
                                  const std::vector<LaunchRecord>& launches)
{
    std::vector<RawEntry> raw = detail::probeEntries(m.raw);
    auto append = [&raw](std::vector<RawEntry> part) {
        std::move(part.begin(), part.end(), std::back_inserter(raw));
    };
    append(detail::configEntries(paths::configDir()));
    append(detail::receiptEntries(PrefixStore::defaultRoot(), ids));
    append(detail::launchEntries(paths::logDir(), launches));
    append(detail::appLogEntries());
    append(detail::evidenceEntries());
    return raw;
}

Expected<State> gather(const CollectOptions& o, const EnvMap& env, Steps& steps)
{
    if (!steps.next("catalog"))
        return Error::cancelled();
    CatalogLoadOptions catalogOptions;
    catalogOptions.extraDirs = o.catalogDirs;
    auto loaded = loadCatalog(catalogOptions);
    if (!loaded && !o.catalogDirs.empty())
        return loaded.error(); // a file the user named is broken: say so, as every verb does
    const LoadedCatalog* catalog = loaded ? &*loaded : nullptr;
    if (catalog && !o.workload.empty() && !catalog->catalog.workload(o.workload))
        return Error::usage("unknown workload '" + o.workload + "'");

    if (!steps.next("hardware"))
        return Error::cancelled();
    const Machine m = machine(o);
    const auto settings = Settings::load();

    if (!steps.next("plans"))
        return Error::cancelled();
    const auto launches = listLaunchRecords(paths::logDir());
    State s;
    s.report = {{kBundleSchemaKey, kBundleSchema},
                {"stackpilot_version", STACKPILOT_VERSION},
                {"hardware_source", m.source},
                {"hardware", detail::hardwareJson(m.snap)},
                {"catalog", detail::catalogJson(catalog, loaded ? "" : loaded.error().message,
                                                detail::catalogOverrideNames(paths::configDir()))},
                // The settings as loaded, so that plan --hardware report.json plans with the
                // user's profile choices and remedies (redacted with the rest of the report).
                {"settings", settings ? nlohmann::json::parse(settings->toJson())
                                      : nlohmann::json{{"error", settings.error().message}}}};
    addPlanSections(s.report, o, m, catalog, settings ? *settings : Settings{}, env, launches);

    if (!steps.next("files"))
        return Error::cancelled();
    s.runtimeIds = PrefixStore(PrefixStore::defaultRoot()).installedIds();
    s.raw = fileEntries(m, s.runtimeIds, launches);
    return s;
}

// Verify and redaction side by side on worker threads; results land by index, so the
// order is fixed whatever finishes first.
std::vector<Entry> verifyAndRedact(State& s, const Redactor& redactor, const CollectOptions& o)
{
    const fs::path root = PrefixStore::defaultRoot();
    std::vector<nlohmann::json> verified(s.runtimeIds.size());
    std::vector<Entry> entries(s.raw.size());
    std::vector<std::function<void()>> jobs;
    for (std::size_t i = 0; i < s.runtimeIds.size(); ++i)
        jobs.push_back([&, i] { verified[i] = detail::verifyRuntime(root, s.runtimeIds[i]); });
    std::vector<std::size_t> bySize(s.raw.size());
    for (std::size_t i = 0; i < s.raw.size(); ++i)
        bySize[i] = i;
    std::stable_sort(bySize.begin(), bySize.end(), [&](std::size_t a, std::size_t b) {
        return s.raw[a].bytes.size() > s.raw[b].bytes.size(); // the big ones first
    });
    for (std::size_t i : bySize)
        jobs.push_back([&, i] { entries[i] = redactEntry(redactor, s.raw[i]); });
    runJobs(jobs, o, "verify and redact");
    s.report["runtimes"] = verified;
    return entries;
}

// report.json and report.md (from the redacted report), then the files, with the totals.
Bundle assemble(nlohmann::json report, std::vector<Entry> files, const Redactor& redactor)
{
    Bundle b;
    nlohmann::json listed = nlohmann::json::array();
    for (const auto& e : files) {
        b.redactions += e.redactions;
        listed.push_back({{"name", e.name},
                          {"bytes", e.bytes.size()},
                          {"redactions", e.redactions.toJson()},
                          {"note", e.note}});
    }
    RedactionCounts reportCounts, markdownCounts;
    redactEnvChanges(report, reportCounts);
    b.report = redactor.json(report, reportCounts);
    b.report["entries"] = listed; // names already redacted
    std::string markdown = redactor.text(detail::renderMarkdown(b.report), markdownCounts);
    b.redactions += reportCounts;
    b.redactions += markdownCounts;
    // The totals go in last: numbers and kind names, nothing to redact.
    b.report["redactions"] = b.redactions.toJson();
    markdown += "\n## Redactions\n\nWhat was removed, by kind (values are never recorded): " +
                b.redactions.summary() + ".\n";
    b.entries.push_back({"report.md", std::move(markdown), markdownCounts, {}});
    b.entries.push_back(
        {kBundleReportEntry,
         b.report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
         reportCounts,
         {}});
    std::move(files.begin(), files.end(), std::back_inserter(b.entries));
    return b;
}

// Who to redact, and the secrets to redact by value: the values of secret-named
// variables in the environment the report describes and in settings.json.
Identity identityFor(const CollectOptions& o, const EnvMap& env)
{
    Identity id = o.identity ? *o.identity : Identity::fromEnvironment();
    id.addSecretValues(std::vector<std::pair<std::string, std::string>>(env.begin(), env.end()));
    if (const auto settings = Settings::load())
        id.addSecretValuesIn(nlohmann::json::parse(settings->toJson(), nullptr, false));
    return id;
}

} // namespace

Expected<Bundle> collect(const CollectOptions& o)
{
    Steps steps(o);
    const EnvMap env = o.environment ? *o.environment : currentEnvironment();
    const Redactor redactor(identityFor(o, env));
    auto state = gather(o, env, steps);
    if (!state)
        return state.error();
    if (!steps.next("verify and redact"))
        return Error::cancelled();
    std::vector<Entry> files = verifyAndRedact(*state, redactor, o);
    if (!steps.next("report"))
        return Error::cancelled();
    Bundle b = assemble(std::move(state->report), std::move(files), redactor);
    steps.finish();
    return b;
}

} // namespace sp::diag
