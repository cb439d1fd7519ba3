// Generates a 100 MB log of realistic clean lines (from the clean fixture logs) with
// a failure line every few thousand lines, then times the matcher with the real
// built-in known issues against a plain read of the same file, `grep -c` of one
// literal, and GNU `grep -E -c -f` running the same signatures and causes (the target: the
// matcher is not slower). Also times catastrophic-backtracking signatures, which RE2
// runs in linear time. Fails only when the matches found are not the ones planted.

#include "core/catalog/loader.h"
#include "core/logmatch/causes.h"
#include "core/logmatch/matcher.h"
#include "core/logmatch/signature.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <re2/re2.h>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

const fs::path kLogs = fs::path(STACKPILOT_SOURCE_DIR) / "tests/logmatch/logs";

std::vector<std::string> linesOf(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) {
        if (!l.empty() && l.back() == '\r')
            l.pop_back();
        out.push_back(std::move(l));
    }
    return out;
}

// Every pattern the matcher runs: the signatures, and the causes as signatures
// (core/logmatch/causes.h). `ere`: in GNU grep's syntax, where a case-blind group
// "(?i:x)" is a plain group (the objects of `on` are written in their usual case).
std::vector<std::string> allPatterns(const sp::logmatch::LogMatcher& m, bool ere)
{
    std::vector<std::string> out;
    for (const auto& k : m.issues()) {
        out.insert(out.end(), k.signatures.begin(), k.signatures.end());
        for (const auto& c : k.causes)
            for (const auto& s : sp::logmatch::causeSignatures(c)) {
                std::string p = s.pattern;
                for (std::size_t at; ere && (at = p.find("(?i:")) != std::string::npos;)
                    p.replace(at, 4, "(");
                out.push_back(p);
            }
    }
    return out;
}

template <class F> double bestSeconds(int runs, F&& f)
{
    double best = 1e9;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = Clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
    }
    return best;
}

std::size_t plainRead(const fs::path& p, bool splitLines)
{
    std::ifstream in(p, std::ios::binary);
    std::vector<char> buf(std::size_t{4} << 20);
    std::size_t n = 0;
    while (in) {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (!splitLines) {
            n += got;
            continue;
        }
        for (const char* s = buf.data();
             const void* nl = std::memchr(s, '\n', static_cast<std::size_t>(buf.data() + got - s));)
            s = static_cast<const char*>(nl) + 1, ++n;
    }
    return n;
}

} // namespace

