# shellcheck shell=bash
# Helpers shared by scripts/setup.sh and scripts/test.sh. Source it, don't run it:
#
#   source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
#
# Provides
#   dctwin_install_deps [DEPS_FILE]   install the missing Debian packages of scripts/deps.txt
#   dctwin_build DIR [cmake args...]  configure (Ninja, Release unless overridden) and build
#   dctwin_start_xvfb                 start a private Xvfb when DISPLAY is unset (stopped on exit)
#   dctwin_run_fuzzer BIN SEEDS WORK SECONDS [ARGS]   bounded libFuzzer run on a copy of SEEDS
#   dctwin_stage_begin / dctwin_stage_end / dctwin_print_summary   timed stages
#   dctwin_summary_on_exit            print the stage summary when the script exits (also on failure)
#   dctwin_on_exit 'command'          run a command when the script exits (last registered runs first)
#
# All paths handed to these functions are taken relative to the caller's working directory;
# DCTWIN_ROOT is the absolute path of the repository.

DCTWIN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

dctwin_log() { printf 'dctwin: %s\n' "$*"; }
dctwin_warn() { printf 'dctwin: warning: %s\n' "$*" >&2; }
dctwin_die() {
  printf 'dctwin: error: %s\n' "$*" >&2
  exit 1
}

dctwin_nproc() { nproc 2>/dev/null || echo 2; }

# ---------------------------------------------------------------------------------------------
# Exit hooks: one EXIT trap that runs every registered command, the last registered first.
# INT and TERM are turned into an ordinary exit so that the hooks run then too.

_DCTWIN_EXIT_HOOKS=()
DCTWIN_EXIT_STATUS=0 # the script's exit status, for the hooks

