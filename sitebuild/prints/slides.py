"""Each deck (sitebuild.decks.cut) as a PDF, one 16:9 page per slide, typeset by Typst: `<name>-slides.pdf`.

A slide prints its title, its lead sentences, its equation and its goals; a figure prints as the deck's paper
slides hold it, a page per printed state (the live figure's slide is the screen's alone). A slide that would
print a title and nothing under it is not printed. Set again only when the deck or this code changed (the stamps
of sitebuild.prints.stamps), dated by the source.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from bs4 import BeautifulSoup, Tag

from sitebuild import progress
from sitebuild.decks.cut import FOLDER
from sitebuild.prints.markup import Page, inline, string
from sitebuild.prints.mathml import formula
from sitebuild.prints.stamps import code_hash, prints_kept, read_stamps, sealed_stamp, write_stamps

SUFFIX = "-slides"
TEMPLATE = "/prints/slides.typ"


def file_name(name: str) -> str:
    return f"{name}{SUFFIX}.pdf"


def slide_call(section: Tag, page: Page) -> str | None:
    """One slide as a call of the template's `slide`, or None when it holds nothing to print."""
    if "deck-figure" in (section.get("class") or []):
        return None                                   # the live figure: its states are the paper slides
    heading = section.find(["h1", "h2"])
    title = "".join(inline(c, page) for c in heading.children).strip() if heading else ""
    lines = []
    for el in section.find_all(["p", "div", "ul"], recursive=False):
        classes = el.get("class") or []
        if "deck-lead" in classes:
            lines.append("".join(inline(c, page) for c in el.children).strip())
        elif "deck-equation" in classes:
            lines += [formula(m) for m in el.select("mjx-assistive-mml math")]
        elif "deck-goals" in classes:
            items = ["[" + "".join(inline(c, page) for c in li.children).strip() + "]" for li in el.find_all("li")]
            lines.append("#list(" + ", ".join(items) + ")")
    states = []
    for state in section.select(".figure-print .figure-state"):
        img, label = state.find("img"), state.select_one(".figure-state-label")
        if img and img.get("src"):
            states.append(f"fig-state({string(label.get_text(' ', strip=True)) if label else 'none'}, "
                          f"{string(page.path(img['src']))})")
    if not lines and not states:
        return None                                   # a title alone announces what the slide does not hold
    body = ", ".join(f"[{line}]" for line in lines)
    first = "true" if heading is not None and heading.name == "h1" else "false"
    return (f"#slide([{title}], ({body}{',' if lines else ''}), states: ({', '.join(states)}"
            f"{',' if states else ''}), first: {first})")


def deck_source(html_dir: Path, name: str, root: Path, date: str) -> str:
    path = html_dir / FOLDER / f"{name}.html"
    soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    page = Page(path.parent, root, stem=name)
    title = soup.find("h1").get_text(" ", strip=True) if soup.find("h1") else name
    calls = [call for section in soup.select(".slides > section") if (call := slide_call(section, page))]
    return "\n".join([f'#import "{TEMPLATE}": *', f"#show: deck.with(short: {string(title)}, date: {date})",
                      *calls, ""])


def deck_stamp(html_dir: Path, name: str, epoch: int) -> str:
    h = hashlib.sha256(code_hash())
    h.update(str(epoch).encode())
    h.update((html_dir / FOLDER / f"{name}.html").read_bytes())
    return h.hexdigest()


def make_slides(html_dir: Path, names: list[str], out_dir: Path, epoch: int) -> list[str]:
    """Set `out_dir`/<name>-slides.pdf for each deck whose stamp changed; the decks set this time."""
    from sitebuild.prints.typeset import compile_typst, sources, typst_date
    root = html_dir.parent
    out_dir.mkdir(parents=True, exist_ok=True)
    stamps = {n: s for n, s in read_stamps(out_dir).items() if n in names and isinstance(s, dict)}
    now = {name: deck_stamp(html_dir, name, epoch) for name in names}
    todo = [n for n in names if not (stamps.get(n, {}).get("stamp") == now[n] and prints_kept(out_dir, stamps[n]))]
    progress.expect(len(todo))
    for name in todo:
        source = sources(html_dir) / "slides" / f"{name}.typ"
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(deck_source(html_dir, name, root, typst_date(epoch)), encoding="utf-8")
        compile_typst(source, root, out_dir / file_name(name), "slides")
        stamps[name] = sealed_stamp(out_dir, now[name], [file_name(name)])
        progress.advance(file_name(name))
    write_stamps(out_dir, stamps)
    for pdf in out_dir.glob("*.pdf"):
        if pdf.name not in {file_name(n) for n in names}:
            pdf.unlink()
    return todo
