// Catalog loading must be linear in its size: generates catalogs of 10,000, 50,000 and
// 100,000 profiles (each with a match, runtimes, env, args and steps, as real ones
// have), loads each through the real loader (parse, position index, entry checks,
// merge, reference checks) and prints the times and the ratio of the largest to ten
// times the smallest (target <= 1.2). Fails only when a load fails.

#include "core/catalog/loader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

namespace {

std::string catalogText(int profiles)
{
    std::string t = R"({"schema_version": 1,
  "runtimes": [
    {"id": "py", "kind": "python", "version": "3.11", "system": true,
     "executable": {"linux": "bin/python3"}},
    {"id": "rocm", "kind": "rocm", "version": "6.2", "system": true,
     "supported_gfx": ["gfx1030", "gfx1100"]}],
  "workloads": [{"id": "w", "name": "W", "command": ["{python}", "main.py"]}],
  "profiles": [)";
    for (int i = 0; i < profiles; ++i) {
        t += i ? ",\n" : "\n";
        t += R"(    {"id": "p-)" + std::to_string(i) +
             R"(", "workload": "w", "status": "community",
     "match": {"os": ["linux"], "vendor": "amd", "gfx": ["gfx1030", "gfx1100"], "min_vram_mb": 4096},
     "runtimes": ["py", "rocm"], "venv": true, "env": {"MIOPEN_FIND_MODE": "2"},
     "args": ["--port", "{gpu_index}"], "steps": [["{base_python}", "-m", "venv", "{venv}"]]})";
    }
    return t + "\n  ]\n}\n";
}

double loadSeconds(const std::string& text, std::size_t& loaded)
{
    double best = 1e9;
    for (int run = 0; run < 3; ++run) {
        const auto t0 = std::chrono::steady_clock::now();
        sp::CatalogLoader loader;
        auto r = loader.addText(text, "bench.json");
        if (r)
            r = loader.checkReferences();
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!r) {
            std::printf("FAILED: %s\n", r.error().message.c_str());
            loaded = 0;
            return -1;
        }
        loaded = loader.catalog().profiles.size();
        best = std::min(best, s);
    }
    return best;
}

} // namespace

int main()
{
    const int sizes[] = {10000, 50000, 100000};
    double times[3] = {};
    for (int i = 0; i < 3; ++i) {
        const std::string text = catalogText(sizes[i]);
        std::size_t loaded = 0;
        times[i] = loadSeconds(text, loaded);
        if (times[i] < 0 || loaded != static_cast<std::size_t>(sizes[i]))
            return 1;
        std::printf("%6d profiles (%5.1f MB): %7.3f s  %8.0f profiles/s\n", sizes[i],
                    static_cast<double>(text.size()) / 1e6, times[i], sizes[i] / times[i]);
    }
    const double ratio = times[2] / (10 * times[0]);
    std::printf("100,000 / (10 x 10,000): %.2f (target <= 1.2: %s); 50,000 / (5 x 10,000): %.2f\n",
                ratio, ratio <= 1.2 ? "met" : "NOT met", times[1] / (5 * times[0]));
    return 0;
}
