#!/usr/bin/env bash
# Installs the missing Debian 12 packages, builds dctwin (Release) and runs the default pod:
# one XDU1350-class CDU, 8 GB200 NVL72 racks, W32 facility water.
#
#   bash scripts/setup.sh [--build-dir DIR] [-- extra arguments for `dctwin run`]
#
# Examples:
#   bash scripts/setup.sh
#   bash scripts/setup.sh --build-dir /tmp/dctwin-build -- --scenario data/scenarios/S.yaml
set -euo pipefail

# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() {
  cat <<EOF
usage: bash scripts/setup.sh [--build-dir DIR] [-- DCTWIN_RUN_ARGS...]

  1. installs the packages of scripts/deps.txt that are missing (apt-get; root or sudo)
  2. configures and builds dctwin (Release, Ninja) into DIR (default: build/ in the repository)
  3. runs: DIR/solver/dctwin run data/facilities/pod_gb200.yaml --duration 2h --output DIR/pod_gb200.h5
     Arguments after -- are passed on to 'dctwin run'; a --duration or --output given there
     replaces the default one.
EOF
}

build_dir="$DCTWIN_ROOT/build"
run_args=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --build-dir)
      [[ $# -ge 2 && -n $2 ]] || dctwin_die "--build-dir needs a directory"
      build_dir=$2
      shift 2
      ;;
    --build-dir=*)
      build_dir=${1#--build-dir=}
      [[ -n $build_dir ]] || dctwin_die "--build-dir needs a directory"
      shift
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    --)
      shift
      run_args=("$@")
      break
      ;;
    *)
      usage >&2
      dctwin_die "unknown argument '$1' (arguments for 'dctwin run' go after --)"
      ;;
  esac
done
build_dir=$(realpath -m -- "$build_dir")

# Defaults for `dctwin run`, unless the pass-through arguments set them.
output="$build_dir/pod_gb200.h5"
have_duration=0
have_output=0
for ((i = 0; i < ${#run_args[@]}; i++)); do
  case ${run_args[i]} in
    --duration | --duration=*) have_duration=1 ;;
    --output=*)
      have_output=1
      output=${run_args[i]#--output=}
      ;;
    --output)
      have_output=1
      if ((i + 1 < ${#run_args[@]})); then output=${run_args[i + 1]}; fi
      ;;
    *) ;;
  esac
done
defaults=()
((have_duration)) || defaults+=(--duration 2h)
((have_output)) || defaults+=(--output "$output")

dctwin_summary_on_exit

dctwin_stage_begin deps "checking Debian packages (scripts/deps.txt)"
dctwin_install_deps "$DCTWIN_ROOT/scripts/deps.txt"
dctwin_stage_end ok

dctwin_stage_begin build "configuring and building Release into $build_dir"
dctwin_build "$build_dir"
dctwin_stage_end ok

dctwin=$build_dir/solver/dctwin
[[ -x $dctwin ]] || dctwin_die "build finished but $dctwin does not exist"
facility=$DCTWIN_ROOT/data/facilities/pod_gb200.yaml
cmd=("$dctwin" run "$facility" "${defaults[@]}" "${run_args[@]}")
dctwin_stage_begin run "default pod: ${cmd[*]}"
mkdir -p "$(dirname -- "$output")"
"${cmd[@]}"
dctwin_stage_end ok

dctwin_print_summary 0
printf '\nResults file: %s\n' "$(realpath -m -- "$output")"
printf 'Inspect it with: h5dump -H %q   (layout: docs/results.md)\n' "$(realpath -m -- "$output")"
