#!/usr/bin/env bash
# Installs what is missing, then serves the planner at http://127.0.0.1:${PORT:-8080}/ (offline).
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
# No auto-reload: its WebSocket is refused by the page's Content-Security-Policy, and users
# of the planner do not edit its source.
exec trunk serve --release --no-autoreload --address 127.0.0.1 --port "${PORT:-8080}"
