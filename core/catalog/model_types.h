#pragma once
// A model's files and license (the Model itself is in types.h, beside the workloads it
// serves; docs/CATALOG.md, "Models"). Its files are downloaded into the vault (installers/
// model_vault.h) through the same verified pipeline as a runtime's artifacts; a file
// with `chunks` can have a bad piece fetched again alone.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sp {

// The SHA-256 of each `size`-byte piece of a file, in order (the last may be shorter).
struct ModelChunks
{
    std::uint64_t size = 0;
    std::vector<std::string> sha256;
};

struct ModelFile
{
    std::string url;
    std::vector<std::string> mirrors;
    std::string sha256; // the whole file's (a Hugging Face file page's LFS SHA-256)
    std::uint64_t size = 0;
    std::optional<ModelChunks> chunks;
    std::vector<std::string> urlEvidence; // where the digest and size were read
    // The URL's last path segment: how progress, errors and the vault's index name it.
    std::string displayName() const;
};

struct ModelLicense
{
    std::string id;  // SPDX id or the license's name
    std::string url; // where it can be read (and accepted, for a gated model)
    bool acceptRequired = false;
};

// How a workload takes a model (a workload's "model"): the kinds it runs and the
// arguments that hand it one. The arguments may use {model} (the file), {model_context}
// and {model_gpu_layers} (what fits the card, core/models/model_fit.h).
struct WorkloadModel
{
    std::vector<std::string> kinds;
    std::vector<std::string> args;
    // Apps that find their models in folders (SD.Next, ComfyUI): the folder each kind goes
    // in ("sd15-checkpoint": "Stable-diffusion"). StackPilot makes a view of the vault in
    // those folders, of links, never copies: {model_view} is its path, and
    // {model_paths_yaml} a ComfyUI extra_model_paths file that names its folders.
    std::map<std::string, std::string> view;

    // Whether the args hand over one file ({model}); else they name the view's folders,
    // and every run gets them, with or without a chosen model.
    bool takesFile() const;
};

} // namespace sp
