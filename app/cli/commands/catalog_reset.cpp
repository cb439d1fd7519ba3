// stackpilot-cli catalog reset-feed NAME [--yes]: forgets the rollback floors of one
// feed (every key that signed it), the way out when a feed's publisher signed a wrong
// version. It asks at a terminal; a script passes --yes; without either it refuses.

#include "app/cli/commands/catalog_verbs.h"
#include "core/catalog/feed/store.h"
#include "core/paths.h"

#include <cstdio>
#include <iostream>
#include <ostream>

#ifdef _WIN32
#include <io.h>
#define SP_ISATTY _isatty
#define SP_FILENO _fileno
#else
#include <unistd.h>
#define SP_ISATTY isatty
#define SP_FILENO fileno
#endif

namespace sp::cli {

namespace {

void describe(Io& io, const std::string& name, const std::optional<feed::FeedState>& st)
{
    io.err << "catalog reset-feed " << name << ": forgets the highest version of feed \"" << name
           << "\" recorded here, so its next `catalog update` accepts any version this "
              "machine trusts, an older one too. The catalog in use stays as it is.\n";
    if (st)
        for (const auto& c : st->counters)
            if (c.feed == name)
                io.err << "  recorded: version " << c.highest << ", key " << c.keyId << "\n";
}

} // namespace

int runCatalogResetFeed(const QCommandLineParser& p, Io& io, const std::string& name)
{
    const feed::FeedStore store;
    auto st = store.state();
    if (!st) {
        io.err << "stackpilot-cli catalog: " << st.error().message << "\n";
        return exitCodeFor(st.error());
    }
    describe(io, name, *st);
    if (!p.isSet(QStringLiteral("yes"))) {
        if (!SP_ISATTY(SP_FILENO(stdin))) {
            io.err << "stackpilot-cli catalog: reset-feed asks first; pass --yes to reset "
                      "without a terminal\n";
            return 2;
        }
        io.err << "Reset feed \"" << name << "\"? [y/N] " << std::flush;
        std::string answer;
        std::getline(std::cin, answer);
        if (answer.empty() || (answer[0] != 'y' && answer[0] != 'Y')) {
            io.err << "nothing changed\n";
            return 1;
        }
    }
    auto removed = store.resetFeed(name);
    if (!removed) {
        io.err << "stackpilot-cli catalog: " << removed.error().message << "\n";
        return exitCodeFor(removed.error());
    }
    io.out << "feed \"" << name << "\" reset: its next update may take any version\n";
    return 0;
}

} // namespace sp::cli
