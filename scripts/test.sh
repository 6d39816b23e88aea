#!/usr/bin/env bash
# Installs what is missing, then runs every test: formatting and lints, the native suite
# (model, validation, scenario, URL codec, plots, CLI, tidy), the app in headless Chromium
# (wasm-bindgen-test, with the in-browser benchmark printed), the release build with its
# size report, the end-to-end tests against dist/, dist/standalone.html and nginx serving dist/
# as hosted (scripts/serve.sh), and the load-time benchmark (navigation to the first result
# under Chromium's network and CPU throttling), and the page's search on one, two and four
# workers. The benchmarks' figures are written to target/figures/ (performance.md there, with
# every target missed listed at the end); no tracked file changes. scripts/figures.sh copies
# them into docs/performance.md with the change that moves them.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
need_browser
need_server
set -x
cargo fmt --check
cargo clippy --release --all-targets -- -D warnings
cargo clippy --release --target wasm32-unknown-unknown --lib --bins --test web -- -D warnings
cargo test --release
# The shipped profile (opt-level z, LTO), so the printed benchmark is what users run. The
# in-browser benchmarks time whole plan searches, which on a slow 2-core machine take longer
# than the runner's default 20 s for the whole suite.
# What the benchmarks print is kept in target/figures and laid out as the performance
# document there at the end (tools/figures.py).
FIGURES=target/figures
rm -rf "$FIGURES" && mkdir -p "$FIGURES"
cargo bench --bench estimate 2>&1 | tee "$FIGURES/bench.log"
WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-300}" \
  cargo test --profile wasm-release --target wasm32-unknown-unknown --test web -- --nocapture 2>&1 | tee "$FIGURES/web.log"
trunk build --release
python3 tools/standalone.py --check dist/standalone.html
python3 tools/csp.py --check dist/index.html
set +x
for f in dist/*.wasm dist/*.js dist/*.css dist/index.html dist/text/*.txt dist/standalone.html; do
  printf 'size: %-48s %9d bytes raw %9d bytes gzip -9 %9d bytes brotli\n' "$f" "$(stat -c %s "$f")" "$(gzip -9c "$f" | wc -c)" "$(stat -c %s "$f.br")"
done | tee "$FIGURES/size.log"
set -x
npm run e2e 2>&1 | tee "$FIGURES/e2e.log"
npm run bench:load 2>&1 | tee "$FIGURES/load.log"
npm run bench:pool 2>&1 | tee "$FIGURES/pool.log"
python3 tools/figures.py "$FIGURES" docs/performance.md --into "$FIGURES/performance.md"
