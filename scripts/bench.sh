#!/usr/bin/env bash
# scripts/bench.sh: build Release and print the benchmark table of docs/performance.md: for each
# facility and thread count, wall time per simulated hour, real-time factor, GPU-layer share,
# solver cost and peak memory (one process per row, so that the peak RSS is that row's own); then
# the measured cost exponent (wall time ~ GPUs^k) and the machine.
#
#   bash scripts/bench.sh [--hours H] [--threads "1 2"] [--reference] [--busy] [FACILITY.yaml ...]
#     default: the pod, hall and campus of data/facilities (scripts/make_facilities.py), 1 h each
#     --reference  also run the pod without the fast paths (every GPU computed on its own)
#     --busy       a busy loop runs on one core the whole time (a shared machine: threads must
#                  still pay off, docs/performance.md); the table says so above its header
#   the rows report GPUs and groups: with variation on (the default) every GPU is its own group
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/common.sh
source "$root/scripts/common.sh"
hours=1
threads="1 2"
reference=0
busy=0
files=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --hours) hours="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --reference) reference=1; shift ;;
    --busy) busy=1; shift ;;
    -h | --help) sed -n '2,13p' "$0"; exit 0 ;;
    *) files+=("$1"); shift ;;
  esac
done
if [[ ${#files[@]} -eq 0 ]]; then
  files=("$root/data/facilities/pod_gb200.yaml" "$root/data/facilities/hall_gb300.yaml"
         "$root/data/facilities/campus_gb300.yaml")
fi
dctwin_install_deps "$root/scripts/deps.txt"
dctwin_build "$root/build" >/dev/null
bench="$root/build/tests/bench/bench_run"

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)," \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%Y-%m-%d)"
# what the figures depend on besides the code: the core (family and model), its caches, the
# memory bandwidth and the instruction set the vector kernels dispatch to
echo "cpu: $(lscpu | awk -F: '/^CPU family/ {f=$2} /^Model:/ {m=$2} /^L2 cache/ {l2=$2} /^L3 cache/ {l3=$2}
  END {gsub(/^ +/, "", f); gsub(/^ +/, "", m); gsub(/^ +/, "", l2); gsub(/^ +/, "", l3);
       printf "family %s model %s, L2 %s, L3 %s", f, m, l2, l3}')"
"$bench" --stream
echo "simulated: ${hours} h per facility (the job starts at 5 min), output every 60 s (not written)"
echo
rows=$(mktemp)
busy_pid=""
trap 'rm -f "$rows"; [[ -n "$busy_pid" ]] && kill "$busy_pid" 2>/dev/null || true' EXIT
if ((busy)); then
  bash -c 'while :; do :; done' &
  busy_pid=$!
  echo "a busy loop (pid $busy_pid) runs on one core during every row"
  echo
fi
"$bench" --header
for f in "${files[@]}"; do
  for t in $threads; do
    "$bench" --hours "$hours" --threads "$t" "$f" | tee -a "$rows"
  done
  if ((reference)) && [[ $(basename "$f") == pod_gb200.yaml ]]; then
    "$bench" --hours "$hours" --threads 1 --reference "$f"
  fi
done
# cost exponent: least squares of log(wall per simulated hour) on log(GPUs), one thread
/usr/bin/python3 - "$rows" <<'EOF'
import math, sys
pts = []
for line in open(sys.argv[1]):
    c = [x.strip() for x in line.strip().strip("|").split("|")]
    if len(c) > 8 and c[4] == "1" and "(reference)" not in c[0]:
        pts.append((math.log(float(c[1])), math.log(float(c[8]))))
if len(pts) >= 2:
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    k = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
    print("\ncost exponent (1 thread): wall time per simulated hour ~ GPUs^%.2f over %d facilities"
          % (k, len(pts)))
EOF
