"""The vendored browser assets are the versions we say they are."""

import re
from pathlib import Path

import plotly

ROOT = Path(__file__).resolve().parent.parent
VENDOR = ROOT / "_static" / "vendor"


def _plotly_js_version(path: Path) -> str:
    head = path.read_text(encoding="utf-8", errors="replace")[:300]
    match = re.search(r"\* plotly\.js(?: \([\w -]+\))? v(\d+\.\d+\.\d+)", head)
    assert match, f"no plotly.js version banner in {path}"
    return match.group(1)


def test_plotly_js_matches_the_python_package():
    bundled = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    vendored = VENDOR / "plotly" / "plotly-cartesian.min.js"
    assert _plotly_js_version(vendored) == _plotly_js_version(bundled)


def test_plotly_js_is_the_cartesian_bundle():
    head = (VENDOR / "plotly" / "plotly-cartesian.min.js").read_text()[:200]
    assert "plotly.js (cartesian - minified)" in head


def test_mathjax_version_and_fonts():
    script = (VENDOR / "mathjax" / "es5" / "tex-chtml.js").read_text()
    assert re.search(r'VERSION="3\.2\.2"', script)
    fonts = sorted(p.name for p in (VENDOR / "mathjax" / "es5" / "output" / "chtml" / "fonts" / "woff-v2").glob("*.woff"))
    assert "MathJax_Main-Regular.woff" in fonts and "MathJax_Math-Italic.woff" in fonts
    assert (VENDOR / "mathjax" / "es5" / "input" / "tex" / "extensions" / "boldsymbol.js").exists()


def test_vendor_readme_names_versions_and_refresh_command():
    readme = (VENDOR / "README.md").read_text()
    for text in ("plotly.js-cartesian-dist-min", "4.1.1", "mathjax", "3.2.2", "MIT", "Apache-2.0",
                 "tools/vendor_assets.sh"):
        assert text in readme
    script = (ROOT / "tools" / "vendor_assets.sh").read_text()
    assert "PLOTLY_VERSION=4.1.1" in script and "MATHJAX_VERSION=3.2.2" in script
