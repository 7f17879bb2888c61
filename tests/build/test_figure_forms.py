"""Every figure of the built site in its three forms (sitebuild.figures.render): the page's pictures, the printed
states, the files to take away; each drawn from the figure's own spec and holding its traces and numbers."""
from __future__ import annotations

import base64
import csv
import html
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from conftest import LESSONS
from sitebuild.figures.forms import WIDE
from sitebuild.sitecheck import figure_specs


SVG = "{http://www.w3.org/2000/svg}"
FIGURE = re.compile(r'<figure class="plotly-figure"[^>]*data-print="(?P<print>[^"]*)"[^>]*>(?P<body>.*?)</figure>', re.S)


def figures(site: Path, stem: str) -> list[dict]:
    """Each figure of a lesson page: id, declared states, spec, and what the build wrote for it."""
    page = site / "posts" / f"{stem}.html"
    text = page.read_text()
    specs = figure_specs(text, page)
    out = []
    for m, spec in zip(FIGURE.finditer(text), specs):
        body = m["body"]
        fid = re.search(r'<div id="([^"]+)" class="plotly-graph-div"', body).group(1)
        out.append({"id": fid, "prints": json.loads(html.unescape(m["print"])), "spec": json.loads(spec),
                    "body": body, "page": text})
    return out


def decoded(values):
    """A trace's array as plotly.py wrote it: a list, or {dtype, bdata[, shape]} (base64)."""
    if isinstance(values, dict) and "bdata" in values:
        array = np.frombuffer(base64.b64decode(values["bdata"]), dtype=np.dtype(values["dtype"]))
        if "shape" in values:
            array = array.reshape([int(n) for n in str(values["shape"]).split(",")])
        return array.tolist()
    return values


def traces_drawn(svg_text: str) -> int:
    """Plotly's trace groups in an SVG that are not empty (bars, lines, heatmap images)."""
    root = ET.fromstring(svg_text)
    groups = [g for g in root.iter(f"{SVG}g") if "trace" in (g.get("class") or "").split()]
    drawn = [g for g in groups if any(True for el in g.iter() if el.tag in (f"{SVG}path", f"{SVG}image", f"{SVG}rect"))]
    heatmaps = [i for i in root.iter(f"{SVG}image") if (i.get("href") or i.get("{http://www.w3.org/1999/xlink}href") or "")]
    return len(drawn) + len(heatmaps)


@pytest.mark.parametrize("stem", LESSONS)
def test_every_figure_has_its_pictures_and_printed_states_each_holding_its_traces(built_site, stem):
    found = figures(built_site, stem)
    for f in found:
        rules = re.search(r'<style id="figure-pictures">(.*?)</style>', f["page"], re.S).group(1)
        pictures = re.findall(rf"#{re.escape(f['id'])}\{{[^}}]*background-image:url\(\.\./([^)]+)\)", rules)
        assert len(set(pictures)) == 4, (f["id"], pictures)  # light and dark, wide and narrow
        printed = re.findall(r'<img src="\.\./(_static/rendered/[^"]+-print-\d+\.svg)"', f["body"])
        states = f["prints"]["states"] or [None]
        assert len(printed) == len(states), f["id"]
        visible = [t for t in f["spec"]["data"] if t.get("visible", True) is True]
        for name in pictures + printed:
            text = (built_site / name).read_text()
            root = ET.fromstring(text)  # well-formed SVG
            assert root.tag == f"{SVG}svg" and float(root.get("width")) >= 200, (f["id"], name)
            assert traces_drawn(text) >= min(1, len(visible)), (f["id"], name, "an empty frame")


@pytest.mark.parametrize("stem", LESSONS)
def test_a_figure_with_controls_prints_two_states_or_says_why_one_is_enough(built_site, stem):
    for f in figures(built_site, stem):
        layout = f["spec"]["layout"]
        controls = any(m.get("buttons") for m in layout.get("updatemenus", [])) or \
            any(s.get("steps") for s in layout.get("sliders", []))
        states, why = f["prints"]["states"], f["prints"]["why"]
        if controls:
            assert len(states) >= 2 or why.strip(), f["id"]
            if len(states) < 2:  # the reason is printed with the figure
                assert f'<p class="figure-why">{html.escape(why)}</p>' in f["body"], f["id"]
        else:
            assert states == [] and not why, f["id"]


def csv_rows(site: Path, stem: str, fid: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO((site / "figures" / stem / f"{fid}.csv").read_text())))


