#pragma once
// The catalog's value types: runtimes, workloads, profiles and known issues, as read
// from profiles/*.json and the user's catalog.d/. Fields may be added; existing
// ones keep their meaning (the log matcher and the installer rely on them).

#include "core/catalog/conditions.h"
#include "core/catalog/model_types.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sp {

// Where an entry came from, for "file:line:col" messages and override notices.
struct SourceLocation
{
    std::string file;
    int line = 0;
    int column = 0;
    std::string toString() const
    {
        return file + ":" + std::to_string(line) + ":" + std::to_string(column);
    }
};

struct Artifact
{
    std::string url;
    std::vector<std::string> mirrors;
    std::optional<std::string> sha256; // absent = not pinned: never part of a tested profile
    // Bytes of the download as the publisher states them (a release page or API, the
    // server's Content-Length), or as a public copy records them next to the same
    // sha256: an install that receives another size fails.
    std::optional<std::uint64_t> size;
    // "size": N with "size_unverified": true: the size is known only from a record that
    // is not the publisher's and has no digest to tie it to the file. A user is told it
    // (expectedSize) and `catalog check` compares it with the server, but an install does
    // not enforce it: what arrives first is recorded (trust on first use).
    std::optional<std::uint64_t> unverifiedSize;
    // "size_unknown": true: no public source for the size was found (the runtime's notes
    // and docs/SOURCES-2026.md say where it was looked for). The window names the part
    // as one whose size is not known before it is downloaded.
    bool sizeUnknown = false;
    // zip | tar.gz | tar.xz | tar.zst | deb | file | exe-installer | git
    std::string format;
    // format "git": the 40-hex commit checked out. The commit id is the git artifact's
    // integrity check, so it stands in for sha256.
    std::optional<std::string> commit;
    std::string tag; // the release tag the commit was taken from (documentation only)
    int stripComponents = 0;
    std::string fileName;                          // for format "file": name inside the prefix
    std::vector<std::string> installerArgs;        // for exe-installer: silent-install arguments
    std::optional<std::uint64_t> maxExtractedSize; // bomb guard; default derives from size
    // Where the exact asset name (the URL) was seen: a release page, or a public script
    // or document at a commit. A shipped artifact has evidence or is marked unverified.
    std::vector<std::string> urlEvidence;
    bool urlUnverified = false; // "url_unverified": no public source shows this asset name

    bool isGit() const { return format == "git"; }
    // The URL's last path segment, without query: how progress and errors name it.
    std::string displayName() const;
    bool pinned() const { return isGit() ? commit.has_value() : sha256.has_value(); }
    // The size a user is told before the download: the checked size, else the unverified
    // record; none for a git checkout (what a fetch transfers is the server's choice) or a
    // size nobody published.
    std::optional<std::uint64_t> expectedSize() const { return size ? size : unverifiedSize; }
};

// One variable that limits which GPUs a runtime's programs see ("visible_devices" on a
// runtime): set to the chosen GPU's index in `api` (core/gpu_indices.h), so every other
// GPU, the iGPU included, is hidden from it.
struct VisibleDevices
{
    std::string variable; // "ROCR_VISIBLE_DEVICES"
    std::string api;      // "rocr", "hip", "cuda", "vulkan"
    // A variable whose runtime numbers only what `after` leaves visible: HIP counts the
    // devices ROCR_VISIBLE_DEVICES left, so HIP_VISIBLE_DEVICES is 0 when both are set.
    std::string after;
    std::vector<std::string> os;             // empty: every OS the runtime runs on
    std::map<std::string, std::string> with; // set alongside ("CUDA_DEVICE_ORDER": "PCI_BUS_ID")
    std::string why;                         // what the variable does, with its source
};

