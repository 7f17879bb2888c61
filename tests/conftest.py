"""Session fixtures: the built site, a local server for it, and a browser kept offline."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sitebuild import browser as sb_browser  # noqa: E402
from sitebuild.serve import serve  # noqa: E402
from compute.checks import lesson_pages  # noqa: E402
from helpers import ctrl_c_at_default  # noqa: E402

LESSONS = lesson_pages()  # every lesson page, in the site's order (compute.checks reads the records)
KINDS = ("unit", "lessons", "build", "browser", "pdf")  # the test folders, and their markers (pytest.ini)


SITE_BUILD = "TESTS_SITE_BUILD"  # set by the controller of a parallel run: the folder of its background build
SITELESS = {"unit"}  # -m expressions whose tests never read site/ (lesson tests run the published notebooks)
# Tests that build in the repository itself (ROOT_BUILD) take turns with those that copy or read its _build/ and
# site/ byte for byte (ROOT_READ), across workers (a lock file: one builder, or any number of readers), so no copy
# meets a rebuild half-way.
ROOT_BUILD = pytest.mark.usefixtures("root_build_turn")
ROOT_READ = pytest.mark.usefixtures("root_read_turn")
ROOT_BUILD_LOCK = Path(tempfile.gettempdir()) / f"tests-root-build-{hashlib.sha256(bytes(ROOT)).hexdigest()[:12]}.lock"


ONE_LESSON = "TESTS_ONE_LESSON"  # set to a lesson's stem: a test made for each lesson runs for that one alone


def other_lessons_cases(items, lesson: str) -> set:
    """The items that are a case of another lesson than `lesson`: a parameter of theirs names one of LESSONS, by
    its stem or its page's source (posts/<stem>.md), or is its lesson record (its `page`), or the case's id is
    the stem (a lesson package given by name, its page as id)."""
    others = {name for stem in LESSONS if stem != lesson for name in (stem, f"posts/{stem}.md")}

    def names_another(item) -> bool:
        spec = getattr(item, "callspec", None)
        if spec is None:
            return False
        values = [getattr(value, "page", value) for value in spec.params.values()]
        return spec.id in others or any(isinstance(value, str) and value in others for value in values)
    return {item for item in items if names_another(item)}


def pytest_collection_modifyitems(config, items):
    """Mark each test with the kind its folder names (tests/unit/... -> @pytest.mark.unit), and order the files
    for a parallel run (./test: pytest -n N --dist loadfile --no-loadscope-reorder hands whole files to the
    workers in this order): first every file none of whose tests reads site/, then the rest, each part in
    KINDS' order, and within a kind the modules that build in the repository (ROOT_BUILD) before those that copy
    or read its build (ROOT_READ). The site builds in the background meanwhile, so no worker sits waiting for it
    while work that needs no site is left."""
    for item in items:
        kind = item.path.parent.name
        if kind in KINDS:
            item.add_marker(getattr(pytest.mark, kind))

    def using(fixture):
        return {item.path for item in items if fixture in getattr(item, "fixturenames", ())}
    reading_site, building, reading_root = using("built_site"), using("root_build_turn"), using("root_read_turn")

    def order(item):
        kind = item.path.parent.name
        # within a tier, the modules that build in the repository first, those that copy or read its build last:
        # a reader started beside a builder waits for it (the determinism build once held the rebuild 90 s)
        turn = 0 if item.path in building else 2 if item.path in reading_root else 1
        return item.path in reading_site, KINDS.index(kind) if kind in KINDS else len(KINDS), turn
    items.sort(key=order)
    lesson = os.environ.get(ONE_LESSON)
    if lesson:
        dropped = other_lessons_cases(items, lesson)
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in dropped]


@pytest.fixture(scope="module")
def root_build_turn():
    """The turn of a module that builds in the repository (ROOT_BUILD): no other module builds or reads it
    meanwhile (the module's own fixtures, which may build, come after this one)."""
    with open(ROOT_BUILD_LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@pytest.fixture(scope="module")
def root_read_turn():
    """The turn of a module that copies or reads the repository's build (ROOT_READ): shared with other
    readers, never with a module that builds there."""
    with open(ROOT_BUILD_LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)
        yield


def _wants_site(config) -> bool:
    """Whether this run's tests may read site/: not when -m or the paths given keep to the unit tests."""
    if config.getoption("markexpr", "") in SITELESS:
        return False
    paths = [Path(a.split("::")[0]).resolve() for a in config.args]
    return not paths or not all(p.is_relative_to(ROOT / "tests" / "unit") for p in paths)


def pytest_configure(config):
    """In the controller of a parallel run (pytest -n N), start building the site at once, in the background;
    the workers (started after this hook, so they inherit SITE_BUILD) wait for it in `built_site`."""
    parallel = config.pluginmanager.hasplugin("xdist") and config.getoption("numprocesses", None)
    if hasattr(config, "workerinput") or not parallel or not _wants_site(config) or config.getoption("help", False):
        return                          # (`./test --help` runs no test: it builds nothing, and waits for nothing)
    folder = Path(tempfile.mkdtemp(prefix="site-build-"))
    with open(folder / "output", "w") as out:
        config._site_build = subprocess.Popen(
            f"{shlex.quote(sys.executable)} -m sitebuild; echo $? > {shlex.quote(str(folder / 'rc.part'))}; "
            f"mv {shlex.quote(str(folder / 'rc.part'))} {shlex.quote(str(folder / 'rc'))}",
            shell=True, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=ctrl_c_at_default)   # Ctrl-C reaches it, however the run was started
    os.environ[SITE_BUILD] = str(folder)
    config._site_build_folder = folder


def pytest_unconfigure(config):
    build = getattr(config, "_site_build", None)
    if build is not None and build.poll() is None:   # the run ended first (-x, Ctrl-C): stop the build and its kernel
        os.killpg(build.pid, signal.SIGINT)
        try:
            build.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(build.pid, signal.SIGKILL)
            build.wait()
    if build is not None:
        shutil.rmtree(config._site_build_folder, ignore_errors=True)


def brightness(hex_colour: str) -> float:
    """Luma of a '#rrggbb' colour, 0 (black) to 1 (white), with the Rec. 709 weights."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def run_sitebuild(root: Path = ROOT, timeout: int = 3600, env: dict | None = None) -> subprocess.CompletedProcess:
    """`python -m sitebuild` in `root`, output captured; `env` adds to the environment."""
    return subprocess.run(
        [sys.executable, "-m", "sitebuild"], cwd=root, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture(scope="session")
def built_site() -> Path:
    """Build the site once per session (or wait for the parallel run's background build); the path of site/."""
    shared = os.environ.get(SITE_BUILD)
    if shared:
        rc, deadline = Path(shared) / "rc", time.monotonic() + 3600
        while not rc.exists() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert rc.exists(), "the background build of the site did not finish within an hour"
        output = (Path(shared) / "output").read_text()
        assert rc.read_text().strip() == "0", f"python -m sitebuild failed:\n{output}"
        return ROOT / "site"
    proc = run_sitebuild()
    assert proc.returncode == 0, f"python -m sitebuild failed:\n{proc.stdout}\n{proc.stderr}"
    return ROOT / "site"


@pytest.fixture(scope="session")
def http_server(built_site) -> str:
    """site/ served on 127.0.0.1 on a free port; the base URL, ending in '/'."""
    with serve(built_site) as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    """Debian's headless chromium, driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = sb_browser.launch(pw)
        yield chromium
        chromium.close()


@dataclass
class PageVisit:
    """A browser page that blocks and records non-local requests and collects console errors."""

    page: object
    base: str
    external_requests: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)

    drawn: set | None = None  # the figures this visit waited for (None: every one)

    def open(self, path: str, figures: list[str] | None = None) -> int:
        """Load `path` (relative to the site root); wait for math and every figure drawn, or only the figures
        with these ids (a widget's test needs its own; drawing a long lesson's all takes seconds).
        Returns the page's figure count."""
        self.page.goto(self.base + path, wait_until="load")
        self.drawn = None if figures is None else set(figures)
        return self.page.evaluate(sb_browser.WAIT_FOR_PAGE_JS, figures)

    def draw(self, *ids: str) -> None:
        """Draw these figures now, as scrolling to them would, unless this visit already waited for them."""
        new = [i for i in ids if self.drawn is not None and i not in self.drawn]
        if new:
            self.page.evaluate(sb_browser.WAIT_FOR_PAGE_JS, new)
            self.drawn.update(new)


def new_visit(browser, base: str, width: int = 1280, height: int = 900, touch: bool = False,
              init_script: str | None = None) -> tuple[PageVisit, object]:
    """A tab in a fresh browser context (a phone: width=375, touch=True), every non-local request blocked and
    recorded, console errors collected; and its context, for the caller to close."""
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch)
    if init_script:
        context.add_init_script(init_script)
    tab = context.new_page()
    external, errors = sb_browser.watch(tab)
    return PageVisit(tab, base, external, errors), context


@pytest.fixture
def page(browser, http_server):
    """A desktop-sized tab on the built site."""
    visit, context = new_visit(browser, http_server)
    yield visit
    context.close()


@pytest.fixture
def visit(browser, http_server):
    """visit(path, width=375, touch=True, init_script=...) -> a PageVisit opened on `path` (None: not opened),
    in a context of its own; it checks that no page it opened asked for anything outside the site."""
    opened = []

    def open_visit(path: str | None = None, **options) -> PageVisit:
        v, context = new_visit(browser, http_server, **options)
        opened.append((v, context))
        if path is not None:
            v.open(path)
        return v

    yield open_visit
    for v, context in opened:
        context.close()
        assert v.external_requests == []
