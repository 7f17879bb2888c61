"""The build's stages in order (build_site) and what it reports at the end (summary); `python -m sitebuild`
(sitebuild.__main__) runs them, unless nothing changed since the last build (sitebuild.unchanged)."""

from __future__ import annotations

import shutil
from pathlib import Path

from sitebuild.audit.check import AuditError, audit_site, locate_failed_claims
from sitebuild.prints.typeset import PrintError, make_prints, printed_files
from sitebuild.sourcedate import source_epoch
from sitebuild.figures.render import Drawing, FigureError
from sitebuild.figures.freshen import freshen
from sitebuild import sealed
from sitebuild.pages import executions
from sitebuild.pages.sphinx import SphinxError, build_html
from sitebuild.notebooks.write import NotebookError, make_notebooks
from sitebuild.preflight.run import Beside, PreflightError
from sitebuild.decks.cut import FOLDER as DECKS, make_decks
from sitebuild.prints.slides import file_name as deck_pdf, make_slides
from sitebuild.progress import stage
from sitebuild.prose.audit import audit_prose
from sitebuild.prose.margins import claim_margins, claims_as_data, margins_line, write_margins
from sitebuild.prose.spelling import site_value_spellings
from sitebuild.math.typeset import MathError, typeset_pages
from sitebuild.publish.site import publish, remove_leftovers
from sitebuild.prose.rawcheck import RawMarkupError, check_pages
from sitebuild.prose.guide import write_guide
from sitebuild.prose.sitefiles import add_site_files
from sitebuild.tmpdir import private_tmp


def lesson_stems(root: Path) -> list[str]:
    """The lessons: posts/*.md, by file stem."""
    return sorted(p.stem for p in (root / "posts").glob("*.md"))


def _prose_and_math(root: Path, build_dir: Path, html_dir: Path, stems: list[str]) -> tuple[list, str]:
    """The prose and math stages: what the prose audit found and the claims' margins line."""
    with stage("prose", "the sentences the lessons' Python wrote; one spelling per value"):
        prose = audit_prose(root, build_dir, stems)  # the sentences the lessons' Python wrote, as the pages' are
        room = claim_margins(build_dir, stems)                      # how far each claim is from failing
        write_margins(build_dir, room)
        margins = margins_line(room, claims_as_data())
        spelled_twice = site_value_spellings(root, build_dir, stems)  # one value, one spelling across the site
        if spelled_twice:
            raise AuditError("\n".join(spelled_twice))
        check_pages(html_dir)
        add_site_files(root, build_dir, html_dir)
        write_guide(root, html_dir)                 # the readers' guide, docs/readers.md, as guide.html
    with stage("math", "typeset into each page"):
        typeset_pages(html_dir)
    return prose, margins


def build_site(root: Path, base: str = "/", url: str | None = None) -> dict:
    """Run the steps; returns what the summary reports. Raises on failure. Call with the lock held.
    `url`: the site's public address (--url or site.toml), printed on the handouts and linked from the notebooks;
    None: no address is printed anywhere, and the notebooks link the site's pages relative to their own."""
    build_dir = root / "_build"
    stems = lesson_stems(root)
    remove_leftovers(root / "site")
    private_tmp(root)
    sealed.start()
    with stage("audit", "the lessons' sentences and the claims they rest on"):
        audits = audit_site(root)
    shutil.rmtree(build_dir / "html" / DECKS, ignore_errors=True)  # made afresh from this build's pages, last
    try:
        with stage("preflight", "each lesson's claims, when what it reads changed, checked beside the pages"):
            preflight = Beside(root, build_dir)
        with stage("pages", "Sphinx; each lesson executed or taken from the cache"):
            executions.check(build_dir, root)        # a damaged execution is dropped: the lesson runs again
            try:
                executed = build_html(root, build_dir, url, stop=preflight.failed)
            except SphinxError:
                preflight.result()                   # a failed check, said first, as it stopped the pages
                raise
            finally:
                executions.seal(build_dir)
            checked = preflight.result()
    except (PreflightError, SphinxError) as exc:
        raise type(exc)(locate_failed_claims(str(exc), root)) from exc
    html_dir = build_dir / "html"
    drawing = Drawing(html_dir, build_dir)          # the figures, drawn while the prose and the math are done
    try:
        prose, margins = _prose_and_math(root, build_dir, html_dir, stems)
    except BaseException:
        drawing.stop()
        raise
    with stage("figures", "each drawn to SVG, PNG and CSV"):
        figures = drawing.finish()
        freshen(html_dir)
    with stage("decks", "cut from the pages"):
        decks = make_decks(html_dir, stems)         # each lesson as a deck, cut from its finished page
    with stage("prints", "each lesson typeset: handout, student edition, answer key, appendix"):
        printed = make_prints(html_dir, stems, build_dir / "handouts", url, source_epoch(root))
    with stage("slide PDFs", "each deck typeset, a slide a page"):
        decks_printed = make_slides(html_dir, list(decks), build_dir / "deckprints", source_epoch(root))
    with stage("notebooks", "each lesson as a Jupyter notebook"):
        notebooks = make_notebooks(root, stems, build_dir / "notebooks", build_dir, url or "../",
                                   source_epoch(root))
    with stage("publish", "site/ replaced at once"):
        prints = printed_files(build_dir / "handouts", stems)
        prints += [build_dir / "deckprints" / deck_pdf(name) for name in decks]
        publish(html_dir, prints, root / "site", notebooks, base)
    sources = sorted(f"posts/{s}.md" for s in stems)
    return {
        "pages": sum(1 for p in html_dir.rglob("*.html") if p.parts[len(html_dir.parts)] != "_static"),
        "handouts": len(stems),
        "printed": printed,
        "checked": checked,
        "executed": executed,
        "cached": [nb for nb in sources if nb not in executed],
        "audits": [a.summary() for a in audits] + [p.summary() for p in prose],
        "figures": figures.summary(),
        "healed": sealed.healed(),
        "margins": margins,
        "address": None if url else "none set (site.toml's url or --url): no handout or notebook prints one",
        "slides": f"{len(decks)} decks, {sum(decks.values())} slides ({len(decks_printed)} printed as PDFs, "
                  f"{len(decks) - len(decks_printed)} unchanged)",
    }


# What a failed stage raises: each is reported as its `error:` lines, and site/ is left as it was.
FAILURES = (AuditError, PreflightError, SphinxError, PrintError, RawMarkupError, MathError, FigureError,
            NotebookError)
