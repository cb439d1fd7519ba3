// The names a Simplified Chinese user text keeps in Latin letters (untranslatedWords,
// user_text.h): products, vendors, GPU families, libraries, file formats, system
// groups. One list, in one place; a word that is not a name is translated instead.
// Compared without regard to case. Words of one or two letters (RX, XT, GB) and
// file names (.dll, .so, .exe, .bat) and capitals with "_" or a digit (HIP_PATH) need
// no entry.

#include "core/catalog/user_text.h"
#include "core/strings.h"

#include <algorithm>
#include <array>

namespace sp {

namespace {

constexpr std::array kUserTextNames = {
    // Vendors, products and their families.
    "AMD", "NVIDIA", "Intel", "Microsoft", "Mozilla", "Radeon", "GeForce", "RTX", "GTX", "Ryzen",
    "Vega", "Arc", "Adrenalin", "RDNA", "RDNA1", "RDNA2", "RDNA3", "RDNA3.5", "RDNA4", "Maxwell",
    "Pascal", "Volta", "Turing", "Ampere", "Blackwell", "Windows", "Linux", "WSL", "OneDrive",
    // Windows' folder for programs, as Explorer names it in every language.
    "Program", "Files",
    // Hardware words that stay as they are in Chinese technical writing.
    "GPU", "GPUs", "CPU", "iGPU", "VRAM", "RAM", "PCIe",
    // Runtimes, libraries and tools.
    "SDK", "HIP", "ROCm", "CUDA", "ZLUDA", "cuDNN", "MIOpen", "rocBLAS", "hipBLAS", "hipBLASLt",
    "tinyBLAS", "Tensile", "PyTorch", "Python", "Git", "OpenVINO", "Vulkan", "OpenMP", "Visual",
    "Redistributable", "python.org", "TheRock", "bitsandbytes", "flash-attention", "ONNX",
    "linux-firmware", "amdgpu", "dmesg",
    // The workloads.
    "SD.Next", "ComfyUI", "ComfyUI-Zluda", "llama.cpp", "llamafile", "llama-server", "Ollama",
    "AutoTrain", "Advanced", "StackPilot",
    // The models, by the names their makers publish (profiles/catalog/models.json).
    "Llama", "Qwen2.5", "Gemma", "Phi-3.5", "mini", "Instruct", "Stable", "Diffusion",
    // Formats, protocols and units.
    "GGUF", "HTTPS", "HTTP", "URL", "DLL", "UTF-8", "ASCII", "TDR", "NFS", "SMB", "MiB", "GiB",
    // Linux groups a user is added to.
    "render", "video"};

} // namespace

bool isKnownName(std::string_view word)
{
    const std::string w = lower(word);
    return std::any_of(kUserTextNames.begin(), kUserTextNames.end(),
                       [&](const char* n) { return lower(n) == w; });
}

} // namespace sp
