"""The built trained-walkthrough page and its handout show what the checkpoint gives.

Expected values come from the numpy reference run on the checkpoint file read
directly with safetensors, not from the code that wrote the page.
"""
from __future__ import annotations

import html as htmllib
import json
import re
from html.parser import HTMLParser

import numpy as np
import pytest
from pypdf import PdfReader
from safetensors.numpy import load_file

import reference
from conftest import ROOT

STEM = "trained-walkthrough"
CKPT = ROOT / "compute" / "checkpoints"
GOAL = "the rise of the machine was slow but the fall of the machine was fast".split()
VOCAB = ["the", "rise", "of", "machine", "was", "slow", "but", "fall", "fast"]


@pytest.fixture(scope="module")
def expected():
    """Every weight and intermediate, float64, from the reference forward pass."""
    w = {k: v.astype(np.float64) for k, v in load_file(CKPT / "walkthrough.safetensors").items()}
    tokens = [VOCAB.index(t) for t in GOAL[:-1]]
    out = {**w, **reference.forward(w, tokens)}
    T = len(tokens)
    future = np.triu(np.ones((T, T), bool), 1)
    out["M"] = np.where(future, -np.inf, 0.0)
    out["S_masked"] = np.where(future, -np.inf, out["S"])
    return out


class Tables(HTMLParser):
    """Collects each <table data-matrix=NAME> as a list of rows of cell texts."""

    def __init__(self):
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._name = None
        self._row = None
        self._cell = None
        self.highlighted: dict[str, list[tuple[int, int]]] = {}  # table -> (row, column) of each td.hl

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and "data-matrix" in a:
            self._name = a["data-matrix"]
            self.tables[self._name] = []
        elif self._name and tag == "tr":
            self._row = []
        elif self._name and tag == "td":
            self._cell = ""
            if "hl" in (a.get("class") or "").split():
                self.highlighted.setdefault(self._name, []).append((len(self.tables[self._name]), len(self._row)))
            if "masked" in (a.get("class") or "").split():
                self._cell = "masked:"

    def handle_endtag(self, tag):
        if tag == "table":
            self._name = None
        elif self._name and tag == "tr" and self._row:
            self.tables[self._name].append(self._row)
            self._row = None
        elif self._name and tag == "td":
            self._row.append(self._cell)
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def number(text: str) -> float:
    if text.startswith("masked:"):
        return 0.0  # a weight the mask set to exactly zero, printed as a mark
    text = text.strip().replace("−", "-").lstrip("<>")
    return -np.inf if text == "-∞" else float(text.rstrip("%"))


def relation(text: str) -> str:
    """'<' or '>' for a cell printed as an inequality (a value closer to 0 or 1 than its decimals), else '='."""
    return text.strip()[0] if text.strip()[:1] in ("<", ">") else "="


@pytest.fixture(scope="module")
def page_html(built_site):
    return (built_site / "posts" / f"{STEM}.html").read_text()


def test_every_matrix_cell_equals_the_checkpoint(page_html, expected):
    parser = Tables()
    parser.feed(page_html)
    names = set(parser.tables)
    assert {"E", "P", "X", "W_Q", "Q", "W_K", "K", "S", "M", "S_masked", "A", "W_V", "V", "Z", "W_O",
            "hidden", "W1", "b1", "W2", "b2", "ffn_hidden", "y", "W_U", "logits", "probs"} <= names
    for name, rows in parser.tables.items():
        want = np.atleast_2d(expected[name])
        got = np.array([[number(c) for c in r] for r in rows])
        assert got.shape == want.shape, name
        finite = np.isfinite(want)
        assert np.array_equal(np.isfinite(got), finite), name
        ops = np.array([[relation(c) for c in r] for r in rows])
        exact = finite & (ops == "=")
        # two decimals (more near 0 or 1): within half a unit of the second place
        assert np.abs(got[exact] - want[exact]).max() <= 0.005 + 1e-9, name
        # an inequality holds, and stands for a value that is not the bound itself
        assert np.all(want[ops == "<"] < got[ops == "<"]) and np.all(want[ops == ">"] > got[ops == ">"]), name
        assert not np.isin(want[ops != "="], (0.0, 1.0)).any(), name


