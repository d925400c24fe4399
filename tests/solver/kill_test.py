#!/usr/bin/python3
"""kill test: interrupted runs leave results files that open, hold every row up to their last
flush exactly as an uninterrupted run wrote it, and say why they ended (docs/results.md,
"Flushing and interrupted runs").

usage: kill_test.py DCTWIN FACILITY [--kills N] [--signals KILL,TERM,INT] [--seed S]
                    [--duration 20min] [--interval 1s] [--workdir DIR] [--budget SECONDS]
                    [--aim spread|close|first-flush]
                    [-- extra dctwin run arguments]

Runs `dctwin run FACILITY` once to the end (the reference), then N times more, each sent one of
the signals at a random moment of its wall time (spread over the reference's wall time). Each
interrupted file must open with h5py, every dataset must be readable, every time series must have
the same number of rows as /time, and those rows must equal the reference's first rows bit for
bit (NaN == NaN). `status` must be `interrupted` for SIGTERM/SIGINT (with `signal` naming it and
the solver statistics present), and `running` or a finished state for SIGKILL (a kill before the
first flush may leave no file or an empty layout, which counts as "no rows", not as corrupt; a
kill after the end leaves `completed`). Prints one line per kill and the totals:
"files checked N, corrupt 0 (lying 0, unreadable 0), ...": a lying file reads but holds other
rows than it claims (a status `completed` or a `rows_complete` over rows that differ from the
reference's), an unreadable one does not read. Exits 1 when any file is corrupt or a status is
wrong.
"""
import argparse
import os
import random
import resource
import signal
import subprocess
import sys
import time

import h5py
import numpy as np


def read_all(path):
    """every dataset of the file as numpy arrays; raises on any unreadable object"""
    out = {}
    with h5py.File(path, "r") as f:
        attrs = dict(f.attrs)

        def visit(name, obj):
            if isinstance(obj, h5py.Dataset):
                out["/" + name] = obj[()]
                dict(obj.attrs)  # attributes must be readable too

        f.visititems(visit)
    return attrs, out


def same(a, b):
    if a.dtype.kind == "f" and b.dtype.kind == "f":
        return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))
    return a.shape == b.shape and bool(np.all(a == b))


