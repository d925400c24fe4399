#!/usr/bin/env python3
"""Schema and plausibility check for data/catalog/gpus/*.yaml (needs python3-yaml).

For every GPU entry:
  * the key set is exactly the GPU schema of docs/catalog.md (no key missing, none extra);
  * units are the expected ones (W, MHz, GB, TB/s or GB/s, degC, K/W, J/K; bare numbers for v0, beta);
  * orderings hold: power_limit_min <= tdp <= power_limit_max, hbm_idle_power < idle_power,
    leakage_ref <= idle_power - hbm_idle_power, clock_idle < clock_memory_bound <= clock_max,
    maxop < slowdown < shutdown, and the uncapped GEMM power at f_max exceeds tdp (the cap binds);
  * it prints the operating points of the dynamic power model (docs/models/gpu.md [K4, K16, K23, K24])
        P = P_static(T) + sm_max a_sm x (v0 + (1-v0) x)^2 + hbm_max a_hbm + nvlink_max a_nvl,  x = f/f_max
        P_static(T) = idle_power - leakage_ref + leakage_ref exp(beta (T - T_LEAK_REF)),  T_LEAK_REF = 35 degC
    (docs/models/gpu.md), for: idle at 25/35 degC; a BF16 GEMM (a_sm 1, a_hbm 0.3) held at tdp at T_j = 60 and 70 degC (clock the
    cap allows); a memory-bound kernel (a_sm 0.15, a_hbm 1) at clock_memory_bound and T_j = 47 degC, which must
    stay below tdp (memory-bound phases never reach the cap).
For b200 it also checks the model against the measurements it was calibrated on [K4]: idle 187-204 W at
~32 degC, GEMM clock at the 1000 W cap within 1072-1222 MHz, memory-bound power within 628-686 W.
Usage: python3 scripts/catalog/check_gpus.py [files...]   (default: data/catalog/gpus/*.yaml)
"""
import glob
import math
import os
import re
import sys

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
QTY = re.compile(r"^\s*([-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?)\s+(\S+)\s*$")

# key -> allowed units (None: bare number)
TOP = {
    "tdp": {"W"}, "power_limit_min": {"W"}, "power_limit_max": {"W"}, "idle_power": {"W"},
    "hbm_idle_power": {"W"}, "hbm_capacity": {"GB"}, "hbm_bandwidth": {"TB/s", "GB/s"},
    "nvlink_bandwidth": {"TB/s", "GB/s"}, "clock_max": {"MHz", "GHz"}, "clock_idle": {"MHz", "GHz"},
    "clock_memory_bound": {"MHz", "GHz"},
}
POWER_MODEL = {"sm_max": {"W"}, "hbm_max": {"W"}, "nvlink_max": {"W"}, "voltage_v0": None,
               "leakage_ref": {"W"}, "leakage_beta": None}
POWER_MODEL_OPTIONAL = {"voltage_floor": None, "clock_power": {"W"}}
THERMAL = {"maxop": {"degC"}, "slowdown": {"degC"}, "shutdown": {"degC"}, "hbm_max": {"degC"},
           "R_junction_plate": {"K/W"}, "C_die": {"J/K"}, "R_hbm_plate": {"K/W"}, "C_hbm": {"J/K"}}
T_LEAK_REF = 35.0  # degC: idle_power and leakage_ref are the 35 degC values (docs/models/gpu.md)
SCALE = {"W": 1.0, "MHz": 1.0, "GHz": 1000.0, "GB": 1.0, "TB/s": 1000.0, "GB/s": 1.0, "degC": 1.0,
         "K/W": 1.0, "J/K": 1.0}


def val(errs, where, v, units):
    if units is None:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return float(v)
        errs.append("%s: expected a bare number, got %r" % (where, v))
        return float("nan")
    m = QTY.match(v) if isinstance(v, str) else None
    if not m or m.group(5) not in units:
        errs.append("%s: expected '<number> <%s>', got %r" % (where, "|".join(sorted(units)), v))
        return float("nan")
    return float(m.group(1)) * SCALE[m.group(5)]


def section(errs, doc, key, spec, optional=None):
    d = doc.get(key) if key else doc
    if not isinstance(d, dict):
        errs.append("%s: missing mapping" % key)
        return {}
    want = set(spec) | ({"name", "description", "power_model", "thermal", "sources"} if not key else set())
    optional = optional or {}
    for k in sorted((set(d) - set(optional)) ^ want):
        errs.append("%s%s: %s" % (key + "." if key else "", k, "missing" if k in want else "unexpected key"))
    both = dict(spec, **optional)
    return {k: val(errs, (key + "." if key else "") + k, d[k], u) for k, u in both.items() if k in d}


V_FLOOR = 0.0  # set per entry in check(): power_model.voltage_floor


def g(x, v0):
    v = max(V_FLOOR, v0 + (1.0 - v0) * x)
    return x * v * v


def static(p, T):
    return p["idle_power"] - p["leakage_ref"] + p["leakage_ref"] * math.exp(p["leakage_beta"] * (T - T_LEAK_REF))


