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
   the page (sitebuild.math.typeset); every link to a _static/ file gets a
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
import os
import re
import shutil
import signal
import sys
import time
from pathlib import Path

from sitebuild.config import ConfigError, public_url, site_url
from sitebuild import ROOT, unchanged
from sitebuild.lock import build_lock
from sitebuild.progress import Progress, using
from sitebuild.sourcedate import source_epoch
from sitebuild.tmpdir import release_private_tmp


class OneLineParser(argparse.ArgumentParser):
    """argparse, whose refusal is one line, `error: ...` naming the option, exit status 2, as every other error
    of the build (its usage block is `--help`'s)."""

    def error(self, message: str):
        self.exit(2, f"error: {message}\n")


def base_path(text: str) -> str:
    """A URL path for --base: starts and ends with '/', no spaces, query or fragment."""
    if not re.fullmatch(r"/(?:[A-Za-z0-9._~-]+/)*", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a URL path like /project/ (it must start and end with '/')")
    return text


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
        *([f"checked beside the pages: {names(result['checked'])}"] if "checked" in result else []),
        f"executed: {names(result['executed'])}",
        f"from cache: {names(result['cached'])}",
        *([f"figures: {result['figures']}"] if result.get("figures") else []),
        *([f"slides: {result['slides']}"] if result.get("slides") else []),
        *([f"address: {result['address']}"] if result.get("address") else []),
        *(f"remade, its kept copy damaged: {entry}" for entry in result.get("healed", [])),
        *(f"claims: {line}" for line in result.get("audits", [])),
        *([f"margins: {result['margins']}"] if result.get("margins") else []),
        *([stages] if stages else []),
        f"took {seconds:.1f} s",
    ])


def leftovers(site: Path) -> bool:
    """Whether an interrupted build left staging folders next to `site` (the build removes them)."""
    from sitebuild.publish.site import STAGING_PREFIX
    return any(site.parent.glob(STAGING_PREFIX.format(name=site.name) + "*"))


def nothing_done(last: dict) -> dict:
    """The report of a build that found nothing changed since the one that reported `last`: the same site, no
    lesson checked, executed or printed (its figures and slides as they were: not reported again)."""
    return {**last, "printed": [], "checked": [], "executed": [], "figures": None, "slides": None, "healed": [],
            "margins": None,
            "cached": sorted(last["executed"] + last["cached"])}


def parser() -> OneLineParser:
    """The build's options, each with its default."""
    parser = OneLineParser(prog="python -m sitebuild", description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=base_path, default="/",
                        help="the URL path the site is served under, e.g. /project/ (default: %(default)s); "
                             "only the 404 page needs it")
    parser.add_argument("--url", type=site_url, default=None,
                        help="the site's public address, e.g. https://example.org/project/, printed with QR codes on "
                             "the handouts and linked from the notebooks; its path is the base (default: the url "
                             "of site.toml; none there: no address printed)")
    parser.add_argument("--story-models", default=None, metavar="FOLDER",
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
    try:
        args.url = args.url or public_url(root)      # --url, else the address site.toml sets once
    except ConfigError as exc:
        options.error(str(exc))
    if args.url:
        path = "/" + args.url.split("://", 1)[1].partition("/")[2]
        if args.base not in ("/", path):
            options.error(f"--base {args.base} and --url {args.url} name two paths; give --url alone")
        args.base = path
    named = "--story-models" if args.story_models else "COMPUTE_STORY_MODELS"   # the one the author set
    args.story_models = args.story_models or os.environ.get("COMPUTE_STORY_MODELS") or None
    if args.story_models:
        folder = Path(args.story_models).expanduser()
        if not folder.is_dir():
            options.error(f"{named}: {args.story_models} is not a folder (give the --out folder of "
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
    failures = [KeyboardInterrupt]  # and, once the stages are loaded, what each raises when it fails
    try:
        with build_lock(root / "_build"), using(Progress(quiet=args.quiet)) as progress:
            inputs = unchanged.inputs_key(root, {"base": args.base, "url": args.url}, source_epoch(root))
            last = None if leftovers(root / "site") else unchanged.last_result(root, inputs)
            if last is None:
                from sitebuild import build
                failures += build.FAILURES
                result = build.build_site(root, args.base, args.url)
                unchanged.remember(root, inputs, result)
                release_private_tmp(root)
    except tuple(failures) as exc:
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
    except OSError as exc:                          # the file system refused: a folder gone, a file not writable
        stage = progress.failed if "progress" in locals() else None
        print(f"error: {file_system_error(exc, stage, root)}", file=sys.stderr)
        print("site/ was left unchanged.", file=sys.stderr)
        return 1
    if last is not None:
        print(summary(nothing_done(last), time.monotonic() - start, UNCHANGED, args.quiet))
    else:
        print(summary(result, time.monotonic() - start, progress.report(), args.quiet))
    return 0


def file_system_error(exc: OSError, stage: str | None, root: Path) -> str:
    """One line for a refusal of the file system: the stage, the cause, the file (relative to the project)."""
    def shown(name) -> str:
        path = Path(os.fsdecode(name))
        return path.relative_to(root).as_posix() if path.is_absolute() and path.is_relative_to(root) else str(path)
    if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list) and exc.args[0]:
        source, _, why = exc.args[0][0]                    # copytree's first failure: (source, destination, why)
        cause, files = why, [source]
    else:
        cause = exc.strerror or str(exc) or type(exc).__name__
        files = [f for f in (exc.filename, exc.filename2) if f is not None]
    where = f"the {stage} stage" if stage else "the build"
    return f"{where} could not use the file system: {cause}" + (f": {' -> '.join(map(shown, files))}" if files else "")


# In place of the stages' times, when no stage ran (sitebuild.unchanged).
UNCHANGED = "stages: none ran: nothing the build reads changed since the last build, nor site/ or _build/"


INTERRUPTED = 130


if __name__ == "__main__":
    code = main()
    if code == INTERRUPTED:     # nothing after the one line: no interpreter teardown, whose collector would
        os._exit(code)          # report the futures Playwright left behind
    sys.exit(code)