struct Runtime
{
    std::string id;
    std::string
        kind; // hip-sdk | zluda | rocblas-library | rocm | cuda | llamafile | python | source | ...
    std::string version;
    std::vector<std::string> os;
    std::vector<Artifact> artifacts;
    std::map<std::string, std::string> env; // set whenever the runtime is part of a plan
    std::vector<std::string> references;
    std::string notes;
    SourceLocation where;
    // gfx targets the runtime ships native kernels for (ROCm, HIP SDK); the selection
    // engine sets HSA_OVERRIDE_GFX_VERSION only for a gfx outside this list.
    std::vector<std::string> supportedGfx;
    // NVIDIA compute capabilities a CUDA build ships kernels for ("8.6"); a card runs a
    // build that has its major version at the same or a lower minor (SASS). An entry
    // "8.0+PTX" also carries PTX, which the driver compiles for any newer card; PyTorch
    // lists only SASS, llama.cpp's release builds carry PTX (parseCcBuild).
    std::vector<std::string> supportedCc;
    // Where the runtime lives once installed, when not <data>/runtimes/<id> (the HIP SDK
    // installs system-wide, e.g. C:\\Program Files\\AMD\\ROCm\\5.7). Template.
    std::string installDir;
    bool system = false;                // provided by the OS/vendor installer, not downloaded
    std::vector<std::string> requires_; // runtime ids this one is built for (rocBLAS packs)
    std::string indexUrl;               // pip index for wheel runtimes (PyTorch ROCm/CUDA)
    // The runtime's program per OS, relative to its folder ("python.exe", "bin/python3"):
    // what {base_python} names for a python runtime.
    std::map<std::string, std::string> executable;
    // Subfolders put first on PATH (and LD_LIBRARY_PATH on Linux) when the runtime is
    // part of a plan: how a rocBLAS pack shadows the SDK's rocblas.dll without
    // writing into the SDK.
    std::vector<std::string> pathDirs;
    std::map<std::string, std::string> envWhy; // explanation per env variable
    // The variables that pick the GPU for this runtime, in order (a later one may number
    // only what an earlier one leaves visible).
    std::vector<VisibleDevices> visibleDevices;
    bool hasUnpinnedArtifact() const
    {
        for (const auto& a : artifacts)
            if (!a.pinned())
                return true;
        return false;
    }
    // An artifact whose download URL no public source was found to show (url_unverified).
    bool hasUnverifiedUrl() const
    {
        for (const auto& a : artifacts)
            if (a.urlUnverified)
                return true;
        return false;
    }
};

// One text a user reads, in each language the catalog carries (docs/CATALOG.md, "User
// texts"). Beside the maintainer's evidence (notes, titles, remedy texts), which keeps
// its ids and references, these are what the window shows.
struct UserText
{
    std::string en;
    std::string zhCN; // "" = not translated (the check refuses that for shipped entries)
    // The text for a Qt/POSIX locale name: "zh_CN", "zh", "zh_CN.UTF-8", "zh-Hans" -> zhCN
    // when not empty; anything else -> en.
    const std::string& in(std::string_view language) const;
    bool empty() const { return en.empty(); }
};

struct ProfileUi
{
    // Short name of the way it runs, no version soup: "AMD's ZLUDA route",
    // "AMD ROCm PyTorch", "CPU only (slow)", "NVIDIA CUDA".
    UserText route;
    // One or two plain sentences: what this stack is and why it fits (no ids, no
    // "seed", no issue numbers).
    UserText summary;
    std::vector<UserText> warnings; // the user-facing form of Profile::warnings, same order
};

struct WorkloadUi
{
    UserText name;  // "SD.Next"
    UserText about; // one line: what it is for ("Makes pictures from text prompts ...")
};

// A model in the catalog: the work a workload runs, beside the runtimes that run it.
struct Model
{
    std::string id;
    std::string kind; // gguf | sd15-checkpoint | sdxl-checkpoint | vae | lora | ... (open)
    std::vector<std::string> workloads;
    std::string family; // the same model in several quantizations shares it
    std::vector<ModelFile> files;
    ModelLicense license;
    std::string params; // "1.5B"
    std::string quant;  // "Q4_K_M"
    std::optional<std::uint64_t> contextLength;
    std::optional<std::uint64_t> minVramMb;
    std::optional<std::uint64_t> recommendedVramMb;
    std::vector<std::string> references;
    WorkloadUi ui; // its name and one line about it, as the window shows them
    SourceLocation where;

