#!/usr/bin/env bash
# Installs what ctnn's build, tests and demo need on Debian 12 (bookworm), and nothing that is already
# there: each package is checked with dpkg-query; apt-get runs only for the missing ones. Non-interactive
# and idempotent. Runs apt-get as root, or through sudo when not root.
# The build and tests run Debian's /usr/bin/python3 with numpy and onnx (tests/frontend/onnx binds ONNX's node tests
# at configure time, run_node_tests.py compares ctnn-run with them); torch and scikit-learn are not needed:
# the data they generate is committed. scripts/check_deps.py checks this list against what the build calls.
set -euo pipefail

PACKAGES=(
  cmake ninja-build g++ clang                       # clang gives clang-14 and clang++ on Debian 12
  libclang-rt-14-dev                                # clang's sanitizer runtimes (only recommended by clang; the
                                                    # FlatBuffers reader test runs under ASan/UBSan)
  libboost-dev libxsimd-dev xtl-dev doctest-dev     # Boost.Hana, xsimd (+ xtl for its CMake package), doctest
  gcc-arm-none-eabi libstdc++-arm-none-eabi-newlib libnewlib-arm-none-eabi qemu-system-arm   # bare-metal tests
  libbenchmark-dev                                  # benchmarks
  python3 python3-numpy python3-onnx                # ONNX node tests (configure and test), metadata JSON check
  chromium                                          # the memory report's HTML page, opened headless by its test
)
# Commands the build expects once the packages are in.
COMMANDS=(cmake ninja g++ gcc clang++ clang arm-none-eabi-g++ qemu-system-arm /usr/bin/python3)

log() { printf 'install_deps: %s\n' "$*"; }
die() { printf 'install_deps: error: %s\n' "$*" >&2; exit 1; }

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  die "dpkg-query/apt-get not found: this script supports Debian 12; install these by hand: ${PACKAGES[*]}"
fi

missing=()
for package in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  log "all ${#PACKAGES[@]} packages are installed"
else
  if [[ $(id -u) -eq 0 ]]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    die "missing packages (${missing[*]}) and neither root nor sudo is available: run this script as root"
  fi
  log "installing ${missing[*]}"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

absent=()
for cmd in "${COMMANDS[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || absent+=("$cmd")
done
((${#absent[@]} == 0)) || die "still missing after install: ${absent[*]}"
