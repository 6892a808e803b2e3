#!/usr/bin/env bash
# Build, then show the main job: check and inspect a tutorial kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
echo "demo: nothing to show yet"
