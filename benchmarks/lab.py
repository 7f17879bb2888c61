"""Benchmark the lab: the downloaded notebook (TRAIN = True) executed top to bottom; medians over several runs.

    .venv/bin/python benchmarks/lab.py                    # 3 runs, print a Markdown table
    .venv/bin/python benchmarks/lab.py --record --docs    # ... store the lab's record; its table into docs/performance.md
    .venv/bin/python benchmarks/lab.py --budgets 4000000,6000000,8000000,12000000 --record
        # the one-head model trained on each budget (TOKENS), as the lab trains it: how many tokens until
        # names beyond 8 back leave chance; stored under "budgets" in the same record (the lab's last
        # section compares a student's run with it)

Each run exports posts/lab.md exactly as the site offers it for download (sitebuild.notebooks.write), executes it
with a fresh Jupyter kernel from the repository root, and times the whole execution, kernel start included.
A last cell, added here only, reports what the two trained models reached. --record writes
compute/checkpoints/lab-run.json (the lab's first cells print it; the site build requires it). Budget (the
lab issue): the whole notebook in at most 3 minutes on this 2-core machine.
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.performance import write_table  # noqa: E402

import nbclient  # noqa: E402
import nbformat  # noqa: E402

from compute.lessons.lab.states.run import RECORD, THREADS  # noqa: E402
from compute.store import checkpoint_dir  # noqa: E402
from compute.training.machine import machine_record  # noqa: E402
from sitebuild.notebooks.write import lesson_notebook  # noqa: E402

BUDGET_S = 180.0
KEYS = ("val_loss", "name beyond 8", "object beyond 8")
REPORT = f"""import json
print("LAB-RESULT " + json.dumps({{"tokens": settings.tokens, "train": settings.train,
    "reached": {{r.kind: {{k: r.scores[k] for k in {KEYS!r}}} for r in (run_mlp, run_head)}}}}))"""


def one_run(tokens: int | None) -> dict:
    nb = lesson_notebook(ROOT / "posts" / "lab.md")
    if tokens:
        flag = next(c for c in nb.cells if "train-flag" in c.metadata.get("tags", []))
        flag.source = "\n".join(f"TOKENS = {tokens}" if line.startswith("TOKENS =") else line
                                for line in flag.source.splitlines())
    nb.cells.append(nbformat.v4.new_code_cell(REPORT))
    client = nbclient.NotebookClient(nb, timeout=1200, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT)}})
    tic = time.perf_counter()
    client.execute()
    wall = time.perf_counter() - tic
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    result = json.loads(text.split("LAB-RESULT ", 1)[1])
    if not result["train"]:
        raise SystemExit("the exported notebook did not train: its flag cell was not switched to TRAIN = True")
    return {"seconds": wall, **result}


def budget_run(tokens: int, seed: int = 0) -> dict:
    """The one-head model trained as the lab trains it (compute's loop, which the lab checks the notebook's
    against), on `tokens`, from `seed`; scored on every validation story."""
    import torch
    from compute.lessons.lab.states.run import _seeded_model, data
    from compute.lessons.story.states.evaluation import probes
    from compute.probes import run_probes, summary
    from compute.training.story import StoryRecipe, fit
    torch.set_num_threads(THREADS)
    model, generator = _seeded_model("one-head", seed)
    recipe = StoryRecipe(tokens=tokens, threads=THREADS)
    fit(model, data().stream, generator, recipe)
    model.eval()
    with torch.no_grad():
        scores = summary(probes(), run_probes(model, probes(), data().vocab))
    return {"tokens": tokens, **{k: scores[k] for k in KEYS}}  # no timing: runs may share the machine


def chance() -> dict:
    """What guessing uniformly among the words of the kind scores, for names and objects."""
    from compute.lessons.story.states.evaluation import chances
    c = chances()
    return {"name": c["name"], "object": c["object"]}


def record(runs: list[dict]) -> dict:
    seconds = statistics.median(r["seconds"] for r in runs)
    reached = {kind: {k: statistics.median(r["reached"][kind][k] for r in runs) for k in KEYS}
               for kind in runs[0]["reached"]}
    return {"seconds": round(seconds, 1), "tokens": runs[0]["tokens"], "runs": len(runs),
            "each_run_seconds": [round(r["seconds"], 1) for r in runs], "reached": reached,
            "measured_on": {**machine_record(THREADS), "python": platform.python_version(),
                            "date": datetime.now(timezone.utc).strftime("%Y-%m-%d")}}


def markdown(rec: dict) -> str:
    r = rec["reached"]
    lines = ["| the lab, downloaded and run (`TRAIN = True`) | median | runs | budget |", "| --- | --- | --- | --- |",
             f"| whole notebook, {rec['tokens']:,} tokens per model | {rec['seconds']:.0f} s | {rec['runs']} | "
             f"{BUDGET_S:.0f} s, {'within' if rec['seconds'] <= BUDGET_S else 'over'} budget |", "",
             "| trained in the lab | validation loss | object, beyond 8 back | name, beyond 8 back |",
             "| --- | --- | --- | --- |"]
    for kind, v in r.items():
        lines.append(f"| {kind} | {v['val_loss']:.3f} | {v['object beyond 8']:.2f} | {v['name beyond 8']:.2f} |")
    m = rec["measured_on"]
    lines += ["", f"Medians of {rec['runs']} runs; {m['cpu']}, {m['threads']} threads, Python {m['python']}, "
                  f"{m['date']}."]
    return "\n".join(lines)



def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--tokens", type=int, default=None, help="override the notebook's TOKENS (a quick check)")
    p.add_argument("--record", action="store_true", help=f"write compute/checkpoints/{RECORD}")
    p.add_argument("--docs", action="store_true", help="write the table into docs/performance.md")
    p.add_argument("--budgets", default="", help="comma-separated token budgets: train the one-head model on each")
    args = p.parse_args()
    if args.budgets:
        budgets = [budget_run(int(t)) for t in args.budgets.split(",")]
        for b in budgets:
            print(f"{b['tokens']:>11,} tokens: names beyond 8 {b['name beyond 8']:.3f}, objects beyond 8 "
                  f"{b['object beyond 8']:.3f}")
        if args.record:
            path = checkpoint_dir() / RECORD
            rec = json.loads(path.read_text())
            rec["budgets"] = {"one-head": budgets, "chance": chance(),
                              "measured_on": {**machine_record(THREADS), "python": platform.python_version(),
                                              "date": datetime.now(timezone.utc).strftime("%Y-%m-%d")}}
            path.write_text(json.dumps(rec, indent=1) + "\n")
        return
    runs = []
    for i in range(args.runs):
        runs.append(one_run(args.tokens))
        print(f"run {i + 1}: {runs[-1]['seconds']:.0f} s", file=sys.stderr)
    rec = record(runs)
    table = markdown(rec)
    print(table)
    if args.record:
        (checkpoint_dir() / RECORD).write_text(json.dumps(rec, indent=1) + "\n")
    if args.docs:
        write_table("lab", table)


if __name__ == "__main__":
    main()
