#pragma once

#include "core/snapshot.h"

namespace sp {

// The running OS, for the snapshot's "os" field.
OsInfo currentOs();

} // namespace sp
