#!/bin/bash
# The user guide's screenshots (docs/gui/*.png, docs/gui.md): the default pod, a run without
# faults, the rack-leak scenario and compare; then the bundled hall at hall scale (hall_*.png).
# Needs a built build/gui/dctwin-gui; runs it under its own Xvfb (xvfb-run) at 1920 x 1080.
#   bash scripts/gui_screenshots.sh [OUT_DIR]        (default docs/gui)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/docs/gui}"
gui="${DCTWIN_GUI:-$root/build/gui/dctwin-gui}"
[ -x "$gui" ] || { echo "gui_screenshots.sh: $gui not built (cmake --build build --target dctwin-gui)" >&2; exit 2; }
mkdir -p "$out"
if [ -n "${DISPLAY:-}" ]; then
  "$gui" --screenshots "$out"
else
  xvfb-run -a -s "-screen 0 1920x1080x24" "$gui" --screenshots "$out"
fi
