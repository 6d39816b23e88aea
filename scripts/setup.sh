#!/usr/bin/env bash
# Installs what building and serving the app needs and is missing. Every step checks first,
# so a machine that has everything spends about a second here; a fresh one spends about
# 10 minutes (trunk 8, wasm-bindgen-cli 2). Sourced by run.sh and test.sh; test.sh also calls
# `need_browser` for Chromium.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
TRUNK_VERSION=0.21.14
# wasm-bindgen's CLI must equal the crate version pinned in Cargo.lock.
WB_VERSION="$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' Cargo.lock)"

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
APT_UPDATED=""
# Installs Debian packages, refreshing the package lists once.
apt_install() {
  [ -n "$APT_UPDATED" ] || { $SUDO apt-get update -qq; APT_UPDATED=1; }
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

command -v cargo >/dev/null || { echo "setup: cargo is required (rustup); none on PATH" >&2; exit 1; }
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
command -v python3 >/dev/null || { echo "setup: installing python3 (trunk's post-build hook)" >&2; apt_install python3; }
command -v npm >/dev/null || { echo "setup: installing Node.js and npm" >&2; apt_install nodejs npm; }
# The release build writes a brotli copy of every text and wasm file (tools/compress.py).
command -v brotli >/dev/null || { echo "setup: installing brotli (Debian)" >&2; apt_install brotli; }

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  echo "setup: installing trunk $TRUNK_VERSION (about 8 minutes on 2 cores)" >&2
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WB_VERSION" ]; then
  echo "setup: installing wasm-bindgen-cli $WB_VERSION (about 2 minutes)" >&2
  # The registry lacks a version --locked asks for (webpki-roots); if so, resolve afresh with
  # versions this rustc can build.
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --locked --force \
    || CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi

if ! wasm-opt --version 2>/dev/null | grep -q "version 132" || [ ! -d node_modules/playwright-core ]; then
  echo "setup: installing binaryen (wasm-opt) and playwright-core from npm" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi

# Chromium and ChromeDriver for the browser tests (Debian's; nothing is downloaded at run time).
# nginx and its module that serves the build's .br files, for `scripts/serve.sh` and the
# hosted-server test.
BROTLI_MODULE=/usr/lib/nginx/modules/ngx_http_brotli_static_module.so
need_server() {
  if ! command -v nginx >/dev/null || [ ! -f "$BROTLI_MODULE" ]; then
    echo "setup: installing nginx and its brotli module (Debian)" >&2
    apt_install nginx libnginx-mod-http-brotli-static
  fi
}

need_browser() {
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    echo "setup: installing Chromium and ChromeDriver (Debian)" >&2
    apt_install chromium chromium-driver
  fi
  # A Chinese face, so the screenshots of the Chinese page show characters, not boxes.
  if ! fc-list :lang=zh 2>/dev/null | grep -q .; then
    echo "setup: installing a Chinese font (Debian fonts-wqy-zenhei)" >&2
    apt_install fonts-wqy-zenhei
  fi
}
