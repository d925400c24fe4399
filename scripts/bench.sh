#!/usr/bin/env bash
# scripts/bench.sh: build Release and print the benchmark table (wall time per simulated hour,
# real-time factor, solver cost, peak memory) for the bundled facilities.
#   bash scripts/bench.sh [--hours H] [FACILITY.yaml ...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/common.sh
source "$root/scripts/common.sh"
hours=24
files=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --hours) hours="$2"; shift 2 ;;
    *) files+=("$1"); shift ;;
  esac
done
if [[ ${#files[@]} -eq 0 ]]; then
  files=("$root"/data/facilities/*.yaml)
fi
dctwin_install_deps
dctwin_build "$root/build" >/dev/null
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "simulated: ${hours} h per facility, output every 60 s (not written)"
echo
"$root/build/tests/bench/bench_run" --hours "$hours" "${files[@]}"
