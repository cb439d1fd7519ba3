#pragma once
// Where the user's home lives. A home on a network filesystem breaks GPU stacks
// whose caches live there (seed 004: MIOpen/torch caches on NFS), so the snapshot
// says which filesystem it is. One implementation per OS: linux/home_linux.cpp,
// windows/.

#include "core/snapshot.h"

namespace sp {

HomeInfo detectHome();

} // namespace sp
