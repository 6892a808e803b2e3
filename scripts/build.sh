#!/usr/bin/env bash
# Configure and build into build/ (Ninja). Extra arguments go to cmake configure.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
WERROR=OFF
if [ "${CI:-}" = "true" ]; then WERROR=ON; fi
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNKI_WERROR=$WERROR "$@" >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS"
