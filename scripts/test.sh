#!/usr/bin/env bash
# Runs every test: formatting, lints, the native suite (model, validation, scenario, CLI, tidy).
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
set -x
cargo fmt --check
cargo clippy --release --all-targets -- -D warnings
cargo test --release
