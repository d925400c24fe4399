#!/usr/bin/env bash
# deb_test.sh BUILD_DIR: builds the Debian package with CPack (CPACK_DEBIAN_PACKAGE_SHLIBDEPS:
# dpkg-shlibdeps finds the Depends), checks its control fields and contents with dpkg-deb -I/-c,
# then unpacks it into a folder (not installing it) and runs the unpacked dctwin, which must find
# the unpacked data folder relative to itself.
set -euo pipefail
build=$(realpath "$1")
work=$(mktemp -d /tmp/dctwin-deb-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "deb_test: $*" >&2
  exit 1
}
unset DCTWIN_DATA DCTWIN_SCRIPTS
command -v dpkg-shlibdeps >/dev/null || fail "dpkg-shlibdeps not found (Debian package dpkg-dev)"
(cd "$work" && cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/out" >"$work/cpack.log" 2>&1) || {
  cat "$work/cpack.log"
  fail "cpack failed"
}
deb=$(ls "$work"/out/*.deb)
echo "package: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB"
dpkg-deb -I "$deb"
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libhdf5 libsundials libyaml-cpp libqt6widgets6 libqt6charts6 libc6 qt6-qpa-plugins; do
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
dpkg-deb -c "$deb" >"$work/contents"
for f in ./usr/bin/dctwin ./usr/bin/dctwin-gui ./usr/lib/libdctwin_solver.a \
  ./usr/lib/cmake/dctwin/dctwinConfig.cmake ./usr/include/dctwin/solver/run/run.h \
  ./usr/share/dctwin/data/facilities/pod_gb200.yaml ./usr/share/dctwin/scripts/report.py \
  ./usr/share/dctwin/scripts/sweep_slurm.sbatch ./usr/share/dctwin/scripts/merge_slurm.sbatch \
  ./usr/share/doc/dctwin/README.md; do
  grep -q " $f\$" "$work/contents" || fail "not in the package: $f"
done
dpkg-deb -x "$deb" "$work/root"
"$work/root/usr/bin/dctwin" --version
"$work/root/usr/bin/dctwin" check "$work/root/usr/share/dctwin/data/facilities/pod_gb200.yaml"
nm "$work/root/usr/lib/libdctwin_solver.a" >"$work/symbols" 2>/dev/null || true
grep -q runFacility "$work/symbols" || fail "the packaged static library has no symbols (stripped?)"
echo "deb_test: ok"