_dctwin_run_exit_hooks() {
  local rc=$? i
  DCTWIN_EXIT_STATUS=$rc
  for ((i = ${#_DCTWIN_EXIT_HOOKS[@]} - 1; i >= 0; i--)); do
    eval "${_DCTWIN_EXIT_HOOKS[i]}" || true
  done
  return "$rc"
}

dctwin_on_exit() {
  _DCTWIN_EXIT_HOOKS+=("$1")
  trap _dctwin_run_exit_hooks EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

# ---------------------------------------------------------------------------------------------
# Timed stages. Use as
#   dctwin_stage_begin NAME "what it does"
#   ...commands (set -e stops the script on the first failure)...
#   dctwin_stage_end [ok|skipped] [note]
# A stage that was begun but not ended when the script exits is reported as FAILED by
# dctwin_print_summary.

_DCTWIN_STAGE=""
_DCTWIN_STAGE_T0=0
_DCTWIN_STAGE_ROWS=()
_DCTWIN_T0=$SECONDS

dctwin_stage_begin() {
  _DCTWIN_STAGE=$1
  _DCTWIN_STAGE_T0=$SECONDS
  printf '\n==> [%s] %s\n' "$1" "${2:-}"
}

dctwin_stage_end() {
  local status=${1:-ok} note=${2:-}
  local dt=$((SECONDS - _DCTWIN_STAGE_T0))
  _DCTWIN_STAGE_ROWS+=("$(printf '%-12s %-8s %6d s%s' "$_DCTWIN_STAGE" "$status" "$dt" "${note:+  $note}")")
  printf '<== [%s] %s (%d s)%s\n' "$_DCTWIN_STAGE" "$status" "$dt" "${note:+: $note}"
  _DCTWIN_STAGE=""
}

# dctwin_print_summary [EXIT_STATUS]
# Prints one line per stage with its status and time, then the total. Prints once only, so it can
# be both called at the end of a script and registered with dctwin_on_exit for the failure case.
_DCTWIN_SUMMARY_DONE=0
dctwin_print_summary() {
  local rc=${1:-0} row
  ((_DCTWIN_SUMMARY_DONE == 0)) || return 0
  _DCTWIN_SUMMARY_DONE=1
  if [[ -n $_DCTWIN_STAGE ]]; then
    local dt=$((SECONDS - _DCTWIN_STAGE_T0))
    _DCTWIN_STAGE_ROWS+=("$(printf '%-12s %-8s %6d s  exit status %d' "$_DCTWIN_STAGE" FAILED "$dt" "$rc")")
    _DCTWIN_STAGE=""
  fi
  printf '\n== summary ==\n'
  for row in "${_DCTWIN_STAGE_ROWS[@]}"; do
    printf '  %s\n' "$row"
  done
  if ((rc == 0)); then
    printf '  %-12s %-8s %6d s\n' total ok $((SECONDS - _DCTWIN_T0))
  else
    printf '  %-12s %-8s %6d s  exit status %d\n' total FAILED $((SECONDS - _DCTWIN_T0)) "$rc"
  fi
}

_dctwin_exit_summary() { dctwin_print_summary "$DCTWIN_EXIT_STATUS"; }
dctwin_summary_on_exit() { dctwin_on_exit _dctwin_exit_summary; }

# ---------------------------------------------------------------------------------------------
# Debian packages

# Prints the package names listed in a deps file, one per line (comments and blanks removed).
dctwin_read_deps() {
  local file=$1
  [[ -r $file ]] || dctwin_die "cannot read package list $file"
  sed -e 's/#.*//' "$file" | tr -s '[:space:]' '\n' | sed '/^$/d'
}

# Prints the packages of a deps file that are not installed, one per line.
dctwin_missing_deps() {
  local file=${1:-$DCTWIN_ROOT/scripts/deps.txt}
  local -a pkgs
  local -A installed=()
  local list name status pkg
  command -v dpkg-query >/dev/null 2>&1 ||
    dctwin_die "dpkg-query not found: these scripts expect Debian 12; install the packages of $file by hand"
  [[ -r $file ]] || dctwin_die "cannot read package list $file"
  list=$(dctwin_read_deps "$file") || exit 1
  mapfile -t pkgs <<<"$list"
  [[ ${#pkgs[@]} -gt 0 && -n ${pkgs[0]} ]] || return 0
  # dpkg-query exits 1 when it does not know a package; those simply count as missing.
  while read -r name status; do
    [[ $status == installed ]] && installed[$name]=1
  done < <(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${pkgs[@]}" 2>/dev/null || true)
  for pkg in "${pkgs[@]}"; do
    [[ -n ${installed[$pkg]:-} ]] || printf '%s\n' "$pkg"
  done
}

# dctwin_install_deps [DEPS_FILE]
# Installs the packages of DEPS_FILE (default scripts/deps.txt) that are missing. Prints nothing
# and does nothing when all are installed. Needs root, or sudo.
dctwin_install_deps() {
  local file=${1:-$DCTWIN_ROOT/scripts/deps.txt}
  local missing_list log
  local -a missing sudo=()
  missing_list=$(dctwin_missing_deps "$file") || exit 1
  [[ -n $missing_list ]] || return 0
  mapfile -t missing <<<"$missing_list"

  command -v apt-get >/dev/null 2>&1 ||
    dctwin_die "apt-get not found; install these packages by hand: ${missing[*]}"
  if [[ $EUID -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 ||
      dctwin_die "missing packages: ${missing[*]}
  Not running as root and sudo is not available. Install them as root with:
    apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
    sudo=(sudo)
  fi

  dctwin_log "installing ${#missing[@]} missing Debian package(s): ${missing[*]}"
  log=$(mktemp "${TMPDIR:-/tmp}/dctwin-apt.XXXXXX")
  if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get -o DPkg::Lock::Timeout=600 update -qq >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    rm -f "$log"
    dctwin_die "apt-get update failed (output above)"
  fi
  if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get -o DPkg::Lock::Timeout=600 -o Dpkg::Use-Pty=0 \
    install -y -qq --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
    tail -n 40 "$log" >&2
    rm -f "$log"
    dctwin_die "apt-get install failed (output above)"
  fi
  rm -f "$log"
  missing_list=$(dctwin_missing_deps "$file") || exit 1
  [[ -z $missing_list ]] || dctwin_die "still missing after apt-get install: $(echo "$missing_list" | tr '\n' ' ')"
  dctwin_log "packages installed"
}

# ---------------------------------------------------------------------------------------------
# Build

# dctwin_build DIR [cmake args...]
# Configures the repository into DIR with Ninja and CMAKE_BUILD_TYPE=Release (an argument such as
# -DCMAKE_BUILD_TYPE=RelWithDebInfo overrides it), then builds with -j$(nproc). An existing DIR
# keeps its generator and cache; the given arguments are applied on top.
dctwin_build() {
  [[ $# -ge 1 ]] || dctwin_die "usage: dctwin_build DIR [cmake args...]"
  local dir=$1
  shift
  local -a gen=(-G Ninja)
  if [[ -f $dir/CMakeCache.txt ]] && ! grep -qx 'CMAKE_GENERATOR:INTERNAL=Ninja' "$dir/CMakeCache.txt"; then
    dctwin_warn "$dir was configured with another generator; keeping it (remove $dir to switch to Ninja)"
    gen=()
  fi
  cmake -S "$DCTWIN_ROOT" -B "$dir" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$dir" -j "$(dctwin_nproc)"
}

# ---------------------------------------------------------------------------------------------
# Headless display

_DCTWIN_XVFB_PID=""

_dctwin_stop_xvfb() {
  if [[ -n $_DCTWIN_XVFB_PID ]]; then
    kill "$_DCTWIN_XVFB_PID" 2>/dev/null || true
    wait "$_DCTWIN_XVFB_PID" 2>/dev/null || true
    _DCTWIN_XVFB_PID=""
  fi
}

# dctwin_start_xvfb
# When DISPLAY is unset, starts `Xvfb :99 -screen 0 1280x800x24` in the background (or the next
# free display number if :99 is taken), exports DISPLAY and stops the server when the script exits.
# Does nothing when DISPLAY is already set.
dctwin_start_xvfb() {
  [[ -z ${DISPLAY:-} ]] || return 0
  command -v Xvfb >/dev/null 2>&1 || dctwin_die "Xvfb not found (package xvfb); needed for tests that use a display"
  local n i
  for n in $(seq 99 120); do
    if [[ -e /tmp/.X$n-lock || -e /tmp/.X11-unix/X$n ]]; then
      continue
    fi
    Xvfb ":$n" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
    _DCTWIN_XVFB_PID=$!
    dctwin_on_exit _dctwin_stop_xvfb
    for ((i = 0; i < 100; i++)); do
      if [[ -S /tmp/.X11-unix/X$n ]]; then
        export DISPLAY=":$n"
        dctwin_log "started Xvfb on DISPLAY=:$n (pid $_DCTWIN_XVFB_PID)"
        return 0
      fi
      kill -0 "$_DCTWIN_XVFB_PID" 2>/dev/null || break
      sleep 0.1
    done
    _dctwin_stop_xvfb
    dctwin_warn "Xvfb did not come up on :$n; trying the next display"
  done
  dctwin_die "could not start Xvfb on any display :99..:120"
}

# ---------------------------------------------------------------------------------------------
# Fuzzing

# dctwin_run_fuzzer BIN SEED_DIR WORK_DIR SECONDS [FUZZER_ARGS...]
# Copies SEED_DIR to WORK_DIR/corpus (fresh each run) and runs the libFuzzer binary BIN on it for
# SECONDS seconds. Crash, leak and timeout inputs land in WORK_DIR/artifacts/; the full fuzzer
# output in WORK_DIR/fuzz.log. Returns the fuzzer's exit status.
dctwin_run_fuzzer() {
  local bin=$1 seeds=$2 work=$3 seconds=$4 rc=0
  shift 4
  [[ -x $bin ]] || dctwin_die "fuzz binary $bin not found"
  [[ $seconds =~ ^[0-9]+$ && $seconds -gt 0 ]] || dctwin_die "fuzz time must be a positive whole number of seconds, not '$seconds'"
  # the corpus is kept from run to run (a CI cache of build-fuzz/ keeps what earlier runs found);
  # the seeds are added to it each time
  rm -rf "$work/artifacts"
  mkdir -p "$work/corpus" "$work/artifacts"
  cp -R "$seeds/." "$work/corpus/"
  dctwin_log "fuzzing $bin for ${seconds} s on $(find "$work/corpus" -type f | wc -l) seed(s); log: $work/fuzz.log"
  # -max_total_time bounds the run; `timeout` is only a backstop should the fuzzer itself hang.
  timeout --kill-after=30 $((seconds + 300)) "$bin" \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" \
    >"$work/fuzz.log" 2>&1 || rc=$?
  if ((rc == 0)); then
    tail -n 12 "$work/fuzz.log"
  else
    tail -n 80 "$work/fuzz.log"
    dctwin_warn "fuzzer exited with status $rc; reproducer(s) in $work/artifacts/:"
    ls -l "$work/artifacts/" >&2 || true
    dctwin_warn "reproduce with: $bin $work/artifacts/<file>"
  fi
  return "$rc"
}