def test_masked_weights_are_marked_and_only_those(page_html, expected):
    parser = Tables()
    parser.feed(page_html)
    masked = np.array([[c.startswith("masked:") for c in r] for r in parser.tables["A"]])
    assert np.array_equal(masked, ~np.isfinite(expected["S_masked"]))
    assert all(c == "masked:·" for r in parser.tables["A"] for c in r if c.startswith("masked:"))


def test_highlights_mark_the_largest_score_a_row_may_read(page_html, expected):
    """Row 5's largest raw score sits on a future key: its highlight must be on the allowed maximum,
    the cell the sentence below the table names."""
    parser = Tables()
    parser.feed(page_html)
    for name in ("S", "A"):
        cells = parser.highlighted[name]
        assert cells, name
        for i, j in cells:
            assert j <= i, (name, i, j)
            assert j == int(np.argmax(expected[name][i, : i + 1])), (name, i, j)
    assert int(np.argmax(expected["S"][5])) > 5  # the case the rule is for: a future key scores highest
    row5 = dict(parser.highlighted["S"])[5]
    text = htmllib.unescape(re.sub(r"<[^>]+>", "", page_html))
    said = re.search(r"in row 5 it is (\w+) \((-?[\d.]+)\)", text)
    assert said and said.group(1) == GOAL[row5]
    assert abs(float(said.group(2)) - expected["S"][5, row5]) <= 0.005


def glue_refs() -> list[tuple[str, str]]:
    """(name, format spec) of every {glue:text} role in the lesson source, in order."""
    source = (ROOT / "posts" / f"{STEM}.md").read_text()
    return [(m.group(1), m.group(2) or "") for m in re.finditer(r"\{glue:text\}`([\w]+)(?::([^`]*))?`", source)]


def pasted(page_html) -> list[str]:
    return [htmllib.unescape(t) for t in re.findall(r'<span class="pasted-text">(.*?)</span>', page_html)]


def test_every_cited_matrix_entry_and_weight_equals_the_checkpoint(page_html, expected):
    refs, texts = glue_refs(), pasted(page_html)
    assert len(refs) == len(texts) > 50
    shown = dict(zip((n for n, _ in refs), texts))
    coord = {"kc": int(shown["key_coord"]), "vc": int(shown["value_coord"])}
    checked = 0
    for (name, spec), text in zip(refs, texts):
        m = re.fullmatch(r"(A|S|K|V|Q|Z|X|probs)_(\d+)_(\d+|kc|vc)", name)
        if not m:
            continue
        i, j = int(m.group(2)), coord.get(m.group(3)) if m.group(3) in coord else int(m.group(3))
        value = expected[m.group(1)][i, j]
        decimals = int(re.search(r"\.(\d+)f", spec).group(1))
        assert abs(number(text) - value) <= 0.5 * 10**-decimals + 1e-12, (name, text, value)
        checked += 1
    assert checked >= 20
    # every attention weight cited in prose was among them
    assert {n for n, _ in refs if n.startswith("A_")} >= {"A_5_1", "A_13_9", "A_13_1"}


def test_prose_cites_the_published_seed_and_the_seed_search(page_html):
    shown = dict(zip((n for n, _ in glue_refs()), pasted(page_html)))
    manifest = json.loads((CKPT / "walkthrough.json").read_text())
    record = json.loads((CKPT / "walkthrough-seeds.json").read_text())
    assert int(shown["seed"]) == manifest["seed"] == record["published_seed"]
    assert int(shown["steps"]) == len(manifest["loss_history"])
    assert int(shown["n_seeds"]) == len(record["entries"])
    converged = [e for e in record["entries"] if e["converged"]]
    assert int(shown["n_converged"]) == len(converged)
    both = [e for e in converged if (e["rows"]["5"]["word"], e["rows"]["13"]["word"]) == ("rise", "fall")]
    assert int(shown["n_cue_both"]) == len(both)
    assert int(shown["alt_seed"]) == record["alternative_seed"]
    alt = load_file(CKPT / "walkthrough-alt.safetensors")
    tokens = [VOCAB.index(t) for t in GOAL[:-1]]
    a13 = reference.forward({k: v.astype(np.float64) for k, v in alt.items()}, tokens)["A"][13]
    assert GOAL[int(np.argmax(a13))] == shown["alt_row13_word"] != "fall"


