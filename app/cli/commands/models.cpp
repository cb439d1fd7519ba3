// stackpilot-cli models list|pull ID|remove ID|verify|du|info FILE: the model vault
// (docs/MODELS.md). The vault does the work (installers/model_vault.h), a pull through the
// session as every front end's does; this verb reads its arguments, checks them before
// anything is touched, and prints.

#include "app/cli/commands/event_printer.h"
#include "app/cli/commands/install_support.h"
#include "app/common/session/session.h"
#include "core/format.h"
#include "core/launch/launch_prep.h"
#include "core/models/gguf.h"
#include "core/models/safetensors.h"
#include "core/paths.h"
#include "core/settings.h"
#include "installers/model_import.h"
#include "installers/model_vault.h"

#include <ostream>

namespace sp::cli {

namespace {

using nlohmann::json;

const std::vector<std::string> kActions = {"list", "pull",   "remove", "verify",
                                           "du",   "import", "info"};

// What a file is, from its header: a GGUF or a safetensors file, in words.
Expected<json> describeFile(const std::filesystem::path& file)
{
    if (auto g = models::readGguf(file))
        return json{{"format", "gguf"},
                    {"text", models::describe(*g)},
                    {"architecture", g->architecture},
                    {"quant", g->quant},
                    {"parameters", g->parameters},
                    {"context_length", g->contextLength.value_or(0)},
                    {"weight_bytes", g->weightBytes}};
    else if (g.error().message.find("not a GGUF file") == std::string::npos)
        return g.error();
    auto s = models::readSafetensors(file);
    if (!s)
        return Error::invalid(paths::toUtf8(file) +
                              ": neither a GGUF nor a safetensors file: " + s.error().message);
    return json{{"format", "safetensors"},
                {"text", models::describe(*s)},
                {"kind", s->kind},
                {"parameters", s->parameters},
                {"tensors", s->tensorCount}};
}

class ModelsCommand : public Command
{
public:
    void addOptions(QCommandLineParser& parser) override
    {
        parser.addPositionalArgument(QStringLiteral("action"),
                                     QStringLiteral("list, pull ID, remove ID, verify, du, "
                                                    "import [DIR...] or info FILE."));
        parser.addPositionalArgument(QStringLiteral("what"),
                                     QStringLiteral("The model id (pull, remove) or the file "
                                                    "(info)."),
                                     QStringLiteral("[ID|FILE]"));
        parser.addOption({QStringLiteral("models-dir"),
                          QStringLiteral("The vault (default: <data>/models)."),
                          QStringLiteral("DIR")});
    }

    int run(const QCommandLineParser& parser, Io& io) override
    {
        const QStringList args = parser.positionalArguments();
        const std::string action = args.isEmpty() ? std::string() : toStd(args[0]);
        if (std::find(kActions.begin(), kActions.end(), action) == kActions.end())
            return usageError(io, "expected an action: list, pull ID, remove ID, verify, du, "
                                  "import [DIR...] or info FILE");
        m_json = parser.isSet(QStringLiteral("json"));
        m_root = parser.isSet(QStringLiteral("models-dir"))
                     ? toPath(parser.value(QStringLiteral("models-dir")))
                     : ModelVault::defaultRoot();
        const bool needsWhat = action == "pull" || action == "remove" || action == "info";
        if (action == "import")
            return import(args.mid(1), io);
        if (args.size() != (needsWhat ? 2 : 1))
            return usageError(io, needsWhat ? action + " takes one argument"
                                            : action + " takes no argument");
        const std::string what = needsWhat ? toStd(args[1]) : std::string();
        m_vault.emplace(m_root);
        if (action == "info")
            return info(what, io);
        if (action == "verify")
            return verify(io);
        if (action == "du")
            return du(io);
        if (action == "remove")
            return remove(what, io);
        int rc = 0;
        auto loaded = loadCatalogForCli(parser, io, "models", &rc);
        if (!loaded)
            return rc;
        return action == "list" ? list(loaded->catalog, io) : pull(loaded->catalog, what, io);
    }

private:
    // The folders named (each must be a folder), or the usual places.
    int import(const QStringList& dirs, Io& io)
    {
        std::vector<std::filesystem::path> roots;
        for (const QString& d : dirs) {
            std::error_code ec;
            if (!std::filesystem::is_directory(toPath(d), ec))
                return usageError(io, "import: '" + toStd(d) + "' is not a folder");
            roots.push_back(toPath(d));
        }
        if (roots.empty())
            roots = defaultModelFolders();
        std::vector<FoundModel> found;
        for (const auto& r : roots) {
            auto more = findModels(r);
            found.insert(found.end(), more.begin(), more.end());
        }
        ModelVault vault(m_root);
        auto report = importModels(vault, found);
        if (!report)
            return fail(io, "models", report.error());
        json files = json::array();
        for (const VaultFile& f : report->files) {
            files.push_back(toJson(f));
            if (!m_json)
                io.out << f.model << "  " << format::bytes(f.size) << "  " << toString(f.storage)
                       << "\n";
        }
        for (const std::string& s : report->skipped)
            io.err << "stackpilot-cli models: skipped " << s << "\n";
        if (m_json)
            io.out << json{{"files", files},
                           {"hashed", report->hashed},
                           {"linked", report->linked},
                           {"referenced", report->referenced}}
                          .dump(2)
                   << "\n";
        else
            io.out << report->files.size() << " model file(s) from " << roots.size()
                   << " folder(s); " << report->hashed << " hashed now, 0 bytes copied\n";
        return 0;
    }

