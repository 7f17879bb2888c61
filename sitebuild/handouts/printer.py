"""Print each lesson page to an A4 PDF handout with headless Chromium.

A handout is reprinted only when what it is printed from changed since it
was last printed: the page's HTML less the navigation that print hides (so a
new lesson, which adds a link to every page's sidebar, reprints no other
handout), or anything in _static/ (print.css, the other styles and scripts).
Hashes are kept in `<out_dir>/stamps.json`, with each PDF's seal (sitebuild.sealed): a PDF that is not as it
was printed is printed again, and the summary says so.

Chromium writes the time of printing into each PDF; it is replaced by the time
of the source's last commit (SOURCE_DATE_EPOCH when set, a fixed date outside
a git checkout; sitebuild.sourcedate), so two builds of one commit give the same bytes.
"""

from __future__ import annotations

import hashlib
import re
import time
from pathlib import Path

from sitebuild import browser, progress, sealed
from sitebuild.sourcedate import FALLBACK_EPOCH, source_epoch  # noqa: F401 (source_epoch: imported from here too)

from sitebuild.handouts import pdftext
from sitebuild.handouts.editions import APPENDIX_JS, EDITIONS, KEY_JS, MOVE_ANSWERS_JS, STUDENT_JS, files
from sitebuild.serve import serve

# Bump when the print settings below change, to reprint every handout.
PRINT_SETTINGS = "a4-15mm-footer-v6"  # v2: links to other pages unlinked, dates from the source; v3: figures
                                      # drawn after the fonts, printed two frames after their last resize;
                                      # v4: figures printed as the states their text cites, drawn at build;
                                      # v5: three editions (handout, student edition, answer key);
                                      # v6: no heading stranded at a page's foot
MARGIN = {side: f"{mm}mm" for side, mm in pdftext.MARGIN_MM.items()}   # read back by sitebuild.handouts.pdftext
# A4 width less the side margins, in CSS pixels: the page is laid out (and its
# figures sized) at the width it is printed at.
VIEWPORT = {"width": 680, "height": 960}
FOOTER = (
    '<div style="font-size:8px;color:#666;width:100%;margin:0 15mm;'
    'display:flex;justify-content:space-between;">'
    '<span class="title"></span>'
    '<span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>'
)

# What every print is printed with: A4, the margins above, the footer, links and the outline kept, tagged.
PDF_OPTIONS = dict(format="A4", margin=MARGIN, print_background=True, display_header_footer=True,
                   header_template="<span></span>", footer_template=FOOTER, outline=True, tagged=True)


# The site's navigation, which lists the other pages: hidden in print (_static/print.css; a test checks each is
# there), so a handout does not depend on it; and the <head>'s links to the pages before and after.
PRINT_HIDDEN = (".bd-header", ".bd-sidebar-primary", ".prev-next-footer", ".bd-footer")
NAVIGATION_LINKS = 'link[rel="prev"], link[rel="next"]'

_PDF_DATE = re.compile(rb"/(CreationDate|ModDate) \(D:\d{14}[-+Z][^)]*\)")
def fix_pdf_dates(pdf: Path, epoch: int) -> None:
    """Overwrite the PDF's creation and modification dates and renumber its structure names, keeping every
    byte offset (same length)."""
    stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime(epoch)).encode()
    before = pdf.read_bytes()
    data = renumber_structure_ids(_PDF_DATE.sub(lambda m: b"/" + m.group(1) + b" (D:" + stamp + b"+00'00')", before))
    if data != before:
        pdf.write_bytes(data)


def redate(pdf: Path, epoch: int) -> None:
    """A kept handout dated `epoch`, if it is not already (its structure names were renumbered when it was
    printed; renumbering again costs seconds and changes nothing)."""
    stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime(epoch)).encode()
    data = pdf.read_bytes()
    if any(m.group(0).split(b"(D:")[1][:14] != stamp for m in _PDF_DATE.finditer(data)):
        fix_pdf_dates(pdf, epoch)


