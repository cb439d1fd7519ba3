#!/usr/bin/env python3
"""Regenerates profiles/gpu/nvidia-compute-capability.json.

    python3 profiles/gpu/make_nvidia_cc_table.py profiles/gpu/nvidia-cuda-gpus.txt \
        path/to/open-gpu-kernel-modules/README.md > profiles/gpu/nvidia-compute-capability.json

Inputs:
  - nvidia-cuda-gpus.txt: NVIDIA's CUDA GPU list (developer.nvidia.com/cuda-gpus and
    /cuda-legacy-gpus), one "cc<TAB>product<TAB>ref" row per product, transcribed by hand; its
    header names the pages and what each ref means.
  - README.md of github.com/NVIDIA/open-gpu-kernel-modules: its "Compatible GPUs" table
    ("| Product Name | PCI ID |") lists NVIDIA's product name for every PCI device id of the
    Turing and later GPUs. Only the device id (the first of the listed ids) is kept.

The JSON keeps both lists as they are: "models" (name -> compute capability) and "devices"
(PCI device id -> product names). detectors/nvidia_cc_table.cpp resolves a device through its
names, so the name matching rules live in one place (the C++ reader).
"""
import json
import re
import sys


def read_models(path):
    models, seen = [], set()
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 3 or not re.fullmatch(r"\d{1,2}\.\d", parts[0]) or not parts[1]:
                raise SystemExit(f"{path}:{n}: expected 'cc<TAB>product<TAB>ref', got {line!r}")
            if parts[1].lower() in seen:
                raise SystemExit(f"{path}:{n}: {parts[1]!r} listed twice")
            seen.add(parts[1].lower())
            models.append({"cc": parts[0], "name": parts[1], "ref": parts[2]})
    return models


def read_devices(path):
    devices, version = {}, ""
    row = re.compile(r"^\|\s*(?P<name>[^|]*?)\s*\|\s*(?P<ids>[0-9A-Fa-f]{4}(?: [0-9A-Fa-f]{4} [0-9A-Fa-f]{4})?)\s*\|$")
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.search(r"version (\d+\.\d+(?:\.\d+)?)\.", line)
            if m and not version:
                version = m.group(1)
            m = row.match(line.strip())
            if not m:
                continue
            device = m.group("ids").split()[0].lower()
            names = devices.setdefault(device, [])
            if m.group("name") not in names:
                names.append(m.group("name"))
    if not devices:
        raise SystemExit(f"{path}: no '| Product Name | PCI ID |' rows found")
    return version, devices


def main(models_path, readme_path):
    models = read_models(models_path)
    version, devices = read_devices(readme_path)
    out = sys.stdout
    out.write('{"schema": 1,\n "sources": {\n')
    out.write('  "nvidia": "https://developer.nvidia.com/cuda-gpus",\n')
    out.write('  "nvidia-legacy": "https://developer.nvidia.com/cuda-legacy-gpus",\n')
    out.write('  "nvidia-2022": "https://developer.nvidia.com/cuda-gpus (2022 edition; see nvidia-cuda-gpus.txt)",\n')
    out.write(f'  "devices": "https://github.com/NVIDIA/open-gpu-kernel-modules/blob/{version}/README.md (Compatible GPUs)"\n')
    out.write(' },\n "generated_by": "profiles/gpu/make_nvidia_cc_table.py from profiles/gpu/nvidia-cuda-gpus.txt",\n')
    out.write(' "models": [\n')
    for i, m in enumerate(models):
        out.write("  " + json.dumps(m, ensure_ascii=False, separators=(",", ":")))
        out.write(",\n" if i + 1 < len(models) else "\n")
    out.write(' ],\n "devices": [\n')
    keys = sorted(devices)
    for i, d in enumerate(keys):
        out.write("  " + json.dumps({"device": d, "names": devices[d]}, ensure_ascii=False, separators=(",", ":")))
        out.write(",\n" if i + 1 < len(keys) else "\n")
    out.write(" ]}\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2])
