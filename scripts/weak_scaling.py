#!/usr/bin/env python3
"""Weak scaling of the hall's training job in the facility: the step as the job grows.

The hall's job (Llama 3.1 405B, TP 8 x PP 16, 16 sequences per data-parallel rank;
scripts/make_facilities.py) on halls of 1, 2, 4, 8, 16 and 48 CDU blocks of 16 GB300 NVL72 racks
(1,152 to 55,296 GPUs, DP 9 to 432), every GPU resolved and distinct (the catalog's sourced
variation; the what-if populations off). Each facility runs 20 min (the job from 5 min); the
achieved step is the mean iteration time from 10 to 20 min, against the step model's nominal step
(its DP collectives grow with DP) and the reference iteration of the healthy GPU.

Prints a table (docs/models/gpu_variation.md "Weak scaling in the facility"):
  GPUs, DP, nominal step, achieved step, growth of each from the smallest job, the share of the
  wall time spent waiting at the barrier for the slowest GPU, wall seconds of the run.

Usage: python3 scripts/weak_scaling.py [--dctwin build/solver/dctwin] [--cdus 1 2 4 ...]
       [--duration 20min] [--threads 2] [--keep DIR]
Needs h5py (Debian: python3-h5py).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import h5py

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_facilities  # noqa: E402

RACKS_PER_CDU = 16  # 16 x 72 = 1152 GPUs = 9 model replicas of 128: every size divides


def series(f, path):
    return f[path][:, 0]


def measure(h5, t0, t1):
    with h5py.File(h5, "r") as f:
        t = f["time"][:]
        it = series(f, "/job/iterations")
        i0 = abs(t - t0).argmin()
        i1 = abs(t - t1).argmin()
        achieved = (t[i1] - t[i0]) / (it[i1] - it[i0])
        wall = series(f, "/job/time/barrier_wait")[i1] - series(f, "/job/time/barrier_wait")[i0]
        parts = ("compute", "memory", "comm_nvlink", "comm_network", "bubble", "barrier_wait",
                 "power_cap", "clock_other", "thermal")
        total = sum(series(f, "/job/time/" + p)[i1] - series(f, "/job/time/" + p)[i0]
                    for p in parts)
        return {
            "nominal": float(f["/job/model/step_time"][0]),
            "dp": int(f["/job/model/dp"][0]),
            "reference": float(series(f, "/job/reference_iteration_time")[i1]),
            "achieved": float(achieved),
            "barrier": float(wall / total) if total > 0 else 0.0,
        }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dctwin", default=os.path.join(make_facilities.ROOT, "build", "solver",
                                                     "dctwin"))
    ap.add_argument("--cdus", type=int, nargs="+", default=[1, 2, 4, 8, 16, 48])
    ap.add_argument("--duration", default="20min")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--keep", help="write the facilities and results here (default: a temp dir)")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="dctwin_weak_")
    os.makedirs(work, exist_ok=True)
    rows = []
    for n in a.cdus:
        name = "weak_%dcdu" % n
        yml = os.path.join(work, name + ".yaml")
        h5 = os.path.join(work, name + ".h5")
        with open(yml, "w") as out:
            out.write(make_facilities.facility(name, 1, n, RACKS_PER_CDU))
        start = time.time()
        subprocess.run([a.dctwin, "run", yml, "-d", a.duration, "-o", h5, "-t", str(a.threads),
                        "-q"], check=True)
        r = measure(h5, 600.0, 1200.0)
        r["gpus"] = n * RACKS_PER_CDU * 72
        r["wall"] = time.time() - start
        rows.append(r)
        print("%d CDUs done (%.0f s)" % (n, r["wall"]), file=sys.stderr)
    b = rows[0]
    print("| GPUs | DP | nominal step (s) | achieved step (s) | nominal growth | achieved growth "
          "| barrier wait | wall (s) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %d | %d | %.3f | %.3f | %+.2f %% | %+.2f %% | %.1f %% | %.0f |" % (
            r["gpus"], r["dp"], r["nominal"], r["achieved"],
            100 * (r["nominal"] / b["nominal"] - 1), 100 * (r["achieved"] / b["achieved"] - 1),
            100 * r["barrier"], r["wall"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
