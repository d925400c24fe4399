#!/usr/bin/env python3
"""Sanity check for data/catalog/**/*.yaml (needs python3-yaml).

Checks: parses; name == file stem; one-line description; every numeric leaf (number, list of
numbers, or "<number> <unit>" string) has a `sources` entry at its dotted path or at an ancestor
path (one entry for a table is enough); no source key points at a missing path; units are in the
allowed set; fluid tables ascend in T with steps <= 10 K covering T_min..T_max; rack parts
(parts/*.yaml) have a known kind, 0 <= idle <= max power, 0 <= liquid_fraction <= 1, constant fans,
and port keys (lpm <= idle <= active) exactly when the kind has ports; electrical entries
(electrical/*.yaml) have a known kind and that kind's keys: efficiency curves with increasing loads,
eta in (0, 1] and a loss that rises with load; breakers whose thermal element (k_trip, time constant)
holds the non-trip and trips the trip multiple within the conventional time; shelves that name a psu
entry and whose rating is psu_count x its rating.
Usage: python3 scripts/catalog/check_catalog.py [files...]   (default: all catalog files)
"""
import glob
import math
import os
import re
import sys

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
UNITS = {"degC", "K", "W", "kW", "MW", "L/min", "m3/s", "m3/h", "kg/s", "Pa", "kPa", "bar", "psi",
         "MPa", "m", "mm", "L", "m3", "s", "min", "h", "K/W", "J/K", "kJ/K", "W/K", "kW/K",
         "MHz", "GHz", "GB", "TB/s", "GB/s"}
QTY = re.compile(r"^\s*([-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?)\s+(\S+)\s*$")
SKIP = {"name", "description", "sources"}
PART_KINDS = {"cpu", "nvswitch_tray", "nic", "switch_optics", "fan", "other"}
PORT_KEYS = ("ports", "port_active_power", "port_idle_power", "port_lpm_power")


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def numeric_leaf(v):
    if is_num(v):
        return True
    if isinstance(v, str) and QTY.match(v):
        return True
    if isinstance(v, list) and v and all(numeric_leaf(x) or isinstance(x, list) for x in v):
        return True
    return False


def walk(d, prefix=""):
    for k, v in d.items():
        p = prefix + str(k)
        if not prefix and k in SKIP:
            continue
        if isinstance(v, dict):
            yield p, v, False
            yield from walk(v, p + ".")
        else:
            yield p, v, True


def watts(v):
    m = QTY.match(v) if isinstance(v, str) else None
    if not m or m.group(5) not in ("W", "kW", "MW"):
        return None
    return float(m.group(1)) * {"W": 1.0, "kW": 1e3, "MW": 1e6}[m.group(5)]


def check_part(doc):
    """rack parts (data/catalog/parts): kind, power ordering, liquid fraction, port keys"""
    errs = []
    kind = doc.get("kind")
    if kind not in PART_KINDS:
        return ["kind %r not one of %s" % (kind, sorted(PART_KINDS))]
    idle, pmax = watts(doc.get("idle_power")), watts(doc.get("max_power"))
    if idle is None or pmax is None:
        errs.append("idle_power and max_power must be powers")
    elif not 0 <= idle <= pmax:
        errs.append("need 0 <= idle_power <= max_power")
    elif kind == "fan" and idle != pmax:
        errs.append("fans run at constant power: idle_power must equal max_power")
    lf = doc.get("liquid_fraction")
    if not (isinstance(lf, (int, float)) and not isinstance(lf, bool) and 0 <= lf <= 1):
        errs.append("liquid_fraction must be a number in 0..1")
    has = [k for k in PORT_KEYS if k in doc]
    if kind in ("nic", "switch_optics"):
        if len(has) != len(PORT_KEYS):
            errs.append("%s needs %s" % (kind, ", ".join(PORT_KEYS)))
        else:
            n = doc["ports"]
            a, i, l = (watts(doc[k]) for k in PORT_KEYS[1:])
            if not (isinstance(n, int) and not isinstance(n, bool) and n >= 1):
                errs.append("ports must be an integer >= 1")
            if None in (a, i, l) or not 0 <= l <= i <= a:
                errs.append("need 0 <= port_lpm_power <= port_idle_power <= port_active_power")
    elif has:
        errs.append("port keys only for nic / switch_optics: %s" % ", ".join(has))
    # tray-level shutdown (docs/models/rack_parts.md): only a cold-plated part's temperature
    if "temperature_max" in doc and ("plate_resistance" not in doc or not (is_num(lf) and lf > 0)):
        errs.append("temperature_max needs plate_resistance and liquid_fraction > 0")
    return errs


