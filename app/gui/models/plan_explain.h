#pragma once
// "Why this stack?" in a user's words (issue 33, item 2): what the stack is, why it comes
// before each other stack, what it changes on this PC and what cannot be checked before
// it runs. Ids, variables and commands are kept apart for the experts' fold. Built from
// the plan view alone, so the dialog needs nothing else.

#include "app/gui/models/plan_view.h"

namespace sp::gui {

struct PlanExplanation
{
    QStringList what;         // the stack in words, how far it is proven, this PC's check
    QStringList above;        // one per other stack: why the chosen one comes first
    QStringList changes;      // what installing and starting it changes on this PC
    QStringList unverifiable; // what cannot be checked before it runs
    QString expert;           // profile and download ids, variables, commands (plain text)
};

PlanExplanation explainPlan(const PlanView& view);

// A command as a person would type it: arguments with spaces are quoted.
QString commandLine(const std::vector<std::string>& argv);

} // namespace sp::gui
