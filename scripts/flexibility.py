#!/usr/bin/env python3
"""The site's flexibility envelope: how many megawatts a training site can give back, for how long,
at what cost in training work (docs/models/grid.md, "Flexibility").

A demand-response request asks the site to stay below a level, or to shed an amount, from a time
for a duration. The site's answer here is a power cap on a training job's GPUs (nvidia-smi
power-limit, the knob the published field trials turned [WL74]): from `--start` each policy's run
caps the job at one level for the longest duration, then restores the job's own cap; a baseline
run keeps it. Everything before the end of an event is the same in a run of a shorter event
(the model is causal), so one run per cap gives the envelope for every duration up to the longest;
the rebound after the event is the longest event's.

Per cap and duration D, from the meter (/power/P_utility: the GPUs through the power chain, the
CDU pumps, the air handlers and the plant's motors) in bins of `--bin`, against the baseline:
  mean shed      mean of P_base - P_event over [start, start + D]
  firm shed      the baseline's mean over the event less the highest bin of the capped run from
                 its second bin to start + D: the level the site can commit to hold for D
  of which IT    the same mean from /power/P_IT; the rest (the chain's losses and the cooling,
                 which follows the heat with the coolant's inertia) in the first bin and over the
                 event's last ten
  response       time from the start until the meter's 10 s mean first falls to the baseline's
                 mean less 90 % of the mean shed
  work lost      1 - (iterations of the capped run in the event / the baseline's), from the
                 job's completed iterations at the bin edges (fraction of the event's training
                 work; GPU-hours = that x GPUs x D)
  energy shed    the integral of the shed over the event (MWh)
and, for the longest event, the rebound: the largest bin of P_event - P_base within `--after` of
its end (the cooling catching up, the job back at its cap) and the work the run is still behind at
the end.

Usage: PYTHONPATH=build/python /usr/bin/python3 scripts/flexibility.py FACILITY.yaml
         [--job NAME] [--caps 1200W 1000W 800W 600W] [--start 20min] [--durations 15min 1h 3h]
         [--after 20min] [--bin 60s] [--threads 2] [--target 0.25] [--json FILE] [--plot FILE.png]
Needs the dctwin Python module (docs/python.md) and numpy.
"""
import argparse
import json
import math
import os
import re
import sys

import numpy as np

UNITS = {"s": 1.0, "min": 60.0, "h": 3600.0}


def seconds(text):
    m = re.fullmatch(r"\s*([0-9.]+)\s*(s|min|h)\s*", str(text))
    if not m:
        raise argparse.ArgumentTypeError(f"'{text}': expected a time such as 90s, 15min or 3h")
    return float(m.group(1)) * UNITS[m.group(2)]


def watts(text):
    m = re.fullmatch(r"\s*([0-9.]+)\s*(W|kW)\s*", str(text))
    if not m:
        raise argparse.ArgumentTypeError(f"'{text}': expected a power such as 800W or 1.2kW")
    return float(m.group(1)) * (1e3 if m.group(2) == "kW" else 1.0)


def scenario_text(name, total, job, events):
    lines = ["dctwin_scenario: 1", f"name: {name}", f"duration: {total:g} s", "events:"]
    lines += [f"  - {{time: {t:g} s, job: {job}, power_cap: {p:g} W}}" for t, p in events]
    if not events:
        lines[-1] = "events: []"
    return "\n".join(lines) + "\n"


def run_case(dctwin, fac, name, total, job, events, bin_s, threads):
    sc = dctwin.Scenario.from_string(scenario_text(name, total, job, events), name)
    res = dctwin.run(fac, sc, output_interval=bin_s, power_interval=1.0, threads=threads,
                     record=["/power/time", "/power/P_utility", "/power/P_IT",
                             "/job/iterations"])
    if not res.ok:
        raise RuntimeError(f"{name}: the run did not complete ({res.status}: {res.error})")
    k = list(res.job_names).index(job)
    return {
        "t_fast": np.asarray(res["/power/time"], float),
        "meter": np.asarray(res["/power/P_utility"], float),
        "it": np.asarray(res["/power/P_IT"], float),
        "t": np.asarray(res.time, float),
        "iterations": np.asarray(res["/job/iterations"], float)[:, k],
        "wall": res.wall_seconds,
    }


