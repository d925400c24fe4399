#!/usr/bin/env bash
# Starts a private single-node Slurm (Debian's slurm-wlm with munge) and runs a small dctwin array
# sweep through sbatch: scripts/sweep_slurm.sbatch as a 4-task array over the 6 cases of
# tests/slurm/pod_fws_small.yaml, then scripts/merge_slurm.sbatch as a job that depends on it
# (afterok). The merged /cases table must equal `dctwin sweep -j 2` of the same file
# (tests/slurm/compare_cases.py: every column but wall_seconds, bit for bit).
#
#   bash scripts/slurm_ci.sh [--dctwin PATH] [--keep]
#
#   --dctwin PATH  the binary under test (default: $DCTWIN, else build/solver/dctwin)
#   --keep         keep the work folder (configuration, logs, results) after the run
#
# Needs root: slurmd runs jobs as their user and must be root; the missing packages (slurm-wlm,
# munge) are installed with apt-get. Nothing system-wide is configured or started: munged,
# slurmctld and slurmd run in the background from a temporary folder with their own munge key and
# socket, slurm.conf (SLURM_CONF), ports, state and spool folders, without cgroups
# (proctrack/linuxproc, task/none), and are stopped when this script exits, also on failure or
# interruption. Every wait is bounded (SLURM_CI_START_TIMEOUT, default 60 s, for the node to come
# up; SLURM_CI_JOB_TIMEOUT, default 300 s, for the jobs). Ports: SLURM_CI_PORT (slurmctld) and
# SLURM_CI_PORT + 1 (slurmd); by default the first free pair from 16817 up, so that two runs on
# one machine (or a system Slurm on 6817/6818) do not collide.
#
# scripts/test.sh runs this as its slurm stage when CI=true or DCTWIN_SLURM_TEST=1.
set -euo pipefail

# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

dctwin=${DCTWIN:-$DCTWIN_ROOT/build/solver/dctwin}
keep=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --dctwin)
      [[ $# -ge 2 ]] || dctwin_die "--dctwin needs a path"
      dctwin=$2
      shift
      ;;
    --keep) keep=1 ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *) dctwin_die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done

