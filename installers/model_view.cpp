#include "installers/model_view.h"

#include "core/json_file.h"
#include "core/models/safetensors.h"
#include "core/paths.h"

#include <fstream>
#include <set>

namespace fs = std::filesystem;

namespace sp {

namespace {

// A file name for the view: the vault's name for it, without folders.
std::string viewName(const VaultFile& f)
{
    const std::string name = paths::toUtf8(paths::fromUtf8(f.name).filename());
    return name.empty() ? "sha256-" + f.sha256 : name;
}

// One link: a hard link where the filesystem allows it, else a symbolic one.
Expected<void> linkInto(const fs::path& target, const fs::path& link)
{
    std::error_code ec;
    if (fs::exists(link, ec) || fs::is_symlink(link, ec)) {
        if (fs::equivalent(target, link, ec))
            return {};
        // Ours to replace only when it is a link StackPilot could have made.
        if (!fs::is_symlink(link, ec) && fs::hard_link_count(link, ec) < 2)
            return Error::runtime(paths::toUtf8(link) + ": a file that is not StackPilot's link");
        fs::remove(link, ec);
    }
    fs::create_hard_link(target, link, ec);
    if (ec) {
        ec.clear();
        fs::create_symlink(target, link, ec);
    }
    if (ec)
        return Error::runtime(paths::toUtf8(link) + ": cannot link the model: " + ec.message())
            .withCause(Cause::Permission);
    return {};
}

// The links this view made last time, one relative path a line: what may go now.
std::set<std::string> madeBefore(const fs::path& list)
{
    std::set<std::string> out;
    std::ifstream in(list);
    for (std::string line; std::getline(in, line) && out.size() < 100000;)
        if (!line.empty() && line.find("..") == std::string::npos)
            out.insert(line);
    return out;
}

// A link made before whose file left the vault goes (even when it is now the last link
// to the bytes); anything the app put in the folders stays.
Expected<void> dropStale(const fs::path& root, const std::set<std::string>& now)
{
    const fs::path list = root / ".stackpilot-links";
    std::error_code ec;
    for (const std::string& rel : madeBefore(list))
        if (!now.count(rel) && !fs::is_directory(root / paths::fromUtf8(rel), ec))
            fs::remove(root / paths::fromUtf8(rel), ec);
    std::string text;
    for (const std::string& rel : now)
        text += rel + "\n";
    return writeFileAtomic(list, text);
}

} // namespace

std::string vaultFileKind(const Catalog& catalog, const VaultFile& file)
{
    if (const Model* m = catalog.model(file.model))
        return m->kind;
    auto info = models::readSafetensors(file.path);
    return info ? info->kind : std::string();
}

Expected<ModelView> buildModelView(const ModelVault& vault, const Catalog& catalog,
                                   const std::string& name,
                                   const std::map<std::string, std::string>& view)
{
    auto files = vault.files();
    if (!files)
        return files.error();
    ModelView out;
    out.root = vault.root() / "views" / paths::fromUtf8(name);
    std::set<std::string> shown; // "folder/name"
    for (const auto& [kind, folder] : view) {
        std::error_code ec;
        fs::create_directories(out.root / paths::fromUtf8(folder), ec);
        if (ec)
            return Error::runtime(paths::toUtf8(out.root) + ": " + ec.message())
                .withCause(Cause::Permission);
    }
    for (const VaultFile& f : *files) {
        const auto folder = view.find(vaultFileKind(catalog, f));
        if (folder == view.end())
            continue;
        const std::string file = viewName(f);
        if (auto linked = linkInto(f.path, out.root / paths::fromUtf8(folder->second) / file);
            !linked)
            return linked.error();
        shown.insert(folder->second + "/" + file);
        ++out.linked;
    }
    if (auto dropped = dropStale(out.root, shown); !dropped)
        return dropped.error();
    return out;
}

Expected<fs::path> writeComfyModelPaths(const ModelView& view,
                                        const std::map<std::string, std::string>& folders)
{
    // YAML by hand: one group of plain keys; the path is quoted for spaces and colons.
    std::string base = paths::toUtf8(view.root);
    std::string quoted;
    for (char c : base)
        quoted += (c == '\'') ? std::string("''") : std::string(1, c);
    std::string text = "# Written by StackPilot: its model vault, as links. Rewritten at each "
                       "launch.\nstackpilot:\n  base_path: '" +
                       quoted + "'\n";
    std::set<std::string> once;
    for (const auto& [kind, folder] : folders)
        if (once.insert(folder).second)
            text += "  " + folder + ": " + folder + "\n";
    const fs::path file = view.root / "extra_model_paths.yaml";
    if (auto w = writeFileAtomic(file, text); !w)
        return w.error();
    return file;
}

} // namespace sp