def bins(t, x, t0, t1, width):
    """means of x over [t0 + i width, t0 + (i + 1) width) up to t1"""
    n = int(round((t1 - t0) / width))
    out = np.full(n, np.nan)
    idx = np.floor((t - t0) / width + 1e-9).astype(int)
    ok = (t >= t0) & (t < t1) & (idx >= 0) & (idx < n)
    for i in range(n):
        sel = ok & (idx == i)
        if sel.any():
            out[i] = x[sel].mean()
    return out


def iterations_at(run, t):
    return float(np.interp(t, run["t"], run["iterations"]))


def rolling(x, n):
    """trailing means over n samples (the first n - 1 over what there is)"""
    c = np.cumsum(np.insert(x, 0, 0.0))
    k = np.arange(1, len(x) + 1)
    lo = np.maximum(k - n, 0)
    return (c[k] - c[lo]) / (k - lo)


def envelope_row(base, ev, start, dur, bin_s):
    b_meter = bins(base["t_fast"], base["meter"], start, start + dur, bin_s)
    e_meter = bins(ev["t_fast"], ev["meter"], start, start + dur, bin_s)
    b_it = bins(base["t_fast"], base["it"], start, start + dur, bin_s)
    e_it = bins(ev["t_fast"], ev["it"], start, start + dur, bin_s)
    base_mean = float(np.nanmean(b_meter))
    mean = base_mean - float(np.nanmean(e_meter))
    # the level the site holds after its first bin: what it can commit to for the duration
    held = float(np.nanmax(e_meter[1:])) if len(e_meter) > 1 else float(e_meter[0])
    # response: the meter's 10 s mean first at or below the baseline less 90 % of the mean shed
    sel = (ev["t_fast"] >= start) & (ev["t_fast"] < start + dur)
    dt = float(np.median(np.diff(ev["t_fast"]))) if len(ev["t_fast"]) > 1 else 1.0
    smooth = rolling(ev["meter"][sel], max(1, int(round(10.0 / dt))))
    hit = np.nonzero(smooth <= base_mean - 0.9 * mean)[0]
    response = float(ev["t_fast"][sel][hit[0]] - start) if len(hit) else math.inf
    # the rest of the meter (power chain losses, cooling): in the first bin and the last ten
    rest = (b_meter - b_it) - (e_meter - e_it)
    work_base = iterations_at(base, start + dur) - iterations_at(base, start)
    work_ev = iterations_at(ev, start + dur) - iterations_at(ev, start)
    return {
        "duration_s": dur,
        "baseline_mean_W": base_mean,
        "mean_shed_W": mean,
        "mean_shed_fraction": mean / base_mean if base_mean > 0 else math.nan,
        "held_level_W": held,
        "firm_shed_W": base_mean - held,
        "it_shed_W": float(np.nanmean(b_it) - np.nanmean(e_it)),
        "other_shed_first_bin_W": float(rest[0]),
        "other_shed_end_W": float(np.nanmean(rest[-10:])),
        "response_s": response,
        "energy_shed_Wh": mean * dur / 3600.0,
        "work_lost_fraction": 1.0 - work_ev / work_base if work_base > 0 else math.nan,
    }


def rebound(base, ev, end, after, bin_s):
    over = bins(ev["t_fast"], ev["meter"], end, end + after, bin_s) - \
        bins(base["t_fast"], base["meter"], end, end + after, bin_s)
    t_last = end + after
    return {
        "rebound_peak_W": float(np.nanmax(over)),
        "iterations_behind_at_end": iterations_at(base, t_last) - iterations_at(ev, t_last),
    }


