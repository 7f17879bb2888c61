#!/usr/bin/env bash
# Build _static/vendor/plotly/plotly-lesson.min.js: plotly.js (the version in
# package.json) with only the trace types in index.js, minified by esbuild
# with the options of plotly.js's own build (its esbuild-config.js).
# The official cartesian bundle takes about 450 ms to run on page load on a
# 2-core machine; this one about 130 ms (benchmarks/run.py times the pages).
# Usage: tools/plotly-bundle/build.sh   (needs node and npm; run from anywhere)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../_static/vendor/plotly"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cp "$here/package.json" "$here/package-lock.json" "$here/index.js" "$tmp/"
cd "$tmp"
npm ci --silent --no-audit --no-fund --ignore-scripts
version=$(node -p "require('plotly.js/package.json').version")
banner="/**
* plotly.js (lesson: scatter, bar, heatmap - minified) v$version
* Copyright 2012-2026, Plotly, Inc.
* All rights reserved.
* Licensed under the MIT license
*/"
npx esbuild index.js --bundle --minify --format=iife --global-name=Plotly --target=es2016 \
  --define:global=window --define:define.amd=false --define:process.env.NODE_DEBUG=false \
  --alias:stream=stream-browserify --loader:.css=empty --legal-comments=none \
  --banner:js="$banner" --log-level=warning --outfile="$tmp/plotly-lesson.min.js"
mkdir -p "$out"
cp "$tmp/plotly-lesson.min.js" "$out/"
cp node_modules/plotly.js/LICENSE "$out/LICENSE"
echo "built plotly.js $version (scatter, bar, heatmap) into $out/plotly-lesson.min.js"
