#!/usr/bin/env bash
# Installs the missing Debian 12 packages, builds dctwin and runs every check:
#   1. strict build (-Werror) into build/ and its ctest suite;
#   2. AddressSanitizer + UBSan build into build-asan/ and its ctest suite without GUI tests;
#   3. clang libFuzzer build into build-fuzz/ and bounded runs of fuzz_loader on tests/fuzz/corpus
#      and of fuzz_scenario on tests/fuzz/scenario_corpus, fuzz_sweep on tests/fuzz/sweep_corpus,
#      fuzz_journal on tests/fuzz/journal_corpus, fuzz_results on tests/fuzz/results_corpus and
#      fuzz_open on tests/fuzz/open_corpus, as many at a time as there are cores (FUZZ_JOBS); each
#      run's grown corpus is kept in build-fuzz/.
# With CI=true or DCTWIN_SLURM_TEST=1, stage 1 ends with scripts/slurm_ci.sh: a private single-node
# Slurm (munged, slurmctld, slurmd; needs root) runs a small array sweep through sbatch, and its
# merged table must equal the threaded one. Otherwise that stage is skipped: a developer's run
# starts no daemons.
# Stops at the first failing stage and exits non-zero; prints one summary line per stage.
#
#   bash scripts/test.sh [--quick]        --quick: stage 1 only
#   FUZZ_SECONDS=300 bash scripts/test.sh  fuzzing time in seconds (default 60, 180 in CI; 0 skips)
#
# CI runs this through .ci/run.
set -euo pipefail

# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() {
  cat <<EOF
usage: bash scripts/test.sh [--quick]

  --quick   only the strict build and its tests (no sanitizer build, no fuzzing)

Environment:
  FUZZ_SECONDS   length of each fuzz run in seconds (default 60, 180 with CI=true; 0 builds the
                 fuzzers but skips the runs)
  FUZZ_JOBS      fuzzers run at a time (default: the number of cores)
  DCTWIN_SLURM_TEST=1   run the Slurm stage (scripts/slurm_ci.sh, as root) also outside CI;
                        DCTWIN_SLURM_TEST=0 skips it in CI too
EOF
}

quick=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --quick) quick=1 ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      usage >&2
      dctwin_die "unknown argument '$1'"
      ;;
  esac
  shift
done

# CI fuzzes longer (its build-fuzz/ cache keeps the grown corpora between runs): 180 s each, two at
# a time, keeps the whole of CI (two builds, two test runs, fuzzing) near an hour
fuzz_default=60
[[ ${CI:-} == true ]] && fuzz_default=180
fuzz_seconds=${FUZZ_SECONDS:-$fuzz_default}
[[ $fuzz_seconds =~ ^[0-9]+$ ]] || dctwin_die "FUZZ_SECONDS must be a whole number of seconds, not '$fuzz_seconds'"

root=$DCTWIN_ROOT
jobs=2
# Per-test time limit for tests that set no TIMEOUT of their own, so that a hung test cannot eat CI's budget.
ctest_common=(--output-on-failure --no-tests=error --timeout 600 -j "$jobs")

dctwin_summary_on_exit

dctwin_stage_begin deps "checking Debian packages (scripts/deps.txt)"
dctwin_install_deps "$DCTWIN_ROOT/scripts/deps.txt"
dctwin_stage_end ok

# --- 1. strict build + tests -----------------------------------------------------------------
dctwin_stage_begin build "strict Release build (-Werror) into build/"
dctwin_build "$root/build" -DDCTWIN_STRICT_BUILD=ON
dctwin_stage_end ok

dctwin_start_xvfb # GUI tests need a display; no-op when DISPLAY is set

dctwin_stage_begin ctest "ctest in build/"
ctest --test-dir "$root/build" "${ctest_common[@]}"
dctwin_stage_end ok

# a real single-node Slurm: the array sweep through sbatch and the merge job (bounded: a few minutes)
slurm_test=${DCTWIN_SLURM_TEST:-}
[[ -n $slurm_test ]] || { [[ ${CI:-} == true ]] && slurm_test=1 || slurm_test=0; }
if [[ $slurm_test == 1 ]]; then
  dctwin_stage_begin slurm "array sweep + merge job on a private single-node Slurm (scripts/slurm_ci.sh)"
  timeout --kill-after=30 600 bash "$root/scripts/slurm_ci.sh" --dctwin "$root/build/solver/dctwin"
  dctwin_stage_end ok
else
  dctwin_stage_begin slurm "Slurm array sweep"
  dctwin_log "skipped: starts Slurm daemons as root; runs when CI=true or DCTWIN_SLURM_TEST=1"
  dctwin_stage_end skipped "set DCTWIN_SLURM_TEST=1 to run it"
fi

if ((quick)); then
  dctwin_print_summary 0
  printf '\nQuick run: sanitizer build and fuzzing skipped.\n'
  exit 0
fi

# --- 2. sanitizer build + tests --------------------------------------------------------------
# Line tables only (-g1: all a sanitizer's stack trace reads) and the test programs at -O1
# (tests/CMakeLists.txt): the sanitizer build, CI's longest stage, takes 38 min of compile on 2
# cores (20 min wall) against 58 min (about 29) at -O2 -g everywhere, while the library the tests
# exercise keeps -O2 and the suite its run time
asan_opt="-O2 -g1 -DNDEBUG"
dctwin_stage_begin asan-build "ASan+UBSan RelWithDebInfo build (no GUI) into build-asan/"
dctwin_build "$root/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDCTWIN_SANITIZE=ON -DDCTWIN_BUILD_GUI=OFF \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$asan_opt" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$asan_opt"
dctwin_stage_end ok