def check(path, ref, sig, ref_attrs, rc):
    """'' when the file is as it must be, else what is wrong"""
    if not os.path.exists(path):
        # SIGKILL, or a signal before dctwin installed its handler (process start-up)
        return "" if sig == "KILL" or rc == -getattr(signal, "SIG" + sig) else "no file"
    try:
        attrs, data = read_all(path)
    except Exception as e:  # noqa: BLE001 (any failure to read is a corrupt file)
        return f"does not open or read: {type(e).__name__}: {str(e)[:200]}"
    status = attrs.get("status", "")
    if "/time" not in data:
        return "" if sig == "KILL" else f"no /time (status {status})"
    n = data["/time"].shape[0]
    if status in ("running", "failed"):  # killed, or a full disk: the last completed flush
        n = int(attrs.get("rows_complete", 0))
        if n > data["/time"].shape[0]:
            return f"rows_complete {n} > {data['/time'].shape[0]} rows"
    for name, ref_v in ref.items():
        if name.startswith("/events/") or name not in data:
            continue
        v = data[name]
        if name.startswith("/power/"):  # its own row count; compare its common prefix
            m = min(v.shape[0], ref_v.shape[0])
            if not same(v[:m], ref_v[:m]):
                return f"{name}: rows differ from the uninterrupted run"
            continue
        if ref_v.ndim >= 1 and ref_v.shape[0] == ref["/time"].shape[0] and ref_v.ndim <= 2:
            if v.shape[0] < n or (status not in ("running", "failed") and v.shape[0] != n):
                return f"{name}: {v.shape[0]} rows, /time has {n}"
            v = v[:n]
            if not same(v, ref_v[:n]):
                bad = np.argwhere(~((v == ref_v[:n]) | (np.isnan(v) & np.isnan(ref_v[:n]))))
                return f"{name}: rows differ from the uninterrupted run (first at {bad[0]})"
        elif not same(v, ref_v):
            return f"{name}: static dataset differs"
    if sig in ("TERM", "INT"):
        if n == ref["/time"].shape[0] and status == "completed":
            return ""
        if status != "interrupted":
            return f"status '{status}' after SIG{sig}, expected 'interrupted'"
        if attrs.get("signal", "") != "SIG" + sig:
            return f"signal attribute '{attrs.get('signal', '')}', expected SIG{sig}"
        if "solver_steps" not in attrs:
            return "no solver statistics after a signal"
        if "/events/time" not in data:
            return "no /events after a signal"
    else:
        if status not in ("running", "completed", "failed"):
            return f"status '{status}' after SIGKILL or a full disk"
    for key in ("facility_text", "dctwin_version", "schema_version"):
        if key not in attrs:
            return f"no {key} attribute"
    if status == "completed" and n != ref["/time"].shape[0]:
        return f"status completed with {n} of {ref['/time'].shape[0]} rows"
    return ""


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("dctwin")
    ap.add_argument("facility")
    ap.add_argument("--kills", type=int, default=30)
    ap.add_argument("--signals", default="KILL,TERM,INT")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--duration", default="20min")
    ap.add_argument("--interval", default="1s")
    ap.add_argument("--workdir", default=".")
    ap.add_argument("--budget", type=float, default=1e9, help="stop starting kills after this (s)")
    ap.add_argument("--aim", choices=["spread", "close", "first-flush"], default="spread",
                    help="when the signals come: spread over the run, in its last 40 ms (the "
                         "final flushes and the close), or around its first flush with rows (from "
                         "60 ms before PATH appears in the reference run to 20 ms after)")
    ap.add_argument("--full-disk", type=int, default=0,
                    help="also N runs whose file size is limited (RLIMIT_FSIZE, as a full disk)")
    ap.add_argument("extra", nargs="*")
    a, rest = ap.parse_known_args(argv[1:])
    a.extra += [x for x in rest if x != "--"]
    os.makedirs(a.workdir, exist_ok=True)
    base = [a.dctwin, "run", a.facility, "-q", "-d", a.duration, "-i", a.interval] + a.extra
    ref_path = os.path.join(a.workdir, "kill_ref.h5")
    if os.path.exists(ref_path):
        os.remove(ref_path)
    # the reference, watched every ms: when PATH.partial and PATH appear (the first flush with
    # rows renames the one to the other) and when the run ends
    t0 = time.monotonic()
    proc = subprocess.Popen(base + ["-o", ref_path])
    t_partial = t_named = None
    while proc.poll() is None:
        now = time.monotonic() - t0
        if t_partial is None and os.path.exists(ref_path + ".partial"):
            t_partial = now
        if t_named is None and os.path.exists(ref_path):
            t_named = now
        time.sleep(0.001)
    wall = time.monotonic() - t0
    if proc.returncode != 0:
        print(f"reference run: exit status {proc.returncode}")
        return 1
    t_partial = t_partial if t_partial is not None else 0.0
    t_named = t_named if t_named is not None else wall
    ref_attrs, ref = read_all(ref_path)
    if ref_attrs.get("status") != "completed":
        print(f"reference run: status {ref_attrs.get('status')}")
        return 1
    rng = random.Random(a.seed)
    sigs = a.signals.split(",")
    checked = corrupt = wrong = lying = unreadable = 0
    close_at = wall - 0.02
    ended_first = 0  # close: runs that ended before their signal
    ended = []  # close: the wall times of those runs (s)
    shift = 0.0
    rows_kept = []
    start = time.monotonic()
    for k in range(a.kills):
        if time.monotonic() - start > a.budget:
            break
        sig = sigs[k % len(sigs)]
        path = os.path.join(a.workdir, f"kill_{k}.h5")
        if os.path.exists(path):
            os.remove(path)
        if a.aim == "close":
            # a moment that tracks the run's end: the median length of the last runs that ended
            # before their signal (their own wall time, measured), less up to 30 ms, moved later
            # after each kill and earlier after each run that ended first, so that the kills
            # gather in the last ms (the final flushes, the close)
            if ended:
                close_at = sorted(ended[-5:])[len(ended[-5:]) // 2] + shift
            delay = max(0.0, close_at - rng.uniform(0.0, 0.03))
        elif a.aim == "first-flush":
            delay = rng.uniform(max(t_partial, t_named - 0.06), t_named + 0.02)
        else:
            delay = rng.uniform(0.02, 1.0) * wall
        t_start = time.monotonic()
        p = subprocess.Popen(base + ["-o", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if a.aim == "close":  # wait for the moment, noting when the run ends if it ends first
            while p.poll() is None and time.monotonic() - t_start < delay:
                time.sleep(0.0005)
            if p.poll() is not None:
                ended.append(time.monotonic() - t_start)
        else:
            time.sleep(delay)
        p.send_signal(getattr(signal, "SIG" + sig))
        _, err = p.communicate()
        if a.aim == "close":
            if p.returncode == 0:
                ended_first += 1
                shift -= 0.004
            else:
                shift += 0.002
        why = check(path, ref, sig, ref_attrs, p.returncode)
        checked += 1
        n = -1
        status = ""
        if not why and os.path.exists(path):
            try:
                with h5py.File(path, "r") as f:
                    n = f["/time"].shape[0] if "/time" in f else 0
                    status = f.attrs.get("status", "")
                    if status == "running":
                        n = int(f.attrs.get("rows_complete", 0))
            except Exception:  # noqa: BLE001
                pass
        if why:
            if why.startswith("status") or why.startswith("signal") or why.startswith("no "):
                wrong += 1
            else:
                corrupt += 1
                # a file that does not read, or one that reads and claims rows it does not hold
                if why.startswith("does not open"):
                    unreadable += 1
                else:
                    lying += 1
        rows_kept.append(n)
        print(f"kill {k:3d} SIG{sig:<4s} at {delay:6.2f} s rc {p.returncode:4d}: "
              f"{n:5d} of {ref['/time'].shape[0]} rows, status {status or '-'}: {why or 'ok'}")
        if why:
            print("  stderr: " + err.decode(errors="replace")[-300:].replace("\n", " | "))
        else:
            os.remove(path) if os.path.exists(path) else None
    # a full disk: writes fail with EFBIG past a size limit; the file keeps its last flush
    # the writer refuses a flush that might not fit (its end of allocation + 10 MiB for new
    # blocks): 3 MiB stops it before the first flush (no file), ~20 MiB at a later one
    limits = [3 * 2**20, 20 * 2**20 + 2**19, 21 * 2**20, 22 * 2**20]
    for k in range(a.full_disk):
        limit = limits[k % len(limits)]
        path = os.path.join(a.workdir, f"full_{k}.h5")
        if os.path.exists(path):
            os.remove(path)

        def limit_size(limit=limit):
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

        p = subprocess.run(base + ["-o", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           preexec_fn=limit_size)
        why = check(path, ref, "KILL", ref_attrs, p.returncode)
        checked += 1
        if why:
            corrupt += 1
        err = p.stderr.decode(errors="replace").strip().splitlines()
        print(f"full disk {k} at {limit} bytes: rc {p.returncode}: {why or 'ok'}; "
              f"{err[-1][:160] if err else ''}")
    print(f"files checked {checked}, corrupt {corrupt} (lying {lying}, unreadable {unreadable}), "
          f"wrong status {wrong}; reference {ref['/time'].shape[0]} rows in {wall:.2f} s "
          f"(PATH.partial at {t_partial:.3f} s, PATH at {t_named:.3f} s)"
          + (f"; {ended_first} run(s) ended before their signal" if a.aim == "close" else ""))
    return 1 if corrupt or wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