    std::uint64_t bytes() const
    {
        std::uint64_t n = 0;
        for (const ModelFile& f : files)
            n += f.size;
        return n;
    }
};

struct KnownIssueUi
{
    UserText title; // what the user sees happening, in plain words
    UserText fix;   // what to do, plain words, no CLI commands
};

// The smoke test's deadline when neither the workload nor the profile sets one: a torch
// start-up compiling its kernels on first use takes a minute or two, a hang takes forever.
inline constexpr int kDefaultVerifyTimeoutS = 300;
inline constexpr int kMaxVerifyTimeoutS = 86400;

// A workload's arguments that depend on the machine (a workload's `args_when`): the
// low-memory options of the SD apps follow the card's VRAM as data, not code.
struct ArgsRule
{
    Conditions when; // a profile `match`'s keys, and max_vram_mb
    std::vector<std::string> args;
    // Skipped when the plan already passes one of these (the user's own choice, or a
    // profile's): the apps refuse two options of one exclusive group.
    std::vector<std::string> unlessArgs;
    UserText why; // why these arguments, in plain words
    std::vector<std::string> references;
    SourceLocation where;
};

struct Workload
{
    std::string id;
    std::string name;
    std::vector<std::string> command;
    std::string cwd;
    std::string urlRegex;
    std::optional<int> defaultPort; // the port it listens on without a --port argument
    std::map<std::string, std::string> env;
    SourceLocation where;
    std::map<std::string, std::vector<std::string>> commandByOs; // "windows" -> argv template
    std::vector<std::string> references;
    // The smoke test that proves a stack computes on this card (docs/VERIFY.md): an argv
    // template run like a step, in the composed environment, printing one JSON line
    // {"ok": true|false, "device", "arch", "seconds", ...}. Empty: none.
    std::vector<std::string> verify;
    // How long the smoke test may run, its whole process tree included, before it is
    // stopped and counts as failed (docs/VERIFY.md); unset: kDefaultVerifyTimeoutS.
    std::optional<int> verifyTimeoutS;
    WorkloadUi ui;                      // what the window calls it and says it is for
    std::optional<WorkloadModel> model; // absent: it takes no model
    std::vector<ArgsRule> argsWhen;     // every rule that holds adds its args, in order
};

enum class ProfileStatus
{
    Tested,
    Community,
    Experimental
};
std::string toString(ProfileStatus s);

// What results shared from users' PCs say about a profile, as `ledger propose` wrote them
// (docs/LEDGER.md): distinct PCs that passed and failed within the window, and when.
// The ledger's counts for one GPU family: the cards of one gfx target or one CUDA compute
// capability ("gfx1031", "sm_89"), which run the same kernels.
struct GpuFamilyProof
{
    std::string arch;
    std::int64_t passedInstalls = 0;
    std::int64_t failedInstalls = 0;
    std::int64_t installs = 0;
    std::string lastSeen; // ISO 8601
};

struct ProfileProof
{
    std::int64_t passedInstalls = 0;
    std::int64_t failedInstalls = 0;
    std::int64_t installs = 0;
    int windowDays = 0;
    std::string firstSeen, lastSeen;   // ISO 8601
    std::vector<GpuFamilyProof> byGpu; // "by_gpu"; empty in a proof made before it existed

    const GpuFamilyProof* family(const std::string& arch) const
    {
        for (const auto& f : byGpu)
            if (!arch.empty() && f.arch == arch)
                return &f;
        return nullptr;
    }
};