def test_worked_score_adds_up(page_html, expected):
    """The digit-by-digit table's products and sum are q_13 · k_9."""
    q, k = expected["Q"][13], expected["K"][9]
    for c in range(6):
        assert f"<td>{q[c]:.4f}</td><td>{k[c]:.4f}</td><td>{q[c] * k[c]:.4f}</td>".replace("-0.0000", "0.0000") in page_html
    assert f"<td>{q @ k:.4f}</td>" in page_html


# --- in the browser ---------------------------------------------------------

def figure_data(page, div_id):
    return page.page.evaluate(f"() => document.getElementById('{div_id}').data.map(t => ({{y: Array.from(t.y)}}))")


def test_page_is_offline_with_math_and_five_figures(page):
    n = page.open(f"posts/{STEM}.html")
    assert n == 5
    for div_id in ("fig-loss", "fig-attention", "fig-next-word", "fig-seed-patterns", "fig-attention-alt"):
        assert page.page.locator(f"#{div_id} svg.main-svg").count() > 0, div_id
    assert page.page.locator("mjx-container").count() > 10
    assert page.external_requests == [] and page.console_errors == []


def test_heatmap_hover_shows_score_and_weight(page, expected):
    page.open(f"posts/{STEM}.html")
    page.page.locator("#fig-attention").scroll_into_view_if_needed()
    area = page.page.locator("#fig-attention .nsewdrag").first.bounding_box()
    T = len(GOAL) - 1  # cell (row 13, column 9): rows run top to bottom
    page.page.mouse.move(area["x"] + area["width"] * (9 + 0.5) / T, area["y"] + area["height"] * (13 + 0.5) / T)
    page.page.locator("#fig-attention .hovertext").wait_for(timeout=5000)
    label = page.page.locator("#fig-attention .hovertext").text_content()
    assert "query 13 was → key 9 fall" in label
    assert f"score s = {expected['S'][13, 9]:.2f}" in label
    assert f"weight a = {expected['A'][13, 9]:.2f}" in label    # as the table of A prints it


def test_slider_moves_the_probability_bars(page, expected):
    page.open(f"posts/{STEM}.html")
    fig = page.page.locator("#fig-next-word")
    fig.scroll_into_view_if_needed()
    y0 = figure_data(page, "fig-next-word")[0]["y"]
    assert np.allclose(y0, expected["probs"][13], atol=1e-9)  # default: position 13
    rail = fig.locator(".slider-rail-rect").bounding_box()
    steps = len(GOAL) - 1
    for position in (5, 0):
        x = rail["x"] + rail["width"] * position / (steps - 1)
        page.page.mouse.click(x, rail["y"] + rail["height"] / 2)
        page.page.wait_for_timeout(300)
        y = figure_data(page, "fig-next-word")[0]["y"]
        assert np.allclose(y, expected["probs"][position], atol=1e-9), position
        assert f"after position {position} ({GOAL[position]})" in fig.locator(".gtitle").text_content()
    assert page.console_errors == []


def test_handout_has_title_matrix_entries_and_figures(built_site, expected):
    reader = PdfReader(built_site / "handouts" / f"{STEM}.pdf")
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert "A trained walkthrough" in text
    for name, (i, j) in [("Q", (13, 4)), ("K", (9, 1)), ("V", (1, 2)), ("A", (13, 9)), ("W_U", (0, 0))]:
        value = expected[name][i, j]
        assert f"{value:.2f}".replace("-0.00", "0.00") in text, (name, i, j)
    # figures are vector drawings: their axis titles are text in the PDF
    for axis in ("Adam step", "query position i", "converged seeds", "probability"):
        assert axis in text, axis
