#!/usr/bin/env bash
# Installs whatever the build and the tests need and is missing. Every step checks first, so a
# machine that has everything spends about a second here; a fresh one spends about 12 minutes
# (trunk 8, wasm-bindgen-cli 2, Chromium 1). Sourced by run.sh and test.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
TRUNK_VERSION=0.21.14
# wasm-bindgen's CLI must equal the crate version pinned in Cargo.lock.
WB_VERSION="$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' Cargo.lock)"

command -v cargo >/dev/null || { echo "setup: cargo is required (rustup); none on PATH" >&2; exit 1; }
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  echo "setup: installing Chromium and ChromeDriver (Debian)" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  echo "setup: installing trunk $TRUNK_VERSION (about 8 minutes on 2 cores)" >&2
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WB_VERSION" ]; then
  echo "setup: installing wasm-bindgen-cli $WB_VERSION (about 2 minutes)" >&2
  # --locked asks for a webpki-roots the registry mirror lacks; resolve with versions this rustc can build.
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --locked --force 2>/dev/null \
    || CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi

if ! wasm-opt --version 2>/dev/null | grep -q "version 132" || [ ! -d node_modules/playwright-core ]; then
  echo "setup: installing binaryen (wasm-opt) and playwright-core from npm" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi
