"""Where a model was trained: the facts that decide its bits (CPU, kernels, BLAS, threads, versions).

Seeded training repeats bit for bit only when all of these match: torch picks
its vector kernels by CPU instruction set, MKL picks its code path by CPU, and
even float64 square roots differ in the last bit between those paths. A
checkpoint's manifest records this, and the bitwise retraining test runs where
the record matches.
"""
from __future__ import annotations

import platform
import re
from pathlib import Path

import torch

FIELDS = ("cpu", "instruction_set", "blas", "threads", "torch", "libc")


def cpu_model() -> str:
    """The CPU's vendor and model name, as the kernel reports them."""
    try:
        info = Path("/proc/cpuinfo").read_text()
    except OSError:
        return platform.processor() or "unknown"
    name = re.search(r"^model name\s*:\s*(.+)$", info, re.M)
    vendor = re.search(r"^vendor_id\s*:\s*(.+)$", info, re.M)
    return " / ".join(m.group(1).strip() for m in (vendor, name) if m) or "unknown"


def blas() -> str:
    """The BLAS torch was built with, as its build configuration names it."""
    for line in torch.__config__.show().splitlines():
        if "Math Kernel Library" in line or "OpenBLAS" in line:
            return line.strip(" -")
    return "unknown"


def machine_record(threads: int) -> dict[str, object]:
    """What decides the bits of a training run on this machine with this many threads."""
    return {
        "cpu": cpu_model(),
        "instruction_set": torch.backends.cpu.get_cpu_capability(),  # torch's vector kernels
        "blas": blas(),
        "threads": threads,
        "torch": torch.__version__,
        "libc": " ".join(platform.libc_ver()),
        "machine": platform.machine(),
    }


def differences(recorded: dict, here: dict) -> list[str]:
    """The fields (of FIELDS) in which two records differ, as 'name: recorded ≠ here'."""
    return [f"{k}: {recorded.get(k)!r} ≠ {here.get(k)!r}" for k in FIELDS if recorded.get(k) != here.get(k)]
