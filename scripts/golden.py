#!/usr/bin/python3
"""dctwin golden answer files: reference runs whose results must not move unless the physics does.

    /usr/bin/python3 scripts/golden.py list
    /usr/bin/python3 scripts/golden.py check      --dctwin build/solver/dctwin [--case NAME ...]
    /usr/bin/python3 scripts/golden.py regenerate --dctwin build/solver/dctwin [--case NAME ...]
    /usr/bin/python3 scripts/golden.py calibrate  --dctwin build/solver/dctwin [--other BIN]

Each case (CASES below) is one `dctwin run` of a bundled facility and scenario. Its answer file,
tests/golden/<case>.golden.json, holds a chosen set of HDF5 series (docs/results.md) sampled at a
handful of rows (the last row always among them), a few peaks over the whole run, the event log
(time, component, kind) and the solver statistics, each quantity with its tolerance class; the
classes (relative and absolute tolerance, and why) are written into the file as well. A value
passes when |new - golden| <= atol + rtol |golden| (tests/golden/README.md).

  check       runs the cases, prints per quantity the largest deviation against its tolerance
              and exits 1 when any quantity is out of tolerance, the event log differs or the run
              fails (77 when h5py/numpy are missing: ctest reports the test as skipped)
  regenerate  the deliberate way to rewrite answer files: runs the cases, prints what changed
              against the files on disk (quantities out of their old tolerance, events added or
              removed), then writes the new files. Review the diff before committing it.
  calibrate   measures the numerical uncertainty of each quantity: reruns each case with the
              solver's rtol divided by 10, with -t 2, with every GPU computed on its own (the same
              equations summed in another order) and (--other) with another build of dctwin, and
              prints each deviation as a fraction of the tolerance (how the tolerances were
              chosen: tests/golden/README.md; the solver counts are expected to move with rtol)

Needs Debian's python3-h5py and python3-numpy (/usr/bin/python3).
"""
import argparse
import datetime
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

try:
    import h5py
    import numpy as np
except ImportError as e:  # ctest: SKIP_RETURN_CODE 77
    print(f"golden.py: {e} (install python3-h5py and python3-numpy): skipped", file=sys.stderr)
    sys.exit(77)

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN_DIR = os.path.join(SOURCE_DIR, "tests", "golden")
FORMAT = "dctwin-golden 1"
NROWS = 9  # sampled rows per series, evenly spaced over the run, first and last included

