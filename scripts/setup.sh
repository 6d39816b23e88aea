#!/usr/bin/env bash
# Installs whatever the build and tests need and is missing; quick when everything is there.
# Sourced by run.sh and test.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
if ! command -v cargo >/dev/null; then
  echo "cargo is required (https://rustup.rs); this machine has none" >&2
  exit 1
fi