struct Profile
{
    std::string id;
    std::string workload;
    ProfileStatus status = ProfileStatus::Experimental;
    Conditions match;
    std::vector<std::string> runtimes;
    std::map<std::string, std::string> env;
    std::vector<std::string> envUnset;
    std::vector<std::string> args;
    std::vector<std::vector<std::string>> steps;
    std::vector<std::string> references;
    std::string notes;
    SourceLocation where;
    std::vector<std::string> command; // replaces the workload's command when not empty
    std::string python; // what {python} expands to; empty = the venv's or the python runtime's
    bool venv = false;  // the profile has its own virtual environment, <data>/venvs/<id>
    std::vector<std::string> warnings; // told to the user whenever the profile is chosen
    std::map<std::string, std::string> envWhy;
    bool fallback = false; // ranks after every non-fallback profile (CPU fallback)
    std::string cwd;       // replaces the workload's cwd when not empty
    // Ranks profiles of the same status: higher first (default 0). Where the sources name
    // one route as preferred (AMD's own PyTorch over ZLUDA on RDNA3+, a vendor backend
    // over Vulkan), the profile says so here and its notes say why.
    int preference = 0;
    std::vector<std::string> verify;   // replaces the workload's smoke test when not empty
    std::optional<int> verifyTimeoutS; // replaces the workload's deadline when set
    ProfileUi ui;                      // what the window says about it
    std::optional<ProfileProof> proof; // from the ledger, when a maintainer published one
};

// What to do about a known issue. Every action but Info can be applied (and undone)
// by core/remedy: it writes a per-workload override into settings.json.
enum class RemedyAction
{
    SwitchProfile,  // switch_profile: use `profile`, or the next best one when it is empty
    SetEnv,         // set_env: add `env` to the launch environment
    AddArgs,        // add_args: append `args` to the workload's command line
    RelocateCaches, // relocate_caches: move caches to a local disk even on a local home
    RepairRuntime,  // repair_runtime: reinstall `runtime`, or the plan's runtime of `runtime_kind`
    Info            // info: advice only, nothing to apply
};
std::string toString(RemedyAction a);
// The action spelled as in the catalog, or nullopt for an unknown spelling.
std::optional<RemedyAction> remedyActionFromString(const std::string& s);

struct Remedy
{
    RemedyAction action = RemedyAction::Info;
    std::string text;    // one or two sentences a user can act on
    std::string profile; // switch_profile: target profile id (may be empty: "next best")
    std::map<std::string, std::string> env; // set_env (and a hint for relocate_caches)
    std::vector<std::string> args;          // add_args
    std::string runtime;                    // repair_runtime: a runtime id ...
    std::string runtimeKind;                // ... or the kind of the plan's runtime ("zluda")
};

// The context a cause needs before it counts (docs/CATALOG.md, "Causes"): what the log,
// or the machine it ran on, shows. Empty: none. Causes that share a code are told apart
// by it (an "unspecified launch failure" is a driver reset only on Windows).
struct CauseContext
{
    std::vector<std::string> os;       // "windows" | "linux": one of them
    std::vector<std::string> runtimes; // "rocm" | "cuda" | "zluda" | "vulkan": one of them named
    int minGpus = 0;                   // at least this many GPUs listed
    bool igpuFailing = false;          // the failing device is an integrated GPU
    std::optional<RangeCondition> rocmVersion; // a ROCm version in this range is named

    bool empty() const
    {
        return os.empty() && runtimes.empty() && minGpus == 0 && !igpuFailing && !rocmVersion;
    }
};

// A cause a known issue stands for: its error code and the names runtimes print for it.
// A line that carries either is evidence, whatever else it says.
struct KnownIssueCause
{
    std::string code;               // "hipErrorLaunchFailure", "WinError 1114": a whole word
    std::vector<std::string> names; // "unspecified launch failure": first letter in either case
    std::vector<std::string> on;    // where set, the line must also name one (a DLL, a library)
    CauseContext when;              // the context it needs
    std::vector<std::string> over;  // known issues it outranks on the line it is found on
    SourceLocation where;
};

