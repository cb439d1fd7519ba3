#pragma once
// A view of the vault for an app that finds its models in folders (SD.Next, ComfyUI):
// <vault>/views/<name>/<folder>/<file name>, one link per file of the vault whose kind
// the workload's catalog `view` gives a folder (docs/MODELS.md, "Apps with model
// folders"). Links, never copies: a hard link to the blob where the filesystem allows
// it, else a symbolic link. One checkpoint serves every app with zero bytes copied.
// Inside the view StackPilot replaces or removes only links (a file the app wrote there
// itself is left alone).

#include "core/catalog/types.h"
#include "core/expected.h"
#include "installers/model_vault.h"

#include <filesystem>
#include <map>
#include <string>

namespace sp {

struct ModelView
{
    std::filesystem::path root;
    int linked = 0; // files shown
};

// The kind of a vault file: its catalog model's, else what its safetensors header shows
// ("" when neither says).
std::string vaultFileKind(const Catalog& catalog, const VaultFile& file);

Expected<ModelView> buildModelView(const ModelVault& vault, const Catalog& catalog,
                                   const std::string& name,
                                   const std::map<std::string, std::string>& view);

// <view>/extra_model_paths.yaml for ComfyUI (--extra-model-paths-config): one group whose
// base_path is the view and whose keys are the view's folders (ComfyUI's folder names).
Expected<std::filesystem::path>
writeComfyModelPaths(const ModelView& view, const std::map<std::string, std::string>& folders);

} // namespace sp
