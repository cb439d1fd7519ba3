// stackpilot-cli catalog status|update|rollback|verify|publish: the signed catalog
// feed (docs/FEED.md). The checks live in core/catalog/feed; this file parses options
// and prints.

#include "app/cli/command.h"
#include "core/catalog/feed/publish.h"
#include "core/catalog/feed/update.h"
#include "core/paths.h"
#include "installers/feed_http_source.h"
#include "stackpilot_version.h"

#include <QDateTime>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

namespace sp::cli {

namespace {

using feed::DirectorySource;
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
    return std::make_unique<HttpFeedSource>(feed, o);
}

Expected<TrustOptions> trustFor(const QCommandLineParser& p, const std::optional<FeedState>& st,
                                const std::string& location)
{
    TrustOptions t;
    t.keys = feed::shippedKeys();
    if (p.isSet(opt("pubkey"))) {
        auto k = parsePublicKey(toStd(p.value(opt("pubkey"))));
        if (!k)
            return Error::usage("--pubkey: " + k.error().message);
        t.keys.push_back(*k);
    }
    // The key a lab feed was first taken with stays trusted for that feed.
    if (st && st->source == location && !st->key.empty())
        if (auto k = parsePublicKey(st->key))
            t.keys.push_back(*k);
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
    const auto days = (QDateTime::currentSecsSinceEpoch() - *t) / 86400;
    return std::to_string(days) + " day(s) old";
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

int runUpdate(const QCommandLineParser& p, Io& io, bool verifyOnly, const std::string& where)
{
    const FeedStore store;
    auto st = store.state();
    if (!st)
        return failWith(io, st.error());
    std::string feed = where.empty() ? toStd(p.value(opt("feed"))) : where;
    if (feed.empty() && *st)
        feed = (*st)->source;
    if (feed.empty())
        return failWith(io, Error::usage("no feed installed yet: give --feed URL (and --pubkey "
                                         "KEY for a lab's feed)"));
    const auto source = sourceFor(feed, p);
    auto trust = trustFor(p, *st, source->location());
    if (!trust)
        return failWith(io, trust.error());
    auto r =
        verifyOnly ? feed::verifyFeed(*source, *trust) : feed::updateFeed(*source, *trust, store);
    if (!r)
        return failWith(io, r.error());
    if (p.isSet(opt("json"))) {
        static const char* const names[] = {"installed", "up-to-date", "skipped", "verified"};
        io.out << nlohmann::json{{"outcome", names[static_cast<int>(r->outcome)]},
                                 {"version", r->manifest.version},
                                 {"key_id", r->keyId},
                                 {"message", r->message}}
                      .dump(2)
               << "\n";
        return 0;
    }
    io.out << r->message << "\n";
    return 0;
}

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
    QString name() const override { return opt("catalog"); }
    QString summary() const override
    {
        return opt("Signed catalog feed: status, update, rollback, verify, publish.");
    }
    void configure(QCommandLineParser& p) override
    {
        p.addPositionalArgument(opt("status|update|rollback|verify|publish"), opt("What to do."));
        p.addPositionalArgument(opt("DIR|URL"), opt("verify: the feed; publish: the catalog."));
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
        addJsonOption(p);
    }
    int run(const QCommandLineParser& p, Io& io) override
    {
        const QStringList args = p.positionalArguments();
        const std::string verb = args.isEmpty() ? std::string() : toStd(args[0]);
        const std::string arg = args.size() > 1 ? toStd(args[1]) : std::string();
        const bool needsArg = verb == "verify" || verb == "publish";
        if (args.size() != (needsArg ? 2 : 1) ||
            (verb != "status" && verb != "update" && verb != "rollback" && !needsArg)) {
            io.err << "stackpilot-cli catalog: expected status | update [--feed URL] | rollback "
                      "| verify DIR|URL | publish DIR -o OUT --version N --expires TIME\n";
            return 2;
        }
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

SP_REGISTER_COMMAND(CatalogCommand)

} // namespace sp::cli
