// The "models" array of a catalog document (docs/CATALOG.md, "Models"): each model's
// files pinned by SHA-256 and size (a model is gigabytes: nothing unpinned is pulled),
// optional per-piece digests, its license, and what it needs of a card.

#include "core/catalog/field_reader.h"
#include "core/catalog/placeholders.h"
#include "core/catalog/ui_reader.h"
#include "core/web_url.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace sp {

namespace {

using json = nlohmann::json;

// A piece under 1 MiB would make the digest list longer than the savings are worth;
// the list itself is bounded by the catalog's size limit.
constexpr std::uint64_t kMinChunk = 1u << 20;

bool sha256Hex(const std::string& s)
{
    return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
           });
}

void webUrl(FieldReader& r, const std::string& url, const std::string& ptr)
{
    if (url.rfind("https://", 0) != 0 && url.rfind("http://", 0) != 0)
        r.fail(ptr, "a model's addresses must be http(s) URLs");
    if (auto u = parseWebUrl(url); !u)
        r.fail(ptr, u.error().message);
}

ModelChunks readChunks(FieldReader& r, const json& j, const std::string& ptr, std::uint64_t size)
{
    r.checkFields(j, ptr, "model_chunks");
    ModelChunks c;
    c.size = r.count(j, ptr, "size").value_or(0);
    if (c.size < kMinChunk)
        r.fail(FieldReader::child(ptr, "size"), "a chunk 'size' is at least 1048576 bytes");
    c.sha256 = r.strList(j, ptr, "sha256");
    const std::uint64_t want = (size + c.size - 1) / c.size;
    if (c.sha256.size() != want)
        r.fail(FieldReader::child(ptr, "sha256"),
               "a file of " + std::to_string(size) + " bytes in pieces of " +
                   std::to_string(c.size) + " needs " + std::to_string(want) + " digests, not " +
                   std::to_string(c.sha256.size()));
    for (std::size_t i = 0; i < c.sha256.size(); ++i)
        if (!sha256Hex(c.sha256[i]))
            r.fail(FieldReader::child(FieldReader::child(ptr, "sha256"), std::to_string(i)),
                   "digests are 64 lower-case hex digits");
    return c;
}

ModelFile readFile(FieldReader& r, const json& j, const std::string& ptr)
{
    r.checkFields(j, ptr, "model_file");
    ModelFile f;
    f.url = r.str(j, ptr, "url", true);
    webUrl(r, f.url, FieldReader::child(ptr, "url"));
    f.mirrors = r.strList(j, ptr, "mirrors");
    for (std::size_t i = 0; i < f.mirrors.size(); ++i)
        webUrl(r, f.mirrors[i],
               FieldReader::child(FieldReader::child(ptr, "mirrors"), std::to_string(i)));
    f.sha256 = r.str(j, ptr, "sha256", true);
    if (!sha256Hex(f.sha256))
        r.fail(FieldReader::child(ptr, "sha256"), "'sha256' must be 64 lower-case hex digits");
    const auto size = r.count(j, ptr, "size");
    if (!size || *size == 0)
        r.fail(FieldReader::child(ptr, "size"), "a model file needs its 'size' in bytes");
    f.size = *size;
    if (const json* c = r.field(j, ptr, "chunks", false))
        f.chunks = readChunks(r, *c, FieldReader::child(ptr, "chunks"), f.size);
    f.urlEvidence = r.strList(j, ptr, "url_evidence");
    if (f.displayName().empty() || f.displayName() == "." || f.displayName() == "..")
        r.fail(FieldReader::child(ptr, "url"), "the URL must end in a file name");
    return f;
}

ModelLicense readLicense(FieldReader& r, const json& j, const std::string& ptr)
{
    r.checkFields(j, ptr, "model_license");
    ModelLicense l;
    l.id = r.str(j, ptr, "id", true);
    l.url = r.str(j, ptr, "url", false);
    if (!l.url.empty())
        webUrl(r, l.url, FieldReader::child(ptr, "url"));
    l.acceptRequired = r.boolean(j, ptr, "accept_required");
    if (l.acceptRequired && l.url.empty())
        r.fail(FieldReader::child(ptr, "url"),
               "a license that must be accepted needs the 'url' where it is accepted");
    return l;
}

