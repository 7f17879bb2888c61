"""Each deck as a PDF, one slide a page, for a room with no network: `<name>-slides.pdf` beside the handouts.

The deck (sitebuild.decks.cut) is opened in reveal.js's own print view (`?print-pdf`), which lays every slide out
as a 1280 x 720 page; a figure's slide is there a slide per state its page prints (drawn at build, no control
on it), so the PDF shows the states the text cites. Printed again only when the deck, _static/ or this code
changed (hashes in `<out_dir>/stamps.json`, with each PDF's seal: a damaged one is printed again).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from sitebuild import browser, progress
from sitebuild.decks.cut import FOLDER
from sitebuild.handouts.printer import (HandoutError, fix_pdf_dates, prints_kept, read_stamps, redate, refuse_faults,
                                        sealed_stamp, static_hash, write_stamps)
from sitebuild.serve import serve

SUFFIX = "-slides"
PAGE = {"width": 1280, "height": 720}     # CSS px, as slides.js's PAPER


def file_name(name: str) -> str:
    return f"{name}{SUFFIX}.pdf"


def deck_hash(html_dir: Path, name: str, static: bytes) -> str:
    h = hashlib.sha256(static)
    for module in (Path(__file__), Path(browser.__file__)):
        h.update(module.read_bytes())
    h.update((html_dir / FOLDER / f"{name}.html").read_bytes())
    return h.hexdigest()


def print_decks(html_dir: Path, names: list[str], out_dir: Path, epoch: int) -> list[str]:
    """Print `out_dir`/<name>-slides.pdf for each deck `html_dir`/slides/<name>.html; returns the decks printed
    this time (the others were unchanged and kept). Raises HandoutError."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stamps = read_stamps(out_dir)
    wanted = {file_name(name) for name in names}
    for pdf in out_dir.glob("*.pdf"):
        if pdf.name not in wanted:
            pdf.unlink()
    static = static_hash(html_dir)
    now = {name: {"deck": deck_hash(html_dir, name, static)} for name in names}
    todo = [s for s in names if not (isinstance(stamps.get(s), dict) and stamps[s].get("deck") == now[s]["deck"]
                                     and prints_kept(out_dir, [file_name(s)], stamps[s]))]
    for kept in sorted(set(names) - set(todo)):
        redate(out_dir / file_name(kept), epoch)
    stamps = {s: sealed_stamp(out_dir, s, stamps[s], [file_name(s)]) for s in names if s not in todo}
    if todo:
        from playwright.sync_api import sync_playwright

        with serve(html_dir) as base, sync_playwright() as pw:
            chromium = browser.launch(pw)
            try:
                progress.expect(len(todo))
                for name in todo:
                    print_deck(chromium, f"{base}{FOLDER}/{name}.html", out_dir / file_name(name))
                    fix_pdf_dates(out_dir / file_name(name), epoch)
                    progress.advance(file_name(name))
                    stamps[name] = sealed_stamp(out_dir, name, now[name], [file_name(name)])
                    write_stamps(out_dir, stamps)
            finally:
                chromium.close()
    write_stamps(out_dir, stamps)
    return todo


READY_JS = """async () => {
  await new Promise((done) => {   // slides.js marks the page when reveal.js has laid the slides out as pages
    const wait = () => document.documentElement.dataset.paperReady ? done() : setTimeout(wait, 20); wait(); });
  await (""" + browser.FONTS_AND_PICTURES_JS + """)('img');
  // links as text: on paper they would point at the local server the printer ran
  document.querySelectorAll('a[href]').forEach((a) => a.removeAttribute('href'));
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return document.querySelectorAll('.pdf-page').length;
}"""


def print_deck(chromium, url: str, pdf: Path) -> None:
    page = chromium.new_page(viewport=PAGE)
    external, errors = browser.watch(page)
    try:
        page.goto(url + "?print-pdf", wait_until="load")
        pages = page.evaluate(READY_JS)
        refuse_faults(url, external, errors)
        if not pages:
            raise HandoutError(f"{url} laid out no slide to print")
        tmp = pdf.with_suffix(".pdf.tmp")
        tmp.write_bytes(page.pdf(width=f"{PAGE['width']}px", height=f"{PAGE['height']}px", print_background=True,
                                 prefer_css_page_size=True, tagged=True, outline=True))
        tmp.replace(pdf)
    except HandoutError:
        raise
    except Exception as exc:  # playwright errors: timeouts, JS exceptions
        raise HandoutError(f"printing the slides {url} failed: {exc}") from exc
    finally:
        page.close()
