#!/usr/bin/env bash
# Seed corpus for fuzz_compile: samples/*/*.tpy, tests/golden/**/*.tpy,
# stdlib/**/*.tpy, the ```python examples of docs/diagnostics/*.md and the
# committed regression inputs. Usage: tests/fuzz/make_seeds.sh OUT_DIR
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$1"
mkdir -p "$OUT"
i=0
copy() { cp "$1" "$OUT/$(echo "${1#$ROOT/}" | tr / _)"; }
for f in "$ROOT"/samples/*/*.tpy; do copy "$f"; done
while IFS= read -r f; do copy "$f"; done < <(find "$ROOT/tests/golden" "$ROOT/stdlib" -name '*.tpy' | sort)
for f in "$ROOT"/tests/fuzz/regressions/*; do [ -f "$f" ] && [ "${f##*/}" != README.md ] && copy "$f"; done
# Fenced python/tpy blocks of the diagnostic explanations, one seed each.
for md in "$ROOT"/docs/diagnostics/*.md; do
  awk -v out="$OUT/docs_$(basename "$md" .md)" '
    /^```(python|tpy|py)[[:space:]]*$/ { n++; f = out "_" n ".tpy"; on = 1; next }
    /^```/ { on = 0; next }
    on { print > f }' "$md"
done
