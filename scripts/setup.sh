#!/usr/bin/env bash
# Install every build/test dependency from Debian 12 packages. Idempotent:
# it only calls apt-get when a package is missing.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build clang
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libcurl4-openssl-dev libsqlite3-dev libopenblas-dev
  pybind11-dev python3-dev python3-numpy python3-torch python3-pytest
  pkgconf libcpp-httplib-dev libssl-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "setup: all ${#PACKAGES[@]} packages present"
fi
