#!/usr/bin/env python3
"""Regenerates profiles/gpu/amd-pci-devices.json from AMD's device table (TSV) and
libdrm's amdgpu.ids.

    python3 profiles/gpu/make_amd_pci_table.py /work/shared/data/amd-pci-devices.tsv \
        profiles/gpu/amdgpu.ids > profiles/gpu/amd-pci-devices.json

The TSV (device_id, revision_id, generation, is_apu, gfx, name) is transcribed from
AMD's GPUOpen-Tools device_info project (DeviceInfo.cpp, MIT licence). amdgpu.ids
(device_id, revision_id, product_name) is libdrm's list of marketing names, copied from
the mesa drm repository (data/amdgpu.ids, MIT licence; the commit is in "source"). The
JSON keeps one device per line so diffs stay readable and detectors/pci_table.cpp can
parse it cheaply. Rules applied here, so the C++ side stays simple:
  - ids are lower-case hex without 0x; rows are sorted by (device, revision),
    and repeated (device, revision) pairs are kept once;
  - "gfx" is kept when the TSV names a real target (starts with "gfx"); pre-GCN3 and
    GCN3/4 parts list an ASIC family ("Tahiti", "Ellesmere"), which goes to "family",
    and their gfx comes from FAMILY_GFX (LLVM's processor table);
  - "name" is amdgpu.ids' name where it lists the pair, else the TSV's; the TSV's name
    stays in "name_alt" where the two differ beyond (TM)/(R)/spacing;
  - a pair only amdgpu.ids lists takes gfx, generation and APU flag from the TSV's
    rows of the same device (the gfx most of them have), else from NEW_DEVICES;
  - placeholder names such as "73DF:40" (device:revision) become "" (no name).
"""
import collections
import json
import re
import sys

# LLVM AMDGPUUsage.rst, "AMDGPU Processors" (llvm/llvm-project @ 001388cf): processor
# aliases per gfx target. Spectre/Spooky are Kaveri parts, Kalindi is Kabini, Bristol
# Ridge is the Carrizo die (the table lists its A10-9600P/A12-9700P), Ellesmere/Baffin
# are Polaris 10/11, Capeverde is Verde. LLVM also lists gfx702 (R9 290/390, Hawaii):
# the alias "hawaii" gives gfx701, kept here (no stack in the catalog uses either).
FAMILY_GFX = {
    "Tahiti": "gfx600", "Pitcairn": "gfx601", "Capeverde": "gfx601",
    "Oland": "gfx602", "Hainan": "gfx602",
    "Spectre": "gfx700", "Spooky": "gfx700", "Hawaii": "gfx701",
    "Kalindi": "gfx703", "Mullins": "gfx703", "Bonaire": "gfx704",
    "Carrizo": "gfx801", "Bristol Ridge": "gfx801", "Iceland": "gfx802", "Tonga": "gfx802",
    "Fiji": "gfx803", "Ellesmere": "gfx803", "Baffin": "gfx803", "Stoney": "gfx810",
}

# Devices amdgpu.ids lists and the TSV does not: (generation, gfx, apu). LLVM's processor
# table: gfx908 = MI100, gfx90a = MI210/MI250/MI250X, gfx942 = MI300A/MI300X/MI325X (and
# the MI308X, VF and HF variants of that die), gfx950 = MI350X/MI355X. 7424 is Navi 24
# (RX 6300) like 7422/7423/743F; 1435 is the Steam Deck OLED APU ("Sephiroth"), a Van
# Gogh revision (FlyGoat/RyzenAdj#274), like 163F.
NEW_DEVICES = {
    "738c": ("cdna1", "gfx908", False), "7408": ("cdna2", "gfx90a", False),
    "7424": ("gfx103", "gfx1034", False), "1435": ("gfx103", "gfx1033", True),
    **{d: ("cdna3", "gfx942", False)
       for d in ("74a0", "74a2", "74a5", "74a8", "74b5", "74b6", "74bd")},
    **{d: ("cdna4", "gfx950", False) for d in ("75a3", "75b0", "75b3")},
}