ELECTRICAL_KEYS = {
    "busway": ("rated_current_A", "R_mohm_per_100ft", "X_mohm_per_100ft", "temperature_coefficient_per_K",
               "rated_ambient", "rated_rise", "thermal_time_constant"),
    "breaker": ("rated_current_A", "conventional", "k_trip", "thermal_time_constant", "magnetic_multiple"),
    "psu": ("rated_power", "efficiency", "standby_power"),
    "shelf": ("psu", "psu_count", "psu_redundant", "rated_power"),
    "ups": ("rated_power", "efficiency", "standby_power", "battery_energy_kWh", "recharge_power",
            "charge_efficiency"),
    "transformer": ("rated_power_kVA", "no_load_loss", "load_loss"),
}


def seconds(v):
    m = QTY.match(v) if isinstance(v, str) else None
    if not m or m.group(5) not in ("s", "min", "h"):
        return None
    return float(m.group(1)) * {"s": 1.0, "min": 60.0, "h": 3600.0}[m.group(5)]


def check_curve(eff):
    """efficiency: {load: [...], eta: [...]}: loads > 0 increasing, eta in (0, 1], rising loss"""
    if not isinstance(eff, dict):
        return ["efficiency must be a mapping {load, eta}"]
    x, eta = eff.get("load"), eff.get("eta")
    if not (isinstance(x, list) and isinstance(eta, list) and x and len(x) == len(eta)
            and all(is_num(v) for v in x + eta)):
        return ["efficiency.load and efficiency.eta must be number lists of equal length"]
    errs = []
    if x[0] <= 0 or any(b <= a for a, b in zip(x, x[1:])):
        errs.append("efficiency.load must be > 0 and strictly increasing")
    if any(not 0 < e <= 1 for e in eta):
        errs.append("efficiency.eta must lie in (0, 1]")
    elif not errs:
        loss = [a * (1 / e - 1) for a, e in zip(x, eta)]
        if any(b <= a for a, b in zip(loss, loss[1:])):
            errs.append("loss x (1/eta - 1) must rise with load (the model interpolates it)")
    return errs


def check_electrical(doc, path):
    """power distribution (data/catalog/electrical): kind, required keys, curves, breaker bands"""
    kind = doc.get("kind")
    if kind not in ELECTRICAL_KEYS:
        return ["kind %r not one of %s" % (kind, sorted(ELECTRICAL_KEYS))]
    errs = ["%s needs %s" % (kind, k) for k in ELECTRICAL_KEYS[kind] if k not in doc]
    if errs:
        return errs
    if "efficiency" in doc:
        errs += check_curve(doc["efficiency"])
    for k in ("rated_current_A", "rated_power_kVA", "psu_count"):
        if k in doc and not (is_num(doc[k]) and doc[k] > 0):
            errs.append("%s must be > 0" % k)
    if kind == "breaker":
        conv = doc["conventional"]
        k, tau = doc["k_trip"], seconds(doc["thermal_time_constant"])
        t_conv = seconds(conv.get("time")) if isinstance(conv, dict) else None
        if None in (tau, t_conv) or not all(is_num(conv.get(q)) for q in ("non_trip_multiple", "trip_multiple")):
            errs.append("breaker needs conventional {non_trip_multiple, trip_multiple, time} and a time constant")
        else:
            h, p, k2 = conv["non_trip_multiple"] ** 2, conv["trip_multiple"] ** 2, k * k
            t_trip = tau * math.log(p / (p - k2)) if p > k2 else math.inf
            t_hold = tau * math.log(h / (h - k2)) if h > k2 else math.inf
            if not t_trip <= t_conv:
                errs.append("thermal element does not trip %.2f In within %g s" % (conv["trip_multiple"], t_conv))
            if not t_hold >= t_conv:
                errs.append("thermal element trips %.2f In before %g s" % (conv["non_trip_multiple"], t_conv))
            if not doc["magnetic_multiple"] > conv["trip_multiple"]:
                errs.append("magnetic_multiple must exceed the thermal trip multiple")
    if kind == "shelf":
        n, r = doc["psu_count"], doc["psu_redundant"]
        if not (isinstance(r, int) and 0 <= r < n):
            errs.append("need 0 <= psu_redundant < psu_count")
        psu_path = os.path.join(os.path.dirname(os.path.abspath(path)), "%s.yaml" % doc["psu"])
        if not os.path.exists(psu_path):
            errs.append("psu %r is not an electrical catalog entry" % doc["psu"])
        else:
            psu = yaml.safe_load(open(psu_path))
            pr, sr = watts(psu.get("rated_power")), watts(doc["rated_power"])
            if psu.get("kind") != "psu":
                errs.append("psu %r is not of kind psu" % doc["psu"])
            elif pr is None or sr is None or abs(n * pr - sr) > 1e-6 * sr:
                errs.append("rated_power must equal psu_count x the psu's rated_power")
    if kind == "ups" and not 0 < doc["charge_efficiency"] <= 1:
        errs.append("charge_efficiency must lie in (0, 1]")
    return errs


