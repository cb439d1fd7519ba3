#pragma once
// What the window shows about one workload's plan, computed off the GUI thread (it
// looks at the install folders): the recommended profile as a card (status, what will
// be installed with sizes, a short why and every reason), the other profiles with
// their verdicts, and what is missing before a launch. Pure data: widgets only read it.

#include "core/catalog/types.h"
#include "core/evidence/evidence.h"
#include "core/expected.h"
#include "core/select/plan.h"
#include "core/snapshot.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

namespace sp::gui {

struct RuntimeRow
{
    QString id;
    QString label;         // "ZLUDA 3.9.5"
    quint64 bytes = 0;     // what the catalog's sizes add up to (docs/CATALOG.md, "Sizes")
    bool sizeKnown = true; // false: part of it has no size before it is downloaded
    bool installed = false;
    bool system = false; // installed by its own installer, never downloaded
};

struct AlternativeRow
{
    QString profile;
    QString title;
    bool rejected = false;
    QStringList reasons;
    QStringList knownIssues;
    bool failedHere = false; // its smoke test failed on this PC
    QString plainReason;     // why it is not first (or cannot be used), in a user's words
    QString evidence;        // what its smoke test found on this PC, "" = never checked
};

// Who chose the workload's profile: the card's caption says so.
enum class PlanChoice
{
    Recommended,
    User,  // the profiles menu, or "back to the last stack that worked here"
    Remedy // a known problem's fix switched to it
};

struct PlanView
{
    QString workload;
    QString workloadName;
    std::optional<Plan> plan; // absent when planning failed
    QString error;            // why planning failed
    QString profile;          // empty: nothing fits
    QString title;            // the stack in words: "HIP SDK 5.7.1 + ZLUDA 3.9.5"
    QString status;           // tested | community | experimental
    QString why;              // one or two sentences
    // The card's words for a user: "SD.Next on your Radeon RX 6750 XT", "works, reported
    // by users · AMD's ZLUDA route", the profile's plain summary and warnings, what the
    // workload is for, and what this PC's smoke test found.
    QString headline;
    QString verdictLine;
    QString summary;
    QStringList warnings;
    QString about;
    QString evidence;
    QString othersEvidence; // what other users' PCs reported (proofPhrase)
    bool failedHere = false;
    bool onCpu = false; // a stack that runs on the processor: slower, and the card says so
    PlanChoice choice = PlanChoice::Recommended;
    // Before an install, one item each: download size, administrator rights, downloads
    // without a checksum, the profile's advice (antivirus, a long first start).
    QStringList checklist;
    QVector<RuntimeRow> runtimes;
    quint64 downloadBytes = 0; // of the runtimes not installed yet, from the sizes known
    // The runtimes not installed yet (labels, "SD.Next 2026.07.14 (source)") whose download
    // size is not known before it happens: a git checkout, the packages pip picks, a file
    // nobody published a size for. The card and the checklist name them.
    QStringList unsizedParts;
    QStringList toInstall; // runtime ids: missing ones, then those a remedy asked to repair
    QVector<AlternativeRow> alternatives; // explained ones: available, or a known issue
    QStringList otherMachine;             // made for another GPU, OS or vendor

    bool ready() const { return plan && !profile.isEmpty() && toInstall.isEmpty(); }
};

// The download before an install, in one sentence: the total of the sizes the catalog
// knows ("about 3.4 GiB"), and by name every part whose size is not known before it is
// downloaded; never a lower bound passed off as the total. The card says it with the
// number of parts, the checklist as its first item.
enum class DownloadWording
{
    Card,     // "To install: 6 parts, about 3.4 GiB to download, plus ..."
    Checklist // "Download: about 3.4 GiB, plus ..."
};
QString downloadSentence(const PlanView& v, DownloadWording wording);

// The stack of a profile in words, from its runtimes: "HIP SDK 5.7.1 + ZLUDA 3.9.5 +
// rocBLAS for gfx1031". Python, Git and sources are left out: every profile has them.
QString stackTitle(const Catalog& catalog, const std::string& profileId);

// A runtime in words ("ZLUDA 3.9.5", "SD.Next 2026.07.14 (source)"); "" for an unknown id.
QString runtimeLabel(const Catalog& catalog, const std::string& runtimeId);

// A catalog model in words ("Qwen2.5 1.5B Instruct (Q4_K_M)"); the id itself for a file.
QString modelLabel(const Catalog& catalog, const std::string& modelId);

// Builds the view; `installed(dir)` says whether a runtime folder is there (the real
// one checks the disk, so call this off the GUI thread).
// `verdicts`: this PC's smoke-test verdicts by profile id (core/evidence).
PlanView buildPlanView(const Catalog& catalog, const HardwareSnapshot& snapshot,
                       const std::string& workload, const Expected<Plan>& plan,
                       const std::map<std::string, LocalVerdict>& verdicts = {});

} // namespace sp::gui
