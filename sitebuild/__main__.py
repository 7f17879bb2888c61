"""`python -m sitebuild`: build the whole site into site/.

0. take the build lock (a second build waits), clear what an interrupted
   build left (staging folders, its temporary files);
1. the comparison audit (sitebuild.audit.check: every sentence that compares is
   bound to a claim that covers it, or marked), then compute's preflight check
   (if compute has one); a claim that fails is reported at the sentences bound to it;
2. sphinx-build into _build/html (lessons execute, or come from the cache),
   then the same audit of the sentences the lessons' Python wrote (sitebuild.prose.audit),
   and a check that no page shows raw MyST markup;
   the math of every page is typeset (MathJax in Chromium) and written into
   the page (sitebuild.math.typeset); the theme's icon font is cut down to
   the icons the pages show (sitebuild.math.iconfont); each page's <head> loses what its first
   screen does not need (sitebuild.math.heads); every link to a _static/ file gets a
   `?v=` from its contents, stale search words go;
3. one slide deck per lesson, cut from its page -> slides/<stem>.html (sitebuild.decks.cut);
   one PDF handout per lesson, posts/<stem>.md -> handouts/<stem>.pdf (and its student edition and answer
   key), its deck as a PDF -> handouts/<stem>-slides.pdf, and
   one Jupyter notebook per lesson -> notebooks/<stem>.ipynb;
4. publish _build/html + handouts + notebooks into site/ atomically.

Exits 1 with a one-line `error: ...` when a step fails (130 when
interrupted); site/ is then left as it was.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

from sitebuild import ROOT
from sitebuild.audit.check import AuditError, audit_site, locate_failed_claims
from sitebuild.handouts.editions import files
from sitebuild.handouts.printer import HandoutError, make_handouts, source_epoch
from sitebuild.figures.render import FigureError, render_figures
from sitebuild.figures.freshen import freshen
from sitebuild.pages.sphinx import SphinxError, build_html
from sitebuild.math.heads import lighten_pages
from sitebuild.math.iconfont import subset_icon_font
from sitebuild.notebooks.write import NotebookError, make_notebooks
from sitebuild.preflight.run import PreflightError, run_preflight_if_changed
from sitebuild.decks.cut import FOLDER as DECKS, make_decks
from sitebuild.slidepdfs.printer import file_name as deck_pdf, print_decks
from sitebuild.progress import Progress, stage, using
from sitebuild.prose.audit import audit_prose
from sitebuild.prose.spelling import site_value_spellings
from sitebuild.lock import build_lock
from sitebuild.math.typeset import MathError, typeset_pages
from sitebuild.publish.site import publish, remove_leftovers
from sitebuild.prose.rawcheck import RawMarkupError, check_pages
from sitebuild.prose.guide import write_guide
from sitebuild.prose.sitefiles import add_site_files


class OneLineParser(argparse.ArgumentParser):
    """argparse, whose refusal is one line, `error: ...` naming the option, exit status 2, as every other error
    of the build (its usage block is `--help`'s)."""

    def error(self, message: str):
        self.exit(2, f"error: {message}\n")


def lesson_stems(root: Path) -> list[str]:
    """The lessons: posts/*.md, by file stem."""
    return sorted(p.stem for p in (root / "posts").glob("*.md"))


def base_path(text: str) -> str:
    """A URL path for --base: starts and ends with '/', no spaces, query or fragment."""
    if not re.fullmatch(r"/(?:[A-Za-z0-9._~-]+/)*", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a URL path like /project/ (it must start and end with '/')")
    return text


def site_url(text: str) -> str:
    """A public address for --url: http(s)://host[:port]/path/, ending in '/'."""
    m = re.fullmatch(r"https?://[A-Za-z0-9.-]+(?::\d+)?(?P<path>/(?:[A-Za-z0-9._~-]+/)*)", text)
    if not m:
        raise argparse.ArgumentTypeError(f"{text!r} is not a site address like https://example.org/project/ "
                                         "(http or https, ending in '/')")
    return text


def private_tmp_path(root: Path) -> Path:
    """This site's own temporary folder: short (Chromium keeps a socket in its profile there, and socket
    paths are limited to 108 bytes) and named after the site's folder, so no two sites share one."""
    digest = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:12]
    return Path(os.environ.get("SITEBUILD_SYSTEM_TMP", tempfile.gettempdir())) / f"sitebuild-{digest}"


def private_tmp(root: Path) -> None:
    """Send every temporary file of this build (Chromium profiles, Sphinx crash logs, ...) to the
    site's own temporary folder, emptied first: whatever a killed build left there goes with the next."""
    tmp = private_tmp_path(root)
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    os.environ.setdefault("SITEBUILD_SYSTEM_TMP", tempfile.gettempdir())
    os.environ["TMPDIR"] = str(tmp)
    tempfile.tempdir = None  # forget the cached default


def build_site(root: Path, base: str = "/", url: str | None = None) -> dict:
    """Run the steps; returns what the summary reports. Raises on failure. Call with the lock held.
    `url`: the site's public address, printed in the notebooks (default: http://localhost:8000 + base)."""
    url = url or f"http://localhost:8000{base}"
    build_dir = root / "_build"
    stems = lesson_stems(root)
    remove_leftovers(root / "site")
    private_tmp(root)
    with stage("audit", "the lessons' sentences and the claims they rest on"):
        audits = audit_site(root)
    shutil.rmtree(build_dir / "html" / DECKS, ignore_errors=True)  # made afresh from this build's pages, last
    try:
        with stage("preflight", "each lesson's claims, when its code changed"):
            checked = run_preflight_if_changed(root, build_dir)
        with stage("pages", "Sphinx; each lesson executed or taken from the cache"):
            executed = build_html(root, build_dir, url)
    except (PreflightError, SphinxError) as exc:
        raise type(exc)(locate_failed_claims(str(exc), root)) from exc
    html_dir = build_dir / "html"
    with stage("prose", "the sentences the lessons' Python wrote; one spelling per value"):
        prose = audit_prose(root, build_dir, stems)  # the sentences the lessons' Python wrote, as the pages' are
        spelled_twice = site_value_spellings(root, build_dir, stems)  # one value, one spelling across the site
        if spelled_twice:
            raise AuditError("\n".join(spelled_twice))
        check_pages(html_dir)
        add_site_files(root, build_dir, html_dir)
        write_guide(root, html_dir)                 # the readers' guide, docs/readers.md, as guide.html
    with stage("math", "typeset into each page"):
        typeset_pages(html_dir)
        subset_icon_font(html_dir)
        lighten_pages(html_dir)
    with stage("figures", "each drawn to SVG, PNG and CSV"):
        figures = render_figures(html_dir, build_dir)
        freshen(html_dir)
    with stage("decks", "cut from the pages"):
        decks = make_decks(html_dir, stems)         # each lesson as a deck, cut from its finished page
    with stage("handouts", "each lesson printed three ways"):
        printed = make_handouts(html_dir, stems, build_dir / "handouts", source_epoch(root))
    with stage("slide PDFs", "each deck printed"):
        decks_printed = print_decks(html_dir, list(decks), build_dir / "deckprints", source_epoch(root))
    with stage("notebooks", "each lesson as a Jupyter notebook"):
        notebooks = make_notebooks(root, stems, build_dir / "notebooks", build_dir, url, source_epoch(root))
    with stage("publish", "site/ replaced at once"):
        prints = [build_dir / "handouts" / name for s in stems for name in files(s)]
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
        "slides": f"{len(decks)} decks, {sum(decks.values())} slides ({len(decks_printed)} printed as PDFs, "
                  f"{len(decks) - len(decks_printed)} unchanged)",
    }


