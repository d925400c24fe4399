#!/usr/bin/env python3
"""The table of docs/models/job.md "The default pod's bottleneck maps": runs the five bundled pod
scenarios and prints the rows (mean per GPU in s and share of the wall time; waits by cause; the
top straggler; iterations, throughput ratio, goodput, failures).

    python3 scripts/pod_bottleneck_table.py [--dctwin build/solver/dctwin] [--out DIR]

Runs whose results file is already in DIR are not run again (delete them to re-run)."""
import argparse
import os
import subprocess
import tempfile

import h5py

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--dctwin", default=None, help="the dctwin program (default: build/solver/dctwin)")
ap.add_argument("--out", default=None, help="folder for the results files (default: a temporary one)")
args = ap.parse_args()
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dct = args.dctwin or os.path.join(root, "build", "solver", "dctwin")
out = args.out or tempfile.mkdtemp(prefix="dctwin-pod-maps-")
runs = [("W32", "pod_gb200.yaml", "pod_baseline.yaml"),
        ("W45", "pod_gb200_w45.yaml", "pod_baseline.yaml"),
        ("link", "pod_gb200.yaml", "pod_degraded_link.yaml"),
        ("tray", "pod_gb200.yaml", "pod_nvlink_tray_lost.yaml"),
        ("leak", "pod_gb200.yaml", "pod_rack_leak_restart.yaml")]
parts = ["compute", "memory", "comm_nvlink", "comm_network", "bubble", "checkpoint", "barrier_wait",
         "thermal", "power_cap", "fabric_degraded", "restart", "lost_work"]
cols = {}
for name, fac, sc in runs:
    h5 = f"{out}/{name}.h5"
    if not os.path.exists(h5):
        subprocess.run([dct, "run", f"{root}/data/facilities/{fac}", "-s", f"{root}/data/scenarios/{sc}",
                        "-o", h5, "-q"], check=True)
    with h5py.File(h5, "r") as f:
        t = {p: float(f[f"/job/time/{p}"][-1, 0]) for p in parts}
        allp = [k for k in f["/job/time"].keys()]
        wall = sum(float(f[f"/job/time/{p}"][-1, 0]) for p in allp)
        w = {c: float(f[f"/job/wait/{c}"][-1, 0]) for c in ("thermal", "power_cap", "fabric_degraded")}
        g = int(f["/job/straggler/gpu"][-1, 0]); sw = float(f["/job/straggler/wait"][-1, 0])
        it = int(f["/job/iterations"][-1, 0]); itt = float(f["/job/iteration_time"][-1, 0])
        tr = float(f["/job/throughput_ratio"][-1, 0]); gp = float(f["/job/goodput"][-1, 0])
        fl = int(f["/job/failures"][-1, 0])
        racks = [x.decode() if isinstance(x, bytes) else x for x in f["/rack/names"][()]]
        gr = f["/gpu/rack"][()] if "/gpu/rack" in f else None
        gs = f["/gpu/slot"][()] if "/gpu/slot" in f else None
        who = f"{racks[int(gr[g])]} GPU {int(gs[g])}" if gr is not None and g >= 0 else str(g)
    cols[name] = dict(t=t, wall=wall, w=w, who=who, sw=sw, it=it, itt=itt, tr=tr, gp=gp, fl=fl)
names = [r[0] for r in runs]
for p in parts:
    print(f"| {p} | " + " | ".join(f"{cols[n]['t'][p]:.1f} ({100*cols[n]['t'][p]/cols[n]['wall']:.2f} %)" for n in names) + " |")
print("| **sum = wall** | " + " | ".join(f"**{cols[n]['wall']:.1f}**" for n in names) + " |")
for c in ("thermal", "power_cap", "fabric_degraded"):
    print(f"| barrier_wait ← {c} | " + " | ".join(f"{cols[n]['w'][c]:.1f}" for n in names) + " |")
print("| top straggler (wait it caused) | " + " | ".join(f"{cols[n]['who']} ({cols[n]['sw']:.1f} s)" for n in names) + " |")
print("| iterations / mean iteration | " + " | ".join(f"{cols[n]['it']} / {cols[n]['itt']:.3f} s" for n in names) + " |")
print("| throughput_ratio | " + " | ".join(f"{cols[n]['tr']:.4f}" for n in names) + " |")
print("| **goodput** | " + " | ".join(f"**{cols[n]['gp']:.4f}**" for n in names) + " |")
print("| failures | " + " | ".join(f"{cols[n]['fl']}" for n in names) + " |")