# --- tolerance classes ------------------------------------------------------------------------
# pass when |new - golden| <= atol + rtol |golden|. The sizes come from `calibrate`: builds that
# differ only in compiler and flags (gcc -O3, clang -O2, -t 1/2) give bit-identical results, so
# round-off alone moves nothing; what a platform (FMA contraction, another libm, SUNDIALS or KLU)
# may move is bounded by the solver's own error, measured as the deviation when its rtol goes from
# 1e-6 to 1e-7. Each class holds that deviation (>= 1.3x, most >= 5x) and stays below the effect
# of the smallest physics change worth catching (tests/golden/README.md).
TOLERANCES = {
    "time": dict(rtol=0.0, atol=1e-9, units="s",
                 why="output times are exact multiples of the output interval"),
    "temperature": dict(rtol=0.0, atol=1e-2, units="K",
                        why="solver error at rtol 1e-6 (rtol 1e-6 vs 1e-7): <= 2.5e-3 K steady, "
                            "<= 7.6e-3 K in fault transients; 1e-2 K is 0.1 % of a rack's 10 K "
                            "coolant rise"),
    "room_temperature": dict(rtol=0.0, atol=5e-2, units="K",
                             why="the room-air node (400 m3, loosely coupled): solver error at "
                                 "rtol 1e-6 up to 2.4e-2 K in the utility loss; a 1 % change of "
                                 "the air-handler flow moves it ~0.12 K"),
    "flow": dict(rtol=1e-5, atol=1e-8, units="m3/s",
                 why="secondary and rack flows: the pump operating point, solved to ~1e-9 "
                     "relative; measured solver deviation <= 1e-7 relative"),
    "control": dict(rtol=0.0, atol=1e-3, units="1",
                    why="the primary valve sits where the supply-temperature PI puts it: measured "
                        "solver deviation <= 1.6e-4 of stroke"),
    "primary_flow": dict(rtol=2e-3, atol=1e-7, units="m3/s",
                         why="facility-water flow follows the valve: measured solver deviation "
                             "<= 5e-4 relative"),
    "position": dict(rtol=0.0, atol=1e-4, units="1",
                     why="pump speed, isolation valves: measured solver deviation <= 1e-7"),
    "power": dict(rtol=2e-5, atol=1.0, units="W",
                  why="GPU power follows T_j through leakage; measured solver deviation "
                      "<= 1e-6 relative"),
    "energy": dict(rtol=5e-6, atol=10.0, units="J",
                   why="GPU-layer and power-chain energies, sums on the fast clock: measured "
                       "solver deviation <= 2e-7 relative"),
    "heat": dict(rtol=2e-3, atol=10.0, units="J",
                 why="coolant quadratures (CVODES, no quadrature error control): measured "
                     "deviation rtol 1e-6 vs 1e-7 up to 1.1e-3 relative with resolved GPUs "
                     "(README.md, 'What the calibration found')"),
    "ratio": dict(rtol=0.0, atol=2e-5, units="1",
                  why="throughput ratio, state of charge: measured solver deviation "
                      "<= 1e-7; 2e-5 is 0.002 %"),
    "pue": dict(rtol=0.0, atol=1.5e-4, units="1",
                why="PUE carries the air handlers' chiller and fans, which follow the room air "
                    "and the fan-speed PI: measured solver deviation (rtol 1e-6 vs 1e-7) 3.4e-5, "
                    "ASan+UBSan build against Release 7.5e-5; a 1 % change of the chilled-water "
                    "chiller's power moves the pod's PUE 2.8e-4"),
    "plant_heat": dict(rtol=1e-3, atol=10.0, units="W",
                       why="the plant's heat rejected follows the facility-water return and the "
                           "plant's controls, stepped every plant step: the ASan+UBSan build "
                           "(round-off) moves it 183 W of 0.9 MW (2e-4 relative)"),
    "water": dict(rtol=2e-3, atol=1e-2, units="kg",
                  why="the plant's water, the integral of its evaporation and blowdown, which "
                      "follow the heat rejected: as the coolant heat integrals ('heat'), and "
                      "0.01 kg absolute"),
    "step_time": dict(rtol=1e-4, atol=1e-6, units="s",
                      why="a described job's iteration times stretch with the GPUs' clocks, "
                          "which follow T_j (0.01 K moves a clock far less than 1e-4)"),
    "map": dict(rtol=1e-3, atol=0.5, units="s",
                why="the job's time map, GPU-seconds summed per cause over the run on the "
                    "50 ms GPU clock; 0.5 s is a few GPU-steps of one GPU"),
    "count": dict(rtol=0.0, atol=1.0, units="1",
                  why="job iterations complete on the 50 ms GPU clock: one iteration may land "
                      "one output row later"),
    "volume": dict(rtol=1e-4, atol=1e-7, units="m3",
                   why="leaked coolant, a quadrature of the orifice flow; 1e-7 m3 = 0.1 mL"),
    "event_time": dict(rtol=0.0, atol=1.0, units="s",
                       why="detectors poll every 1 s: an alarm whose threshold is crossed near a "
                           "poll may move by one poll"),
    "solver": dict(rtol=0.25, atol=5.0, units="1",
                   why="step and evaluation counts (SUNDIALS testRunner's integer percentage): "
                       "round-off may flip a step's acceptance; 25 % flags a solver that works "
                       "much harder or a model that got stiffer"),
}

