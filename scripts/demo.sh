#!/usr/bin/env bash
# Builds and runs the digits demo (examples/digits): installs missing dependencies, configures a Release
# build with Ninja and g++ in build/demo, builds the target digits_demo and runs it. Arguments are passed to
# the demo. Set CTNN_SKIP_DEPS=1 to skip the dependency check (e.g. not on Debian).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build/demo"

if [[ ${CTNN_SKIP_DEPS:-0} != 1 ]]; then
  bash "$root/scripts/install_deps.sh"
fi

cmake -S "$root" -B "$build" -G Ninja --no-warn-unused-cli \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ -DCMAKE_C_COMPILER=gcc \
  -DCTNN_BUILD_TESTS=OFF -DCTNN_BUILD_EXAMPLES=ON
cmake --build "$build" --target digits_demo --parallel 2

demo=$(find "$build" -type f -name digits_demo -perm -u+x -print -quit)
[[ -n $demo ]] || { echo "demo.sh: built digits_demo but cannot find the executable under $build" >&2; exit 1; }
echo "demo.sh: running ${demo#"$root"/}"
exec "$demo" "$@"
