#!/usr/bin/env bash
# Builds the command-line tool and prints the estimate for the default plan.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cargo run --release --quiet --bin clusterplan -- example | cargo run --release --quiet --bin clusterplan -- predict -
