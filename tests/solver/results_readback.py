#!/usr/bin/python3
"""reads a dctwin results file with h5py and checks it (used by results_test.cpp).

usage: results_readback.py FILE [PATH=SHAPE ...]
  SHAPE is e.g. 150 or 150x3; each PATH must be a dataset of that shape.
Every dataset must carry `units` and `description` attributes that h5py returns as str, and every
string attribute on the root must come back as str as well. Prints "ok" and exits 0 on success.
"""
import sys

import h5py


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = []
    with h5py.File(argv[1], "r") as f:
        def check(name, obj):
            if isinstance(obj, h5py.Dataset):
                for key in ("units", "description"):
                    if key not in obj.attrs:
                        problems.append(f"/{name}: no {key} attribute")
                    elif not isinstance(obj.attrs[key], str):
                        problems.append(f"/{name}: {key} is {type(obj.attrs[key]).__name__}")

        f.visititems(check)
        for key, value in f.attrs.items():
            if isinstance(value, bytes):
                problems.append(f"root attribute {key} is bytes")
        for spec in argv[2:]:
            path, shape = spec.split("=")
            want = tuple(int(x) for x in shape.split("x"))
            if path not in f:
                problems.append(f"{path}: missing")
            elif f[path].shape != want:
                problems.append(f"{path}: shape {f[path].shape}, expected {want}")
    for p in problems:
        print(p)
    if problems:
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
