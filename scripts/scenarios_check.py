#!/usr/bin/python3
"""Every bundled scenario, run for a multiple of its length, ends as a site's protection ends it.

    /usr/bin/python3 scripts/scenarios_check.py --dctwin build/solver/dctwin [--factor 4]
                                                [--interval 60s] [--events] [SCENARIO ...]

Runs each data/scenarios/*.yaml on the facility its header names ("for data/facilities/X.yaml",
or "e.g. data/facilities/X.yaml"; else pod_gb200.yaml) for `factor` times its duration with a
coarse output interval, and fails when
  - a run does not complete (a solver failure: a physical limit must become an event and a
    protective action, docs/models/protection.md),
  - an output row's PUE is below 1 (the energy drawn from the UPS batteries and rack stores is
    credited as input),
  - a scenario whose faults stop the coolant flow or overheat the racks ends without a protective
    action in /events.
--events prints each run's event log (time, component, kind), merged per kind and time.
Exit 77 when h5py is missing (ctest: skipped). ctest `scenarios.four_times.<scenario>` runs it,
one test per scenario.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROTECTIVE = {"emergency_power_off", "rack_power_off", "inlet_over_temperature",
              "inlet_over_temperature_shutdown", "coolant_over_temperature",
              "liquid_isolation", "electrical_isolation", "low_level", "gpu_shutdown"}
# scenarios that must end with a protective action (the rest may run without one)
MUST_PROTECT = {"pod_stuck_valve", "pod_pump_failure_no_redundancy", "pod_header_leak",
                "pod_rack_leak", "pod_rack_leak_restart", "pod_plant_trip"}
UNITS = {"s": 1, "min": 60, "h": 3600, "d": 86400}


def seconds(text):
    m = re.match(r"\s*([0-9.]+)\s*(s|min|h|d)\b", text)
    if not m:
        raise ValueError("cannot read the duration " + repr(text))
    return float(m.group(1)) * UNITS[m.group(2)]


def facility_of(path):
    with open(path) as f:
        head = f.read(2000)
    m = re.search(r"data/facilities/([A-Za-z0-9_]+\.yaml)", head)
    return os.path.join(ROOT, "data", "facilities", m.group(1) if m else "pod_gb200.yaml")


def duration_of(path):
    with open(path) as f:
        for line in f:
            if line.startswith("duration:"):
                return seconds(line.split(":", 1)[1])
    return 3600.0


def text(x):
    return x.decode() if isinstance(x, bytes) else str(x)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dctwin", required=True)
    ap.add_argument("--factor", type=float, default=4.0)
    ap.add_argument("--interval", default="60s")
    ap.add_argument("--events", action="store_true")
    ap.add_argument("scenarios", nargs="*")
    a = ap.parse_args()
    try:
        import h5py
        import numpy as np
    except ImportError:
        print("h5py/numpy missing: skipped")
        return 77
    paths = a.scenarios or sorted(glob.glob(os.path.join(ROOT, "data", "scenarios", "*.yaml")))
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            name = os.path.splitext(os.path.basename(path))[0]
            T = a.factor * duration_of(path)
            out = os.path.join(tmp, name + ".h5")
            cmd = [a.dctwin, "run", facility_of(path), "-s", path, "-d", "%gs" % T, "-i",
                   a.interval, "-o", out, "-q"]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                bad.append("%s: run failed (%d): %s" % (name, r.returncode, r.stderr.strip()))
                continue
            with h5py.File(out, "r") as f:
                t_end = float(f["time"][-1])
                if t_end < T - 1e-6:
                    bad.append("%s: ended at %g s of %g s" % (name, t_end, T))
                kinds = set()
                log = []
                if "events" in f:
                    e = f["events"]
                    for t, c, k in zip(e["time"][:], e["component"][:], e["kind"][:]):
                        kinds.add(text(k))
                        log.append((float(t), text(c), text(k)))
                if "facility/PUE" in f:
                    pue = f["facility/PUE"][:]
                    fin = pue[np.isfinite(pue)]
                    if fin.size and fin.min() < 1.0:
                        bad.append("%s: PUE %.4f < 1" % (name, fin.min()))
                if name in MUST_PROTECT and not kinds & PROTECTIVE:
                    bad.append("%s: no protective action in /events" % name)
            print("%-34s %7.0f s  ok  %d events" % (name, T, len(log)))
            if a.events:
                merged = {}
                for t, c, k in log:
                    merged.setdefault((t, k), []).append(c)
                for (t, k), cs in sorted(merged.items()):
                    who = cs[0] if len(cs) == 1 else "%s (+%d more)" % (cs[0], len(cs) - 1)
                    print("    %8.0f s  %-34s %s" % (t, k, who))
    for b in bad:
        print("FAILED " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
