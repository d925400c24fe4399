#!/usr/bin/python3
"""Compares the /cases tables of two dctwin sweep files: every dataset under /cases (metrics,
parameters, status, error, index) and its units, except wall_seconds. Numbers must agree within
--tol (default 0: bit-identical, NaN equal to NaN); text exactly.

    /usr/bin/python3 tests/slurm/compare_cases.py merged.h5 threaded.h5 [--tol 1e-12]

Exit status 0 when equal; 1 with one line per difference otherwise. Used by scripts/slurm_ci.sh.
"""
import argparse
import sys

import h5py
import numpy as np

SKIP = {"wall_seconds"}


def datasets(group, prefix=""):
    out = {}
    for name, item in group.items():
        path = f"{prefix}{name}"
        if isinstance(item, h5py.Group):
            out.update(datasets(item, path + "/"))
        elif name not in SKIP:
            out[path] = item
    return out


def values(ds):
    data = ds[()]
    if ds.dtype.kind in "SO" or h5py.check_string_dtype(ds.dtype) is not None:
        return np.array([v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
                         for v in np.atleast_1d(data)], dtype=object)
    return np.atleast_1d(np.asarray(data))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--tol", type=float, default=0.0, help="largest |a-b|/max(1,|b|) allowed")
    args = ap.parse_args()
    problems = []
    with h5py.File(args.a, "r") as fa, h5py.File(args.b, "r") as fb:
        if "cases" not in fa or "cases" not in fb:
            print(f"compare_cases: a file lacks /cases ({args.a}, {args.b})")
            return 1
        da, db = datasets(fa["cases"]), datasets(fb["cases"])
        for name in sorted(set(da) ^ set(db)):
            problems.append(f"/cases/{name}: only in {args.a if name in da else args.b}")
        common = sorted(set(da) & set(db))
        worst = 0.0
        for name in common:
            ua, ub = da[name].attrs.get("units"), db[name].attrs.get("units")
            if ua != ub:
                problems.append(f"/cases/{name}: units {ua!r} != {ub!r}")
            va, vb = values(da[name]), values(db[name])
            if va.shape != vb.shape:
                problems.append(f"/cases/{name}: shape {va.shape} != {vb.shape}")
                continue
            if va.dtype == object or vb.dtype == object:
                for i, (x, y) in enumerate(zip(va, vb)):
                    if x != y:
                        problems.append(f"/cases/{name}[{i}]: {x!r} != {y!r}")
                continue
            xa, xb = va.astype(float), vb.astype(float)
            both_nan = np.isnan(xa) & np.isnan(xb)
            with np.errstate(invalid="ignore"):
                rel = np.where(both_nan, 0.0, np.abs(xa - xb) / np.maximum(1.0, np.abs(xb)))
            rel = np.where(np.isnan(rel), np.inf, rel)  # NaN against a number
            worst = max(worst, float(rel.max(initial=0.0)))
            for i in np.flatnonzero(rel > args.tol):
                problems.append(f"/cases/{name}[{i}]: {xa[i]!r} != {xb[i]!r} (rel {rel[i]:.3g})")
        n = len(values(da["index"])) if "index" in da else 0
    for p in problems:
        print("compare_cases: " + p)
    if problems:
        print(f"compare_cases: {len(problems)} differences between {args.a} and {args.b}")
        return 1
    print(f"compare_cases: /cases equal: {n} cases, {len(common)} datasets "
          f"(wall_seconds excluded), largest relative difference {worst:.3g} (tolerance {args.tol:g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