def envelope(dctwin, fac, job, caps, start, durations, after, bin_s, threads, restore=None,
             log=print):
    """the envelope rows: one per cap and duration (dicts), and the runs' wall seconds"""
    durations = sorted(durations)
    longest = durations[-1]
    total = start + longest + after
    if restore is None:
        try:
            restore = watts(fac.get(f"jobs[{job}].gpu_power_cap"))
        except KeyError:  # no cap of the job's own: each GPU's own limit (10 kW is clamped to
            restore = 10e3  # its power_limit_max, and to its rack's own cap)
    base = run_case(dctwin, fac, "flex_baseline", total, job, [], bin_s, threads)
    log(f"baseline: {base['wall']:.1f} s wall")
    rows = []
    for cap in caps:
        ev = run_case(dctwin, fac, f"flex_cap_{cap:g}W", total, job,
                      [(start, cap), (start + longest, restore)], bin_s, threads)
        log(f"cap {cap:g} W: {ev['wall']:.1f} s wall")
        tail = rebound(base, ev, start + longest, after, bin_s)
        for d in durations:
            r = envelope_row(base, ev, start, d, bin_s)
            r["policy"] = f"power_cap {cap:g} W"
            r["cap_W"] = cap
            if d == longest:
                r.update(tail)
            rows.append(r)
    return rows


def display_unit(rows):
    """MW for a site of 10 MW or more, else kW: (W per unit, its name)"""
    return (1e6, "MW") if max(r["baseline_mean_W"] for r in rows) >= 10e6 else (1e3, "kW")


def table(rows, gpus):
    u, unit = display_unit(rows)
    head = (f"| policy | duration | mean shed ({unit}, % of site) | firm shed ({unit}) | of which "
            f"IT ({unit}) | chain and cooling, first bin / end ({unit}) | response (s) | "
            f"energy shed ({unit}h) | training work lost | GPU-hours lost | rebound peak "
            f"({unit}) |")
    out = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        d = r["duration_s"]
        dur = f"{d / 3600:g} h" if d >= 3600 else f"{d / 60:g} min"
        reb = f"{r['rebound_peak_W'] / u:.3g}" if "rebound_peak_W" in r else ""
        out.append(
            f"| {r['policy']} | {dur} | {r['mean_shed_W'] / u:.3g} "
            f"({100 * r['mean_shed_fraction']:.1f} %) | {r['firm_shed_W'] / u:.3g} | "
            f"{r['it_shed_W'] / u:.3g} | {r['other_shed_first_bin_W'] / u:.3g} / "
            f"{r['other_shed_end_W'] / u:.3g} | {r['response_s']:.0f} | "
            f"{r['energy_shed_Wh'] / u:.3g} | {100 * r['work_lost_fraction']:.1f} % | "
            f"{r['work_lost_fraction'] * gpus * d / 3600:,.0f} | {reb} |")
    return "\n".join(out)


def for_target(rows, target):
    """per duration: the cap whose firm shed is `target` of the site (linear between the caps
    run) and the training work it loses; None outside the caps' range"""
    out = []
    for d in sorted({r["duration_s"] for r in rows}):
        pts = sorted((r["firm_shed_W"] / r["baseline_mean_W"], r["cap_W"], r["work_lost_fraction"])
                     for r in rows if r["duration_s"] == d)
        hit = None
        for (f0, c0, w0), (f1, c1, w1) in zip(pts, pts[1:]):
            if f0 <= target <= f1 and f1 > f0:
                x = (target - f0) / (f1 - f0)
                hit = (c0 + x * (c1 - c0), w0 + x * (w1 - w0))
                break
        if hit is None and pts and abs(pts[0][0] - target) < 1e-12:
            hit = (pts[0][1], pts[0][2])
        out.append((d, hit, (pts[0][0], pts[-1][0]) if pts else None))
    return out