def read_tsv(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#") or line.startswith("device_id\t"):
                continue
            device, rev, generation, apu, gfx, name = line.split("\t")
            device, rev = device.lower(), rev.lower()
            if not re.fullmatch(r"[0-9a-f]{4}", device) or not re.fullmatch(r"[0-9a-f]{2}", rev):
                raise SystemExit(f"{path}: bad ids in row: {line!r}")
            if re.fullmatch(r"[0-9A-Fa-f]{4}:[0-9A-Fa-f]{2}", name):
                name = ""
            row = {"device": device, "revision": rev, "generation": generation}
            if gfx.startswith("gfx"):
                row["gfx"] = gfx
            else:
                row["family"] = gfx
                row["gfx"] = FAMILY_GFX[gfx]
            row["apu"] = apu == "1"
            row["name"] = name
            # AMD's table repeats a few (device, revision) pairs; keep the first of each.
            key = (device, rev)
            if key in rows and rows[key] != row:
                print(f"warning: conflicting rows for {key}, keeping the first", file=sys.stderr)
            rows.setdefault(key, row)
    return rows


def read_ids(path):
    """amdgpu.ids: 'DEVICE,<ws>REVISION,<ws>NAME'; the header and a version line skipped."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.fullmatch(r"([0-9A-Fa-f]{4}),\s*([0-9A-Fa-f]{2}),\s*(.*?)\s*", line.rstrip("\n"))
            if m:
                out.setdefault((m[1].lower(), m[2].lower()), m[3])
    return out


def name_key(name):
    return " ".join(re.sub(r"\((TM|R)\)", " ", name).split()).lower()


def device_defaults(rows, device):
    same = [r for r in rows.values() if r["device"] == device]
    if not same:
        generation, gfx, apu = NEW_DEVICES[device]
        return {"generation": generation, "gfx": gfx, "apu": apu}
    votes = collections.Counter(r["gfx"] for r in same)
    gfx = max(sorted(votes), key=lambda g: votes[g])
    first = next(r for r in same if r["gfx"] == gfx)
    return {"generation": first["generation"], "gfx": gfx, "apu": first["apu"]}


def merge(rows, ids):
    added = []
    for (device, rev), name in sorted(ids.items()):
        row = rows.get((device, rev))
        if row is None:
            d = device_defaults(rows, device)
            added.append((device, rev))
            rows[(device, rev)] = {"device": device, "revision": rev, "generation": d["generation"],
                                   "gfx": d["gfx"], "apu": d["apu"], "name": name, "from": "amdgpu.ids"}
            continue
        if row["name"] != name:
            if row["name"] and name_key(row["name"]) != name_key(name):
                row["name_alt"] = row["name"]
            row["name"] = name
    return added


def main(tsv, ids_path):
    rows = read_tsv(tsv)
    ids = read_ids(ids_path)
    added = merge(rows, ids)
    print(f"{len(ids)} amdgpu.ids pairs, {len(added)} added: "
          + " ".join(f"{d}:{r}" for d, r in added), file=sys.stderr)
    with open(ids_path, encoding="utf-8") as f:
        commit = next((l.split()[-1] for l in f if l.startswith("# mesa/drm commit")), "unknown")
    out = sys.stdout
    out.write('{"schema": 1,\n "source": "AMD GPUOpen-Tools device_info DeviceInfo.cpp v0.44 (MIT), '
              'via amd-pci-devices.tsv; names and extra pairs from libdrm data/amdgpu.ids (MIT) at mesa/drm '
              f'{commit}; generated by profiles/gpu/make_amd_pci_table.py",\n "devices": [\n')
    ordered = [rows[k] for k in sorted(rows)]
    for i, r in enumerate(ordered):
        out.write("  " + json.dumps(r, ensure_ascii=False, separators=(",", ":")))
        out.write(",\n" if i + 1 < len(ordered) else "\n")
    out.write(" ]}\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data/amd-pci-devices.tsv",
         sys.argv[2] if len(sys.argv) > 2 else "profiles/gpu/amdgpu.ids")
