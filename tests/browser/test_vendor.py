"""The vendored browser assets are the versions we say they are."""

import json
import re
from pathlib import Path

import plotly

from conftest import LESSONS
from sitebuild import sitecheck

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "_static" / "vendor"


def _plotly_js_version(path: Path) -> str:
    head = path.read_text(encoding="utf-8", errors="replace")[:300]
    match = re.search(r"\* plotly\.js(?: \([^)]*\))? v(\d+\.\d+\.\d+)", head)
    assert match, f"no plotly.js version banner in {path}"
    return match.group(1)


PLOTLY_BUNDLE = VENDOR / "plotly" / "plotly-lesson.min.js"
BUNDLE_TOOL = ROOT / "tools" / "plotly-bundle"


def test_plotly_js_matches_the_python_package():
    bundled = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    assert _plotly_js_version(PLOTLY_BUNDLE) == _plotly_js_version(bundled)


def test_plotly_bundle_is_built_from_the_pinned_package():
    version = _plotly_js_version(PLOTLY_BUNDLE)
    assert json.loads((BUNDLE_TOOL / "package.json").read_text())["dependencies"]["plotly.js"] == version
    lock = json.loads((BUNDLE_TOOL / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/plotly.js"]["version"] == version
    head = PLOTLY_BUNDLE.read_text()[:300]
    assert "plotly.js (lesson: scatter, bar, heatmap - minified)" in head
    # the traces named in the banner are the ones the bundle's entry registers
    required = re.findall(r"require\('plotly\.js/lib/(\w+)'\)", (BUNDLE_TOOL / "index.js").read_text())
    assert sorted(set(required) - {"core"} | {"scatter"}) == ["bar", "heatmap", "scatter"]  # core has scatter


def test_every_trace_type_on_the_site_is_in_the_bundle(built_site, page):
    """Each figure's traces (and its frames') are of a type the vendored plotly.js registers."""
    used = set()
    for html_page in sitecheck.html_pages(built_site):
        for spec in sitecheck.figure_specs(html_page.read_text(), html_page):
            fig = json.loads(spec)
            for trace in fig["data"] + [t for frame in fig.get("frames", []) for t in frame["data"]]:
                used.add(trace.get("type", "scatter"))
    assert used, "no figures on the site"
    page.open(f"posts/{LESSONS[0]}.html")
    registered = set(page.page.evaluate("Object.keys(Plotly.PlotSchema.get().traces)"))
    assert used <= registered, used - registered
    assert "scattergl" not in registered and "box" not in registered  # a partial bundle


def test_mathjax_version_and_fonts():
    script = (VENDOR / "mathjax" / "es5" / "tex-chtml.js").read_text()
    assert re.search(r'VERSION="3\.2\.2"', script)
    fonts = sorted(p.name for p in (VENDOR / "mathjax" / "es5" / "output" / "chtml" / "fonts" / "woff-v2").glob("*.woff"))
    assert "MathJax_Main-Regular.woff" in fonts and "MathJax_Math-Italic.woff" in fonts
    assert (VENDOR / "mathjax" / "es5" / "input" / "tex" / "extensions" / "boldsymbol.js").exists()


def test_vendor_readme_names_versions_and_refresh_command():
    readme = (VENDOR / "README.md").read_text()
    for text in ("plotly-lesson.min.js", "tools/plotly-bundle/build.sh", "4.1.1", "mathjax", "3.2.2", "MIT", "Apache-2.0",
                 "tools/vendor_assets.sh"):
        assert text in readme
    script = (ROOT / "tools" / "vendor_assets.sh").read_text()
    assert "tools/plotly-bundle/build.sh" in script and "MATHJAX_VERSION=3.2.2" in script


def test_reveal_js_is_the_version_the_readme_and_script_name():
    """The decks' reveal.js: its banner's version is the one the script fetches and the README lists, and the
    stylesheet loads nothing (no theme with outside fonts)."""
    readme, script = (VENDOR / "README.md").read_text(), (ROOT / "tools" / "vendor_assets.sh").read_text()
    version = re.search(r"REVEAL_VERSION=(\S+)", script).group(1)
    assert f"| {version} |" in readme and "reveal/LICENSE" in readme
    package = (VENDOR / "reveal" / "reveal.js").read_text()
    assert package.startswith("/*!\n * reveal.js") and f"`{version}`" in package
    assert (VENDOR / "reveal" / "notes.js").exists()
    assert "@import" not in (VENDOR / "reveal" / "reveal.css").read_text()