def cap_clock(p, T, a_sm=1.0, a_hbm=0.3):
    """Clock (MHz) at which a_sm/a_hbm work draws exactly tdp; f_max if it stays below tdp."""
    xi = p["clock_idle"] / p["clock_max"]
    budget = ((p["tdp"] - static(p, T) - p["hbm_max"] * a_hbm + p["clock_power"] * g(xi, p["voltage_v0"]))
              / (p["sm_max"] * a_sm + p["clock_power"]))
    if budget >= g(1.0, p["voltage_v0"]):
        return p["clock_max"]
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if g(mid, p["voltage_v0"]) < budget else (lo, mid)
    return max(lo * p["clock_max"], p["clock_idle"])


def power(p, f, T, a_sm, a_hbm, a_nvl=0.0):
    x = f / p["clock_max"]
    xi = p["clock_idle"] / p["clock_max"]
    return (static(p, T) + p["sm_max"] * a_sm * g(x, p["voltage_v0"])
            + p["clock_power"] * (g(x, p["voltage_v0"]) - g(xi, p["voltage_v0"])) + p["hbm_max"] * a_hbm
            + p["nvlink_max"] * a_nvl)


def check(path):
    errs = []
    doc = yaml.safe_load(open(path))
    p = {}
    p.update(section(errs, doc, "", TOP))
    p.update(section(errs, doc, "power_model", POWER_MODEL, POWER_MODEL_OPTIONAL))
    p.setdefault("voltage_floor", 0.0)
    p.setdefault("clock_power", 0.0)
    global V_FLOOR
    V_FLOOR = p["voltage_floor"]
    th = section(errs, doc, "thermal", THERMAL)
    if errs:
        return errs, None
    if not p["power_limit_min"] <= p["tdp"] <= p["power_limit_max"]:
        errs.append("power limits: need power_limit_min <= tdp <= power_limit_max")
    if not p["hbm_idle_power"] < p["idle_power"]:
        errs.append("hbm_idle_power must be part of (below) idle_power")
    if not 0 < p["leakage_ref"] <= p["idle_power"] - p["hbm_idle_power"]:
        errs.append("leakage_ref must be in (0, idle_power - hbm_idle_power]")
    if not p["clock_idle"] < p["clock_memory_bound"] <= p["clock_max"]:
        errs.append("clocks: need clock_idle < clock_memory_bound <= clock_max")
    if not 0 < p["voltage_v0"] < 1 or not 0 < p["leakage_beta"] < 0.1:
        errs.append("voltage_v0 must be in (0,1), leakage_beta in (0, 0.1) 1/K")
    if not th["maxop"] < th["slowdown"] < th["shutdown"]:
        errs.append("thermal: need maxop < slowdown < shutdown")
    if power(p, p["clock_max"], 60.0, 1.0, 0.3) <= p["tdp"]:
        errs.append("uncapped GEMM at f_max (T_j 60 degC) does not exceed tdp: the cap would never bind")
    res = {
        "idle25": static(p, 25.0), "idle35": static(p, 35.0),
        "gemm60": cap_clock(p, 60.0), "gemm70": cap_clock(p, 70.0),
        "mb": power(p, p["clock_memory_bound"], 47.0, 0.15, 1.0),
        "fmax": p["clock_max"], "tdp": p["tdp"],
        "dTj": th["R_junction_plate"] * p["tdp"],
        "dThbm": th["R_hbm_plate"] * (p["hbm_idle_power"] + p["hbm_max"]),
        "tau": th["R_junction_plate"] * th["C_die"],
    }
    if res["mb"] >= p["tdp"]:
        errs.append("memory-bound kernel reaches the cap (%.0f W >= tdp)" % res["mb"])
    if doc.get("name") == "b200":
        idle32 = static(p, 32.0)
        if not 187.0 <= idle32 <= 204.0:
            errs.append("b200 idle at 32 degC %.1f W outside the measured 187-204 W [K4]" % idle32)
        if not 1072.0 <= res["gemm60"] <= 1222.0:
            errs.append("b200 GEMM clock at the cap %.0f MHz outside the measured 1072-1222 MHz [K4]"
                        % res["gemm60"])
        if not 628.0 <= res["mb"] <= 686.0:
            errs.append("b200 memory-bound power %.0f W outside the measured 628-686 W [K4]" % res["mb"])
    return errs, res


def main():
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(ROOT, "data", "catalog", "gpus", "*.yaml")))
    bad = 0
    print("%-24s %7s %7s %15s %15s %9s %7s %8s %6s" % (
        "gpu", "P_st25", "P_st35", "GEMM@cap 60C", "GEMM@cap 70C", "memb W", "dTj K", "dThbm K", "tau s"))
    for f in files:
        errs, r = check(f)
        name = os.path.splitext(os.path.basename(f))[0]
        if r:
            print("%-24s %7.1f %7.1f %6.0f MHz %3.0f%% %6.0f MHz %3.0f%% %9.0f %7.1f %8.1f %6.2f" % (
                name, r["idle25"], r["idle35"], r["gemm60"], 100 * r["gemm60"] / r["fmax"], r["gemm70"],
                100 * r["gemm70"] / r["fmax"], r["mb"], r["dTj"], r["dThbm"], r["tau"]))
        for e in errs:
            print("FAIL %s: %s" % (name, e))
        bad += bool(errs)
    print("%d passed, %d failed" % (len(files) - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