@pytest.mark.parametrize("stem", LESSONS)
def test_each_figures_csv_holds_the_numbers_its_spec_plots_as_it_opens(built_site, stem):
    """For the figure as it opens (a figure without controls, or a printed state that works none), the CSV's
    rows are the spec's points: every x, y and heatmap value, in order."""
    checked = 0
    for f in figures(built_site, stem):
        states = f["prints"]["states"]
        opening = [s["label"] for s in states if not s["steps"]] if states else [""]
        if not opening:
            continue
        rows = csv_rows(built_site, stem, f["id"])
        if states:
            rows = [r for r in rows if r.get("state", "") == opening[0]] if len(states) > 1 else rows
        value = [k for k in rows[0] if k in ("value",)] if rows else []
        expected = []
        for trace in f["spec"]["data"]:
            if trace.get("visible", True) is not True:
                continue
            x, y = decoded(trace.get("x")), decoded(trace.get("y"))
            if trace.get("type") == "heatmap":
                z = decoded(trace["z"])
                for r, row in enumerate(z):
                    for c, v in enumerate(row):  # a gap (None, or NaN in a typed array) is a blank cell
                        expected.append((str(x[c] if x else c), str(y[r] if y else r), None if v != v else v, True))
            else:
                n = len(x) if x is not None else len(y)
                for k in range(n):
                    expected.append((str(x[k] if x is not None else k), str(y[k] if y is not None else k), None, False))
        xs = [k for k in (rows[0] if rows else {}) if k == "x" or k.startswith("x (")]
        ys = [k for k in (rows[0] if rows else {}) if k == "y" or k.startswith("y (")]
        got = []
        for r in rows:
            v = r.get("value") if value else None
            got.append((r[xs[0]], r[ys[0]], None if v in (None, "") else float(v)))
        assert len(got) == len(expected), f["id"]
        for (gx, gy, gv), (ex, ey, ev, cell) in zip(got, expected):
            if cell:  # a heatmap cell: its labels and its value (blank for a gap)
                assert (gx, gy) == (ex, ey) and gv == ev, (f["id"], (gx, gy, gv), (ex, ey, ev))
            else:     # a bar or a point: x and y as plotted (numbers compared as numbers)
                assert _same(gx, ex) and _same(gy, ey), (f["id"], (gx, gy), (ex, ey))
        checked += 1
    assert checked >= 1


def _same(a: str, b: str) -> bool:
    try:
        return float(a) == float(b)
    except ValueError:
        return a == b


@pytest.mark.parametrize("stem", LESSONS)
def test_every_figure_links_its_files_and_the_handout_says_where_they_are(built_site, stem):
    for f in figures(built_site, stem):
        for ext in ("svg", "png", "csv"):
            path = f"figures/{stem}/{f['id']}.{ext}"
            assert f'<a href="../{path}" download>{ext.upper()}</a>' in f["body"], (f["id"], ext)
            data = (built_site / path).read_bytes()
            assert len(data) > 200, path
        assert (built_site / f"figures/{stem}/{f['id']}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        ET.fromstring((built_site / f"figures/{stem}/{f['id']}.svg").read_text())
        assert f"figures/{stem}/{f['id']}.svg, .png and .csv" in f["body"]


def test_the_lambda_figure_prints_none_and_all_of_the_update(built_site):
    """Attention by hand's bank-row figure: on paper both ends of its slider, where the web page opens at one."""
    blend = next(f for f in figures(built_site, "attention-by-hand") if f["id"] == "bh-s10-blend")
    labels = [s["label"] for s in blend["prints"]["states"]]
    assert len(labels) == 2 and labels[0].startswith("λ = 0.00") and labels[1].startswith("λ = 1.00")
    rows = csv_rows(built_site, "attention-by-hand", "bh-s10-blend")
    by_state = {label: {(r["series"], r["x"]): float(r["y (value)"]) for r in rows if r["state"] == label}
                for label in labels}
    none, whole = by_state[labels[0]], by_state[labels[1]]
    # no update: both sentences' bars are the same row; the whole update: they differ
    assert all(none[("A (river)", f)] == none[("B (cheque)", f)] for f in ("water", "finance", "thing", "grammar"))
    assert whole[("A (river)", "water")] > whole[("B (cheque)", "water")]
    assert whole[("B (cheque)", "finance")] > whole[("A (river)", "finance")]


def test_the_wide_width_is_the_page_rules_breakpoint(built_site):
    rules = re.search(r'<style id="figure-pictures">(.*?)</style>', (built_site / "posts/lab.html").read_text(),
                      re.S).group(1)
    assert f"@container (max-width:{WIDE - 0.02}px)" in rules
