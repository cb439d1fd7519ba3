#!/usr/bin/env python3
"""StackPilot's smoke test for a PyTorch stack (docs/VERIFY.md).

Proves the device computes, not only that torch imports: a fixed matmul and a
convolution run on the device the stack is meant for and are checked against the CPU.
Prints exactly one JSON line and exits 0 when it passed, 1 when it did not:

  {"ok": true, "check": "torch", "torch": "2.9.1+rocm7.1", "hip": "7.1...",
   "cuda": null, "device": "AMD Radeon RX 7900 XTX", "arch": "gfx1100",
   "seconds": 0.0123, "max_error": 1.2e-06}

--expect-gpu: a stack meant for a GPU fails when torch sees none (a CPU-only wheel in
a ROCm or CUDA venv is the commonest broken install: "Torch is not able to use GPU").
"""
import json
import platform
import sys
import time

SIZE = 256       # the matmul's square size
REPEATS = 3      # the timed part runs the pair this many times
TOLERANCE = 1e-2  # relative error against the CPU; TF32 and fp16 paths stay well below


def report(out, code):
    print(json.dumps(out), flush=True)
    return code


def device_info(torch, out):
    """The device the stack computes on, as the runtime names it."""
    if torch.cuda.is_available():  # ROCm builds of torch answer here too
        props = torch.cuda.get_device_properties(0)
        out["device"] = props.name
        # CUDA builds have gcnArchName too and put the device name in it (torch 2.11 on
        # an H200 said "NVIDIA H200"): only a ROCm build's is a gfx target.
        arch = getattr(props, "gcnArchName", "") if torch.version.hip else ""
        arch = arch or f"sm_{props.major}{props.minor}"
        out["arch"] = arch.split(":")[0]
        return "cuda"
    out["device"] = platform.processor() or platform.machine() or "cpu"
    out["arch"] = platform.machine()
    return "cpu"


def relative_error(got, want):
    scale = max(float(want.abs().max()), 1e-12)
    return float((got.float().cpu() - want).abs().max()) / scale


def main(argv):
    out = {"ok": False, "check": "torch"}
    try:
        import torch
        import torch.nn.functional as F
    except Exception as e:  # a broken wheel fails here; the known-issue matcher reads why
        out["error"] = f"import torch failed: {e}"
        return report(out, 1)
    out["torch"] = torch.__version__
    out["cuda"] = torch.version.cuda
    out["hip"] = getattr(torch.version, "hip", None)
    device = device_info(torch, out)
    if device == "cpu" and "--expect-gpu" in argv:
        out["error"] = "torch sees no GPU (torch.cuda.is_available() is False)"
        return report(out, 1)
    gen = torch.Generator().manual_seed(1234)
    a = torch.randn(SIZE, SIZE, generator=gen)
    b = torch.randn(SIZE, SIZE, generator=gen)
    x = torch.randn(1, 3, 64, 64, generator=gen)
    w = torch.randn(8, 3, 3, 3, generator=gen)
    want_mm, want_conv = a @ b, F.conv2d(x, w, padding=1)
    try:
        start = time.perf_counter()
        da, db, dx, dw = (t.to(device) for t in (a, b, x, w))
        for _ in range(REPEATS):
            mm, conv = da @ db, F.conv2d(dx, dw, padding=1)
        if device == "cuda":
            torch.cuda.synchronize()
        out["seconds"] = round(time.perf_counter() - start, 6)
    except Exception as e:  # "invalid device function", "HIP error", ... end here
        out["error"] = f"{type(e).__name__}: {e}"
        return report(out, 1)
    err = max(relative_error(mm, want_mm), relative_error(conv, want_conv))
    out["max_error"] = err
    out["ok"] = err < TOLERANCE
    if not out["ok"]:
        out["error"] = f"wrong result: relative error {err:.3g} against the CPU"
    return report(out, 0 if out["ok"] else 1)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
