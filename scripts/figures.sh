#!/usr/bin/env bash
# Writes the figures the last `scripts/test.sh` measured (target/figures/) into
# docs/performance.md. Run it with a change that moves them, and commit the two together: the
# document changes when what it measures changes, never as a commit of its own.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
FIGURES=target/figures
if [ ! -f "$FIGURES/bench.log" ]; then
  echo "figures: no $FIGURES/bench.log; run ./scripts/test.sh first" >&2
  exit 1
fi
python3 tools/figures.py "$FIGURES" docs/performance.md
