// stackpilot-probe: loads one vendor GPU library and prints what it reports as
// one JSON object on stdout. It runs as a child of the launcher so that a driver
// which crashes or hangs while loading takes only this process down.
//   stackpilot-probe hip|nvml|cuda
// Exit codes: 0 a JSON object was printed (whatever the probe's status), 2 usage.

#include "probes.h"

#include <cstdio>
#include <cstring>
#include <string>

#ifdef _WIN32
#include <windows.h>
#endif

namespace probe {

nlohmann::json makeResult(const char* name)
{
    nlohmann::json r;
    r["schema"] = 1;
    r["probe"] = name;
#ifdef _WIN32 // the probe is plain C++ without core; it says which build it is
    r["platform"] = "windows";
#else
    r["platform"] = "linux";
#endif
    r["status"] = "missing";
    r["detail"] = "";
    r["devices"] = nlohmann::json::array();
    return r;
}

nlohmann::json finishDevices(nlohmann::json& result, nlohmann::json devices,
                             const std::string& firstError)
{
    const std::size_t n = devices.size();
    result["devices"] = std::move(devices);
    if (n == 0) {
        result["detail"] = firstError.empty() ? "no device" : firstError;
        return result;
    }
    result["status"] = "ok";
    result["detail"] = std::to_string(n) + " device(s)";
    return result;
}

bool openVendorLibrary(DynLib& lib, nlohmann::json& result,
                       const std::vector<std::string>& candidates,
                       std::initializer_list<const char*> hidingVariables)
{
    for (const char* v : hidingVariables)
        unsetEnv(v);
    if (!lib.open(candidates)) {
        result["detail"] = lib.error();
        return false;
    }
    result["library"] = lib.path();
    result["status"] = "failed";
    return true;
}

std::string stripTargetFeatures(const std::string& target)
{
    const auto colon = target.find(':');
    return colon == std::string::npos ? target : target.substr(0, colon);
}

std::string fixedString(const char* data, std::size_t size)
{
    std::size_t n = 0;
    while (n < size && data[n] != '\0')
        ++n;
    return std::string(data, n);
}

} // namespace probe

int main(int argc, char** argv)
{
#ifdef _WIN32
    // No "cannot find DLL" or crash dialogs: the parent reports those as a status.
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX);
#endif
    if (argc != 2 || (std::strcmp(argv[1], "hip") != 0 && std::strcmp(argv[1], "nvml") != 0 &&
                      std::strcmp(argv[1], "cuda") != 0)) {
        std::fprintf(stderr, "usage: stackpilot-probe hip|nvml|cuda\n");
        return 2;
    }
    const std::string which = argv[1];
    nlohmann::json r;
    try {
        r = which == "hip"    ? probe::probeHip()
            : which == "nvml" ? probe::probeNvml()
                              : probe::probeCuda();
    } catch (const std::exception& e) {
        r = probe::makeResult(which.c_str());
        r["status"] = "failed";
        r["detail"] = std::string("exception: ") + e.what();
    }
    // Vendor strings are not always valid UTF-8; replace rather than throw.
    const std::string out = r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    // A vendor library may have printed to stdout without a final newline; the
    // parent reads the last line that starts with '{', so start a fresh one.
    std::fputc('\n', stdout);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
    return 0;
}
