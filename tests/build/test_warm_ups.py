"""The build's warm-ups (compute.checks.WARM_UPS: the story corpora, then Part III's measurements from the end of its
page back, compute.lessons.story.states.warm) end well and compute only what Part III's page asks for.

The build runs them in processes of their own and passes over one that fails (the lesson then computes its
measurements itself, slower), so a warm-up broken by a renamed function or a changed argument would cost the build
its time without a word; and one that computed a call the page does not make would spend a core for nothing. Here
the page's code (its code cells, read as the build's stamps read them, sitebuild.pages.stamps) and then the
warm-ups run in one process over the build's kept results, every kept call they make listed with its key
(compute.kept.call_key)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from compute.checks import WARM_UPS
from compute.kept import results_folder
from conftest import ROOT, ROOT_READ
from sitebuild.pages.stamps import code_cells

pytestmark = ROOT_READ  # reads _build/ while it is the tested build's

PAGE = ROOT / "posts" / "story-models.md"

# Runs the page's code, then each warm-up; prints the kept calls of each (slot-key).
LISTED = """
import json, sys
import compute.kept as kept
asked, call_key = [], kept.call_key
def listed(fn, arguments, reads):
    slot, key = call_key(fn, arguments, reads)
    asked.append(f"{slot}-{key}")
    return slot, key
kept.call_key = listed
exec(compile(sys.argv[1], 'story-models', 'exec'), {'__name__': '__main__'})
page = sorted(set(asked))
asked.clear()
for statement in json.loads(sys.argv[2]):
    exec(statement, {'__name__': '__main__'})
print(json.dumps({'page': page, 'warm_ups': sorted(set(asked))}))
"""


def kept_entries() -> dict[str, int]:
    return {p.name: p.stat().st_size for p in results_folder().glob("*.pkl")}


def test_every_warm_up_ends_well_and_computes_only_what_part_three_asks_for(built_site):
    part_three = [s for s in WARM_UPS if "story.states import warm" in s]
    page = code_cells(PAGE.read_text())
    assert len(part_three) == 2 and len(page) > 10
    before = kept_entries()
    proc = subprocess.run([sys.executable, "-c", LISTED, "\n".join(page), json.dumps(WARM_UPS)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    calls = json.loads(proc.stdout.strip().splitlines()[-1])
    warmed = set(calls["warm_ups"])
    assert len(warmed) >= 12 and any(c.startswith("samples-") for c in warmed)   # the measurements, not only corpora
    assert warmed <= set(calls["page"]), sorted(warmed - set(calls["page"]))
    assert kept_entries() == before       # every call found kept: the build kept it under the same key