int main(int argc, char** argv)
{
    const std::size_t targetBytes =
        (argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100) * 1000 * 1000;

    sp::CatalogLoader loader;
    if (auto r =
            loader.addFile(fs::path(STACKPILOT_SOURCE_DIR) / "profiles/catalog/known-issues.json");
        !r) {
        std::cerr << r.error().message << "\n";
        return 1;
    }
    auto compiled = sp::logmatch::LogMatcher::compile(loader.catalog().knownIssues);
    if (!compiled) {
        std::cerr << compiled.error().message << "\n";
        return 1;
    }
    const auto& matcher = *compiled;

    // Clean material from every clean fixture; failure lines: the first matching line
    // of each failure fixture, found with the matcher on the fixture itself.
    std::vector<std::string> clean;
    std::vector<std::pair<std::string, std::string>> failures; // (issue, line)
    for (const auto& e : fs::directory_iterator(kLogs)) {
        const auto name = e.path().filename().string();
        if (name.rfind("clean-", 0) == 0) {
            for (auto& l : linesOf(e.path()))
                clean.push_back(std::move(l));
        } else if (name.rfind("fail-", 0) == 0) {
            auto ms = sp::logmatch::scanFile(matcher, e.path());
            const auto lines = linesOf(e.path());
            if (ms && !ms->empty())
                failures.emplace_back(ms->front().knownIssue, lines[ms->front().line - 1]);
        }
    }
    std::sort(failures.begin(), failures.end());

    const fs::path dir =
        fs::temp_directory_path() / ("sp-bench-logmatch-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path file = dir / "mixed.log";
    std::map<std::string, std::size_t> planted;
    std::size_t lines = 0;
    {
        std::ofstream out(file, std::ios::binary);
        std::mt19937 rng(42);
        std::size_t written = 0;
        std::string buf;
        while (written < targetBytes) {
            buf.clear();
            for (int i = 0; i < 4096; ++i) {
                if (rng() % 5000 == 0) {
                    const auto& f = failures[rng() % failures.size()];
                    buf += f.second;
                    ++planted[f.first];
                } else {
                    buf += clean[rng() % clean.size()];
                }
                buf += (rng() % 4 == 0) ? "\r\n" : "\n";
                ++lines;
            }
            out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
            written += buf.size();
        }
    }
    const double mb = static_cast<double>(fs::file_size(file)) / 1e6;

    std::size_t readBytes = 0;
    const double tRead = bestSeconds(3, [&] { readBytes = plainRead(file, false); });
    const double tSplit = bestSeconds(3, [&] { plainRead(file, true); });
    std::vector<sp::logmatch::LogMatch> found;
    const double tMatch = bestSeconds(3, [&] {
        auto r = sp::logmatch::scanFile(matcher, file);
        if (r)
            found = *r;
    });
    double tGrep = -1;
    {
        const std::string cmd = "grep -c HIPBLAS_STATUS_UNKNOWN '" + file.string() + "' > '" +
                                (dir / "grep-c.out").string() + "' 2>&1";
        if (std::system("command -v grep > /dev/null 2>&1") == 0)
            tGrep = bestSeconds(3, [&] { [[maybe_unused]] int rc = std::system(cmd.c_str()); });
    }
    // The same signatures through GNU grep's regex engine (they are plain ERE).
    const fs::path sigFile = dir / "signatures.txt";
    {
        std::ofstream out(sigFile, std::ios::binary);
        for (const auto& p : allPatterns(matcher, true))
            out << p << "\n";
    }
    // Its output goes to a real file: with stdout on /dev/null GNU grep stops at the
    // first match (nobody reads the rest), which would time almost nothing.
    double tGrepAll = -1;
    std::size_t grepLines = 0;
    {
        const fs::path grepOut = dir / "grep.out";
        const std::string cmd = "grep -E -f '" + sigFile.string() + "' '" + file.string() +
                                "' > '" + grepOut.string() + "' 2>/dev/null";
        if (std::system("command -v grep > /dev/null 2>&1") == 0) {
            tGrepAll = bestSeconds(3, [&] { [[maybe_unused]] int rc = std::system(cmd.c_str()); });
            grepLines = linesOf(grepOut).size();
        }
    }
    // What the prefilter saves: every regex on every line, on the first 2 MB.
    std::vector<std::shared_ptr<const re2::RE2>> all;
    for (const auto& p : allPatterns(matcher, false))
        all.push_back(*sp::logmatch::compileSignature(p));
    std::string sample;
    {
        std::ifstream in(file, std::ios::binary);
        sample.resize(2000000);
        in.read(sample.data(), static_cast<std::streamsize>(sample.size()));
    }
    const double tNaive = bestSeconds(1, [&] {
        std::istringstream in(sample);
        std::size_t n = 0;
        for (std::string l; std::getline(in, l);)
            for (const auto& re : all)
                n += re2::RE2::PartialMatch(l, *re) ? 1 : 0;
        if (n == std::size_t(-1))
            std::cout << "";
    });

    // Backtracking signatures: hours for std::regex, linear for RE2.
    sp::KnownIssue evil;
    evil.id = "evil";
    evil.signatures = {"(a+)+$", "(a*)*b"};
    auto evilMatcher = sp::logmatch::LogMatcher::compile({evil});
    std::string aLines;
    for (int i = 0; i < 2000; ++i)
        aLines += std::string(60, 'a') + "!\n";
    const double tEvil = bestSeconds(3, [&] {
        sp::logmatch::LogScan scan(*evilMatcher);
        scan.feedBytes(aLines);
        scan.finish();
    });

    std::printf(
        "log: %.1f MB, %zu lines, %zu failure lines planted; catalog: %zu issues, %zu "
        "signatures, %zu literals\n",
        mb, lines,
        [&] {
            std::size_t n = 0;
            for (auto& [k, v] : planted)
                n += v;
            return n;
        }(),
        matcher.issues().size(), matcher.signatureCount(), matcher.literalCount());
    std::printf("plain read (4 MiB blocks):      %7.3f s  %8.0f MB/s\n", tRead, mb / tRead);
    std::printf("read + split lines (memchr):    %7.3f s  %8.0f MB/s\n", tSplit, mb / tSplit);
    if (tGrep >= 0)
        std::printf("grep -c one literal:            %7.3f s  %8.0f MB/s\n", tGrep, mb / tGrep);
    if (tGrepAll >= 0)
        std::printf("grep -E -f (same signatures):   %7.3f s  %8.0f MB/s  (%zu lines)\n", tGrepAll,
                    mb / tGrepAll, grepLines);
    std::printf("log matcher (all known issues): %7.3f s  %8.0f MB/s\n", tMatch, mb / tMatch);
    std::printf("every regex on every line:      %8.0f MB/s (on 2 MB)\n", 2.0 / tNaive);
    std::printf("ratio matcher/plain read: %.2fx the time", tMatch / tRead);
    if (tGrep >= 0)
        std::printf(", matcher/grep -c: %.2fx", tMatch / tGrep);
    std::printf("; target >= 100 MB/s: %s\n", mb / tMatch >= 100 ? "met" : "NOT met");
    if (tGrepAll >= 0)
        std::printf("matcher vs grep -E -f: %.2fx grep's speed (target >= 1: %s)\n",
                    tGrepAll / tMatch, tGrepAll >= tMatch ? "met" : "NOT met");
    std::printf("backtracking signatures (a+)+$ and (a*)*b on 2000 lines of 60 'a': %.2f ms\n",
                tEvil * 1000);

    // Correctness: exactly the planted issues, each counted as often as planted.
    bool ok = found.size() == planted.size();
    for (const auto& m : found)
        ok = ok && planted.count(m.knownIssue) && planted[m.knownIssue] == m.count;
    fs::remove_all(dir);
    if (!ok || readBytes == 0) {
        std::printf("FAILED: matches differ from the planted failure lines\n");
        for (const auto& m : found)
            std::printf("  found %s x%zu (planted %zu)\n", m.knownIssue.c_str(), m.count,
                        planted.count(m.knownIssue) ? planted[m.knownIssue] : 0);
        return 1;
    }
    std::printf("matches: every planted failure found, nothing else\n");
    return 0;
}
