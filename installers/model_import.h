#pragma once
// `models import`: the models a user already has, registered in the vault by digest
// without a byte copied. Found in a Hugging Face hub cache (models--ORG--NAME/snapshots),
// Ollama's store (manifests/ naming blobs/sha256-*), and any other folder (LM Studio's
// publisher/repo/file layout, ComfyUI's and SD.Next's model folders): *.gguf and
// *.safetensors. Each file is hashed once (cached by device, inode, size and mtime) and
// hard-linked into the vault on the same filesystem, or referenced where it is. The
// user's files are never moved, changed or deleted.

#include "core/expected.h"
#include "installers/model_vault.h"

#include <filesystem>
#include <string>
#include <vector>

namespace sp {

struct FoundModel
{
    std::filesystem::path file; // the bytes (a symlink's target resolved)
    std::string name;           // as its app calls it: "llama3.2:1b", "Qwen/Qwen2.5-0.5B/x.gguf"
    std::string origin;         // "huggingface" | "ollama" | "folder"
};

struct ImportReport
{
    std::vector<VaultFile> files;
    int hashed = 0;                   // files read this time (the rest came from the hash cache)
    int linked = 0;                   // hard links made in the vault
    int referenced = 0;               // used where they are (another filesystem)
    std::vector<std::string> skipped; // what could not be read, in words
};

// The model files under `root`, by the layout found there. Bounded: 8 levels, 100,000
// entries; folder links are not followed.
std::vector<FoundModel> findModels(const std::filesystem::path& root);

// The folders StackPilot looks in when `models import` names none: the Hugging Face
// cache (HF_HUB_CACHE, HF_HOME/hub, ~/.cache/huggingface/hub), Ollama's store
// (OLLAMA_MODELS, ~/.ollama/models) and LM Studio's models folders; only those that exist.
std::vector<std::filesystem::path> defaultModelFolders();

Expected<ImportReport> importModels(ModelVault& vault, const std::vector<FoundModel>& found);

} // namespace sp