def summary(result: dict, seconds: float, stages: str = "", quiet: bool = False) -> str:
    """The short report printed after a successful build (quiet: its first line, with the time)."""
    def names(items):
        return ", ".join(items) if items else "none"

    published = (f"site/ published: {result['pages']} pages, {result['handouts']} handouts "
                 f"({len(result['printed'])} printed, {result['handouts'] - len(result['printed'])} unchanged)")
    if quiet:
        return f"{published}; took {seconds:.1f} s"
    return "\n".join([
        published,
        *([f"checked before the pages: {names(result['checked'])}"] if "checked" in result else []),
        f"executed: {names(result['executed'])}",
        f"from cache: {names(result['cached'])}",
        *([f"figures: {result['figures']}"] if result.get("figures") else []),
        *([f"slides: {result['slides']}"] if result.get("slides") else []),
        *(f"claims: {line}" for line in result.get("audits", [])),
        *([stages] if stages else []),
        f"took {seconds:.1f} s",
    ])


def parser() -> OneLineParser:
    """The build's options, each with its default."""
    parser = OneLineParser(prog="python -m sitebuild", description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=base_path, default="/",
                        help="the URL path the site is served under, e.g. /project/ (default: %(default)s); "
                             "only the 404 page needs it")
    parser.add_argument("--url", type=site_url, default=None,
                        help="the site's public address, e.g. https://example.org/project/, printed in the "
                             "notebooks; its path is the base (default: http://localhost:8000 + --base)")
    parser.add_argument("--story-models", default=os.environ.get("COMPUTE_STORY_MODELS") or None, metavar="FOLDER",
                        help="build Part III from the story models in FOLDER (story-mlp, story-one-head, "
                             "story-four-head and story-four-head-seed1, as python -m compute train story --out "
                             "writes them, on the generated stories or a story file); the setting "
                             "COMPUTE_STORY_MODELS=FOLDER does the same (default: the published models)")
    parser.add_argument("--quiet", action="store_true",
                        help="print only the result (one line) and any error, not each stage (default: off)")
    return parser


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    options = parser()
    args = options.parse_args(argv)
    if args.url:
        path = "/" + args.url.split("://", 1)[1].partition("/")[2]
        if args.base not in ("/", path):
            options.error(f"--base {args.base} and --url {args.url} name two paths; give --url alone")
        args.base = path
    if args.story_models:
        folder = Path(args.story_models).expanduser()
        if not folder.is_dir():
            options.error(f"--story-models: {args.story_models} is not a folder (give the --out folder of "
                          f"python -m compute train story)")
        os.environ["COMPUTE_STORY_MODELS"] = str(folder.resolve())    # read by compute in every lesson's kernel
    sys.dont_write_bytecode = True  # keep compute/ (a build dependency) free of __pycache__
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))  # compute's preflight is imported from the repo
    start = time.monotonic()
    interrupted = []

    def on_interrupt(signum, frame):
        if not interrupted:
            interrupted.append(os.dup(2))  # the terminal, kept for the one line the interruption prints
            silence = os.open(os.devnull, os.O_WRONLY)
            os.dup2(silence, 2)            # what the unwinding says (Playwright's dropped futures) goes nowhere
            os.close(silence)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_interrupt)
    try:
        with build_lock(root / "_build"), using(Progress(quiet=args.quiet)) as progress:
            result = build_site(root, args.base, args.url)
    except (AuditError, PreflightError, SphinxError, HandoutError, RawMarkupError, MathError, FigureError, NotebookError,
            KeyboardInterrupt) as exc:
        # Ctrl-C reaches the whole group: a child may fail of it before our own handler runs.
        if interrupted or isinstance(exc, KeyboardInterrupt):
            sys.stderr.flush()
            if interrupted:
                os.dup2(interrupted[0], 2)
            print("error: interrupted; site/ was left unchanged.", file=sys.stderr, flush=True)
            return INTERRUPTED
        for line in str(exc).splitlines() or [""]:  # the audit reports one line per sentence
            print(f"error: {line}", file=sys.stderr)
        print("site/ was left unchanged.", file=sys.stderr)
        return 1
    print(summary(result, time.monotonic() - start, progress.report(), args.quiet))
    return 0


INTERRUPTED = 130


if __name__ == "__main__":
    code = main()
    if code == INTERRUPTED:     # nothing after the one line: no interpreter teardown, whose collector would
        os._exit(code)          # report the futures Playwright left behind
    sys.exit(code)