    int info(const std::string& file, Io& io)
    {
        auto d = describeFile(paths::fromUtf8(file));
        if (!d)
            return fail(io, "models", d.error());
        io.out << (m_json ? d->dump(2) : d->value("text", "")) << "\n";
        return 0;
    }

    int list(const Catalog& catalog, Io& io)
    {
        json rows = json::array();
        for (const Model& m : catalog.models) {
            const auto at = m_vault->pathOf(m);
            rows.push_back({{"id", m.id},
                            {"kind", m.kind},
                            {"bytes", m.bytes()},
                            {"quant", m.quant},
                            {"workloads", m.workloads},
                            {"in_vault", at.has_value()}});
            if (!m_json)
                io.out << m.id << "  " << m.kind << "  " << format::bytes(m.bytes()) << "  "
                       << (at ? "in the vault" : "not pulled") << "\n";
        }
        if (m_json)
            io.out << json{{"models", rows}}.dump(2) << "\n";
        else if (rows.empty())
            io.out << "the catalog lists no models\n";
        return 0;
    }

    int pull(const Catalog& catalog, const std::string& id, Io& io)
    {
        const Model* m = catalog.model(id);
        if (!m)
            return fail(io, "models", Error::usage("no model '" + id + "' in the catalog"));
        if (auto settings = Settings::load(); !settings)
            return fail(io, "models", settings.error());
        // The pull is the session's, as the window's and a run's (session_pull.cpp): the
        // proxy, the token for the model's host, progress and Ctrl-C alike.
        session::Context context =
            session::contextFor(&catalog, HardwareSnapshot{}, currentEnvironment());
        context.modelsRoot = m_root;
        ProgressView view(io, m_json);
        session::Session session(context, [&](const session::Event& e) { view.onEvent(e); });
        const session::Outcome& end = waitFor(session, session.startPull(id));
        view.close();
        if (!end.result)
            return fail(io, "models", end.result.error());
        const PullReport* r = &*end.pull;
        json files = json::array();
        for (const VaultFile& f : r->files)
            files.push_back(toJson(f));
        if (m_json) {
            io.out << json{{"model", id},
                           {"files", files},
                           {"network_bytes", r->networkBytes},
                           {"replayed_bytes", r->replayedBytes},
                           {"pieces_refetched", r->piecesRefetched},
                           {"already_there", r->alreadyThere},
                           {"notes", r->notes}}
                          .dump(2)
                   << "\n";
            return 0;
        }
        for (const std::string& n : r->notes)
            io.out << n << "\n";
        io.out << id << (r->alreadyThere ? " was already in the vault" : " is in the vault") << ": "
               << paths::toUtf8(r->files.front().path) << "\n";
        return 0;
    }

    int remove(const std::string& id, Io& io)
    {
        auto freed = m_vault->remove(id);
        if (!freed)
            return fail(io, "models", freed.error());
        io.out << (m_json ? json{{"model", id}, {"freed_bytes", *freed}}.dump(2)
                          : "removed " + id + ", " + format::bytes(*freed) + " freed")
               << "\n";
        return 0;
    }

    int verify(Io& io)
    {
        auto changed = m_vault->verify();
        if (!changed)
            return fail(io, "models", changed.error());
        if (m_json)
            io.out << json{{"changed", *changed}}.dump(2) << "\n";
        for (const std::string& c : m_json ? std::vector<std::string>{} : *changed)
            io.out << c << "\n";
        if (!m_json && changed->empty())
            io.out << "every file in the vault has the bytes it had\n";
        return changed->empty() ? 0 : 1;
    }

    int du(Io& io)
    {
        auto files = m_vault->files();
        if (!files)
            return fail(io, "models", files.error());
        std::map<std::string, std::uint64_t> by;
        for (const VaultFile& f : *files)
            by[toString(f.storage)] += f.size;
        if (m_json) {
            io.out << json{{"bytes", by}, {"files", files->size()}}.dump(2) << "\n";
            return 0;
        }
        io.out << files->size() << " file(s); downloaded " << format::bytes(by["owned"])
               << ", linked " << format::bytes(by["linked"]) << ", referenced in place "
               << format::bytes(by["referenced"]) << "\n";
        return 0;
    }

    bool m_json = false;
    std::filesystem::path m_root;
    std::optional<ModelVault> m_vault;
};

} // namespace

SP_REGISTER_COMMAND(
    ModelsCommand, "models",
    "The model vault: list, pull ID, remove ID, verify, du, import [DIR...], info FILE.",
    {Json, CatalogDir})

} // namespace sp::cli