# Chromium names each element of a tagged PDF's structure after its DOM node id ("node00000640"), and
# which ids the nodes get depends on timing: two prints of one page can differ in these names alone.
_NODE_ID = re.compile(rb"\((node\d{8})\)")  # an element's /ID, or a table cell's /Headers
_ID_ENTRY = re.compile(rb"\((node\d{8})\) (\d+) 0 R")
_ID_NAMES = re.compile(rb"/Limits \[\(node\d{8}\) \(node\d{8}\)\]\n/Names \[((?:\(node\d{8}\) \d+ 0 R ?)+)\]")


def renumber_structure_ids(data: bytes) -> bytes:
    """The structure elements' names numbered in the order of their objects, the ID tree sorted to match;
    every name keeps its width, so the file keeps its length and every byte offset."""
    m = _ID_NAMES.search(data)
    if not m:
        return data
    entries = [(int(obj), old) for old, obj in _ID_ENTRY.findall(m.group(1))]
    new = {old: b"node%08d" % k for k, (_, old) in enumerate(sorted(entries))}
    if len(new) != len(entries):
        return data  # a name used twice: leave the file as Chromium wrote it
    names = b" ".join(b"(" + new[old] + b") " + str(obj).encode() + b" 0 R" for obj, old in sorted(entries))
    limits = b"/Limits [(" + b"node%08d" % 0 + b") (" + b"node%08d" % (len(new) - 1) + b")]\n/Names ["
    block = limits + names + b"]"
    if len(block) != m.end() - m.start():
        return data
    def rename(part: bytes) -> bytes:
        return _NODE_ID.sub(lambda n: b"(" + new.get(n.group(1), n.group(1)) + b")", part)
    return rename(data[:m.start()]) + block + rename(data[m.end():])  # the new tree is not renamed again


# A link to another page of the site would print as a link to the local server the page was printed
# from: keep its text, drop the link. Links within the page become the PDF's own destinations.
UNLINK_OTHER_PAGES_JS = """() => {
  for (const a of document.querySelectorAll('a[href]')) {
    const url = new URL(a.getAttribute('href'), location.href);
    if (url.origin === location.origin && url.pathname !== location.pathname) a.removeAttribute('href');
  }
}"""


class HandoutError(Exception):
    """A lesson page could not be printed cleanly."""


