#!/usr/bin/env bash
# Proves that servebench-cli works without QtGui: builds it without the rendering library
# (servebench-cli-norender, as SERVEBENCH_CLI_RENDER=OFF builds servebench-cli), checks the
# binary links no QtGui library, runs a short benchmark against
# the built-in simulator, writes the HTML and JSON reports, and checks that a PDF is refused with
# a reason. Called by ./scripts/test.
set -euo pipefail
cd "$(dirname "$0")/.."
# The headless preset still configures (no GUI packages asked for), but the render-less CLI is
# built in the CI tree from the units servebench-cli already compiled: building the whole core a
# second time took several minutes of the test command.
cmake --preset headless >/dev/null
cmake --build --preset ci --target servebench-cli-norender
cli=build/ci/app/servebench-cli-norender
if ldd "$cli" | grep -q 'libQt6Gui'; then
    echo "check-headless: $cli links QtGui" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cli" run --num-prompts 5 --request-rate 50 --random-input-len 8 --random-output-len 4 \
    --project "$tmp/p.sbproj" >/dev/null 2>"$tmp/run.err"
"$cli" report --project "$tmp/p.sbproj" --runs 1 --html "$tmp/r.html" --json "$tmp/r.json" \
    --bundle "$tmp/bundle" >/dev/null
test -s "$tmp/r.html" && test -s "$tmp/r.json" && test -s "$tmp/bundle/MANIFEST.sha256"
if "$cli" report --project "$tmp/p.sbproj" --runs 1 --pdf "$tmp/r.pdf" 2>"$tmp/pdf.err"; then
    echo "check-headless: a PDF was written without QtGui" >&2
    exit 1
fi
grep -q "without QtGui" "$tmp/pdf.err"
echo "check-headless: servebench-cli links no QtGui; run and report (HTML, JSON, bundle) work; PDF refused"
