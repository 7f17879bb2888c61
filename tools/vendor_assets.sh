#!/usr/bin/env bash
# Refresh the offline copies of plotly.js and MathJax under _static/vendor/,
# and the test-only axe-core under tests/vendor/axe-core/.
# Usage: tools/vendor_assets.sh   (needs node and npm; run from anywhere)
# plotly.js is built by tools/plotly-bundle/build.sh from the version pinned in
# tools/plotly-bundle/package.json; keep it equal to the plotly.js version that
# the Python `plotly` package bundles (tests/test_vendor.py checks it).
set -euo pipefail
MATHJAX_VERSION=3.2.2
REVEAL_VERSION=6.0.2
AXE_VERSION=4.14.1

root=$(cd "$(dirname "$0")/.." && pwd)
vendor="$root/_static/vendor"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$tmp"
npm pack --silent "mathjax@$MATHJAX_VERSION" >/dev/null
npm pack --silent "axe-core@$AXE_VERSION" >/dev/null
npm pack --silent "reveal.js@$REVEAL_VERSION" >/dev/null
mkdir mathjax
tar -xzf mathjax-"$MATHJAX_VERSION".tgz -C mathjax

rm -rf "$vendor/plotly" "$vendor/mathjax"
"$root/tools/plotly-bundle/build.sh"
mkdir -p "$vendor/mathjax/es5/output/chtml/fonts/woff-v2" "$vendor/mathjax/es5/input/tex"
cp mathjax/package/es5/tex-chtml.js "$vendor/mathjax/es5/"
cp mathjax/package/es5/output/chtml/fonts/woff-v2/*.woff "$vendor/mathjax/es5/output/chtml/fonts/woff-v2/"
# TeX extensions that tex-chtml.js autoloads on first use (\boldsymbol, \color,
# \cancel, ...): without them such a macro fails with a 404.
cp -r mathjax/package/es5/input/tex/extensions "$vendor/mathjax/es5/input/tex/"
cp mathjax/package/LICENSE "$vendor/mathjax/"

# reveal.js for the lesson decks (sitebuild/decks/cut.py): the UMD build, its stylesheet and the speaker notes;
# the look is the site's own (_static/slides.css), so no theme (theirs load fonts from outside)
mkdir reveal
tar -xzf reveal.js-"$REVEAL_VERSION".tgz -C reveal
rm -rf "$vendor/reveal" && mkdir -p "$vendor/reveal"
cp reveal/package/dist/reveal.js reveal/package/dist/reveal.css reveal/package/dist/plugin/notes.js \
   reveal/package/LICENSE "$vendor/reveal/"

mkdir axe
tar -xzf axe-core-"$AXE_VERSION".tgz -C axe
axe_dir="$root/tests/vendor/axe-core"
mkdir -p "$axe_dir"
cp axe/package/axe.min.js axe/package/LICENSE axe/package/LICENSE-3RD-PARTY.txt "$axe_dir/"
echo "vendored axe-core@$AXE_VERSION into $axe_dir"
echo "vendored mathjax@$MATHJAX_VERSION into $vendor"
