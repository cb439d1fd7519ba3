// stackpilot-cli catalog status|update|rollback|verify|publish: the signed catalog
// feed (docs/FEED.md). The checks live in core/catalog/feed; this file parses options
// and prints.

#include "app/cli/command.h"
#include "app/cli/commands/catalog_verbs.h"
#include "app/cli/commands/machine_options.h"
#include "core/catalog/feed/feed_list.h"
#include "core/catalog/feed/held_folder.h"
#include "core/catalog/feed/publish.h"
#include "core/catalog/feed/update.h"
#include "core/paths.h"
#include "core/settings.h"
#include "installers/feed_http_source.h"
#include "stackpilot_version.h"

#include <QDateTime>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

namespace sp::cli {

namespace {

using feed::DirectorySource;
using feed::FeedEntry;
using feed::FeedSource;
using feed::FeedState;
using feed::FeedStore;
using feed::Manifest;
using feed::parsePublicKey;
using feed::parseUtcTime;
using feed::PublishOptions;
using feed::TrustOptions;

QString opt(const char* name)
{
    return QString::fromLatin1(name);
}

std::unique_ptr<FeedSource> sourceFor(const std::string& feed, const QCommandLineParser& p)
{
    if (!isFeedUrl(feed))
        return std::make_unique<DirectorySource>(paths::fromUtf8(feed));
    DownloaderOptions o;
    if (p.isSet(opt("ca-file")))
        o.caFile = toPath(p.value(opt("ca-file")));
    // --timeout was checked by run(): a whole number of seconds from 1 to a day.
    const auto deadline = p.isSet(opt("timeout"))
                              ? std::chrono::seconds(p.value(opt("timeout")).toLongLong())
                              : kFeedDeadline;
    return std::make_unique<HttpFeedSource>(feed, o, deadline);
}

Expected<TrustOptions> trustFor(const QCommandLineParser& p, const std::optional<FeedState>& st,
                                const std::string& location, const std::vector<FeedEntry>& listed)
{
    // Shipped keys, the key settings list with the feed, the key it was first taken with.
    TrustOptions t = feed::trustFor(location, listed, st);
    if (p.isSet(opt("pubkey"))) {
        auto k = parsePublicKey(toStd(p.value(opt("pubkey"))));
        if (!k)
            return Error::usage("--pubkey: " + k.error().message);
        t.keys.push_back(*k);
    }
    return t;
}

int failWith(Io& io, const Error& e)
{
    io.err << "stackpilot-cli catalog: " << e.message << "\n";
    return exitCodeFor(e);
}

std::string ageOf(const std::string& published)
{
    auto t = parseUtcTime(published);
    if (!t)
        return "unknown age";
    const auto seconds = QDateTime::currentSecsSinceEpoch() - *t;
    if (seconds < 0) // a clock behind the publisher's; update refuses a day or more
        return "published in the future (check this machine's clock)";
    return std::to_string(seconds / 86400) + " day(s) old";
}

nlohmann::json statusJson(const FeedStore& store, const std::optional<FeedState>& st)
{
    nlohmann::json j = {
        {"shipped", STACKPILOT_VERSION}, {"feed", nullptr}, {"kept", nlohmann::json::array()}};
    for (const auto& v : store.kept()) {
        j["kept"].push_back(v.manifest.version);
        if (st && "v" + std::to_string(v.manifest.version) == st->active)
            j["feed"] = {{"version", v.manifest.version},
                         {"name", v.manifest.feed},
                         {"published", v.manifest.published},
                         {"expires", v.manifest.expires},
                         {"source", st->source},
                         {"key_id", st->keyId}};
    }
    return j;
}

void printListedFeeds(Io& io)
{
    auto settings = Settings::load();
    if (!settings)
        return;
    auto listed = feed::feedsFrom(*settings, paths::toUtf8(Settings::defaultFile()));
    if (!listed) {
        io.err << "stackpilot-cli catalog: " << listed.error().message << "\n";
        return;
    }
    for (const auto& f : *listed) {
        auto k = parsePublicKey(f.pubkey);
        io.out << "feed in settings: " << f.url << " ("
               << (k ? "key " + feed::keyIdHex(k->keyId) : std::string("shipped keys")) << ")\n";
    }
}

int printStatus(const FeedStore& store, Io& io, bool json)
{
    if (json) {
        auto st = store.state();
        if (!st)
            return failWith(io, st.error());
        io.out << statusJson(store, *st).dump(2) << "\n";
        return 0;
    }
    io.out << "shipped: catalog of StackPilot " << STACKPILOT_VERSION << "\n";
    printListedFeeds(io);
    auto st = store.state();
    if (!st) {
        io.err << "stackpilot-cli catalog: " << st.error().message << "\n";
        return 1;
    }
    if (!*st) {
        io.out << "in use: the shipped catalog (no feed installed)\n";
        return 0;
    }
    const FeedState& s = **st;
    const auto kept = store.kept();
    for (const auto& v : kept) {
        if ("v" + std::to_string(v.manifest.version) != s.active)
            continue;
        const Manifest& m = v.manifest;
        io.out << "in use: feed " << m.version << " (" << m.feed << "), published " << m.published
               << ", " << ageOf(m.published) << "\n";
        io.out << "source: " << s.source << "\nkey: " << s.keyId << "\nexpires: " << m.expires
               << "\n";
        auto expires = parseUtcTime(m.expires);
        if (expires && QDateTime::currentSecsSinceEpoch() >= *expires)
            io.out << "warning: feed " << m.version << " expired at " << m.expires
                   << "; it stays in use until an update succeeds\n";
    }
    io.out << "kept:";
    for (const auto& v : kept)
        io.out << " " << v.manifest.version;
    io.out << "\n";
    return 0;
}

// The feeds `update` tries, in order: the one named, else settings.json's "feeds", else
// the one installed last.
std::vector<std::string> feedsToTry(const QCommandLineParser& p, const std::string& where,
                                    const std::optional<FeedState>& st,
                                    const std::vector<FeedEntry>& listed)
{
    if (!where.empty())
        return {where};
    if (p.isSet(opt("feed")))
        return {toStd(p.value(opt("feed")))};
    std::vector<std::string> out;
    for (const auto& f : listed)
        out.push_back(f.url);
    if (out.empty() && st)
        out.push_back(st->source);
    return out;
}

Expected<feed::UpdateResult> updateFrom(const QCommandLineParser& p, const std::string& feed,
                                        bool verifyOnly, const std::optional<FeedState>& st,
                                        const std::vector<FeedEntry>& listed)
{
    const FeedStore store;
    const auto source = sourceFor(feed, p);
    auto trust = trustFor(p, st, source->location(), listed);
    if (!trust)
        return trust.error();
    auto r =
        verifyOnly ? feed::verifyFeed(*source, *trust) : feed::updateFeed(*source, *trust, store);
    if (!r || verifyOnly || !p.isSet(opt("pubkey")) || !p.isSet(opt("feed")))
        return r;
    // A feed taken with its key is kept in settings.json, so `update` finds it again.
    if (auto kept = feed::rememberFeedIn(Settings::defaultFile(),
                                         {source->location(), toStd(p.value(opt("pubkey")))});
        !kept)
        r->message += " (not recorded in settings: " + kept.error().message + ")";
    return r;
}

void printUpdate(const QCommandLineParser& p, Io& io, const feed::UpdateResult& r)
{
    if (p.isSet(opt("json"))) {
        static const char* const names[] = {"installed", "up-to-date", "skipped", "verified"};
        io.out << nlohmann::json{{"outcome", names[static_cast<int>(r.outcome)]},
                                 {"version", r.manifest.version},
                                 {"key_id", r.keyId},
                                 {"message", r.message}}
                      .dump(2)
               << "\n";
        return;
    }
    io.out << r.message << "\n";
}

int runUpdate(const QCommandLineParser& p, Io& io, bool verifyOnly, const std::string& where)
{
    auto st = FeedStore().state();
    if (!st)
        return failWith(io, st.error());
    auto settings = Settings::load();
    if (!settings)
        return failWith(io, settings.error());
    auto listed = feed::feedsFrom(*settings, paths::toUtf8(Settings::defaultFile()));
    if (!listed)
        return failWith(io, listed.error());
    const auto feeds = feedsToTry(p, where, *st, *listed);
    if (feeds.empty())
        return failWith(io, Error::usage("no feed installed yet: give --feed URL (and --pubkey "
                                         "KEY for a lab's feed)"));
    Error last = Error::usage("no feed");
    for (const auto& feed : feeds) {
        auto r = updateFrom(p, feed, verifyOnly, *st, *listed);
        if (r) {
            printUpdate(p, io, *r);
            return 0;
        }
        if (feeds.size() > 1)
            io.err << "stackpilot-cli catalog: " << feed << ": " << r.error().message << "\n";
        last = r.error();
    }
    return feeds.size() > 1 ? exitCodeFor(last) : failWith(io, last);
}

} // namespace

Expected<feed::UpdateResult> verifyFeedForDiff(const QCommandLineParser& p,
                                               const std::string& where,
                                               const std::filesystem::path& dir)
{
    auto st = FeedStore().state();
    if (!st)
        return st.error();
    auto settings = Settings::load();
    if (!settings)
        return settings.error();
    auto listed = feed::feedsFrom(*settings, paths::toUtf8(Settings::defaultFile()));
    if (!listed)
        return listed.error();
    const auto feeds = feedsToTry(p, where, *st, *listed);
    if (feeds.empty())
        return Error::usage("no feed to compare with: give a feed URL or folder, or a catalog "
                            "folder");
    const auto source = sourceFor(feeds.front(), p);
    auto trust = trustFor(p, *st, source->location(), *listed);
    if (!trust)
        return trust.error();
    return feed::verifyFeedInto(*source, *trust, dir);
}

namespace {

int runPublish(const QCommandLineParser& p, Io& io, const std::string& dir)
{
    PublishOptions o;
    bool ok = false;
    o.version = p.value(opt("version")).toLongLong(&ok);
    if (!ok)
        return failWith(io, Error::usage("--version N is required (a positive integer)"));
    o.expires = toStd(p.value(opt("expires")));
    if (p.isSet(opt("name")))
        o.feed = toStd(p.value(opt("name")));
    o.minStackPilot = toStd(p.value(opt("min-stackpilot")));
    o.sharing = {toStd(p.value(opt("ledger"))), toStd(p.value(opt("report-form")))};
    const std::string out = toStd(p.value(opt("output")));
    if (out.empty())
        return failWith(io, Error::usage("-o OUT is required"));
    auto m = feed::publishFeed(paths::fromUtf8(dir), paths::fromUtf8(out), o);
    if (!m)
        return failWith(io, m.error());
    io.out << "wrote " << out << "/manifest.json: feed " << m->version << ", " << m->files.size()
           << " file(s), expires " << m->expires << "\nsign it: minisign -Sm " << out
           << "/manifest.json\n";
    return 0;
}

class CatalogCommand : public Command
{
public:
    void addOptions(QCommandLineParser& p) override
    {
        p.addPositionalArgument(opt("status|update|rollback|verify|publish|check|diff|reset-feed"),
                                opt("What to do."));
        p.addPositionalArgument(opt("DIR|URL|NAME"),
                                opt("verify, diff: the feed; publish, check, diff: a catalog "
                                    "folder; reset-feed: the feed's name."));
        p.addOption({opt("yes"), opt("reset-feed: reset without asking.")});
        p.addOption({opt("timeout"),
                     opt("update, verify, diff: seconds the whole feed may take to arrive "
                         "(default 300); check: seconds for one git repository (default 120, "
                         "900 with --deep)."),
                     opt("S")});
        p.addOption({opt("feed"), opt("update: the feed's URL or folder."), opt("URL")});
        p.addOption({opt("pubkey"),
                     opt("A minisign public key (RW...) the feed may be signed "
                         "with, besides the shipped ones."),
                     opt("KEY")});
        p.addOption(
            {opt("ca-file"), opt("CA bundle for a lab feed's HTTPS certificate."), opt("FILE")});
        p.addOption({{opt("o"), opt("output")}, opt("publish: the feed folder."), opt("OUT")});
        p.addOption({opt("version"), opt("publish: the feed's version."), opt("N")});
        p.addOption({opt("expires"), opt("publish: expiry, ISO 8601 UTC."), opt("TIME")});
        p.addOption({opt("min-stackpilot"), opt("publish: oldest StackPilot."), opt("VERSION")});
        p.addOption({opt("name"), opt("publish: the feed's name."), opt("NAME")});
        p.addOption({opt("ledger"),
                     opt("publish: where users' results are sent (HTTPS PUT of each record)."),
                     opt("URL")});
        p.addOption({opt("report-form"),
                     opt("publish: a web form (GitHub issue form) opened with a result filled "
                         "in, where there is no ledger."),
                     opt("URL")});
        p.addOption({opt("deep"), opt("check: download every artifact and compare its size and "
                                      "SHA-256; fetch git histories.")});
    }
    int run(const QCommandLineParser& p, Io& io) override
    {
        const QStringList args = p.positionalArguments();
        const std::string verb = args.isEmpty() ? std::string() : toStd(args[0]);
        const std::string arg = args.size() > 1 ? toStd(args[1]) : std::string();
        const bool needsArg = verb == "verify" || verb == "publish" || verb == "reset-feed";
        const bool mayArg = verb == "check" || verb == "diff";
        if (args.size() > 2 || (args.size() != (needsArg ? 2 : 1) && !mayArg) ||
            (verb != "status" && verb != "update" && verb != "rollback" && !needsArg && !mayArg)) {
            io.err << "stackpilot-cli catalog: expected status | update [--feed URL] | rollback "
                      "| verify DIR|URL | publish DIR -o OUT --version N --expires TIME | check "
                      "[DIR] [--deep] | diff [URL|DIR] | reset-feed NAME [--yes]\n";
            return 2;
        }
        // What an interrupted update, verify or check left (core/catalog/feed/held_folder.h).
        feed::removeAbandonedFeedTemps();
        FeedStore().removeAbandonedStaging();
        bool whole = false;
        const long long timeout = p.value(opt("timeout")).toLongLong(&whole);
        if (p.isSet(opt("timeout")) && (!whole || timeout < 1 || timeout > 86400)) {
            io.err << "stackpilot-cli catalog: --timeout takes seconds from 1 to 86400\n";
            return 2;
        }
        if (verb == "check")
            return runCatalogCheck(p, io, arg);
        if (verb == "reset-feed")
            return runCatalogResetFeed(p, io, arg);
        if (verb == "diff")
            return runCatalogDiff(p, io, arg);
        if (verb == "status")
            return printStatus(FeedStore(), io, p.isSet(opt("json")));
        if (verb == "update" || verb == "verify")
            return runUpdate(p, io, verb == "verify", arg);
        if (verb == "publish")
            return runPublish(p, io, arg);
        auto v = FeedStore().rollback();
        if (!v)
            return failWith(io, v.error());
        io.out << "catalog feed " << v->manifest.version << " is in use again\n";
        return 0;
    }
};

} // namespace

SP_REGISTER_COMMAND(
    CatalogCommand, "catalog",
    "Signed catalog feed: status, update, rollback, verify, publish, check, diff, reset-feed.",
    {Own, CatalogDir, Machine, Json})

} // namespace sp::cli