start_timeout=${SLURM_CI_START_TIMEOUT:-60}
job_timeout=${SLURM_CI_JOB_TIMEOUT:-300}
port=${SLURM_CI_PORT:-}
if [[ -z $port ]]; then
  # two free consecutive TCP ports
  port=$(/usr/bin/python3 -c '
import socket
for p in range(16817, 17817, 2):
    try:
        for q in (p, p + 1):
            with socket.socket() as s:
                s.bind(("", q))
    except OSError:
        continue
    print(p)
    break
')
  [[ -n $port ]] || dctwin_die "no two free TCP ports between 16817 and 17817"
fi
for v in start_timeout job_timeout port; do
  [[ ${!v} =~ ^[0-9]+$ ]] || dctwin_die "$v must be a whole number, not '${!v}'"
done

[[ $EUID -eq 0 ]] || dctwin_die "scripts/slurm_ci.sh must run as root (slurmd runs the jobs)"
[[ -x $dctwin ]] || dctwin_die "no dctwin binary at $dctwin (build it, or give --dctwin PATH)"
dctwin=$(cd "$(dirname "$dctwin")" && pwd)/$(basename "$dctwin")
python=/usr/bin/python3
sweep_rel=tests/slurm/pod_fws_small.yaml
shards=4
t_start=$SECONDS

# --- packages ------------------------------------------------------------------------------------
# the package list is read once, so a process substitution needs no temporary file to clean up
dctwin_install_deps <(printf 'slurm-wlm\nmunge\n')
for tool in munged mungekey slurmctld slurmd sbatch sinfo squeue scontrol; do
  command -v "$tool" >/dev/null 2>&1 || dctwin_die "$tool not found after installing slurm-wlm and munge"
done

# --- work folder and clean-up --------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/dctwin-slurm.XXXXXX")
chmod 0700 "$work"
mkdir -p "$work"/{munge,state,spool,log,out,jobs}
pids=() # munged, slurmctld, slurmd: stopped in reverse order

stop_daemons() {
  local i pid n
  # jobs first, so that slurmd does not leave job steps behind
  if [[ -n ${SLURM_CONF:-} ]] && ((${#pids[@]} >= 2)); then
    timeout 10 scancel --quiet --user=root 2>/dev/null || true
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pid=${pids[i]}
    kill -TERM "$pid" 2>/dev/null || continue
    for ((n = 0; n < 50; n++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  pids=()
}

show_logs() {
  local f
  for f in "$work"/log/*.log "$work"/jobs/*.log; do
    [[ -s $f ]] || continue
    printf '\n--- %s (last 30 lines) ---\n' "${f#"$work"/}" >&2
    tail -n 30 "$f" >&2
  done
}

cleanup() {
  stop_daemons
  if ((DCTWIN_EXIT_STATUS != 0)); then
    show_logs
    dctwin_warn "slurm test failed; work folder kept: $work"
  elif ((keep)); then
    dctwin_log "work folder kept: $work"
  else
    rm -rf "$work"
  fi
}
dctwin_on_exit cleanup

# a daemon started with `start NAME LOG command...`, in the foreground of a background job
start() {
  local name=$1 log=$2
  shift 2
  "$@" </dev/null >"$log" 2>&1 &
  pids+=($!)
  dctwin_log "started $name (pid $!): $*"
}

alive() {
  local pid
  for pid in "${pids[@]}"; do
    kill -0 "$pid" 2>/dev/null || return 1
  done
}

# --- munge ---------------------------------------------------------------------------------------
key=$work/munge/munge.key
mungekey --create --keyfile="$key" >/dev/null
chmod 0400 "$key"
socket=$work/munge/munge.socket.2
start munged "$work/log/munged.out" munged --foreground --force --key-file="$key" --socket="$socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/log/munged.log" --seed-file="$work/munge/seed"
for ((n = 0; n < 50; n++)); do
  [[ -S $socket ]] && break
  alive || dctwin_die "munged exited at start"
  sleep 0.1
done
[[ -S $socket ]] || dctwin_die "munged did not create its socket in 5 s"
munge --socket="$socket" -n | unmunge --socket="$socket" >/dev/null ||
  dctwin_die "munge credential round trip failed"

# --- slurm.conf ----------------------------------------------------------------------------------
# The node as slurmd sees it (CPUs, RealMemory), under the name localhost.
node_line=$(slurmd -C | head -n 1)
cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$node_line")
mem=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$node_line")
[[ -n $cpus && -n $mem ]] || dctwin_die "cannot read CPUs and RealMemory from 'slurmd -C': $node_line"
export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<EOF
# written by scripts/slurm_ci.sh: a private single-node cluster, no cgroups, no accounting
ClusterName=dctwin-ci
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
DependencyParameters=kill_invalid_depend
ReturnToService=2
MinJobAge=3600
SlurmdTimeout=60
InactiveLimit=0
KillWait=5
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=ci Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF

# --- slurmctld, slurmd ---------------------------------------------------------------------------
start slurmctld "$work/log/slurmctld.out" slurmctld -D -i -f "$SLURM_CONF"
start slurmd "$work/log/slurmd.out" slurmd -D -N localhost -f "$SLURM_CONF"
t0=$SECONDS
state=""
while ((SECONDS - t0 < start_timeout)); do
  alive || dctwin_die "a Slurm daemon exited at start (logs below)"
  state=$(sinfo -h -n localhost -o %t 2>/dev/null || true)
  [[ $state == idle ]] && break
  sleep 1
done
[[ $state == idle ]] || dctwin_die "node localhost not idle after ${start_timeout} s (state '${state:-none}')"
dctwin_log "slurm up in $((SECONDS - t0)) s: node localhost idle, $cpus CPUs, $mem MB, ports $port and $((port + 1))"
sinfo

# --- the sbatch script's binary lookup, without Slurm --------------------------------------------
# Outside a source tree and with no dctwin on PATH, the script says so and exits 127.
set +e
msg=$(cd "$work" && env -u DCTWIN PATH=/usr/bin:/bin SLURM_SUBMIT_DIR="$work" SLURM_ARRAY_TASK_ID=1 \
  SLURM_ARRAY_TASK_COUNT=1 bash "$DCTWIN_ROOT/scripts/sweep_slurm.sbatch" x.yaml out 2>&1)
rc=$?
set -e
[[ $rc -eq 127 && $msg == *"dctwin not found"* ]] ||
  dctwin_die "sweep_slurm.sbatch without a dctwin: expected exit 127 and 'dctwin not found', got $rc: $msg"
dctwin_log "sweep_slurm.sbatch without a dctwin: exit 127, '${msg:0:60}...'"

# --- the array sweep and the merge job -----------------------------------------------------------
# Submitted from the source tree, as a user would, so that the script (run by slurmd from its spool
# folder) finds build/solver/dctwin through SLURM_SUBMIT_DIR. Another binary goes in via DCTWIN.
submit_env=(env -u DCTWIN)
if [[ $dctwin != "$DCTWIN_ROOT/build/solver/dctwin" ]] || command -v dctwin >/dev/null 2>&1; then
  submit_env=(env DCTWIN="$dctwin")
  dctwin_log "jobs get DCTWIN=$dctwin"
fi
out=$work/out
cd "$DCTWIN_ROOT"
t0=$SECONDS
jid=$("${submit_env[@]}" sbatch --parsable --array=1-$shards --cpus-per-task=1 \
  --output="$work/jobs/sweep-%A_%a.log" scripts/sweep_slurm.sbatch "$sweep_rel" "$out")
jid=${jid%%;*}
mid=$("${submit_env[@]}" sbatch --parsable --dependency=afterok:"$jid" \
  --output="$work/jobs/merge-%j.log" scripts/merge_slurm.sbatch "$sweep_rel" "$out")
mid=${mid%%;*}
dctwin_log "submitted array job $jid (tasks 1-$shards) and merge job $mid (afterok:$jid)"

while ((SECONDS - t0 < job_timeout)); do
  alive || dctwin_die "a Slurm daemon exited while the jobs ran"
  [[ -z $(squeue -h -j "$jid,$mid" -o %i 2>/dev/null) ]] && break
  sleep 1
done
if [[ -n $(squeue -h -j "$jid,$mid" -o %i 2>/dev/null) ]]; then
  squeue
  dctwin_die "jobs $jid and $mid not finished after ${job_timeout} s"
fi
job_seconds=$((SECONDS - t0))

# every array task and the merge job COMPLETED with exit code 0:0
bad=0
while read -r line; do
  id=$(grep -o 'JobId=[0-9]*' <<<"$line" | head -n 1)
  task=$(grep -o 'ArrayTaskId=[0-9]*' <<<"$line" || true)
  st=$(grep -o 'JobState=[A-Z_]*' <<<"$line")
  ec=$(grep -o ' ExitCode=[0-9:]*' <<<"$line")
  printf '  %s %s %s%s\n' "$id" "${task:-(merge)}" "$st" "$ec"
  [[ $st == JobState=COMPLETED && $ec == " ExitCode=0:0" ]] || bad=1
done < <(scontrol -o show job "$jid"; scontrol -o show job "$mid")
((bad == 0)) || dctwin_die "a job did not complete (logs below)"
[[ -f $out/sweep.h5 ]] || dctwin_die "the merge job wrote no $out/sweep.h5"
grep -h 'dctwin-sweep: task' "$work"/jobs/sweep-*.log | head -n "$shards" | sed 's/^/  /'
dctwin_log "array of $shards tasks and merge job done in $job_seconds s"

# --- the threaded sweep and the comparison -------------------------------------------------------
t0=$SECONDS
"$dctwin" sweep "$sweep_rel" -j 2 -o "$work/threaded.h5" >"$work/log/threaded.log" 2>&1 ||
  dctwin_die "dctwin sweep -j 2 failed: $(tail -n 5 "$work/log/threaded.log")"
dctwin_log "dctwin sweep -j 2 in $((SECONDS - t0)) s"
"$python" "$DCTWIN_ROOT/tests/slurm/compare_cases.py" "$out/sweep.h5" "$work/threaded.h5" --tol 0

stop_daemons
dctwin_log "slurm test passed in $((SECONDS - t_start)) s; daemons stopped"
