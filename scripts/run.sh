#!/usr/bin/env bash
# Installs what is missing, then serves the planner at http://127.0.0.1:${PORT:-8080}/ (offline).
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
exec trunk serve --release --address 127.0.0.1 --port "${PORT:-8080}"
