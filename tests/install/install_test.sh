#!/usr/bin/env bash
# install_test.sh BUILD_DIR SOURCE_DIR: `cmake --install` into a temporary prefix, moved afterwards
# (so that neither the prefix compiled in nor the build tree's data can be what is found), then
#   1. a consumer project (tests/install/consumer) configured with find_package(dctwin) against
#      the moved prefix, built and run: it loads the default pod and prints its rack count;
#   2. the installed `dctwin` run from a folder outside the source tree on the installed default
#      facility, without $DCTWIN_DATA: the results file must name the moved prefix's data folder
#      as the one used, and `dctwin report` must find the installed report.py;
#   3. the installed scripts/sweep_slurm.sbatch run as slurmd runs an array task: a copy in another
#      folder ($0 tells nothing), dctwin found on PATH, one case of the installed sweep.
set -euo pipefail
build=$(realpath "$1")
src=$(realpath "$2")
work=$(mktemp -d /tmp/dctwin-install-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "install_test: $*" >&2
  exit 1
}
unset DCTWIN_DATA DCTWIN_SCRIPTS

# 1. install, then move the prefix (relocation)
cmake --install "$build" --prefix "$work/staged" >"$work/install.log" || {
  cat "$work/install.log"
  fail "cmake --install failed"
}
mv "$work/staged" "$work/moved"
prefix=$work/moved
for f in bin/dctwin lib/libdctwin_solver.a lib/libdctwin_models.a lib/cmake/dctwin/dctwinConfig.cmake \
  lib/cmake/dctwin/dctwinConfigVersion.cmake include/dctwin/solver/run/run.h include/dctwin/models/pump.h \
  share/dctwin/data/catalog share/dctwin/data/facilities/pod_gb200.yaml share/dctwin/data/sweeps \
  share/dctwin/data/scenarios share/dctwin/scripts/report.py share/dctwin/scripts/sweep_slurm.sbatch \
  share/dctwin/scripts/merge_slurm.sbatch share/doc/dctwin/CHANGELOG.md share/man/man1/dctwin.1 \
  share/bash-completion/completions/dctwin; do
  [[ -e $prefix/$f ]] || fail "not installed: $f"
done
[[ ! -e $prefix/include/dctwin/solver/engine/state.h ]] || fail "a private header was installed"
# the man page and the completion are the ones the installed program generates (no drift)
cmp -s "$prefix/share/man/man1/dctwin.1" <("$prefix/bin/dctwin" man) ||
  fail "the installed man page differs from 'dctwin man'"
cmp -s "$prefix/share/bash-completion/completions/dctwin" <("$prefix/bin/dctwin" completion bash) ||
  fail "the installed completion differs from 'dctwin completion bash'"
echo "installed into $prefix (moved from $work/staged): $(find "$prefix" -type f | wc -l) files"

# 2. the consumer, against the moved prefix only
cmake -S "$src/tests/install/consumer" -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/consumer-configure.log" 2>&1 || {
  cat "$work/consumer-configure.log"
  fail "consumer: configure failed"
}
cmake --build "$work/consumer" >"$work/consumer-build.log" 2>&1 || {
  tail -50 "$work/consumer-build.log"
  fail "consumer: build failed"
}
out=$("$work/consumer/consumer")
echo "consumer: $out"
grep -qx "racks: 8" <<<"$out" || fail "consumer: expected 'racks: 8'"

# 3. the installed program, outside the source tree
mkdir "$work/run"
cd "$work/run"
"$prefix/bin/dctwin" --version
"$prefix/bin/dctwin" --version | grep -Eq '^dctwin [0-9]+\.[0-9]+\.[0-9]+ \(git [^)]+\)$' ||
  fail "dctwin --version: expected 'dctwin X.Y.Z (git REV)'"
"$prefix/bin/dctwin" check "$prefix/share/dctwin/data/facilities/pod_gb200.yaml"
"$prefix/bin/dctwin" run "$prefix/share/dctwin/data/facilities/pod_gb200.yaml" --duration 2min \
  --output-interval 30s -o pod.h5 -q
used=$(/usr/bin/python3 -c 'import h5py, sys; print(h5py.File(sys.argv[1], "r").attrs["data_dir"])' pod.h5)
echo "data folder used: $used"
[[ $used == "$(realpath "$prefix/share/dctwin/data")" ]] ||
  fail "the installed dctwin used '$used', not the moved prefix's data folder"
if [[ -x $prefix/bin/dctwin-gui ]]; then
  QT_QPA_PLATFORM=offscreen "$prefix/bin/dctwin-gui" --version | grep -q "$("$prefix/bin/dctwin" --version | cut -d' ' -f2-)" ||
    fail "dctwin-gui --version differs from dctwin --version"
fi
if /usr/bin/python3 -c 'import h5py, matplotlib' 2>/dev/null; then
  "$prefix/bin/dctwin" report pod.h5 -o report >/dev/null
  [[ -s report/index.html ]] || fail "dctwin report wrote no index.html"
fi

# 3b. the installed Python module, outside the source tree, finding the moved prefix's data
pymod=$(find "$prefix/lib" -path '*dist-packages/dctwin*.so' -print -quit 2>/dev/null || true)
if [[ -n $pymod ]]; then
  pyout=$(cd "$work/run" && env -u PYTHONPATH PYTHONPATH="$(dirname "$pymod")" /usr/bin/python3 -c '
import dctwin, sys
print("import dctwin", dctwin.__version__, "from", dctwin.__file__)
print("data", dctwin.data_dirs()[0])
f = dctwin.Facility.load(sys.argv[1])
r = dctwin.run(f, duration="1 min")
print("run", r.status)
' "$prefix/share/dctwin/data/facilities/pod_gb200.yaml") || fail "the installed Python module failed"
  echo "$pyout"
  grep -q "^run completed" <<<"$pyout" || fail "the installed Python module: run did not complete"
  grep -q "^data $(realpath "$prefix/share/dctwin/data")" <<<"$pyout" ||
    fail "the installed Python module did not find the moved prefix's data folder"
fi

# 4. the installed sbatch script as a Slurm array task (task 1 of 40 shards: one case)
mkdir "$work/spool"
cp "$prefix/share/dctwin/scripts/sweep_slurm.sbatch" "$work/spool/slurm_script"
env -u DCTWIN PATH="$prefix/bin:/usr/bin:/bin" SLURM_SUBMIT_DIR="$work/run" SLURM_ARRAY_TASK_ID=1 \
  SLURM_ARRAY_TASK_COUNT=1 SLURM_CPUS_PER_TASK=1 \
  bash "$work/spool/slurm_script" "$prefix/share/dctwin/data/sweeps/pod_fws_racks.yaml" shards 40 \
  >"$work/sbatch.log" 2>&1 || {
  cat "$work/sbatch.log"
  fail "the installed sweep_slurm.sbatch failed"
}
grep -q "dctwin-sweep: task 1/40 .*: $prefix/bin/dctwin" "$work/sbatch.log" ||
  fail "sweep_slurm.sbatch did not use the installed dctwin on PATH: $(head -n 1 "$work/sbatch.log")"
[[ -s shards/shard_1.h5.journal ]] || fail "sweep_slurm.sbatch left no shards/shard_1.h5.journal"
echo "installed sweep_slurm.sbatch: $(head -n 1 "$work/sbatch.log")"
echo "install_test: ok"