Model readModel(FieldReader& r, const json& j, const std::string& ptr)
{
    r.checkFields(j, ptr, "model");
    Model m;
    m.id = r.id(j, ptr);
    m.kind = r.str(j, ptr, "kind", true);
    const bool plain = !m.kind.empty() && m.kind.size() <= 64 &&
                       std::all_of(m.kind.begin(), m.kind.end(), [](char c) {
                           return std::islower(static_cast<unsigned char>(c)) ||
                                  std::isdigit(static_cast<unsigned char>(c)) || c == '-';
                       });
    if (!plain)
        r.fail(FieldReader::child(ptr, "kind"),
               "'kind' is lower-case letters, digits and '-', such as gguf or sdxl-checkpoint");
    m.workloads = r.strList(j, ptr, "workloads");
    m.family = r.str(j, ptr, "family", false);
    const json* files = r.field(j, ptr, "files", true);
    const std::string fp = FieldReader::child(ptr, "files");
    if (!files->is_array() || files->empty())
        r.fail(fp, "'files' lists at least one file");
    for (std::size_t i = 0; i < files->size(); ++i)
        m.files.push_back(readFile(r, (*files)[i], FieldReader::child(fp, std::to_string(i))));
    if (const json* l = r.field(j, ptr, "license", false))
        m.license = readLicense(r, *l, FieldReader::child(ptr, "license"));
    m.params = r.str(j, ptr, "params", false);
    m.quant = r.str(j, ptr, "quant", false);
    m.contextLength = r.count(j, ptr, "context_length");
    m.minVramMb = r.count(j, ptr, "min_vram_mb");
    m.recommendedVramMb = r.count(j, ptr, "recommended_vram_mb");
    m.references = r.strList(j, ptr, "references");
    r.str(j, ptr, "notes", false);
    m.ui = readWorkloadUi(r, j, ptr);
    m.where = r.where(ptr);
    return m;
}

} // namespace

std::optional<WorkloadModel> readWorkloadModel(FieldReader& r, const nlohmann::json& workload,
                                               const std::string& ptr)
{
    const json* j = r.field(workload, ptr, "model", false);
    if (!j)
        return std::nullopt;
    const std::string mp = FieldReader::child(ptr, "model");
    r.checkFields(*j, mp, "workload_model");
    WorkloadModel m;
    m.kinds = r.strList(*j, mp, "kinds");
    m.args = r.strList(*j, mp, "args");
    if (m.kinds.empty() || m.args.empty())
        r.fail(mp,
               "a workload's 'model' lists the 'kinds' it runs and the 'args' that hand it one");
    if (j->contains("view"))
        m.view = r.strMap(*j, mp, "view");
    for (const auto& [kind, folder] : m.view)
        if (folder.empty() || folder.find_first_of("/\\:") != std::string::npos || folder == "." ||
            folder == "..")
            r.fail(FieldReader::child(FieldReader::child(mp, "view"), kind),
                   "a view folder is one plain folder name, not '" + folder + "'");
    static const std::set<std::string> names = {"model", "model_context", "model_gpu_layers",
                                                "model_view", "model_paths_yaml"};
    bool namesTheFile = false, namesTheView = false;
    for (std::size_t i = 0; i < m.args.size(); ++i)
        for (const std::string& name : findPlaceholders(m.args[i])) {
            if (!names.count(name))
                r.fail(FieldReader::child(FieldReader::child(mp, "args"), std::to_string(i)),
                       "a model argument may use {model}, {model_context}, {model_gpu_layers}, "
                       "{model_view} and {model_paths_yaml}, not {" +
                           name + "}");
            namesTheFile = namesTheFile || name == "model";
            namesTheView = namesTheView || name == "model_view" || name == "model_paths_yaml";
        }
    if (namesTheFile == namesTheView)
        r.fail(FieldReader::child(mp, "args"),
               "the 'args' pass either the file ({model}) or the view's folders ({model_view} or "
               "{model_paths_yaml}, with a 'view')");
    else if (namesTheView && m.view.empty())
        r.fail(mp, "{model_view} and {model_paths_yaml} need a 'view': the folder of each kind");
    return m;
}

bool WorkloadModel::takesFile() const
{
    for (const std::string& a : args)
        for (const std::string& name : findPlaceholders(a))
            if (name == "model")
                return true;
    return false;
}

void readModels(FieldReader& r, const nlohmann::json& doc, Catalog& out)
{
    eachEntry(r, doc, "models", "id", [&](const json& j, const std::string& p) {
        out.models.push_back(readModel(r, j, p));
        return out.models.back().id;
    });
}

} // namespace sp