# --- quantities -------------------------------------------------------------------------------
# (label, HDF5 path, reduction over columns or None, tolerance class). A label "path[max]" is the
# maximum over the columns (e.g. the hottest of 576 GPUs). Missing datasets are left out.
SERIES = [
    ("time", "time", None, "time"),
    ("cdu/T_sec_supply", "cdu/T_sec_supply", None, "temperature"),
    ("cdu/T_sec_return", "cdu/T_sec_return", None, "temperature"),
    ("cdu/T_prim_return", "cdu/T_prim_return", None, "temperature"),
    ("cdu/V_flow_sec", "cdu/V_flow_sec", None, "flow"),
    ("cdu/V_flow_prim", "cdu/V_flow_prim", None, "primary_flow"),
    ("cdu/valve_position", "cdu/valve_position", None, "control"),
    ("cdu/pump_speed", "cdu/pump_speed", None, "position"),
    ("cdu/coolant_lost", "cdu/coolant_lost", None, "volume"),
    ("rack/T_supply", "rack/T_supply", None, "temperature"),
    ("rack/T_return", "rack/T_return", None, "temperature"),
    ("rack/V_flow", "rack/V_flow", None, "flow"),
    ("rack/Q_liquid", "rack/Q_liquid", None, "power"),
    ("rack/isolation", "rack/isolation", None, "position"),
    ("gpu/T_junction[max]", "gpu/T_junction", "max", "temperature"),
    ("gpu/T_hbm[max]", "gpu/T_hbm", "max", "temperature"),
    ("room/T_air", "room/T_air", None, "room_temperature"),
    ("facility/P_IT", "facility/P_IT", None, "power"),
    ("facility/PUE", "facility/PUE", None, "pue"),
    ("ups/SOC", "ups/SOC", None, "ratio"),
    ("energy/heat_in", "energy/heat_in", None, "heat"),
    ("energy/heat_to_facility_water", "energy/heat_to_facility_water", None, "heat"),
    ("energy/gpu_electric", "energy/gpu_electric", None, "energy"),
    ("energy/utility", "energy/utility", None, "energy"),
    ("energy/it", "energy/it", None, "energy"),
    ("job/throughput_ratio", "job/throughput_ratio", None, "ratio"),
    ("job/iterations", "job/iterations", None, "count"),
    ("job/progress_ratio", "job/progress_ratio", None, "ratio"),
    ("job/last_iteration_time", "job/last_iteration_time", None, "step_time"),
    ("job/time/barrier_wait", "job/time/barrier_wait", None, "map"),
    ("plant/T_supply", "plant/T_supply", None, "temperature"),
    ("plant/Q_rejected", "plant/Q_rejected", None, "plant_heat"),
    ("plant/P_fans", "plant/P_fans", None, "power"),
    ("plant/P_pumps", "plant/P_pumps", None, "power"),
    ("plant/P_chillers", "plant/P_chillers", None, "power"),
    ("plant/PUE", "plant/PUE", None, "pue"),
    ("water/site", "water/site", None, "water"),
    ("air_rack/T_out", "air_rack/T_out", None, "temperature"),
    ("air_rack/P_fan", "air_rack/P_fan", None, "power"),
    ("switch_rack/Q_liquid", "switch_rack/Q_liquid", None, "power"),
]
# peaks over every row (transients between the sampled rows)
PEAKS = [
    ("peak gpu/T_junction", "gpu/T_junction", "temperature"),
    ("peak rack/T_return", "rack/T_return", "temperature"),
    ("peak cdu/T_sec_supply", "cdu/T_sec_supply", "temperature"),
    ("min rack/V_flow", "rack/V_flow", "flow"),
]
SOLVER_ATTRS = ["solver_steps", "solver_rhs_evals", "solver_jacobian_evals"]

