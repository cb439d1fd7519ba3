#pragma once
// The words a user reads about a failure, chosen from its cause (core/failure_cause.h)
// and never from its message: the one place for them, so the window's failure card,
// the CLI's line under an error and every language say the same thing. Translated in
// the "Cause" context (resources/translations); QtCore only.

#include "core/failure_cause.h"

#include <QString>

namespace sp {

// What happened and what helps, in plain words, in the language of the installed
// translator. The words name no button of the window: the CLI prints them too.
QString causeWords(Cause cause);

} // namespace sp
