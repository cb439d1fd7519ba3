#include "core/select/gpu_choice.h"

#include "core/select/select.h"
#include "core/strings.h"

#include <algorithm>
#include <cctype>

namespace sp {

namespace {

// An index: one or two digits ("7900" is a name, as in "RX 7900").
bool isIndex(const std::string& s)
{
    return !s.empty() && s.size() <= 2 && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
}

// "03:00.0" -> "0000:03:00.0"; lower case. Empty when `s` is no bus address.
std::string busOf(const std::string& s)
{
    std::string b = lower(s);
    if (b.size() == 7)
        b = "0000:" + b;
    const bool shape = b.size() == 12 && b[4] == ':' && b[7] == ':' && b[10] == '.';
    return shape && std::all_of(b.begin(), b.end(),
                                [](char c) {
                                    return std::isxdigit(static_cast<unsigned char>(c)) ||
                                           c == ':' || c == '.';
                                })
               ? b
               : std::string();
}

std::string listGpus(const HardwareSnapshot& snap)
{
    std::string out;
    for (std::size_t i = 0; i < snap.gpus.size(); ++i)
        out += (out.empty() ? "" : "; ") + std::to_string(i) + ": " + describeGpu(snap.gpus[i]);
    return out.empty() ? "none" : out;
}

Expected<int> byName(const HardwareSnapshot& snap, const std::string& spec)
{
    const std::string want = lower(spec);
    std::vector<int> exact, partial;
    for (int i = 0; i < static_cast<int>(snap.gpus.size()); ++i) {
        const std::string name = lower(snap.gpus[i].name);
        if (name == want)
            exact.push_back(i);
        else if (!want.empty() && name.find(want) != std::string::npos)
            partial.push_back(i);
    }
    const auto& hits = exact.empty() ? partial : exact;
    if (hits.size() == 1)
        return hits.front();
    if (hits.empty())
        return Error::usage("--gpu " + spec + " names no GPU of this PC (" + listGpus(snap) + ")");
    std::string buses;
    for (int i : hits)
        buses += (buses.empty() ? "" : " or ") +
                 (snap.gpus[i].pciBus.empty() ? std::to_string(i) : snap.gpus[i].pciBus);
    return Error::usage("--gpu " + spec + " names " + std::to_string(hits.size()) +
                        " GPUs; give the bus address (or index) of one: " + buses);
}

} // namespace

Expected<int> resolveGpuSpec(const HardwareSnapshot& snap, const std::string& spec)
{
    if (spec.find_first_not_of(" \t") == std::string::npos)
        return Error::usage("--gpu names nothing: give an index, a PCI bus address or a name (" +
                            listGpus(snap) + ")");
    if (isIndex(spec)) {
        const int i = std::stoi(spec);
        if (i < static_cast<int>(snap.gpus.size()))
            return i;
        return Error::usage("--gpu " + spec + " is past the end: this PC has " +
                            std::to_string(snap.gpus.size()) + " GPU(s) (" + listGpus(snap) + ")");
    }
    if (const std::string bus = busOf(spec); !bus.empty()) {
        for (int i = 0; i < static_cast<int>(snap.gpus.size()); ++i)
            if (lower(snap.gpus[i].pciBus) == bus)
                return i;
        return Error::usage("--gpu " + spec + " names no GPU of this PC (" + listGpus(snap) + ")");
    }
    return byName(snap, spec);
}

std::optional<int> findGpu(const HardwareSnapshot& snap, const GpuIdentity& id)
{
    const int n = static_cast<int>(snap.gpus.size());
    for (int i = 0; i < n && !id.pciBus.empty(); ++i)
        if (lower(snap.gpus[i].pciBus) == lower(id.pciBus) &&
            (id.pciId.empty() || lower(snap.gpus[i].pciId) == lower(id.pciId)))
            return i;
    std::vector<int> same;
    for (int i = 0; i < n; ++i)
        if (lower(snap.gpus[i].pciId) == lower(id.pciId) && snap.gpus[i].name == id.name &&
            (id.pciBus.empty() || snap.gpus[i].pciBus.empty())) // two buses: two cards
            same.push_back(i);
    if (same.size() == 1)
        return same.front();
    return std::nullopt; // gone, or two such cards and neither at the remembered bus
}

Expected<GpuPick> pickGpu(const HardwareSnapshot& snap, const std::string& spec,
                          const std::optional<GpuIdentity>& remembered)
{
    GpuPick pick;
    if (!spec.empty()) {
        auto i = resolveGpuSpec(snap, spec);
        if (!i)
            return i.error();
        pick.index = *i;
        pick.chosenBy = "--gpu";
        return pick;
    }
    if (remembered) {
        if (const auto i = findGpu(snap, *remembered)) {
            pick.index = *i;
            pick.chosenBy = "settings";
            return pick;
        }
        pick.warnings.push_back("the GPU chosen for this workload, " + describeGpu(*remembered) +
                                ", is not in this PC any more; planning for the default GPU");
    }
    pick.index = chooseGpu(snap);
    pick.chosenBy = "default";
    return pick;
}

} // namespace sp