POD = "data/facilities/pod_gb200.yaml"
CASES = {
    "pod_default": dict(
        description="the default pod (1 XDU1350, 8 GB200 NVL72 racks, 576 GPUs training), "
                    "cold start, 30 min",
        facility=POD, scenario=None, args=["--duration", "30min", "--output-interval", "30s"]),
    "pod_pump_failure": dict(
        description="the pod's CDU loses its three pumps one after another (5, 10, 15 min): "
                    "switchover, one-pump flow, no flow, thermal throttling and shutdown",
        facility=POD, scenario="data/scenarios/pod_pump_failure_no_redundancy.yaml", args=[]),
    "pod_rack_leak": dict(
        description="a growing leak in rack A03 at 10 min: leak sensor, isolation valves, rack "
                    "powered off, the job stalls",
        facility=POD, scenario="data/scenarios/pod_rack_leak.yaml", args=[]),
    "pod_utility_loss": dict(
        description="the utility is lost for 2 min at 5 min: the UPS carries the pod on battery "
                    "and recharges (power chain)",
        facility=POD, scenario="data/scenarios/pod_utility_loss.yaml", args=[]),
    "two_cdu_mixed": dict(
        description="two CDU loops (XDU1350 + generic 2 MW), 14 heat-load racks of two types, "
                    "load steps and a facility-water excursion over 2 h",
        facility="data/facilities/two_cdu_mixed.yaml",
        scenario="data/scenarios/load_step_excursion.yaml", args=[]),
    "pod_plant_w32": dict(
        description="the pod on its heat-rejection plant (dry coolers, adiabatic, chiller; W32 "
                    "water) in synthetic Phoenix weather: plant supply, fans, pumps, chillers, "
                    "water and the plant's PUE, "
                    "30 min",
        facility="data/facilities/pod_gb200_plant_w32.yaml", scenario=None,
        args=["--duration", "30min", "--output-interval", "60s"]),
    "pod_fabric_degraded_link": dict(
        description="the pod with its leaf and spine switch racks (liquid and air heat) and a "
                    "described job: one GPU's scale-out link at half bandwidth from 10 min, the "
                    "job's iteration time and barrier wait, 30 min",
        facility="data/facilities/pod_gb200_fabric.yaml",
        scenario="data/scenarios/pod_degraded_link.yaml", args=["--duration", "30min"]),
    "pod_plant_annual_day": dict(
        description="the pod on its plant in the multi-rate annual mode (docs/models/annual.md): "
                    "the first day of the Phoenix year, rows every 10 min",
        facility="data/facilities/pod_gb200_plant_w32.yaml", scenario=None,
        args=["--annual", "--duration", "1d", "--output-interval", "10min"]),
    "block_air_racks": dict(
        description="a datasheet CDU block with air-cooled switch and storage racks on the "
                    "room air: their inlet, outlet and fans, 30 min",
        facility="data/facilities/datasheet_block.yaml", scenario=None,
        args=["--duration", "30min", "--output-interval", "60s"]),
}


# --- running ----------------------------------------------------------------------------------
def command(case, out, extra=()):
    c = CASES[case]
    cmd = ["run", c["facility"]]
    if c["scenario"]:
        cmd += ["--scenario", c["scenario"]]
    return cmd + list(c["args"]) + ["--output", out, "--quiet"] + list(extra)


def with_rtol(case, rtol, tmp):
    """a scenario file equal to the case's, with the solver's rtol replaced"""
    c = CASES[case]
    if c["scenario"]:
        with open(os.path.join(SOURCE_DIR, c["scenario"])) as f:
            text = f.read()
        text = re.sub(r"(?m)^solver:.*\n", "", text)
    else:
        text = "dctwin_scenario: 1\nname: golden_rtol\n"
    path = os.path.join(tmp, f"{case}_rtol.yaml")
    with open(path, "w") as f:
        f.write(text + f"\nsolver: {{rtol: {rtol:g}}}\n")
    return path


