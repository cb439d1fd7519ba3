#pragma once
// The window's words for what the catalog and the planner say in their own terms: a
// profile's status, why a profile ranks lower, what this PC's smoke tests found, and
// the catalog's user-facing texts in the window's language. Nothing here names an id,
// an issue number or a maintainer's term: a user reads these.

#include "core/catalog/types.h"
#include "core/evidence/evidence.h"

#include <QDate>
#include <QString>

namespace sp::gui {

// The window's language as a locale name ("zh_CN", "en_US"): the catalog's texts
// follow it.
QString uiLanguage();
// The catalog's user text in the window's language (English when it has none).
QString userText(const UserText& text);

// The part of the stack a failure comes from, by the explainer's id
// (core/logmatch/explain.h): "the HIP runtime", "the workload itself".
QString componentPhrase(const std::string& component);

// "works, tested by StackPilot's team" for "tested", ...
QString statusPhrase(const QString& status);
// What the status means, for a tooltip.
QString statusExplanation(const QString& status);

// Why an available profile is not the first, from the planner's rank code
// (PlanReason::rank).
QString rankPhrase(const std::string& code);

// "Passed its check on this PC today" / "... 3 days ago" / "Failed its check on this PC
// 2 days ago" / "Passed on this PC before the driver changed; it is checked again".
QString evidencePhrase(const LocalVerdict& verdict, const QDate& today);

// What users' PCs reported for a stack (the catalog's ledger proof, brought by the feed),
// for a card of GPU family `arch` ("gfx1031"; "" for a stack on the processor):
// "Passed on 214 PCs with a graphics card like yours, 3 failed (last: 3 days ago).";
// "No results from PCs like yours yet; it passed on 20 PCs with other cards."; with a proof
// made before the ledger counted per family, "Passed on 20 PCs with this stack, ..."; or
// that no PC reported yet.
QString proofPhrase(const ProfileProof* proof, const std::string& arch, const QDate& today);

} // namespace sp::gui
