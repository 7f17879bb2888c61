"""The README is a short front door, and it and the guides in docs/ link only to files that exist: every relative
Markdown link lands on a file, and every #anchor into a Markdown file on one of its headings (GitHub's slugs)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ROOT

README = ROOT / "README.md"
GUIDES = ("readers", "authors", "contributors", "performance")
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
BENCHMARKS = ("benchmark", "figures", "training", "live", "circuit", "train", "lab")  # the tables benchmarks/ write

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
LINK = re.compile(r"\[([^\]]*)\]\(\s*([^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)


def prose_lines(text: str) -> list[str]:
    """The lines of a Markdown text outside its fenced code blocks (a fence closes on a fence of its own
    character at least as long, so a ```` block may hold ``` blocks)."""
    lines, fence = [], None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
        elif fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip(" `~"):
                fence = None
        else:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text (links and code marks gone), lower case, every character but
    letters, digits, spaces, hyphens and underscores dropped, each space a hyphen."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading's anchor in a Markdown text; a repeated slug gets -1, -2, ... as GitHub numbers them."""
    seen: dict[str, int] = {}
    out = set()
    for line in prose_lines(text):
        m = HEADING.match(line)
        if m:
            s = slug(m.group(2))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return out


def links(text: str) -> list[str]:
    """The targets of the Markdown links and images in a text's prose (code blocks and code spans left out)."""
    prose = CODE_SPAN.sub("", "\n".join(prose_lines(text)))
    return [m.group(2) for m in LINK.finditer(prose)]


def broken_links(path: Path) -> list[str]:
    """Each relative link of a Markdown file that lands on no file, or on no heading of a Markdown file."""
    out = []
    for target in links(path.read_text()):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.is_file():
            out.append(f"{target}: no file {dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else file}")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest.read_text()):
            out.append(f"{target}: no heading of {dest.name} has the anchor #{anchor}")
    return out


def test_slugs_are_githubs():
    assert slug("Why Sphinx and not Quarto") == "why-sphinx-and-not-quarto"
    assert slug("Sentences that cannot drift (for authors)") == "sentences-that-cannot-drift-for-authors"
    assert slug("The timings of Part 2B") == "the-timings-of-part-2b"
    assert slug("The `--docs` flag: [a link](x.md), *stressed*") == "the---docs-flag-a-link-stressed"
    text = "# Top\n\n## Same\n\n```md\n## Not a heading\n```\n\n## Same\n"
    assert anchors(text) == {"top", "same", "same-1"}


def test_a_broken_link_or_anchor_is_found(tmp_path):
    (tmp_path / "a.md").write_text("# A\n\n## Here it is\n")
    doc = tmp_path / "b.md"
    doc.write_text("[ok](a.md#here-it-is) [file](missing.md) [anchor](a.md#not-here) [self](#b)\n\n"
                   "`[code](missing.md)` [web](https://example.org/x#y)\n\n```\n[fenced](missing.md)\n```\n# B\n")
    assert links(doc.read_text()) == ["a.md#here-it-is", "missing.md", "a.md#not-here", "#b",
                                      "https://example.org/x#y"]
    assert [b.split(":")[0] for b in broken_links(doc)] == ["missing.md", "a.md#not-here"]


def test_the_readme_is_a_short_front_door():
    lines = README.read_text().split("\n")
    assert len(lines) <= 160, f"README.md has {len(lines)} lines; the guides in docs/ hold the rest"


def test_the_readme_links_every_guide():
    targets = {t.partition("#")[0] for t in links(README.read_text())}
    missing = [g for g in GUIDES if f"docs/{g}.md" not in targets]
    assert not missing, f"README.md links no docs/{missing[0]}.md"
    assert all((ROOT / "docs" / f"{g}.md").is_file() for g in GUIDES)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_lands(doc):
    assert links(doc.read_text()), f"{doc.name} links nothing"
    broken = broken_links(doc)
    assert not broken, f"{doc.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_benchmark_tables_stand_in_the_performance_guide():
    """Each table a benchmark writes (benchmarks/performance.py) has its two markers in docs/performance.md, once."""
    from benchmarks.performance import PERFORMANCE
    assert PERFORMANCE == ROOT / "docs" / "performance.md"
    for doc in DOCS:
        text = doc.read_text()
        for name in BENCHMARKS:
            want = 1 if doc == PERFORMANCE else 0
            for marker in (f"<!-- {name}:start -->", f"<!-- {name}:end -->"):
                assert text.count(marker) == want, f"{doc.relative_to(ROOT)} holds {marker} {text.count(marker)} times"