def run_case(dctwin, case, tmp, tag="run", rtol=None, extra=(), facility_extra=None):
    """runs the case; returns (results dict, wall seconds). facility_extra: YAML appended to a
    copy of the facility file (calibrate)"""
    out = os.path.join(tmp, f"{case}_{tag}.h5")
    cmd = command(case, out, extra)
    if facility_extra:
        with open(os.path.join(SOURCE_DIR, CASES[case]["facility"])) as f:
            text = f.read()
        # the copy sits at the same depth as the original beside links to the original's
        # neighbours, so that its relative paths (../weather/x.epw) resolve as the original's
        src_dir = os.path.dirname(os.path.join(SOURCE_DIR, CASES[case]["facility"]))
        up = os.path.dirname(src_dir)
        copy_dir = os.path.join(tmp, "data", os.path.basename(src_dir))
        os.makedirs(copy_dir, exist_ok=True)
        for entry in os.listdir(up):
            link = os.path.join(tmp, "data", entry)
            if not os.path.lexists(link):
                os.symlink(os.path.join(up, entry), link)
        for entry in os.listdir(src_dir):
            link = os.path.join(copy_dir, entry)
            if not os.path.lexists(link):
                os.symlink(os.path.join(src_dir, entry), link)
        cmd[1] = os.path.join(copy_dir, f"{case}_facility.yaml")
        with open(cmd[1], "w") as f:
            f.write(text + "\n" + facility_extra + "\n")
    if rtol is not None:
        i = cmd.index("--scenario") + 1 if "--scenario" in cmd else None
        path = with_rtol(case, rtol, tmp)
        if i:
            cmd[i] = path
        else:
            cmd[2:2] = ["--scenario", path]
    t0 = time.monotonic()
    p = subprocess.run([dctwin] + cmd, cwd=SOURCE_DIR, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        raise RuntimeError(f"{case}: dctwin {' '.join(cmd)} exited {p.returncode}\n"
                           f"{p.stdout}{p.stderr}")
    return extract(out), wall


def names(ds):
    return [x.decode() if isinstance(x, bytes) else str(x) for x in ds[()]]


def extract(path):
    """the answer-file content of one results file (every row; sampling happens on writing)"""
    with h5py.File(path, "r") as f:
        if f.attrs.get("status") != "completed":
            raise RuntimeError(f"{path}: status {f.attrs.get('status')}: {f.attrs.get('error')}")
        nt = f["time"].shape[0]
        rows = sorted(set(int(round(k * (nt - 1) / (NROWS - 1))) for k in range(NROWS)))
        res = {"rows": rows, "series": {}, "peaks": {}, "events": [], "solver": {}}
        for label, p, red, cls in SERIES:
            if p not in f:
                continue
            a = np.asarray(f[p][()], dtype=float)
            group = p.split("/")[0]
            if a.ndim == 2 and red == "max":
                a, cols = a.max(axis=1), None
            elif a.ndim == 2:
                cols = names(f[f"{group}/names"]) if f"{group}/names" in f else None
            else:
                cols = None
            res["series"][label] = dict(cls=cls, units=f[p].attrs.get("units", ""),
                                        columns=cols, all=a)
        for label, p, cls in PEAKS:
            if p not in f:
                continue
            a = np.asarray(f[p][()], dtype=float)
            res["peaks"][label] = dict(cls=cls, units=f[p].attrs.get("units", ""),
                                       value=float(np.nanmin(a) if label.startswith("min")
                                                   else np.nanmax(a)))
        if "events/time" in f:
            t = f["events/time"][()]
            comp, kind = names(f["events/component"]), names(f["events/kind"])
            res["events"] = [[float(t[i]), comp[i], kind[i]] for i in range(len(t))]
        for a in SOLVER_ATTRS:
            if a in f.attrs:
                res["solver"][a] = int(f.attrs[a])
        res["dctwin_version"] = str(f.attrs.get("dctwin_version", ""))
    return res


# --- answer files -----------------------------------------------------------------------------
def golden_path(case, golden_dir):
    return os.path.join(golden_dir, f"{case}.golden.json")


def sig(x):
    """12 significant digits: far below every tolerance, short in the file"""
    return float(f"{x:.12g}") if math.isfinite(x) else None


def to_golden(case, res):
    rows = res["rows"]
    c = CASES[case]
    doc = {
        "format": FORMAT,
        "case": case,
        "description": c["description"],
        "command": "dctwin " + " ".join(command(case, "OUT.h5")[:-1]),
        "regenerated": dict(date=datetime.date.today().isoformat(),
                            dctwin_version=res["dctwin_version"], git_commit=git_commit()),
        "comparison": "|new - golden| <= atol + rtol |golden|, per value",
        "tolerances": TOLERANCES,
        "rows": rows,
        "series": {},
        "peaks": {},
        "events": res["events"],
        "solver": res["solver"],
    }
    for label, s in res["series"].items():
        v = s["all"][rows]
        doc["series"][label] = dict(cls=s["cls"], units=s["units"], columns=s["columns"],
                                    values=[[sig(x) for x in np.atleast_1d(r)] if v.ndim > 1
                                            else sig(r) for r in v])
    for label, p in res["peaks"].items():
        doc["peaks"][label] = dict(cls=p["cls"], units=p["units"], value=sig(p["value"]))
    return doc


def git_commit():
    p = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=SOURCE_DIR,
                       capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else ""


def dumps(doc):
    """JSON with one line per series row and per event (reviewable diffs)"""
    def inline(x):
        return json.dumps(x, separators=(", ", ": "))
    out = ["{"]
    items = list(doc.items())
    for k, (key, val) in enumerate(items):
        comma = "," if k + 1 < len(items) else ""
        if key == "tolerances":
            out.append(f'  "{key}": {{')
            for j, (c, t) in enumerate(val.items()):
                out.append(f'    "{c}": {inline(t)}' + ("," if j + 1 < len(val) else ""))
            out.append("  }" + comma)
        elif key == "series":
            out.append(f'  "{key}": {{')
            for j, (label, s) in enumerate(val.items()):
                head = {kk: vv for kk, vv in s.items() if kk != "values"}
                out.append(f'    "{label}": {inline(head)[:-1]}, "values": [')
                for i, r in enumerate(s["values"]):
                    out.append("      " + inline(r) + ("," if i + 1 < len(s["values"]) else ""))
                out.append("    ]}" + ("," if j + 1 < len(val) else ""))
            out.append("  }" + comma)
        elif key in ("peaks", "events") and val:
            opener, closer = ("{", "}") if isinstance(val, dict) else ("[", "]")
            out.append(f'  "{key}": {opener}')
            seq = list(val.items()) if isinstance(val, dict) else val
            for j, e in enumerate(seq):
                line = f'"{e[0]}": {inline(e[1])}' if isinstance(val, dict) else inline(e)
                out.append("    " + line + ("," if j + 1 < len(seq) else ""))
            out.append("  " + closer + comma)
        else:
            out.append(f'  "{key}": {inline(val)}{comma}')
    out.append("}")
    return "\n".join(out) + "\n"


# --- comparison -------------------------------------------------------------------------------
class Row:
    """one quantity's comparison: largest |dev| and largest |dev| / (atol + rtol |ref|)"""

    def __init__(self, label, cls, units):
        self.label, self.cls, self.units = label, cls, units
        self.max_dev, self.ratio, self.note = 0.0, 0.0, ""

    def add(self, new, ref, tol):
        new, ref = np.asarray(new, dtype=float), np.asarray(ref, dtype=float)
        if new.shape != ref.shape:
            self.ratio, self.note = math.inf, f"shape {new.shape} != golden {ref.shape}"
            return
        both_nan = np.isnan(new) & np.isnan(ref)
        dev = np.where(both_nan, 0.0, np.abs(new - ref))
        dev = np.where(np.isnan(dev), np.inf, dev)
        bound = tol["atol"] + tol["rtol"] * np.abs(np.nan_to_num(ref))
        if dev.size:
            self.max_dev = max(self.max_dev, float(dev.max()))
            self.ratio = max(self.ratio, float((dev / bound).max()))

    @property
    def ok(self):
        return self.ratio <= 1.0


def compare(golden, res):
    """rows of the comparison of a fresh run against an answer file"""
    tols = golden["tolerances"]
    rows_out = []
    if res["rows"] != golden["rows"]:
        r = Row("rows", "time", "")
        r.ratio, r.note = math.inf, f"{len(res['rows'])} sampled rows, golden {len(golden['rows'])}"
        return [r]
    for label, g in golden["series"].items():
        r = Row(label, g["cls"], g["units"])
        s = res["series"].get(label)
        if s is None:
            r.ratio, r.note = math.inf, "missing from the results"
        else:
            ref = np.array([[np.nan if x is None else x for x in v] if isinstance(v, list)
                            else (np.nan if v is None else v) for v in g["values"]], dtype=float)
            r.add(s["all"][res["rows"]], ref, tols[g["cls"]])
            if s["columns"] != g["columns"]:
                r.ratio, r.note = math.inf, f"columns {s['columns']} != golden {g['columns']}"
        rows_out.append(r)
    for label, g in golden["peaks"].items():
        r = Row(label, g["cls"], g["units"])
        p = res["peaks"].get(label)
        if p is None:
            r.ratio, r.note = math.inf, "missing from the results"
        else:
            r.add(p["value"], np.nan if g["value"] is None else g["value"], tols[g["cls"]])
        rows_out.append(r)
    rows_out.append(compare_events(golden["events"], res["events"], tols["event_time"]))
    for a, v in golden["solver"].items():
        r = Row(a, "solver", "")
        if a not in res["solver"]:
            r.ratio, r.note = math.inf, "missing"
        else:
            r.add(res["solver"][a], v, tols["solver"])
        rows_out.append(r)
    return rows_out


def compare_events(gold, new, tol):
    """the same (component, kind) entries, each at its golden time within the tolerance"""
    r = Row("events (time, component, kind)", "event_time", "s")
    key = lambda e: (e[1], e[2], e[0])  # noqa: E731
    g, n = sorted(gold, key=key), sorted(new, key=key)
    gk, nk = [(e[1], e[2]) for e in g], [(e[1], e[2]) for e in n]
    if gk != nk:
        missing = [e for e in gk if e not in nk]
        extra = [e for e in nk if e not in gk]
        r.ratio = math.inf
        r.note = (f"{len(n)} events, golden {len(g)}; missing {missing[:3]}, new {extra[:3]}")
        return r
    for a, b in zip(n, g):
        r.add(a[0], b[0], tol)
    if r.ratio > 1:
        worst = max(zip(n, g), key=lambda ab: abs(ab[0][0] - ab[1][0]))
        r.note = f"{worst[1][1]} {worst[1][2]} at {worst[0][0]:g} s, golden {worst[1][0]:g} s"
    return r


def table(rows, tols, title):
    print(title)
    print(f"  {'quantity':36s} {'class':12s} {'max |dev|':>11s} {'atol':>9s} {'rtol':>8s} "
          f"{'dev/tol':>9s}")
    for r in rows:
        t = tols[r.cls]
        flag = "" if r.ok else "  FAIL"
        print(f"  {r.label:36s} {r.cls:12s} {r.max_dev:11.3g} {t['atol']:9.2g} {t['rtol']:8.2g} "
              f"{r.ratio:9.3g}{flag}" + (f"  ({r.note})" if r.note else ""))


def load_golden(case, golden_dir):
    with open(golden_path(case, golden_dir)) as f:
        doc = json.load(f)
    if doc.get("format") != FORMAT:
        raise RuntimeError(f"{case}: answer file format {doc.get('format')!r}, expected {FORMAT!r}")
    return doc


# --- commands ---------------------------------------------------------------------------------
def cmd_check(args):
    failed = []
    with tempfile.TemporaryDirectory(prefix="dctwin_golden_") as tmp:
        for case in args.case or list(CASES):
            try:
                golden = load_golden(case, args.golden_dir)
                res, wall = run_case(args.dctwin, case, tmp)
            except (RuntimeError, OSError, KeyError) as e:
                print(f"{case}: ERROR: {e}")
                failed.append(case)
                continue
            rows = compare(golden, res)
            ok = all(r.ok for r in rows)
            table(rows, golden["tolerances"],
                  f"{case}: {'ok' if ok else 'FAILED'} ({wall:.2f} s; golden of "
                  f"{golden['regenerated']['date']}, {golden['regenerated']['git_commit']})")
            if not ok:
                failed.append(case)
    if failed:
        print(f"golden: {len(failed)} case(s) out of tolerance: {' '.join(failed)}\n"
              "  a deliberate physics change? rerun with `scripts/golden.py regenerate`, review "
              "the printed changes and commit the answer files with the change (README.md)")
        return 1
    print("golden: every case within tolerance")
    return 0


def cmd_regenerate(args):
    os.makedirs(args.golden_dir, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="dctwin_golden_") as tmp:
        for case in args.case or list(CASES):
            res, wall = run_case(args.dctwin, case, tmp)
            path = golden_path(case, args.golden_dir)
            if os.path.exists(path):
                try:
                    old = load_golden(case, args.golden_dir)
                    rows = compare(old, res)
                    changed = [r for r in rows if not r.ok]
                    new = to_golden(case, res)
                    for part in ("series", "peaks"):
                        for label in sorted(set(new[part]) - set(old[part])):
                            print(f"{case}: new quantity {label}")
                        for label in sorted(set(old[part]) - set(new[part])):
                            print(f"{case}: quantity {label} no longer in the results")
                    if old["tolerances"] != new["tolerances"]:
                        for c in sorted(set(old["tolerances"]) | set(new["tolerances"])):
                            if old["tolerances"].get(c) != new["tolerances"].get(c):
                                print(f"{case}: tolerance class {c}: {old['tolerances'].get(c)}"
                                      f" -> {new['tolerances'].get(c)}")
                    if changed:
                        table(changed, old["tolerances"],
                              f"{case}: changed beyond the old tolerances:")
                    else:
                        print(f"{case}: within the old tolerances (values refreshed)")
                except (RuntimeError, KeyError, ValueError) as e:
                    print(f"{case}: old answer file unreadable ({e}): replaced")
            else:
                print(f"{case}: new answer file")
            with open(path, "w") as f:
                f.write(dumps(to_golden(case, res)))
            print(f"  wrote {os.path.relpath(path, SOURCE_DIR)} ({wall:.2f} s run)")
    return 0


def cmd_calibrate(args):
    """deviations of perturbed runs from the plain run, as fractions of the tolerances"""
    with tempfile.TemporaryDirectory(prefix="dctwin_golden_") as tmp:
        for case in args.case or list(CASES):
            base, _ = run_case(args.dctwin, case, tmp, "base")
            golden = to_golden(case, base)
            golden = json.loads(json.dumps(golden))
            # the same equations summed in another order: every GPU its own group
            variants = [("rtol 1e-7", dict(rtol=1e-7)), ("-t 2", dict(extra=["-t", "2"])),
                        ("gpu_layer.group_identical: false",
                         dict(facility_extra="gpu_layer: {group_identical: false}"))]
            if args.other:
                variants.append((os.path.basename(os.path.dirname(os.path.dirname(
                    os.path.abspath(args.other)))) or args.other, dict(binary=args.other)))
            for name, kw in variants:
                binary = kw.pop("binary", args.dctwin)
                res, _ = run_case(binary, case, tmp, "var", **kw)
                table(compare(golden, res), TOLERANCES, f"{case}: {name} against rtol 1e-6")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("check", "regenerate", "calibrate"):
        p = sub.add_parser(name)
        p.add_argument("--dctwin", required=True, help="the dctwin program to run")
        p.add_argument("--case", action="append", choices=list(CASES),
                       help="a case (repeatable); default: every case")
        p.add_argument("--golden-dir", default=GOLDEN_DIR)
        if name == "calibrate":
            p.add_argument("--other", help="another dctwin build to compare with")
    sub.add_parser("list")
    args = ap.parse_args()
    if args.cmd == "list":
        for k, c in CASES.items():
            print(f"{k:18s} {c['description']}")
        return 0
    args.dctwin = os.path.abspath(args.dctwin)
    return {"check": cmd_check, "regenerate": cmd_regenerate, "calibrate": cmd_calibrate}[
        args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
