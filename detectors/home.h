#pragma once
// Where the user's home lives. A home on a network filesystem breaks GPU stacks
// whose caches live there (MIOpen's and PyTorch's caches on NFS end in
// HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: https://github.com/ROCm/ROCm/issues/3951,
// known issue "hsa-aperture-violation" in profiles/catalog/known-issues.json), so the
// snapshot says which filesystem it is. One implementation per OS: linux/home_linux.cpp,
// windows/.

#include "core/snapshot.h"

namespace sp {

HomeInfo detectHome();

} // namespace sp