def static_hash(html_dir: Path) -> bytes:
    """Digest of every file under _static/ (names and contents)."""
    h = hashlib.sha256()
    static = html_dir / "_static"
    for path in sorted(p for p in static.rglob("*") if p.is_file()):
        h.update(path.relative_to(static).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.digest()


def printed_part(html: str) -> str:
    """The page as print shows it: its HTML less the navigation print hides (PRINT_HIDDEN, NAVIGATION_LINKS),
    each run of whitespace between tags written as one newline (outside <pre>: it renders the same), so
    that taking an element out leaves what a page without it has."""
    from bs4 import BeautifulSoup, NavigableString

    soup = BeautifulSoup(html, "html.parser")
    for element in soup.select(", ".join((*PRINT_HIDDEN, NAVIGATION_LINKS))):
        element.decompose()
    for text in soup.find_all(string=True):
        if text.strip() or type(text) is not NavigableString or text.find_parent(("pre", "textarea")):
            continue
        before = text.previous_sibling
        if type(before) is NavigableString and not before.strip():
            text.extract()                      # the second of two runs that met where an element was
        else:
            text.replace_with("\n")
    return str(soup)


def page_hash(html_dir: Path, stem: str, static: bytes | None = None, printed: bool = True) -> str:
    """Hash of what a handout is printed from: the page as printed (printed_part; printed=False: the whole
    page, quicker to hash), _static/, the print settings and the code that prints (this module and the
    browser it drives)."""
    h = hashlib.sha256(PRINT_SETTINGS.encode())
    for module in (Path(__file__), Path(browser.__file__), Path(pdftext.__file__)):
        h.update(module.read_bytes())
    h.update(static if static is not None else static_hash(html_dir))
    page = (html_dir / "posts" / f"{stem}.html").read_text(encoding="utf-8")
    h.update((printed_part(page) if printed else page).encode())
    return h.hexdigest()


def _stamp(html_dir: Path, stem: str, static: bytes, last: dict) -> tuple[dict, bool]:
    """The page's stamp now, and whether its handout printed under the `last` stamp still holds. A page whose
    bytes are those last seen is not parsed again; one that changed only in what print hides keeps its handout."""
    page = page_hash(html_dir, stem, static, printed=False)
    if last.get("page") == page:
        return last, True
    now = {"page": page, "printed": page_hash(html_dir, stem, static)}
    return now, now["printed"] == last.get("printed")


STAMPS = "stamps.json"     # in the handouts' folder: each lesson's stamp (_stamp) and its PDFs' seals


def read_stamps(out_dir: Path) -> dict:
    """The prints' stamps as the last build left them; none (every print made again, and the summary saying so)
    when the record is unreadable."""
    stamps, flaw = sealed.read_json(out_dir / STAMPS, {})
    if flaw or not isinstance(stamps, dict):
        sealed.heal(f"{out_dir.name}/{STAMPS}", flaw or "not a record of stamps")
        return {}
    return stamps


def write_stamps(out_dir: Path, stamps: dict) -> None:
    sealed.write_json(out_dir / STAMPS, stamps)


def sealed_stamp(out_dir: Path, stem: str, stamp: dict, names=None) -> dict:
    """A lesson's stamp with the seal of each of its PDFs as they are now (after printing or redating)."""
    names = files(stem) if names is None else names
    return {**stamp, "files": {name: sealed.digest(out_dir / name) for name in names}}


def prints_kept(out_dir: Path, names, stamp: dict) -> bool:
    """Whether every PDF of `names` is there as it was sealed when printed; a damaged one is noted
    (sitebuild.sealed) and the lesson printed again."""
    seals = stamp.get("files", {})
    for name in names:
        flaw = sealed.file_flaw(out_dir / name, seals.get(name))
        if flaw:
            if (out_dir / name).exists() or seals:
                sealed.heal(f"print {name}", flaw)
            return False
    return True


def make_handouts(html_dir: Path, stems: list[str], out_dir: Path, epoch: int = FALLBACK_EPOCH) -> list[str]:
    """Make `out_dir`/<stem>.pdf for each lesson page `html_dir`/posts/<stem>.html.

    Returns the stems printed this time; the others were unchanged and kept.
    PDFs of lessons not in `stems` are removed. Raises HandoutError.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    stamps = read_stamps(out_dir)
    stamps = {s: h for s, h in stamps.items() if s in stems and isinstance(h, dict)}
    wanted = {name for stem in stems for name in files(stem)}
    for pdf in out_dir.glob("*.pdf"):
        if pdf.name not in wanted:
            pdf.unlink()

    static = static_hash(html_dir)
    now, todo = {}, []
    for stem in stems:
        last = stamps.get(stem, {})
        now[stem], holds = _stamp(html_dir, stem, static, last)
        if holds and prints_kept(out_dir, files(stem), last):        # the PDFs as sealed when they were printed
            stamps[stem] = now[stem]
        else:
            todo.append(stem)
    for kept in sorted(set(stems) - set(todo)):  # dated by the last commit, which may be newer than the print
        for name in files(kept):
            redate(out_dir / name, epoch)
        stamps[kept] = sealed_stamp(out_dir, kept, stamps[kept])
    if not todo:
        write_stamps(out_dir, stamps)
        return []

    from playwright.sync_api import sync_playwright

    with serve(html_dir) as base, sync_playwright() as pw:
        chromium = browser.launch(pw)
        try:
            context = chromium.new_context(viewport=VIEWPORT)
            _warm_up(context, f"{base}posts/{todo[0]}.html")
            progress.expect(len(todo) * len(EDITIONS))
            for stem in todo:
                for edition, (suffix, _) in EDITIONS.items():
                    _print_page(context, f"{base}posts/{stem}.html", out_dir / f"{stem}{suffix}.pdf", edition)
                    fix_pdf_dates(out_dir / f"{stem}{suffix}.pdf", epoch)
                    progress.advance(f"{stem}{suffix}.pdf")
                stamps[stem] = sealed_stamp(out_dir, stem, now[stem])
                write_stamps(out_dir, stamps)
        finally:
            chromium.close()
    return todo


def prepare(page, edition: str = "handout") -> None:
    """Make a page opened with print media what the edition prints. The handout: every reveal's answer shown
    (exercises' answers at the end, the rest opened in place); the student edition: no answer, room to write
    under each question; the key: the answers alone. The handout and the student edition print long listings in
    an appendix (APPENDIX_JS). All: links to other pages as text, every figure's printed
    states loaded."""
    if edition != "key":
        page.evaluate(APPENDIX_JS)
    page.evaluate({"handout": MOVE_ANSWERS_JS, "student": STUDENT_JS, "key": KEY_JS}[edition])
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    page.evaluate(UNLINK_OTHER_PAGES_JS)
    page.evaluate(browser.WAIT_FOR_PRINT_JS)


# A heading at a page's foot whose section goes on overleaf (sitebuild.handouts.pdftext.stranded) starts the next page
# instead: the page is printed, read back, the headings found there moved, and printed again, until none is
# left (each move shifts what follows, so a few rounds). A heading is found by the text of its first line and
# how many headings before it start with that text.
START_PAGE_JS = """(found) => {
  const squeeze = (s) => s.replace(/\\s+/g, '');
  const headings = [...document.querySelectorAll('article h1, article h2, article h3, article h4, article h5, article h6')]
    .filter((h) => h.offsetParent !== null);
  let moved = 0;
  for (const [text, nth] of found) {
    const same = headings.filter((h) => squeeze(h.innerText).startsWith(text));
    const h = same[nth];
    if (h && h.style.breakBefore !== 'page') { h.style.breakBefore = 'page'; moved += 1; }
  }
  return moved;
}"""
KEEP_ROUNDS = 4


def printed_with_headings_kept(page) -> bytes:
    """The page printed as a PDF with no heading stranded at a page's foot (START_PAGE_JS)."""
    def print_pdf() -> bytes:
        return page.pdf(**PDF_OPTIONS)

    data = print_pdf()
    for _ in range(KEEP_ROUNDS):
        found = pdftext.lines(data)
        low = pdftext.stranded(found)
        if not low:
            break
        firsts = [line for i, line in enumerate(found) if line.heading and not pdftext.continues(found, i)]
        where = [(line.text, sum(1 for f in firsts[:firsts.index(line)] if f.text.startswith(line.text)))
                 for line in low]
        if not page.evaluate(START_PAGE_JS, where):
            break
        data = print_pdf()
    return data


def refuse_faults(url: str, external: list[str], errors: list[str]) -> None:
    """A page about to be printed that asked for anything outside the site, or logged an error, is not."""
    if external:
        raise HandoutError(f"{url} requested outside the site: {', '.join(external)}")
    if errors:
        raise HandoutError(f"{url} had console errors: {' | '.join(errors)}")


def _warm_up(context, url: str) -> None:
    """Lay out and print one page once, and keep nothing. Two builds of one source differed in one print each
    (a code span's baseline 0.59 px lower, the rest of the file the same), and both times it was among the first
    prints of its browser, under load; reprints of the same page in a browser that had printed before never
    differed (tens of them, under load). What in a fresh browser causes it is not known; this pays one print
    (a few seconds) so that no kept print is a fresh browser's first."""
    page = context.new_page()
    try:
        browser.watch(page)
        page.emulate_media(media="print")
        page.goto(url, wait_until="load")
        prepare(page)
        page.pdf(**PDF_OPTIONS)
    except Exception as exc:  # playwright errors: timeouts, JS exceptions
        raise HandoutError(f"printing {url} failed: {exc}") from exc
    finally:
        page.close()


def _print_page(context, url: str, pdf: Path, edition: str = "handout") -> None:
    page = context.new_page()
    try:
        external, errors = browser.watch(page)
        page.emulate_media(media="print")
        page.goto(url, wait_until="load")
        prepare(page, edition)
        refuse_faults(url, external, errors)
        tmp = pdf.with_suffix(".pdf.tmp")
        tmp.write_bytes(printed_with_headings_kept(page))
        tmp.replace(pdf)
    except HandoutError:
        raise
    except Exception as exc:  # playwright errors: timeouts, JS exceptions
        raise HandoutError(f"printing {url} failed: {exc}") from exc
    finally:
        page.close()
