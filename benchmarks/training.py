"""Benchmark training the three story models on the full token budget; medians over several runs.

    .venv/bin/python benchmarks/training.py            # 3 runs of each model, print a Markdown table
    .venv/bin/python benchmarks/training.py --docs     # ... and write it into docs/performance.md

Each run is `python -m compute train story --model M` into a temporary folder (the
published checkpoints are not touched). Reported per model: the training loop's
seconds (evaluations excluded, as the manifest records them) and the whole
command's wall time (corpus, learning-curve evaluations and the final evaluation
included), and the checkpoint's size. Budget (the Part III issue): all three
trained in at most 12 minutes together; the four-head checkpoint at most 1.3 MB.
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.performance import write_table  # noqa: E402
from compute.models.story import KINDS as MODELS  # noqa: E402
from compute.training.machine import cpu_model  # noqa: E402

BUDGET_S, BUDGET_BYTES = 720.0, 1_300_000


def one_run(model: str, out: Path) -> dict:
    tic = time.perf_counter()
    subprocess.run([sys.executable, "-m", "compute", "train", "story", "--model", model, "--out", str(out), "--quiet"],
                   cwd=ROOT, check=True, capture_output=True)
    wall = time.perf_counter() - tic
    manifest = json.loads((out / f"story-{model}.json").read_text())
    return {"wall": wall, "train": manifest["train_seconds"], "bytes": (out / f"story-{model}.safetensors").stat().st_size,
            "loss": manifest["metrics"]["val_loss"]}


def runs_said(n: int) -> str:
    return f"Medians of {n} runs" if n > 1 else "One run of each model (--runs 3 gives medians)"


def markdown(runs: dict[str, list[dict]]) -> str:
    med = {m: {k: statistics.median(r[k] for r in rs) for k in ("wall", "train", "bytes", "loss")}
           for m, rs in runs.items()}
    n = len(next(iter(runs.values())))
    lines = ["| story model | training loop | whole command | checkpoint | validation loss | runs |",
             "| --- | --- | --- | --- | --- | --- |"]
    for m, v in med.items():
        lines.append(f"| {m} | {v['train']:.0f} s | {v['wall']:.0f} s | {v['bytes'] / 1e6:.2f} MB | {v['loss']:.3f} | {n} |")
    total = sum(v["wall"] for v in med.values())
    lines.append("")
    lines.append(f"All three, whole commands: {total:.0f} s ({total / 60:.1f} min; budget {BUDGET_S / 60:.0f} min, "
                 f"{'within' if total <= BUDGET_S else 'over'} budget). Four-head checkpoint "
                 f"{med['four-head']['bytes'] / 1e6:.2f} MB in float32 (budget {BUDGET_BYTES / 1e6:.1f} MB). "
                 f"{runs_said(n)}; {cpu_model()}, 2 threads, Python {platform.python_version()}.")
    return "\n".join(lines)



def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--docs", action="store_true", help="write the table into docs/performance.md")
    args = p.parse_args()
    runs: dict[str, list[dict]] = {m: [] for m in MODELS}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            for m in MODELS:
                runs[m].append(one_run(m, Path(tmp)))
                print(f"run {i + 1} {m}: {runs[m][-1]['wall']:.0f} s", file=sys.stderr)
    table = markdown(runs)
    print(table)
    if args.docs:
        write_table("training", table)


if __name__ == "__main__":
    main()