def check(path):
    errs = []
    doc = yaml.safe_load(open(path))
    stem = os.path.splitext(os.path.basename(path))[0]
    if doc.get("name") != stem:
        errs.append("name %r != file stem %r" % (doc.get("name"), stem))
    desc = doc.get("description")
    if not isinstance(desc, str) or "\n" in desc.strip() or not desc.strip():
        errs.append("description missing or not one line")
    src = doc.get("sources")
    if not isinstance(src, dict):
        return errs + ["no sources mapping"]
    paths = {}
    n_leaf = 0
    for p, v, leaf in walk(doc):
        paths[p] = v
        if not leaf:
            continue
        if isinstance(v, str) and QTY.match(v) and QTY.match(v).group(5) not in UNITS:
            errs.append("%s: unit not allowed in %r" % (p, v))
        if numeric_leaf(v):
            n_leaf += 1
            parts = p.split(".")
            if not any(".".join(parts[:i]) in src for i in range(len(parts), 0, -1)):
                errs.append("%s: numeric leaf without a sources entry" % p)
    for k, v in src.items():
        if k not in paths:
            errs.append("sources key %r points at nothing" % k)
        if not isinstance(v, str) or not v.strip():
            errs.append("sources[%r] is empty" % k)
    if os.path.basename(os.path.dirname(os.path.abspath(path))) == "parts":
        errs += check_part(doc)
    if os.path.basename(os.path.dirname(os.path.abspath(path))) == "electrical":
        errs += check_electrical(doc, path)
    tab = doc.get("table")
    if isinstance(tab, dict) and "rows" in tab:
        ts = [r[0] for r in tab["rows"]]
        if any(len(r) != len(tab["columns"]) for r in tab["rows"]):
            errs.append("table row length != columns")
        if any(b <= a or b - a > 10 for a, b in zip(ts, ts[1:])):
            errs.append("table T not ascending in steps <= 10 K")
        tmin = float(QTY.match(doc["T_min"]).group(1))
        tmax = float(QTY.match(doc["T_max"]).group(1))
        if ts[0] > tmin or ts[-1] < tmax:
            errs.append("table does not cover T_min..T_max")
    return errs, n_leaf


def main():
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(ROOT, "data", "catalog", "*", "*.yaml")))
    bad = 0
    for f in files:
        res = check(f)
        errs, n = (res if isinstance(res, tuple) else (res, 0))
        rel = os.path.relpath(f, ROOT)
        if errs:
            bad += 1
            for e in errs:
                print("FAIL %s: %s" % (rel, e))
        else:
            print("ok   %s (%d numeric leaves, all sourced)" % (rel, n))
    print("%d passed, %d failed" % (len(files) - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