# Left out here, run in the Release stage above: the annual mode's day against a full-resolution
# day of the pod (1 min in Release, 10-12 min under ASan, past the per-test limit); the annual
# mode's code runs under ASan in its other tests (the month's end, the keys).
# Also left out: the report tests (report.*), which check the Python report pages on results of
# the pod, the hall, a year and sweeps; their dctwin runs take paths the ASan stage runs in its own
# tests (the scenarios on the pod and the hall, the sweep and annual-mode tests), and they are
# among the longest of the suite (Release: the year 115 s, the hall 50 s; ASan runs several times
# slower).
asan_skip='^annual mode against full resolution|^report\.'
dctwin_stage_begin asan-ctest "ctest in build-asan/ (without label gui)"
ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}" \
  ctest --test-dir "$root/build-asan" "${ctest_common[@]}" -LE gui -E "$asan_skip"
dctwin_stage_end ok

# --- 3. fuzzing ------------------------------------------------------------------------------
fuzz_dir=$root/build-fuzz
dctwin_stage_begin fuzz-build "clang libFuzzer build into build-fuzz/"
# An existing build-fuzz/ configured with another compiler would silently keep it: start over.
if [[ -f $fuzz_dir/CMakeCache.txt ]] && ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++' "$fuzz_dir/CMakeCache.txt"; then
  dctwin_log "build-fuzz/ was configured without clang; reconfiguring from scratch"
  rm -rf "$fuzz_dir/CMakeCache.txt" "$fuzz_dir/CMakeFiles"
fi
CC=clang CXX=clang++ dctwin_build "$fuzz_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDCTWIN_BUILD_FUZZ=ON
dctwin_stage_end ok

seeds=$root/tests/fuzz/corpus
if [[ ! -d $seeds ]]; then
  dctwin_stage_begin fuzz "fuzz_loader"
  dctwin_log "no seed corpus at tests/fuzz/corpus yet; skipping the fuzz run"
  dctwin_stage_end skipped "no tests/fuzz/corpus"
elif ((fuzz_seconds == 0)); then
  dctwin_stage_begin fuzz "fuzz_loader"
  dctwin_stage_end skipped "FUZZ_SECONDS=0"
else
  # The six fuzzers run two at a time (one per core): each still fuzzes for the full time, and the
  # stage takes half as long as running them one after another.
  fuzz_par=${FUZZ_JOBS:-$(dctwin_nproc)}
  ((fuzz_par >= 1)) || fuzz_par=1
  # name | binary | seeds | extra environment | extra fuzzer arguments
  # the results reader and fuzz_open: HDF5 (not instrumented) leaks on its error paths and asks for
  # absurd allocations on damaged headers; both are HDF5's (tests/fuzz/fuzz_results.cpp); fuzz_open
  # opens by path as the Python loaders and the GUI do: FIFOs, /dev/zero, directories, files over the
  # limit and any bytes (tests/fuzz/fuzz_open.cpp)
  fuzz_table=(
    "fuzz|fuzz_loader|corpus||"
    "fuzz-scenario|fuzz_scenario|scenario_corpus||"
    "fuzz-sweep|fuzz_sweep|sweep_corpus||"
    "fuzz-journal|fuzz_journal|journal_corpus||"
    "fuzz-results|fuzz_results|results_corpus|allocator_may_return_null=1|-detect_leaks=0 -malloc_limit_mb=4096"
    "fuzz-open|fuzz_open|open_corpus|allocator_may_return_null=1|-detect_leaks=0 -malloc_limit_mb=4096"
  )
  dctwin_stage_begin fuzz "${#fuzz_table[@]} fuzzers for ${fuzz_seconds} s each, ${fuzz_par} at a time, on copies of tests/fuzz/*corpus"
  declare -A fuzz_pid=()
  fuzz_failed=()
  fuzz_collect() { # waits for one named fuzzer and prints its output
    local name=$1 rc=0
    wait "${fuzz_pid[$name]}" || rc=$?
    printf -- '--- %s (exit %d)\n' "$name" "$rc"
    cat "$fuzz_dir/$name.out"
    ((rc == 0)) || fuzz_failed+=("$name")
    unset "fuzz_pid[$name]"
  }
  fuzz_order=()
  for row in "${fuzz_table[@]}"; do
    IFS='|' read -r name bin corpus env_extra args <<<"$row"
    if ((${#fuzz_order[@]} >= fuzz_par)); then
      fuzz_collect "${fuzz_order[0]}"
      fuzz_order=("${fuzz_order[@]:1}")
    fi
    work=$fuzz_dir/fuzz-run${name#fuzz}
    # shellcheck disable=SC2086 # args are whole-word fuzzer flags
    (ASAN_OPTIONS="${env_extra}${ASAN_OPTIONS:+${env_extra:+:}$ASAN_OPTIONS}" \
      dctwin_run_fuzzer "$fuzz_dir/tests/fuzz/$bin" "$root/tests/fuzz/$corpus" "$work" "$fuzz_seconds" $args) \
      >"$fuzz_dir/$name.out" 2>&1 &
    fuzz_pid[$name]=$!
    fuzz_order+=("$name")
  done
  for name in "${fuzz_order[@]}"; do fuzz_collect "$name"; done
  if ((${#fuzz_failed[@]})); then
    dctwin_stage_end failed "${fuzz_failed[*]}"
    dctwin_die "fuzzing found a failure in: ${fuzz_failed[*]}"
  fi
  dctwin_stage_end ok
fi

dctwin_print_summary 0
