#!/usr/bin/env bash
# Checks that the browser app committed in crates/fray-server/assets is the build of web/src:
# builds it again into a temporary folder and compares. Needs `npm --prefix web ci` first.
set -euo pipefail
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
npx tsc --noEmit -p .
npx esbuild src/app.ts --bundle --format=iife --target=es2020 --legal-comments=none --outfile="$out/app.js" --log-level=warning
cp src/index.html src/style.css "$out/"
for f in app.js index.html style.css; do
  if ! cmp -s "$out/$f" "../crates/fray-server/assets/$f"; then
    echo "crates/fray-server/assets/$f is not the build of web/src: run npm --prefix web ci && npm --prefix web run build" >&2
    exit 1
  fi
done
echo "the committed browser app matches web/src"
