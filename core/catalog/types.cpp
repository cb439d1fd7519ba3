#include "core/catalog/types.h"

#include <algorithm>

namespace sp {

namespace {
template <class T> const T* findById(const std::vector<T>& v, const std::string& id)
{
    auto it = std::find_if(v.begin(), v.end(), [&](const T& e) { return e.id == id; });
    return it == v.end() ? nullptr : &*it;
}
} // namespace

const Runtime* Catalog::runtime(const std::string& id) const
{
    return findById(runtimes, id);
}
const Workload* Catalog::workload(const std::string& id) const
{
    return findById(workloads, id);
}
const Profile* Catalog::profile(const std::string& id) const
{
    return findById(profiles, id);
}
const KnownIssue* Catalog::knownIssue(const std::string& id) const
{
    return findById(knownIssues, id);
}

} // namespace sp

namespace sp {

std::string toString(ProfileStatus s)
{
    switch (s) {
    case ProfileStatus::Tested:
        return "tested";
    case ProfileStatus::Community:
        return "community";
    case ProfileStatus::Experimental:
        return "experimental";
    }
    return "experimental";
}

} // namespace sp
