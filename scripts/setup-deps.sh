#!/usr/bin/env bash
# Install, from Debian, whatever ARCsim needs that this machine lacks. Idempotent: a
# second run installs nothing. Needs root (or sudo) only when something is missing.
set -euo pipefail

PKGS=(
  build-essential cmake ninja-build pkg-config git
  verilator yosys iverilog z3
  clang
  libsystemc-dev libmpfr-dev libgmp-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libfmt-dev libzstd-dev zstd
  python3 python3-matplotlib
  slurm-wlm munge
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-deps: all ${#PKGS[@]} Debian packages present"
  exit 0
fi

echo "setup-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
