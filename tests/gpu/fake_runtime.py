#!/usr/bin/env python3
"""A fake multi-device runtime for tests/gpu/test_gpu_fake_runtime: it enumerates the GPUs
of a recorded PC (a snapshot from `snapshot import`, whose gpus[].indices say how each API
numbers them) and applies the visibility variables as the real runtimes do, then prints, per
API, the PCI buses of the devices a workload would see, as JSON.

- ROCr (ROCR_VISIBLE_DEVICES) filters the ROCr agents, in the listed order; HIP then numbers
  what ROCr left from 0 (HIP_VISIBLE_DEVICES indexes that list). Without ROCr numbers (Windows)
  HIP numbers the devices itself.
  https://rocm.docs.amd.com/en/latest/conceptual/gpu-isolation.html
- CUDA numbers fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID, then in bus order, as NVML;
  CUDA_VISIBLE_DEVICES indexes that order. Without PCI_BUS_ID the order is not known here, so
  the API is reported as "unknown order".
  https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/environment-variables.html
- ggml's Vulkan backend indexes the Vulkan devices with GGML_VK_VISIBLE_DEVICES.
  https://github.com/ggml-org/llama.cpp/blob/master/docs/build.md
"""
import json
import os
import sys


def ordered(gpus, api):
    pairs = [(g["indices"][api], g["pci_bus"]) for g in gpus if api in g.get("indices", {})]
    return [bus for _, bus in sorted(pairs)]


def pick(devices, variable):
    value = os.environ.get(variable)
    if value is None:
        return devices
    out = []
    for part in value.split(","):
        part = part.strip()
        if part.isdigit() and int(part) < len(devices):
            out.append(devices[int(part)])
    return out


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        gpus = json.load(f)["gpus"]
    seen = {}
    rocr = ordered(gpus, "rocr")
    hip = pick(rocr, "ROCR_VISIBLE_DEVICES") if rocr else ordered(gpus, "hip")
    seen["hip"] = pick(hip, "HIP_VISIBLE_DEVICES")
    cuda = ordered(gpus, "nvml")
    if os.environ.get("CUDA_DEVICE_ORDER") == "PCI_BUS_ID":
        seen["cuda"] = pick(cuda, "CUDA_VISIBLE_DEVICES")
    elif "CUDA_VISIBLE_DEVICES" in os.environ:
        seen["cuda"] = "unknown order"
    else:
        seen["cuda"] = cuda
    seen["vulkan"] = pick(ordered(gpus, "vulkan"), "GGML_VK_VISIBLE_DEVICES")
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