struct KnownIssue
{
    std::string id;
    std::string title;
    Conditions applies;
    std::vector<std::string> signatures; // ECMAScript regexes, matched per line
    // The machine's condition as a log shows it: where not empty, a signature's match
    // is reported only once some line of the same log (before or after) matches one of
    // these (igpu-selected: a discrete GPU next to the integrated one in use).
    std::vector<std::string> logRequires;
    std::vector<std::string> literals; // optional explicit prefilters; else derived from the regex
    std::vector<KnownIssueCause> causes; // matched like signatures, by code or name
    Remedy remedy;
    std::vector<std::string> references;
    SourceLocation where;
    bool rejectsProfiles = false; // selection rejects a profile for which `applies` holds
    KnownIssueUi ui;              // what the window says happened and what to do
};

// Policy tables (docs/CATALOG.md, "Policy tables"): knowledge that selection applies
// to every profile, kept as data so a user file can extend or override it.

// HSA_OVERRIDE_GFX_VERSION convention: a gfx without native kernels runs the
// kernels of `hsaOverride` (same major family). Keyed by `gfx`.
struct GfxOverride
{
    std::string gfx;
    std::string hsaOverride;     // "10.3.0"
    std::vector<std::string> os; // where the convention holds (HIP on Windows ignores it)
    std::string confidence;      // established | reported | inferred
    std::string evidence;
    std::string warning; // told to the user whenever the override is used; may be empty
    std::vector<std::string> references;
    SourceLocation where;
};

// An override that must never be used, with its evidence: selection refuses any
// `gfx_overrides` convention (built-in or a user's) that one of these matches. Keyed by
// `id`.
struct GfxOverrideBan
{
    std::string id;
    std::vector<std::string> gfx;         // targets or family patterns ("gfx115*")
    std::vector<std::string> hsaOverride; // the refused values; empty = any override
    std::vector<std::string> os;          // empty = any OS
    // Only when the overridden runtime is one of these (e.g. ROCm >= 7); empty = always.
    std::vector<RuntimeCondition> whenRuntime;
    std::string evidence;
    std::vector<std::string> references;
    SourceLocation where;
};

// A cache that breaks GPU stacks on a network home; moved to <base>/<subdir>. Keyed by `name`.
struct CacheVariable
{
    std::string name;   // TORCH_HOME
    std::string subdir; // torch
    std::string why;
    std::vector<RuntimeCondition> whenRuntime; // only when the plan has such a runtime
    // Set on every machine to <cache>/<subdir>, not only on a network home: a cache that
    // every profile shares (pip's wheels: a 2.5 GB torch wheel is downloaded once).
    bool always = false;
    std::vector<std::string> references;
    SourceLocation where;
};

// Where relocated caches go on each OS when no local cache folder is set. Keyed by `os`.
// `{user}` in `base` is the last component of the snapshot's home folder.
struct CacheRelocation
{
    std::string os;
    std::string base;
    std::string why;
    SourceLocation where;
};

struct Catalog
{
    std::vector<Runtime> runtimes;
    std::vector<Workload> workloads;
    std::vector<Profile> profiles;
    std::vector<KnownIssue> knownIssues;
    std::vector<GfxOverride> gfxOverrides;
    std::vector<GfxOverrideBan> gfxOverrideBans;
    std::vector<CacheVariable> cacheVariables;
    std::vector<CacheRelocation> cacheRelocations;
    std::vector<Model> models;

    const Runtime* runtime(const std::string& id) const;
    const Model* model(const std::string& id) const;
    const Workload* workload(const std::string& id) const;
    const Profile* profile(const std::string& id) const;
    const KnownIssue* knownIssue(const std::string& id) const;
    // The convention for `gfx` on `os`, or null.
    const GfxOverride* gfxOverride(const std::string& gfx, const std::string& os) const;
    const CacheRelocation* cacheRelocation(const std::string& os) const;
};

} // namespace sp