def plot(rows, path, title):
    """the envelope: firm shed against training work lost, one line per duration (the caps as
    points along it), with the mean shed dashed"""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    u, unit = display_unit(rows)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for d in sorted({r["duration_s"] for r in rows}):
        sel = sorted((r for r in rows if r["duration_s"] == d), key=lambda r: -r["cap_W"])
        dur = f"{d / 3600:g} h" if d >= 3600 else f"{d / 60:g} min"
        lost = [100 * r["work_lost_fraction"] for r in sel]
        line, = ax.plot(lost, [r["firm_shed_W"] / u for r in sel], "o-", label=f"firm, {dur}")
        ax.plot(lost, [r["mean_shed_W"] / u for r in sel], "--", color=line.get_color(),
                alpha=0.6, label=f"mean, {dur}")
        for r, x in zip(sel, lost):
            ax.annotate(f"{r['cap_W']:g} W", (x, r["firm_shed_W"] / u), fontsize=7,
                        textcoords="offset points", xytext=(4, -10))
    ax.set_xlabel("training work lost during the event (%)")
    ax.set_ylabel(f"power given back at the meter ({unit})")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("facility")
    ap.add_argument("--job", help="the job to cap (default: the facility's first)")
    ap.add_argument("--caps", type=watts, nargs="+", default=[watts("1200W"), watts("1000W"),
                                                              watts("800W"), watts("600W")])
    ap.add_argument("--start", type=seconds, default=seconds("20min"))
    ap.add_argument("--durations", type=seconds, nargs="+",
                    default=[seconds("15min"), seconds("1h"), seconds("3h")])
    ap.add_argument("--after", type=seconds, default=seconds("20min"))
    ap.add_argument("--bin", type=seconds, default=seconds("60s"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--target", type=float,
                    help="a firm shed as a fraction of the site (0.25): the cap that holds it "
                         "for each duration, interpolated between the caps run, and its cost")
    ap.add_argument("--json", help="also write the rows as JSON")
    ap.add_argument("--plot", help="also draw the envelope (PNG: firm and mean shed against the "
                                   "training work lost, a line per duration)")
    a = ap.parse_args()
    try:
        import dctwin
    except ImportError as e:
        sys.exit(f"flexibility.py: {e} (set PYTHONPATH to the build's python/ folder)")
    fac = dctwin.Facility.load(a.facility)
    job = a.job or (list(fac.jobs)[0] if fac.jobs else None)
    if job is None:
        sys.exit(f"flexibility.py: {a.facility} has no job to cap")
    if job not in fac.jobs:
        sys.exit(f"flexibility.py: no job '{job}' in {a.facility} (jobs: {', '.join(fac.jobs)})")
    if a.target is not None and not 0 < a.target < 1:
        sys.exit(f"flexibility.py: --target {a.target}: expected a fraction of the site's power "
                 "between 0 and 1 (0.25 for a quarter)")
    if a.bin <= 0 or any(d < 2 * a.bin for d in a.durations):
        sys.exit("flexibility.py: every duration must span at least two bins")
    rows = envelope(dctwin, fac, job, a.caps, a.start, a.durations, a.after, a.bin, a.threads)
    k = list(fac.jobs).index(job)
    gpus = sum(1 for j in fac.layout["/gpu/job"] if j == k)
    print(table(rows, gpus))
    if a.target is not None:
        for d, hit, span in for_target(rows, a.target):
            dur = f"{d / 3600:g} h" if d >= 3600 else f"{d / 60:g} min"
            if hit:
                print(f"firm shed {100 * a.target:g} % for {dur}: cap {hit[0]:.0f} W, training "
                      f"work lost {100 * hit[1]:.1f} %")
            else:
                print(f"firm shed {100 * a.target:g} % for {dur}: outside the caps run (firm "
                      f"shed {100 * span[0]:.1f} ... {100 * span[1]:.1f} %)")
    if a.json:
        with open(a.json, "w") as out:
            json.dump(rows, out, indent=1)
    if a.plot:
        plot(rows, a.plot, f"{os.path.basename(a.facility)}: job '{job}' capped")


if __name__ == "__main__":
    main()
