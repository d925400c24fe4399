#!/usr/bin/python3
"""dctwin review report: one self-contained HTML page (plots embedded) and a PDF of a run or a sweep.

    /usr/bin/python3 scripts/report.py RESULTS.h5 -o DIR [--at MIN ...] [--threshold DEGC] [--top N]
    (or: dctwin report RESULTS.h5 -o DIR)

Needs Debian's python3-h5py, python3-numpy and python3-matplotlib. Writes DIR/index.html (every
plot embedded as base64 PNG, nothing else needed to read it), DIR/report.pdf (the summary table and
every plot, matplotlib PdfPages), the plots as PNGs and DIR/figures.json (what each plot shows: its
legend entries and size, for tests and tools).

A run file (dctwin run -o, docs/results.md) gives, readable from a pod to a hall:
  - the summary first: peak GPU junction and where (GPU, tray, slot, rack; 0-based like the file),
    peak HBM, PUE, IT energy, throughput and goodput lost, throttled GPU-seconds, and the alarms
    with their detection and isolation times
  - time series with event markers; many CDUs or racks are drawn as a min-mean-max band, so no
    legend has more than MAX_LEGEND entries
  - distributions across GPUs at chosen times (junction, HBM, clock), the top-N hottest GPUs and
    racks with their likely cause, and the per-row spread of the racks' hottest junction
  - hotspot maps of the floor at chosen times and as time above a threshold
  - with the fast meter series (dctwin run --power-interval): the site at the meter, its Welch
    spectrum with the frequency bands, and the /grid metrics against the utility's limits
    (docs/models/grid.md)
  - the event log
A sweep file (dctwin sweep -o, docs/sweep-format.md) gives:
  - every metric against every parameter, coloured by the second parameter, categories labelled
    by what differs between them (not the file path; weather files by their site)
  - with a plant: the fronts of the run's (annual's) facility energy, site water and cost against
    training throughput lost, coloured by the second parameter, marked by the first
  - the Pareto front of energy overhead (PUE) against training throughput lost
  - the table of cases
Units as people read them: degC, kW, L/min, minutes.
"""
import argparse
import base64
import html
import io
import json
import math
import os
import re
import sys

import h5py
import numpy as np

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

C0 = 273.15
MAX_LEGEND = 10      # legend entries a reader can match to lines; more become a band
MAX_LABELLED = 120   # racks on a hotspot map that get their name and value written on them
MAX_EVENT_MARKS = 12  # distinct event times marked on the time series (the first ones)
MAX_EVENT_ROWS = 300  # rows of the event table in the page


def text(ds):
    return [x.decode() if isinstance(x, bytes) else str(x) for x in ds[()]]


class Figures:
    """the report's plots: PNG on disk, base64 for the page, a page each in the PDF"""

    def __init__(self, out):
        self.out = out
        self.items = []  # (caption, file name, base64 PNG, legend entries, size px)
        self.figs = []
        self.data = {}  # file name -> the plotted lines, where a test checks them (figures.json)

    def add(self, caption, fig, name):
        fig.tight_layout()
        leg = []
        for ax in fig.axes:
            lg = ax.get_legend()
            if lg is not None:
                leg += [t.get_text() for t in lg.get_texts()]
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100)
        png = buf.getvalue()
        with open(os.path.join(self.out, name), "wb") as f:
            f.write(png)
        w, h = fig.get_size_inches() * 100
        self.items.append((caption, name, base64.b64encode(png).decode(), leg, (int(w), int(h))))
        self.figs.append((caption, fig))

    def manifest(self):
        return [dict({"caption": c, "file": n, "legend": leg, "legend_entries": len(leg),
                      "width_px": s[0], "height_px": s[1]},
                     **({"data": self.data[n]} if n in self.data else {}))
                for c, n, _, leg, s in self.items]


def legend(ax, **kw):
    """a legend only when there is something to name, never more than MAX_LEGEND entries"""
    h, lab = ax.get_legend_handles_labels()
    if not h:
        return
    h, lab = h[:MAX_LEGEND], lab[:MAX_LEGEND]
    ax.legend(h, lab, fontsize=8, **kw)


# ---------------------------------------------------------------------------------------------
# events

def read_events(f):
    ev = []
    if "events/time" in f and f["events/time"].shape[0] > 0:
        for tt, c, k, s, m in zip(f["events/time"][()], text(f["events/component"]),
                                  text(f["events/kind"]), text(f["events/severity"]),
                                  text(f["events/message"])):
            ev.append((float(tt), s, c, k, m))
    return ev


def mark_events(ax, events, tmin=60.0):
    """vertical lines at the alarm times (warning / critical), alarms close in time merged into
    one mark named by the first, at most MAX_EVENT_MARKS marks, named once in the legend"""
    al = [(tt, s, f"{k} {c}") for tt, s, c, k, m in events if s != "info"]
    if not al:
        return
    span = max(1.0, al[-1][0] - al[0][0], ax.get_xlim()[1] * tmin - ax.get_xlim()[0] * tmin)
    marks = []  # [time, severity, what, how many]
    for tt, s, what in al:
        if marks and tt - marks[-1][0] < 0.02 * span:
            marks[-1][3] += 1
            if s == "critical":
                marks[-1][1] = s
            continue
        marks.append([tt, s, what, 1])
    for n, (tt, s, what, k) in enumerate(marks[:MAX_EVENT_MARKS]):
        col = "#c62828" if s == "critical" else "#ef6c00"
        ax.axvline(tt / tmin, color=col, lw=0.8, ls="--", alpha=0.7,
                   label="alarms" if n == 0 else None)
        if len(marks) <= 6:
            ax.annotate(what + (f" (+{k - 1})" if k > 1 else ""), (tt / tmin, 0.98),
                        xycoords=("data", "axes fraction"), rotation=90, fontsize=6, va="top",
                        ha="right", color=col)


def alarm_rows(events):
    """per component: the first alarm, its detection and isolation times (s)"""
    comp = {}
    for tt, s, c, k, m in events:
        if s == "info":
            continue
        e = comp.setdefault(c, {"first": tt, "kind": k, "severity": s, "detected": None,
                                "isolated": None, "count": 0})
        e["count"] += 1
        if s == "critical":
            e["severity"] = "critical"
        if e["detected"] is None and "detect" in k:
            e["detected"] = tt
    for tt, s, c, k, m in events:
        if c in comp and comp[c]["isolated"] is None and k in ("isolated", "isolation_complete"):
            comp[c]["isolated"] = tt
    return comp


# ---------------------------------------------------------------------------------------------
# runs

def fmt(v, nd=1):
    if v is None or not np.isfinite(v):
        return "–"
    r = round(float(v), nd)
    return f"{0.0 if r == 0 else r:.{nd}f}"  # no "-0.0"


def band(ax, t, v, label, color, style="-"):
    """a series per column when few, else the min-mean-max band across the columns"""
    if v.ndim == 1 or v.shape[1] == 1:
        ax.plot(t, v.reshape(len(t), -1)[:, 0], style, color=color, label=label)
    elif v.shape[1] <= 3:
        for k in range(v.shape[1]):
            ax.plot(t, v[:, k], style, color=color, alpha=0.6 + 0.4 * (k == 0),
                    label=label if k == 0 else None)
    else:
        ax.fill_between(t, np.nanmin(v, axis=1), np.nanmax(v, axis=1), color=color, alpha=0.25,
                        label=f"{label} (min–max of {v.shape[1]})")
        ax.plot(t, np.nanmean(v, axis=1), style, color=color, lw=1.2, label=f"{label} (mean)")


HOT_CAUSE = {0: "hot coolant inlet", 1: "low flow or a poor cold plate",
             2: "silicon: high power (leakage, V-f curve)", 3: "TIM or seating (high R_jc)"}


def gpu_cause(f, g, row, ctx):
    """the likeliest reason GPU g runs hot at the row, in words: the rack's isolation first, then
    the library's /gpu/hot_cause (the largest of the four terms raising the junction above the
    typical GPU, docs/models/gpu_variation.md) with its size against the median where the file
    shows it; a file without /gpu/hot_cause gets the largest deviation, marked "estimated"
    (as the GUI's Distributions tab, gui/distributions.cpp hotCause)"""
    r = int(ctx["gr"][g])
    if ctx["iso"] is not None and ctx["iso"][row, r] > 0.5:
        return "rack isolated (leak response)"
    leaking = "rack leaking; " if ctx["leak"] is not None and ctx["leak"][row, r] > 1e-9 else ""
    detail, weight = ["", "", "", ""], [0.0, 0.0, 0.0, 0.0]  # inlet, flow/plate, silicon, TIM
    if ctx["Tin"] is not None:
        d = ctx["Tin"][row, r] - np.nanmedian(ctx["Tin"][row])
        if d > 0.5:
            detail[0], weight[0] = f"+{d:.1f} K vs median rack", d / 2.0
    if ctx["flow"] is not None:
        med = np.nanmedian(ctx["flow"][row])
        if med > 0:
            x = ctx["flow"][row, r] / med
            if x < 0.9:
                detail[1], weight[1] = f"rack flow {100 * x:.0f} % of median", (1 - x) * 10
    if ctx["P"] is not None:
        med = np.nanmedian(ctx["P"][row])
        if med > 0:
            x = ctx["P"][row, g] / med
            if x > 1.03:
                detail[2], weight[2] = f"power {100 * (x - 1):.0f} % above median", (x - 1) * 10
    if ctx["Tj"] is not None and ctx["P"] is not None and ctx["Tin"] is not None:
        rise = ctx["Tj"][row] - ctx["Tin"][row][ctx["gr"]]
        with np.errstate(divide="ignore", invalid="ignore"):
            rth = rise / np.maximum(ctx["P"][row], 1.0)
        med = np.nanmedian(rth)
        if med > 0 and rth[g] / med > 1.05:
            detail[3] = f"thermal resistance {100 * (rth[g] / med - 1):.0f} % above median"
            weight[3] = (rth[g] / med - 1) * 10
    throttle = ""
    if ctx["reasons"] is not None:
        bits = int(ctx["reasons"][row, g])
        throttle = "; thermal throttling" if bits & 0x60 else "; power brake" if bits & 0x80 else ""
    c = ctx["cause"][row, g] if ctx.get("cause") is not None else np.nan
    if np.isfinite(c) and int(c) in HOT_CAUSE:
        k = int(c)
        return leaking + HOT_CAUSE[k] + (f" ({detail[k]})" if detail[k] else "") + throttle
    k = int(np.argmax(weight))
    if weight[k] <= 0:
        return leaking + "none stands out (within the spread of the fleet)" + throttle
    return leaking + HOT_CAUSE[k] + f" ({detail[k]}; estimated from the outputs)" + throttle


def load_run(f):
    g = {}
    for key, path in [("Tj", "gpu/T_junction"), ("Thbm", "gpu/T_hbm"), ("clk", "gpu/clock_ratio"),
                      ("P", "gpu/P"), ("reasons", "gpu/throttle_reasons"),
                      ("Tin", "rack/T_supply"), ("flow", "rack/V_flow"), ("iso", "rack/isolation"),
                      ("leak", "rack/leak_flow"), ("rTj", "rack/gpu_T_junction_max"),
                      ("cause", "gpu/hot_cause")]:
        g[key] = f[path][()] if path in f else None
    g["gr"] = f["gpu/rack"][()] if "gpu/rack" in f else None
    if g["gr"] is None:
        for k in ("Tj", "Thbm", "clk", "P", "reasons", "cause"):
            g[k] = None
    return g


def rack_hot(f, ctx):
    """rows x racks: the rack's hottest GPU junction (degC), else its cold-plate case or outlet"""
    if ctx["rTj"] is not None and np.any(np.isfinite(ctx["rTj"])):
        return ctx["rTj"] - C0, "hottest GPU junction"
    if "rack/T_case" in f:
        return f["rack/T_case"][()] - C0, "cold-plate case"
    return f["rack/T_return"][()] - C0, "rack outlet"


def floor_grid(f):
    names = text(f["rack/names"])
    rows = text(f["rack/row"]) if "rack/row" in f else ["A"] * len(names)
    idx = f["rack/index"][()] if "rack/index" in f else np.arange(1, len(names) + 1)
    row_names = sorted(set(rows), key=row_key)
    return names, rows, np.asarray(idx, dtype=int), row_names


def row_key(name):
    """rows in floor order: A … Z, AA, AB … (shorter names first), numbers by value"""
    return (len(name), name) if not name.isdigit() else (0, f"{int(name):09d}")


def hotspot_map(figs, f, values, title, unit, name, cmap="inferno", lo=None, hi=None):
    names, rows, idx, row_names = floor_grid(f)
    ny, nx = len(row_names), int(idx.max())
    grid = np.full((ny, nx), np.nan)
    for k in range(len(names)):
        grid[row_names.index(rows[k]), idx[k] - 1] = values[k]
    # a readable size whatever the floor: at most 11 x 7.5 inches (1100 x 750 px)
    aspect = nx / max(ny, 1)
    w = min(11.0, max(5.0, 0.9 * nx + 2.0))
    h = min(7.5, max(2.5, (w - 2.0) / max(aspect, 0.2) + 1.5))
    fig, ax = plt.subplots(figsize=(w, h))
    finite = grid[np.isfinite(grid)]
    lo = float(np.nanmin(finite)) if lo is None and finite.size else (lo or 0.0)
    hi = float(np.nanmax(finite)) if hi is None and finite.size else (hi or 1.0)
    if hi - lo < 1.0:  # all alike: a 1 K (or 1 min) window around them, not one end's colour
        mid = 0.5 * (hi + lo)
        lo, hi = (0.0, 1.0) if mid < 0.5 and lo >= 0 else (mid - 0.5, mid + 0.5)
    im = ax.imshow(grid, cmap=cmap, vmin=lo, vmax=hi, aspect="auto", interpolation="nearest",
                   extent=(0.5, nx + 0.5, ny - 0.5, -0.5))
    cb = fig.colorbar(im, ax=ax, fraction=0.04, pad=0.02)
    cb.set_label(unit)
    if len(names) <= MAX_LABELLED:
        for k, n in enumerate(names):
            v = values[k]
            x = (v - lo) / (hi - lo) if np.isfinite(v) else 0
            ax.text(idx[k], row_names.index(rows[k]), f"{n}\n{fmt(v)}", ha="center", va="center",
                    fontsize=7, color="white" if x < 0.6 else "black")
    step = max(1, math.ceil(ny / 32))
    ax.set_yticks(range(0, ny, step), [f"row {r}" for r in row_names[::step]], fontsize=7)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=12))
    ax.set_xlabel("position in the row")
    ax.set_title(title, fontsize=10)
    figs.add(title, fig, name)


def rack_spread(figs, f, row, when, n):
    """each rack's GPU junction min … max, mean and p99 (the library's per-rack spread outputs);
    a pod's racks one by one (a hall has the per-row spread instead: 768 ticks are unreadable)"""
    keys = ["rack/gpu_T_junction_min", "rack/gpu_T_junction_mean", "rack/gpu_T_junction_p99",
            "rack/gpu_T_junction_max"]
    if not all(k in f for k in keys) or f[keys[0]].shape[1] > 48:
        return
    lo, mean, p99, hi = (f[k][row, :] - C0 for k in keys)
    names = text(f["rack/names"])
    ok = np.isfinite(hi)
    if not np.any(ok):
        return
    x = np.arange(len(names))[ok]
    fig, ax = plt.subplots(figsize=(min(11, max(6, 0.4 * len(x) + 2)), 3.6))
    ax.vlines(x, lo[ok], hi[ok], color="0.5", lw=6, alpha=0.5, label="min … max")
    ax.plot(x, mean[ok], "o", color="tab:blue", label="mean")
    ax.plot(x, p99[ok], "^", color="tab:red", label="p99")
    ax.set_xticks(x, [names[i] for i in x], rotation=90 if len(x) > 12 else 0, fontsize=7)
    ax.set_ylabel("GPU junction (°C)")
    ax.set_title(f"Per-rack GPU junction spread at {when}", fontsize=10)
    ax.grid(alpha=0.3)
    legend(ax)
    figs.add(f"Per-rack GPU spread at {when}", fig, f"rack_spread_{n}.png")


# ---------------------------------------------------------------------------------------------
# what the other issues added: the jobs' bottleneck maps, the plant and its weather

# /job/time/<part> in the output table's order (solver/output/observables.h); parts the file has
# that are not listed here follow in their own order, so a new part shows up without a change
JOB_PARTS = ["compute", "memory", "comm_nvlink", "comm_network", "comm_other", "bubble",
             "checkpoint", "barrier_wait", "thermal", "power_cap", "power_brake", "smoothing",
             "clock_other", "hbm_throttle", "fabric_degraded", "stalled", "restart", "lost_work",
             "excluded"]


def job_section(figs, f, t, summary, tables):
    """each job's bottleneck map at the end as one stacked bar (its parts add up to the wall time
    since the job started, docs/models/job.md), the largest parts in the summary, a table"""
    if "job/time" not in f or "job/names" not in f:
        return
    jn = text(f["job/names"])
    have = list(f["job/time"].keys())
    parts = [p for p in JOB_PARTS if p in have] + sorted(p for p in have if p not in JOB_PARTS)
    if not parts or not jn:
        return
    end = np.array([f["job/time/" + p][()][-1] for p in parts], dtype=float)  # parts x jobs
    end = np.where(np.isfinite(end), end, 0.0).reshape(len(parts), -1)
    total = end.sum(axis=0)
    if not np.any(total > 0):
        return
    gp = f["job/goodput"][()][-1] if "job/goodput" in f else np.full(len(jn), np.nan)
    # at most MAX_LEGEND entries: the largest parts over all jobs, the rest as one "other"
    used = [k for k in range(len(parts)) if np.any(end[k] > 0)]
    used.sort(key=lambda k: -end[k].sum())
    keep = used if len(used) <= MAX_LEGEND else used[:MAX_LEGEND - 1]
    rest = [k for k in used if k not in keep]
    keep.sort()  # back in the table's order: compute first
    shown = len(jn) if len(jn) <= 40 else 40
    order = np.argsort(-total)[:shown] if len(jn) > 40 else np.arange(len(jn))
    scale, unit = (3600.0, "h") if total.max() > 36000 else (60.0, "min") if total.max() > 600 \
        else (1.0, "s")
    fig, ax = plt.subplots(figsize=(10, min(7.5, 2.6 + 0.45 * len(order))))
    cm = plt.get_cmap("tab20")
    left = np.zeros(len(order))
    y = np.arange(len(order))
    for k in keep:
        v = end[k, order] / scale
        ax.barh(y, v, left=left, height=0.6, color=cm(JOB_PARTS.index(parts[k]) % 20 if parts[k] in JOB_PARTS
                                          else (len(JOB_PARTS) + k) % 20),
                label=parts[k].replace("_", " "), edgecolor="white", linewidth=0.5)
        for i, (x0, w) in enumerate(zip(left, v)):
            if w / max(total[order[i]] / scale, 1e-12) >= 0.04:
                ax.text(x0 + w / 2, i, f"{100 * w * scale / total[order[i]]:.0f} %",
                        ha="center", va="center", fontsize=7)
        left += v
    if rest:
        v = end[rest][:, order].sum(axis=0) / scale
        ax.barh(y, v, left=left, color="0.6", label=f"other ({len(rest)} parts)",
                edgecolor="white", linewidth=0.5)
        left += v
    labels = [jn[j] + ("" if not np.isfinite(gp[j]) else f"\ngoodput {100 * gp[j]:.1f} %")
              for j in order]
    ax.set_yticks(y, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(f"wall time since the job started ({unit})")
    ax.grid(axis="x", alpha=0.3)
    legend(ax, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # beside the bars, never over them
    ax.set_title(f"Bottleneck map at {fmt(t[-1])} min (mean over each job's GPUs)", fontsize=10)
    figs.add("Bottleneck map of the jobs", fig, "bottleneck_map.png")
    for j in order[:4]:
        top = np.argsort(-end[:, j])[:3]
        summary.append((f"Where {jn[j]}'s time went", ", ".join(
            f"{parts[k].replace('_', ' ')} {100 * end[k, j] / total[j]:.1f} %" for k in top
            if end[k, j] > 0) + f" (of {fmt(total[j] / 60.0)} min)"
            + ("" if not np.isfinite(gp[j]) else f"; goodput {100 * gp[j]:.1f} %")))
    rows = [["part"] + [jn[j] for j in order[:8]]]
    for k in used:
        rows.append([parts[k].replace("_", " ")] +
                    [f"{fmt(end[k, j], 1)} s ({fmt(100 * end[k, j] / total[j], 1)} %)"
                     for j in order[:8]])
    rows.append(["total (wall time since start)"] + [f"{fmt(total[j], 1)} s" for j in order[:8]])
    tables.append((f"Bottleneck map at {fmt(t[-1])} min", rows))


def power_means(f):
    """the power lines of the run's power plot: (label, cumulative energies added, subtracted),
    each drawn as its mean over each output interval"""
    out = []
    if "energy/it" in f:
        out.append(("IT (DC at the racks)", ["energy/it"], []))
    else:  # without a power section: the coolant's heat less the pumps' (as the sweep's E_it)
        plus = ["energy/heat_in"] + (["energy/air_racks"] if "energy/air_racks" in f else [])
        out.append(("IT (heat into the coolant less the pumps)", plus, ["energy/pump_electric"]))
    # the air handlers' fans and chiller (docs/models/air_handler.md): cooling the meter feeds
    ah = [p for p in ("energy/air_handler_fans", "energy/air_handler_chiller") if p in f]
    if "energy/utility" in f:
        out.append(("total (utility + CDU pumps + air handlers)" if ah else
                    "total (utility + CDU pumps)", ["energy/utility", "energy/pump_electric"] + ah, []))
    out.append(("CDU pumps", ["energy/pump_electric"], []))
    if ah:
        out.append(("air handlers (fans + chiller)", ah, []))
    return [(lab, plus, minus) for lab, plus, minus in out if all(p in f for p in plus + minus)]


def jobs_table(f, summary, tables):
    """the described training jobs' step model (/job/model/*, docs/results.md): nominal at the
    reference clocks beside what the run achieved by its end (/job/iteration_time,
    /job/tokens_per_second, /job/mfu, run means), memory per GPU, micro-batches, recompute"""
    if "job/model" not in f or "job/names" not in f:
        return
    jn = text(f["job/names"])
    g = f["job/model"]

    def col(name):
        return np.asarray(g[name][()], dtype=float) if name in g else np.full(len(jn), np.nan)

    def last(path):
        return np.asarray(f[path][()][-1], dtype=float).reshape(-1) if path in f \
            else np.full(len(jn), np.nan)

    step, tps, mfu = col("step_time"), col("tokens_per_second"), col("mfu")
    step_run, tps_run, mfu_run = last("job/iteration_time"), last("job/tokens_per_second"), \
        last("job/mfu")
    mem, hbm = col("memory_per_gpu"), col("hbm_capacity")
    parts = [col("memory_weights"), col("memory_gradients"), col("memory_optimizer"),
             col("memory_activations")]
    mb = col("micro_batches")
    rc = text(g["recompute_name"]) if "recompute_name" in g else [""] * len(jn)
    jobs = [j for j in range(len(jn)) if np.isfinite(step[j]) and step[j] > 0]
    if not jobs:
        return
    rows = [["job", "step nominal (s)", "step achieved (s)", "Mtokens/s nominal",
             "Mtokens/s achieved", "MFU nominal (%)", "MFU achieved (%)", "memory/GPU (GB)",
             "weights / gradients / optimizer / activations (GB)", "micro-batches", "recompute"]]
    for j in jobs:
        achieved = step_run[j] if step_run[j] > 0 else np.nan
        rows.append([jn[j], fmt(step[j], 3), fmt(achieved, 3), fmt(tps[j] / 1e6, 3),
                     fmt(tps_run[j] / 1e6, 3), fmt(100 * mfu[j]), fmt(100 * mfu_run[j]),
                     f"{fmt(mem[j] / 1e9)} of {fmt(hbm[j] / 1e9)}",
                     " / ".join(fmt(p[j] / 1e9) for p in parts), fmt(mb[j], 0), rc[j] or "–"])
        summary.append((f"{jn[j]}: step model",
                        f"step {fmt(step[j], 3)} s nominal, {fmt(achieved, 3)} s achieved; "
                        f"MFU {fmt(100 * mfu[j])} % nominal, {fmt(100 * mfu_run[j])} % achieved; "
                        f"{fmt(mem[j] / 1e9)} GB per GPU, recompute {rc[j] or '–'}"))
    tables.append(("Jobs: the step model (nominal) and the run (achieved); MFU counts (6 N + 12 L h "
                   "s) T, PaLM's model FLOPs, on the dense BF16 peak (docs/models/job.md)", rows))


def units_of(ds):
    """the dataset's units; "delta_K" for a temperature difference (CF 1.11's units_metadata,
    which dctwin writes on every temperature: an absolute one shows in degC, a difference in K)"""
    u = ds.attrs.get("units", "")
    u = u.decode() if isinstance(u, bytes) else str(u)
    m = ds.attrs.get("units_metadata", "")
    m = m.decode() if isinstance(m, bytes) else str(m)
    return "delta_K" if u == "K" and m == "temperature: difference" else u


def plant_section(figs, f, t, events, summary):
    """the plant and its weather: every facility-wide series of the /plant, /weather, /water
    groups and the plant's /energy series, a figure per kind of quantity (temperatures, power and
    heat, mode and staging, PUE, water), so a new plant or annual output shows up here"""
    if "plant" not in f:
        return
    series = []  # (group, name, units, values)
    for g in ("plant", "weather", "water"):
        if g in f:
            for n, ds in f[g].items():
                if isinstance(ds, h5py.Dataset) and ds.shape and ds.shape[0] == len(t) \
                        and (ds.ndim == 1 or ds.shape[1] == 1):
                    series.append((g, n, units_of(ds), ds[()].reshape(len(t))))
    if "energy" in f:
        for n, ds in f["energy"].items():
            if (n.startswith("plant_") or n in ("facility", "it_pue")) and ds.shape[0] == len(t):
                series.append(("energy", n, units_of(ds), ds[()].reshape(len(t))))
    kinds = {}
    watts = [np.nanmax(np.abs(v)) for g, n, u, v in series if u == "W" and np.any(np.isfinite(v))]
    big = max(watts) if watts else 0.0  # one unit for all powers: 70 MW rejected beside kW pumps
    for g, n, u, v in series:
        if u == "K":
            k = ("temperatures (°C)", -C0, 1.0)
        elif u == "delta_K":
            k = ("temperature differences (K)", 0, 1.0)
        elif u == "W":
            k = ("power and heat (MW)", 0, 1e-6) if big > 10e6 else ("power and heat (kW)", 0, 1e-3)
        elif u == "J":
            k = ("energy (MWh)", 0, 1 / 3.6e9)
        elif u == "s":
            k = ("time in each mode (h)", 0, 1 / 3600.0)
        elif u == "kg" and g == "water":
            k = ("site water, cumulative (m³)", 0, 1e-3)
        elif u == "1" and n in ("PUE", "pPUE_cooling"):
            k = ("PUE from t = 0", 0, 1.0)
        elif u == "1" and n in ("mode", "chillers_on", "fan_speed"):
            k = ("mode (0 free, 1 partial, 2 mechanical), chillers on, fan speed", 0, 1.0)
        else:
            k = (f"{n} ({u})" if u not in ("", "1") else n, 0, 1.0)
        kinds.setdefault(k, []).append((f"{g}/{n}", v))
    for (title, off, sc), lines in kinds.items():
        fig, ax = plt.subplots(figsize=(9, 3.6))
        cm = plt.get_cmap("tab10")
        for i, (lab, v) in enumerate(lines[:MAX_LEGEND]):
            ax.plot(t, (v + off) * sc, "-", color=cm(i % 10), label=lab,
                    drawstyle="steps-post" if lab.endswith(("/mode", "/chillers_on")) else None)
        mark_events(ax, events)
        ax.set_xlabel("time (min)")
        ax.set_ylabel(title.split(" (")[0] if len(title) > 40 else title)
        ax.grid(alpha=0.3)
        legend(ax, loc="best")
        ax.set_title(f"Plant and weather: {title}", fontsize=10)
        slug = re.sub(r"[^a-z0-9]+", "_", title.lower()).strip("_")[:40]
        figs.add(f"Plant and weather: {title}", fig, f"plant_{slug}.png")
    # the summary: how the plant ran
    last = {f"{g}/{n}": v[-1] for g, n, u, v in series}
    allv = {f"{g}/{n}": v for g, n, u, v in series}
    if np.isfinite(last.get("plant/PUE", np.nan)):
        summary.append(("Plant PUE, pPUE (energy ratio from t = 0)",
                        f"{last['plant/PUE']:.3f}, {last.get('plant/pPUE_cooling', np.nan):.3f}"))
    if np.isfinite(last.get("plant/WUE", np.nan)):
        summary.append(("Site WUE", f"{last['plant/WUE']:.3f} L/kWh"))
    modes = [last.get(k, np.nan) for k in ("plant/time_free", "plant/time_partial",
                                             "plant/time_mechanical")]
    if all(np.isfinite(modes)) and sum(modes) > 0:
        summary.append(("Time in free / partial / full mechanical cooling", " / ".join(
            f"{100 * m / sum(modes):.0f} %" for m in modes) + f" of {fmt(sum(modes) / 3600.0, 2)} h"))
    if "plant/Q_rejected" in allv:
        q = allv["plant/Q_rejected"]
        summary.append(("Heat rejected (peak)", f"{fmt(np.nanmax(q) / 1e3)} kW"))
    if "weather/T_dry_bulb" in allv:
        db = allv["weather/T_dry_bulb"] - C0
        wb = allv.get("weather/T_wet_bulb", np.full_like(db, np.nan)) - C0
        summary.append(("Outdoor dry / wet bulb", f"{fmt(np.nanmin(db))} … {fmt(np.nanmax(db))} °C"
                        f" / {fmt(np.nanmin(wb))} … {fmt(np.nanmax(wb))} °C"))



def grid_section(figs, f, summary, tables):
    """the site at the meter (docs/models/grid.md): the fast meter series /power/P_utility over
    the span the grid metrics read, a zoom on its last minute, its Welch spectrum with the
    frequency bands and their limits, and the /grid metrics against the utility's limits. Only
    for runs with --power-interval (the series and /grid exist only then)"""
    if "grid" not in f or "power/P_utility" not in f or "power/time" not in f:
        return
    g = f["grid"]

    def one(name):
        return float(np.ravel(g[name][()])[0]) if name in g else float("nan")

    tp = f["power/time"][()].ravel()
    P = f["power/P_utility"][()].ravel()
    t0, t1 = one("t_start"), one("t_end")
    sel = (tp >= t0 - 1e-9) & (tp <= t1 + 1e-9)
    if sel.sum() < 2:
        return
    tp, P = tp[sel], P[sel]
    mw = np.nanmax(np.abs(P)) > 10e6
    sc, unit = (1e-6, "MW") if mw else (1e-3, "kW")
    fig, (ax, az) = plt.subplots(1, 2, figsize=(11.5, 3.8), gridspec_kw={"width_ratios": [2, 1]})
    ax.plot(tp / 60.0, P * sc, "-", lw=0.6, color="C0", label="meter (P_utility)")
    ax.axhline(one("mean") * sc, color="k", ls="--", lw=0.8, label="mean")
    ax.set_xlabel("time (min)")
    ax.set_ylabel(f"power ({unit})")
    ax.grid(alpha=0.3)
    legend(ax, loc="best")
    # the last minute up close (a job's swing at its steady pace; the start may be idle)
    z0 = max(tp[0], tp[-1] - 60.0)
    zoom = tp >= z0
    az.plot(tp[zoom] - z0, P[zoom] * sc, "-", lw=0.8, color="C0")
    az.set_xlabel(f"s after {fmt(z0 / 60.0)} min")
    az.set_title("the last minute", fontsize=9)
    az.grid(alpha=0.3)
    fig.suptitle(f"The site at the meter: every {fmt(one('dt'), 3)} s (--power-interval)",
                 fontsize=10)
    figs.add("The site at the meter (/power/P_utility at the fast interval; the span the grid "
             "metrics read)", fig, "grid_meter.png")
    # the spectrum and the bands
    bands = []
    if "bands" in g and "f_low" in g["bands"]:
        b = g["bands"]
        bands = list(zip(b["f_low"][()].ravel(), b["f_high"][()].ravel(), b["rms"][()].ravel(),
                         b["limit"][()].ravel(), b["met"][()].ravel()))
    if "psd" in g and "frequency" in g["psd"]:
        fq = g["psd/frequency"][()].ravel()
        S = g["psd/density"][()].ravel()
        ok = (fq > 0) & np.isfinite(S) & (S > 0)
        if ok.any():
            fig, ax = plt.subplots(figsize=(9, 3.8))
            ax.loglog(fq[ok], S[ok] * sc * sc, "-", lw=0.8, color="C0", label="Welch PSD")
            nyq = float(fq.max())  # the series resolves nothing above it: the band is read to it
            for k, (lo, hi, rms, lim, met) in enumerate(bands):
                if lo >= nyq:
                    continue
                ax.axvspan(lo, min(hi, nyq), color=f"C{k + 1}", alpha=0.12,
                           label=f"{fmt(lo, 2)}–{fmt(hi, 2)} Hz: RMS {fmt(rms * sc, 2)} {unit}"
                           + (f" (limit {fmt(lim * sc, 2)})" if np.isfinite(lim) else "")
                           + (f", read to {fmt(nyq, 2)} Hz" if hi > nyq else ""))
            pf = one("peak_frequency")
            if np.isfinite(pf) and pf > 0:
                ax.axvline(pf, color="k", ls=":", lw=0.8, label=f"peak {fmt(pf, 3)} Hz")
            ax.set_xlabel("frequency (Hz)")
            ax.set_ylabel(f"power spectral density ({unit}²/Hz)")
            ax.grid(alpha=0.3, which="both")
            legend(ax, loc="best")
            ax.set_title("Meter power spectrum and the utility's bands", fontsize=10)
            figs.add("Meter power spectrum (Welch, /grid/psd) with the frequency bands and their "
                     "RMS", fig, "grid_spectrum.png")
    # the metrics against the limits

    def verdict(met):
        return "—" if not np.isfinite(met) else ("met" if met > 0.5 else "exceeded")

    lim = one("ramp_limit")
    rows = [["mean, min, max", f"{fmt(one('mean') * sc, 2)}, {fmt(one('min') * sc, 2)}, "
             f"{fmt(one('max') * sc, 2)} {unit}", "", ""],
            ["swing (max − min)", f"{fmt(one('peak_to_peak') * sc, 2)} {unit} "
             f"({fmt(100 * one('swing_fraction'))} % of the peak)", "", ""],
            ["standard deviation", f"{fmt(one('std') * sc, 2)} {unit}", "", ""],
            ["largest rise / fall per sample", f"{fmt(one('max_ramp_up') * sc, 2)} / "
             f"{fmt(one('max_ramp_down') * sc, 2)} {unit}/s", "", ""],
            [f"largest rise / fall over {fmt(one('ramp_window'), 2)} s",
             f"{fmt(one('max_rise_window') * sc, 2)} / {fmt(one('max_fall_window') * sc, 2)} "
             f"{unit}/s", f"{fmt(lim * sc, 2)} {unit}/s" if np.isfinite(lim) else "none",
             verdict(one("ramp_met")) if np.isfinite(lim) else "—"],
            ["spectrum peak", f"{fmt(one('peak_frequency'), 3)} Hz, "
             f"{fmt(one('peak_amplitude') * sc, 2)} {unit}", "", ""]]
    for lo, hi, rms, blim, met in bands:
        rows.append([f"RMS in {fmt(lo, 2)}–{fmt(hi, 2)} Hz", f"{fmt(rms * sc, 3)} {unit}",
                     f"{fmt(blim * sc, 3)} {unit}" if np.isfinite(blim) else "none",
                     verdict(met) if np.isfinite(blim) else "—"])
    tables.append((f"The site at the meter: grid metrics from {fmt(t0 / 60.0)} to "
                   f"{fmt(t1 / 60.0)} min (/grid)", [["metric", "value", "limit", "verdict"]] + rows))
    limited = [r for r in rows if r[3] in ("met", "exceeded")]
    summary.append(("Meter power swing", f"{fmt(one('peak_to_peak') * sc, 2)} {unit} "
                    f"({fmt(one('min') * sc, 2)} … {fmt(one('max') * sc, 2)} {unit}), spectrum "
                    f"peak {fmt(one('peak_frequency'), 3)} Hz"))
    if limited:
        summary.append(("Utility limits", ", ".join(f"{r[0]}: {r[3]}" for r in limited)))


MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def calendar_section(figs, f, t_s, summary, tables):
    """calendar time (a plant's weather sets it): the start date in the summary, the /monthly
    table, and for a run of days or more the days as bands (daily min, mean, max of the facility
    power from its energy, and of the outdoor dry bulb) and the months as bars, on a date axis"""
    y0 = f.attrs.get("calendar_year_start")
    start = f.attrs.get("calendar_start", b"")
    start = start.decode() if isinstance(start, bytes) else str(start)
    if y0 is None or len(t_s) < 2:
        return
    y0 = float(y0)
    span = float(t_s[-1] - t_s[0])
    tz = f.attrs.get("calendar_time_zone", b"")
    tz = tz.decode() if isinstance(tz, bytes) else str(tz)
    zone = f"local standard time, {tz}" if tz and tz != "unknown" else "local standard time"
    summary.append(("Calendar", f"from {start} of the weather year ({zone}), "
                                f"{fmt(span / 86400.0, 2)} days"))
    if "monthly" in f and "month" in f["monthly"]:
        m = f["monthly"]
        col = lambda k: m[k][()] if k in m else np.full(len(m["month"]), np.nan)  # noqa: E731
        rows = [["month", "run days", "facility energy (MWh)", "IT energy (MWh)", "PUE",
                 "site water (m³)", "cost", "throughput lost (%)", "GPU-hours throttled"]]
        for i, mo in enumerate(col("month")):
            rows.append([MONTHS[int(mo) - 1] if 1 <= mo <= 12 else str(mo),
                         fmt((col("t_end")[i] - col("t_start")[i]) / 86400.0, 2),
                         fmt(col("E_facility")[i] / 3.6e9, 3), fmt(col("E_it")[i] / 3.6e9, 3),
                         f"{col('PUE')[i]:.3f}", fmt(col("water_site")[i] / 1e3, 2),
                         fmt(col("cost")[i], 2), fmt(100 * col("throughput_lost")[i], 2),
                         fmt(col("gpu_hours_throttled")[i], 2)])
        tables.append(("Monthly totals (/monthly)", rows))
    if span < 2 * 86400.0:
        return
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11.5, 4), gridspec_kw={"width_ratios": [2, 1]})
    day = np.floor((y0 + t_s) / 86400.0).astype(np.int64)
    days = np.unique(day[1:])
    d0 = np.datetime64("2001-01-01") + days.astype("timedelta64[D]")
    if "energy/facility" in f:
        E = f["energy/facility"][()].ravel()
        dt = np.diff(t_s)
        P = np.divide(np.diff(E), dt, out=np.full(dt.shape, np.nan), where=dt > 0) / 1e6
        by = [P[day[1:] == d] for d in days]
        ax.fill_between(d0, [np.nanmin(b) for b in by], [np.nanmax(b) for b in by],
                        color="tab:blue", alpha=0.3, step="post", label="facility power, daily min–max")
        ax.step(d0, [np.nansum(b * dt[day[1:] == d]) / np.sum(dt[day[1:] == d])
                     for b, d in zip(by, days)], where="post", color="tab:blue",
                label="facility power, daily mean (MW)")
    if "weather/T_dry_bulb" in f:
        a3 = ax.twinx()
        db = f["weather/T_dry_bulb"][()].ravel() - C0
        by = [db[1:][day[1:] == d] for d in days]
        a3.fill_between(d0, [np.nanmin(b) for b in by], [np.nanmax(b) for b in by],
                        color="tab:orange", alpha=0.2, step="post")
        a3.set_ylabel("outdoor dry bulb, daily min–max (°C)", color="tab:orange")
    ax.set_ylabel("facility power (MW)")
    ax.set_xlabel("date (the weather file's year, local standard time)")
    ax.xaxis.set_major_formatter(matplotlib.dates.DateFormatter("%d %b"))
    ax.grid(alpha=0.3)
    legend(ax, loc="lower left")
    fig.autofmt_xdate()
    if "monthly" in f and "E_facility" in f["monthly"]:
        m = f["monthly"]
        ax2.bar([MONTHS[int(x) - 1] for x in m["month"][()]], m["E_facility"][()] / 3.6e9,
                color="tab:blue")
        ax2.set_ylabel("facility energy per month (MWh)")
        ax2.grid(alpha=0.3, axis="y")
    else:
        ax2.axis("off")
    figs.add("The run by day and by month: daily bands of facility power and outdoor air, "
             "monthly facility energy", fig, "calendar.png")


def choose_times(f, t, peak_row, at_min):
    """rows to show distributions and maps at: the asked minutes, else the peak, the widest
    GPU-to-GPU junction spread (/facility/gpu_T_junction_spread) and the end"""
    if at_min:
        rows = [int(np.clip(np.searchsorted(t, a * 60.0, side="right") - 1, 0, len(t) - 1))
                for a in at_min]
    else:
        rows = [peak_row]
        if "facility/gpu_T_junction_spread" in f:
            sp = f["facility/gpu_T_junction_spread"][()].ravel()
            if np.any(np.isfinite(sp)):
                rows.append(int(np.nanargmax(np.where(np.isfinite(sp), sp, -np.inf))))
        rows.append(len(t) - 1)
    out = []
    for r in rows:
        if r not in out:
            out.append(r)
    return out


def run_report(f, out, a):
    figs = Figures(out)
    t_s = f["time"][()]
    t = t_s / 60.0
    events = read_events(f)
    ctx = load_run(f)
    hot, hot_what = rack_hot(f, ctx)
    nrack = hot.shape[1]
    names, rows_of, idx, row_names = floor_grid(f)
    summary = []
    # --- where is the peak
    peak_row = 0
    if ctx["Tj"] is not None:
        Tj = ctx["Tj"]
        k = int(np.nanargmax(np.where(np.isfinite(Tj), Tj, -np.inf)))
        peak_row, g = divmod(k, Tj.shape[1])
        tray = int(f["gpu/tray"][g]) if "gpu/tray" in f else -1
        slot = int(f["gpu/slot"][g]) if "gpu/slot" in f else -1
        r = int(ctx["gr"][g])
        summary.append(("Peak GPU junction", f"{fmt(Tj[peak_row, g] - C0)} °C at "
                        f"{fmt(t[peak_row])} min: GPU {g} (rack {names[r]}, tray {tray}, "
                        f"slot {slot}; 0-based as in /gpu)"))
        summary.append(("Why it is hot", gpu_cause(f, g, peak_row, ctx)))
        if ctx["Thbm"] is not None:
            h = ctx["Thbm"]
            kh = int(np.nanargmax(np.where(np.isfinite(h), h, -np.inf)))
            rh, gh = divmod(kh, h.shape[1])
            summary.append(("Peak HBM", f"{fmt(h[rh, gh] - C0)} °C at {fmt(t[rh])} min: GPU {gh} "
                            f"(rack {names[int(ctx['gr'][gh])]})"))
    else:
        k = int(np.nanargmax(np.where(np.isfinite(hot), hot, -np.inf)))
        peak_row, r = divmod(k, nrack)
        summary.append((f"Peak {hot_what}", f"{fmt(hot[peak_row, r])} °C at {fmt(t[peak_row])} "
                        f"min in rack {names[r]}"))
    if "facility/PUE" in f:
        pue = f["facility/PUE"][()].ravel()
        ok = pue[np.isfinite(pue)]
        if ok.size:
            summary.append(("PUE", f"mean {ok.mean():.3f} (range {ok.min():.3f} … {ok.max():.3f})"))
    if "energy/it" in f:
        summary.append(("IT energy", f"{f['energy/it'][()].ravel()[-1] / 3.6e9:.2f} MWh"))
    if "job/throughput_ratio" in f and "job/names" in f:
        tr = f["job/throughput_ratio"][()][-1]
        jn = text(f["job/names"])
        lost = [f"{n}: {100 * (1 - x):.1f} %" for n, x in zip(jn, tr) if np.isfinite(x)]
        if lost:
            summary.append(("Throughput lost (1 − throughput ratio)", ", ".join(lost[:8])))
    if "job/progress_ratio" in f and "job/names" in f:
        pr = f["job/progress_ratio"][()][-1]
        jn = text(f["job/names"])
        lost = [f"{n}: {100 * (1 - x):.1f} %" for n, x in zip(jn, pr) if np.isfinite(x)]
        if lost:
            summary.append(("Goodput lost (1 − progress ratio: stalls and throttling)",
                            ", ".join(lost[:8])))
    if "facility/gpu_seconds_throttled" in f:
        gs = f["facility/gpu_seconds_throttled"][()].ravel()[-1]
        summary.append(("Throttled GPU-seconds", f"{gs:,.0f} s"))
    summary.append(("Size", f"{nrack} racks in {len(row_names)} rows"
                    + (f", {ctx['gr'].size} GPUs" if ctx["gr"] is not None else "")
                    + (f", {f['cdu/names'].shape[0]} CDUs" if "cdu/names" in f else "")
                    + f"; {fmt(t[-1])} min every {fmt(t_s[1] - t_s[0] if len(t_s) > 1 else 0, 0)} s"))
    alarms = alarm_rows(events)
    # --- temperatures
    fig, ax = plt.subplots(figsize=(9, 4.5))
    if "cdu/T_sec_supply" in f:
        band(ax, t, f["cdu/T_sec_supply"][()] - C0, "CDU supply", "tab:blue")
        band(ax, t, f["cdu/T_sec_return"][()] - C0, "CDU return", "tab:orange", "--")
    band(ax, t, np.nanmax(f["rack/T_return"][()], axis=1) - C0, "hottest rack outlet", "tab:red")
    if ctx["Tj"] is not None:
        band(ax, t, np.nanmax(ctx["Tj"], axis=1) - C0, "hottest GPU junction", "tab:purple")
        band(ax, t, np.nanmedian(ctx["Tj"], axis=1) - C0, "median GPU junction", "tab:green", ":")
    if "room/T_air" in f:
        band(ax, t, f["room/T_air"][()].ravel() - C0, "room air", "gray", ":")
    mark_events(ax, events)
    ax.set_xlabel("time (min)")
    ax.set_ylabel("temperature (°C)")
    ax.grid(alpha=0.3)
    legend(ax, ncol=2, loc="best")
    figs.add("Temperatures", fig, "temperatures.png")
    # --- flows
    fig, ax = plt.subplots(figsize=(9, 4))
    if "cdu/V_flow_sec" in f:
        band(ax, t, f["cdu/V_flow_sec"][()] * 60000, "CDU secondary", "tab:blue")
    if "rack/V_flow" in f:
        v = f["rack/V_flow"][()] * 60000
        ax.fill_between(t, v.min(axis=1), v.max(axis=1), color="tab:green", alpha=0.3,
                        label=f"racks (min–max of {v.shape[1]})")
    mark_events(ax, events)
    ax.set_xlabel("time (min)")
    ax.set_ylabel("flow (L/min)")
    ax.grid(alpha=0.3)
    legend(ax)
    figs.add("Flows", fig, "flows.png")
    # --- power and PUE: one basis, the mean over each output interval, from the cumulative
    # energies (an instant or a coupling window's mean beside an interval mean would swing where
    # the energies do not: /facility/P_IT is the last coupling window's mean)
    fig, ax = plt.subplots(figsize=(9, 4))
    scale, unit = (1e6, "MW") if "rack/P" in f and np.nanmax(f["rack/P"][()].sum(axis=1)) > 5e6 \
        else (1e3, "kW")
    plotted = []
    for label, plus, minus in power_means(f):
        if len(t_s) < 2:
            break
        E = sum(f[p][()].ravel().astype(float) for p in plus) - \
            sum((f[p][()].ravel().astype(float) for p in minus), np.zeros(len(t_s)))
        dt = np.diff(t_s)
        P = np.divide(np.diff(E), dt, out=np.full(dt.shape, np.nan), where=dt > 0)
        ax.step(t[1:], P / scale, where="pre", label=label)
        plotted.append({"label": label, "basis": "interval mean", "energy": plus,
                        "energy_minus": minus, "t_s": t_s.tolist(), "W": P.tolist()})
    figs.data["power.png"] = plotted
    mark_events(ax, events)
    ax.set_xlabel("time (min)")
    ax.set_ylabel(f"power ({unit})")
    ax.grid(alpha=0.3)
    legend(ax, loc="upper left")
    if "facility/PUE" in f:
        a2 = ax.twinx()
        pue = f["facility/PUE"][()].ravel()
        a2.plot(t, pue, "k:", label="PUE")
        a2.set_ylabel("PUE")
        ok = pue[np.isfinite(pue)]
        if ok.size:
            a2.set_ylim(1.0, max(1.2, float(ok.max()) * 1.02))
        legend(a2, loc="upper right")
    figs.add("Power (means over each output interval, from the cumulative energies) and PUE", fig,
             "power.png")
    # --- per-row spread of the racks' hottest junction over time (a band per row when few rows,
    # the spread of the rows' maxima when many)
    fig, ax = plt.subplots(figsize=(9, 4))
    rix = np.array([row_names.index(x) for x in rows_of])
    per_row = np.stack([np.nanmax(hot[:, rix == k], axis=1) for k in range(len(row_names))], 1)
    if len(row_names) <= MAX_LEGEND - 1:
        cm = plt.get_cmap("tab10")
        for k, rn in enumerate(row_names):
            sub = hot[:, rix == k]
            ax.fill_between(t, np.nanmin(sub, 1), np.nanmax(sub, 1), color=cm(k), alpha=0.2)
            ax.plot(t, np.nanmean(sub, 1), color=cm(k), label=f"row {rn} (mean, band min–max)")
    else:
        ax.fill_between(t, np.nanmin(per_row, 1), np.nanmax(per_row, 1), color="tab:red",
                        alpha=0.25, label=f"hottest rack per row (min–max of {len(row_names)} rows)")
        ax.plot(t, np.nanmedian(per_row, 1), color="tab:red", label="median row")
        ax.plot(t, np.nanmean(hot, 1), color="tab:blue", label="mean rack")
    mark_events(ax, events)
    ax.set_xlabel("time (min)")
    ax.set_ylabel(f"{hot_what} (°C)")
    ax.grid(alpha=0.3)
    legend(ax, loc="best")
    figs.add("Spread by row over time", fig, "row_spread_time.png")
    # --- at chosen times: per-row spread across racks, distributions across GPUs, maps
    at = choose_times(f, t_s, peak_row, a.at)
    tables = []
    for n, row in enumerate(at):
        when = f"{fmt(t[row])} min"
        fig, ax = plt.subplots(figsize=(9, 3.6))
        x = np.arange(len(row_names))
        st = [hot[row, rix == k] for k in range(len(row_names))]
        mn = [np.nanmin(s) for s in st]
        mx = [np.nanmax(s) for s in st]
        me = [np.nanmean(s) for s in st]
        p99 = [np.nanpercentile(s, 99) for s in st]
        ax.fill_between(x, mn, mx, color="tab:orange", alpha=0.3, step="mid", label="min–max")
        ax.plot(x, me, "o-", ms=3, color="tab:blue", label="mean")
        ax.plot(x, p99, "_", ms=10, color="tab:red", label="p99")
        step = max(1, math.ceil(len(row_names) / 32))
        ax.set_xticks(x[::step], [f"{r}" for r in row_names[::step]], fontsize=7)
        ax.set_xlabel("row")
        ax.set_ylabel(f"{hot_what} (°C)")
        ax.set_title(f"Racks by row at {when}", fontsize=10)
        ax.grid(alpha=0.3)
        legend(ax)
        figs.add(f"Per-row spread at {when}", fig, f"row_spread_{n}.png")
        if ctx["Tj"] is not None:
            fig, axes = plt.subplots(1, 3, figsize=(11, 3.4))
            for axh, key, lab, off, sc in [(axes[0], "Tj", "junction (°C)", -C0, 1),
                                           (axes[1], "Thbm", "HBM (°C)", -C0, 1),
                                           (axes[2], "clk", "SM clock (%)", 0, 100)]:
                if ctx[key] is None:
                    axh.axis("off")
                    continue
                v = (ctx[key][row] + off) * sc
                v = v[np.isfinite(v)]
                axh.hist(v, bins=min(60, max(10, int(np.sqrt(v.size)))), color="tab:blue")
                if v.size:
                    axh.axvline(np.percentile(v, 99), color="tab:red", ls="--", lw=0.8,
                                label=f"p99 {fmt(np.percentile(v, 99))}")
                    legend(axh)
                axh.set_xlabel(lab)
                axh.set_ylabel("GPUs")
                axh.grid(alpha=0.3)
            fig.suptitle(f"Across the {ctx['Tj'].shape[1]} GPUs at {when}", fontsize=10)
            figs.add(f"GPU distributions at {when}", fig, f"gpu_hist_{n}.png")
            # top-N hottest GPUs and racks with their cause
            Tj = ctx["Tj"][row]
            order = np.argsort(np.where(np.isfinite(Tj), -Tj, np.inf))[:a.top]
            gt = [["GPU", "rack", "tray", "slot", "junction (°C)", "likely cause"]]
            for g in order:
                gt.append([str(int(g)), names[int(ctx["gr"][g])],
                           str(int(f["gpu/tray"][g])) if "gpu/tray" in f else "–",
                           str(int(f["gpu/slot"][g])) if "gpu/slot" in f else "–",
                           fmt(Tj[g] - C0), gpu_cause(f, int(g), row, ctx)])
            tables.append((f"Top {len(order)} hottest GPUs at {when}", gt))
        ro = np.argsort(np.where(np.isfinite(hot[row]), -hot[row], np.inf))[:a.top]
        rt = [["rack", "row", "position", f"{hot_what} (°C)", "likely cause"]]
        for r in ro:
            cause = "–"
            if ctx["Tj"] is not None:
                gs = np.where(ctx["gr"] == r)[0]
                if gs.size:
                    g = gs[np.nanargmax(ctx["Tj"][row, gs])]
                    cause = gpu_cause(f, int(g), row, ctx)
            rt.append([names[r], rows_of[r], str(int(idx[r])), fmt(hot[row, r]), cause])
        tables.append((f"Top {len(ro)} hottest racks at {when}", rt))
        hotspot_map(figs, f, hot[row], f"Floor at {when}: {hot_what} (°C)", "°C",
                    f"floor_{n}.png")
        rack_spread(figs, f, row, when, n)
    job_section(figs, f, t, summary, tables)
    jobs_table(f, summary, tables)
    plant_section(figs, f, t, events, summary)
    grid_section(figs, f, summary, tables)
    calendar_section(figs, f, t_s, summary, tables)
    # time above the threshold: what a whole-run maximum hides (an isolated rack is cold here)
    dt = np.diff(t_s, prepend=t_s[0])
    thr = a.threshold
    if thr is None:  # within 5 K of the run's peak: where the heat concentrates
        thr = float(math.floor(np.nanmax(hot) - 5.0))
    above = ((hot > thr) * dt[:, None]).sum(axis=0) / 60.0
    hotspot_map(figs, f, above, f"Floor: minutes with {hot_what} above {fmt(thr)} °C",
                "min", "floor_above.png", cmap="magma", lo=0.0,
                hi=max(1e-3, float(np.nanmax(above))) if np.any(above > 0) else 1.0)
    title = f.attrs.get("facility_name", "")
    title = title.decode() if isinstance(title, bytes) else str(title)
    return figs, events, summary, alarms, tables, title


# ---------------------------------------------------------------------------------------------
# sweeps

def pareto(x, y):
    """indices of the points no other point beats in both x and y (both minimized); y within a
    millionth of the best so far counts as a tie (same GPU side, another site)"""
    order = np.lexsort((y, x))
    front, best = [], math.inf
    for i in order:
        if y[i] < best - 1e-6 * max(abs(best), 1e-12) if math.isfinite(best) else True:
            front.append(i)
            best = y[i]
    return front


def epw_site(path, dirs):
    """the site an EnergyPlus weather file names on its LOCATION line ("Phoenix (synthetic)"), or
    its file name in words ("phoenix_hot_dry.epw" -> "Phoenix hot dry") when it cannot be read"""
    for d in dirs:
        full = path if os.path.isabs(path) else os.path.join(d, path)
        try:
            with open(full, encoding="latin-1") as e:
                head = e.readline().split(",")
            if head[0] == "LOCATION" and len(head) > 1 and head[1].strip():
                return head[1].strip()
        except OSError:
            continue
    words = os.path.splitext(os.path.basename(path))[0].replace("_", " ").replace("-", " ")
    return words[:1].upper() + words[1:]


def category_labels(values, dirs=()):
    """short labels for categorical values (files, words): what differs between them; a number
    when that is all that differs (pod_gb200_r4.yaml, ..._r8.yaml -> 4 … 8); weather files by
    their site"""
    if values and all(v.lower().endswith(".epw") for v in values):
        sites = [epw_site(v, dirs) for v in values]
        if len(set(sites)) == len(set(values)):
            return sites, None
    stems = [os.path.splitext(os.path.basename(v))[0] for v in values]
    if len(set(stems)) < len(set(values)):
        stems = list(values)
    if len(stems) > 1:
        pre = os.path.commonprefix(stems)
        suf = os.path.commonprefix([s[::-1] for s in stems])[::-1]
        core = [s[len(pre):len(s) - len(suf)] if len(s) > len(pre) + len(suf) else s for s in stems]
        if all(core) and len(set(core)) == len(set(stems)):
            stems = core
    nums = [re.fullmatch(r"[A-Za-z_-]*(\d+(\.\d+)?)", s) for s in stems]
    if all(nums):
        return [n.group(1) for n in nums], [float(n.group(1)) for n in nums]
    return stems, None


def sweep_param(c, p, n, dirs=()):
    txt = text(c["parameters"][p])
    xs = c["parameters_si"][p][()] if "parameters_si" in c else np.full(n, np.nan)
    numeric = bool(np.all(np.isfinite(xs)))
    if numeric and np.all(np.abs(xs - 273.15) < 200) and any("degC" in v for v in txt):
        return xs - C0, f"{p} (°C)", None
    if numeric:
        return xs.astype(float), p, None
    labels, nums = category_labels(txt, dirs)
    if nums is not None:
        return np.array(nums), p, None
    cats = sorted(set(labels))
    return np.array([cats.index(v) for v in labels], dtype=float), p, cats


def sweep_report(f, out):
    figs = Figures(out)
    c = f["cases"]
    n = c["index"].shape[0]
    status = text(c["status"])
    # only cases that ran with their whole load are plotted, fronted and ranked: a case whose
    # racks protection powered off looks cool and frugal (status completed; "ok" in files of
    # dctwin before journal format 5, which could not tell)
    ok = np.array([s in ("completed", "ok") for s in status])
    failed = np.array([s in ("failed", "solver_failed", "input_failed") for s in status])
    outcome = text(c["outcome"]) if "outcome" in c else [
        "failed" if failed[i] else status[i] for i in range(n)]
    params = list(c["parameters"].keys()) if "parameters" in c else []
    ens = f["ensemble"] if "ensemble" in f else None
    if ens is not None and "parameters" in ens:
        # an ensemble: the design parameters are the axes; the replicates' seeds and uncertain
        # draws are noise, shown as intervals (ensemble_section), not as axes
        params = [p for p in params if p in ens["parameters"]]
    plant = "E_facility" in c and np.any(np.isfinite(c["E_facility"][()][ok]))
    currency = sweep_currency(f)
    if plant:  # the plant's metrics first: what a site's manager asks of a design
        metrics = [("PUE", "PUE", "", 0.0),
                   ("cooling pPUE", "pPUE_cooling", "", 0.0),
                   ("WUE", "WUE", "L/kWh", 0.0),
                   ("cost", "cost", currency, 0.0),
                   ("throughput lost", "throughput_lost", "", 0.0),
                   ("hottest GPU junction", "T_junction_max", "°C", -C0),
                   ("throttled GPU-seconds", "gpu_seconds_throttled", "s", 0.0),
                   ("facility energy", "E_facility", "MWh", None),
                   ("chiller energy", "E_chillers", "MWh", None),
                   ("dry-cooler fan energy", "E_dry_coolers", "MWh", None),
                   ("tower fan energy", "E_towers", "MWh", None),
                   ("mechanical cooling", "time_partial", "h", None)]
    else:
        metrics = [("hottest GPU junction", "T_junction_max", "°C", -C0),
                   ("hottest cold-plate case", "T_case_max", "°C", -C0),
                   ("hottest CDU supply", "T_supply_max", "°C", -C0),
                   ("throttled GPU-seconds", "gpu_seconds_throttled", "s", 0.0),
                   ("throughput ratio", "throughput_ratio", "", 0.0),
                   ("PUE", "PUE", "", 0.0),
                   ("cooling energy", "E_cooling", "kWh", None),
                   ("IT energy", "E_it", "kWh", None),
                   ("lowest flow margin", "flow_margin_min", "", 0.0)]
        if "P_it_mean" in c:  # one basis: mean powers over the (common) window, not energies
            metrics = [("CDU pump power, window mean", "P_pump_mean", "kW", None)
                       if m[1] == "E_cooling" else
                       ("IT power, window mean", "P_it_mean", "kW", None)
                       if m[1] == "E_it" else m for m in metrics]
    metrics = [m for m in metrics if m[1] in c and np.any(np.isfinite(c[m[1]][()][ok]))]
    dirs = sweep_dirs(f)
    pv = {p: sweep_param(c, p, n, dirs) for p in params}
    for p in params:
        xs, xlabel, cats = pv[p]
        other = [q for q in params if q != p]
        cols = 3
        rows = max(1, math.ceil(len(metrics) / cols))
        fig, axes = plt.subplots(rows, cols, figsize=(11, min(7.8, 2.6 * rows)), squeeze=False)
        for k, (label, key, unit, off) in enumerate(metrics):
            ax = axes[k // cols][k % cols]
            y = scaled(c, key, unit, off)
            if other:  # coloured by the second parameter, one line per value
                q = other[0]
                qx, qlabel, qcats = pv[q]
                vals = sorted(set(qx[ok].tolist()))
                cm = plt.get_cmap("viridis")
                for j, v in enumerate(vals):
                    m = ok & (qx == v)
                    o = np.argsort(xs[m])
                    name = qcats[int(v)] if qcats else (
                        str(int(round(v))) if abs(v - round(v)) < 1e-9 else fmt(v, 2))
                    ax.plot(xs[m][o], y[m][o], "o-", ms=3, lw=1,
                            color=cm(j / max(1, len(vals) - 1)), label=f"{qlabel} = {name}")
            else:
                ax.scatter(xs[ok], y[ok], s=14)
            ax.set_xlabel(xlabel, fontsize=8)
            ax.set_ylabel(f"{label}" + (f" ({unit})" if unit else ""), fontsize=8)
            ax.grid(alpha=0.3)
            if cats:
                ax.set_xticks(range(len(cats)), cats, rotation=30, fontsize=7, ha="right")
        for k in range(len(metrics), rows * cols):
            axes[k // cols][k % cols].axis("off")
        if other and metrics:  # one legend for the figure, in the first plot
            legend(axes[0][0], ncol=1 if len(set(pv[other[0]][0])) <= 5 else 2)
        safe = "".join(ch if ch.isalnum() else "_" for ch in p)
        figs.add(f"Metrics against {p}" + (f", coloured by {other[0]}" if other else "")
                 + excluded_note(c, ok, outcome), fig, f"metrics_{safe}.png")
    # Pareto front: energy overhead against training throughput lost (both to be minimized);
    # PUE where the facility has a power chain, else cooling energy per IT energy
    if "PUE" in c and np.any(np.isfinite(c["PUE"][()][ok])):
        x = c["PUE"][()]
        xlabel = "PUE (energy overhead)"
    else:
        x = 1.0 + c["E_cooling"][()] / c["E_it"][()]
        xlabel = "1 + cooling energy / IT energy"
    if "throughput_ratio" in c and np.any(np.isfinite(c["throughput_ratio"][()][ok])):
        yv = 1.0 - c["throughput_ratio"][()]
        ylabel = "training throughput lost (1 - throughput ratio)"
    else:
        yv = c["gpu_seconds_throttled"][()]
        ylabel = "throttled GPU-seconds"
    good = ok & np.isfinite(x) & np.isfinite(yv)
    idx = np.where(good)[0]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if params:
        qx, qlabel, qcats = pv[params[0]]
        sc = ax.scatter(x[good], yv[good], s=16, c=qx[good], cmap="viridis", label="cases")
        cb = fig.colorbar(sc, ax=ax)
        cb.set_label(qlabel)
        if qcats:
            cb.set_ticks(range(len(qcats)), labels=qcats)
    else:
        ax.scatter(x[good], yv[good], s=16, label="cases")
    if idx.size:
        front = idx[pareto(x[idx], yv[idx])]
        front = front[np.argsort(x[front])]
        ax.plot(x[front], yv[front], "r-o", ms=5, mfc="none", label="Pareto front")
        for i in front:
            ax.annotate(str(int(c["index"][i])), (x[i], yv[i]), fontsize=7,
                        textcoords="offset points", xytext=(3, 3))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    legend(ax)
    figs.add("Energy overhead against throughput lost: the Pareto front"
             + excluded_note(c, ok, outcome), fig, "pareto.png")
    if plant and "throughput_lost" in c:
        plant_fronts(figs, c, ok, params, pv, currency, excluded_note(c, ok, outcome))
    table = []
    shown = metrics[:6]
    for i in range(n):
        row = [str(int(c["index"][i])),
               status[i] if ok[i] else f"{status[i]}: EXCLUDED ({outcome[i]})"]
        row += [pv[p][2][int(pv[p][0][i])] if pv[p][2] else text(c["parameters"][p])[i]
                for p in params]
        for label, key, unit, off in shown:
            v = float(scaled(c, key, unit, off)[i])
            row.append("" if not math.isfinite(v) else f"{v:.4g}")
        table.append(row)
    head = ["case", "status"] + params + [f"{m[0]}" + (f" ({m[2]})" if m[2] else "") for m in shown]
    best = []
    if idx.size:
        i = idx[np.argmin(yv[idx])]
        best.append(("Least throughput lost", f"case {int(c['index'][i])}: {fmt(yv[i], 4)}"))
        i = idx[np.argmin(x[idx])]
        best.append(("Lowest energy overhead", f"case {int(c['index'][i])}: {fmt(x[i], 3)}"))
    if plant:
        for label, key, unit in (("Lowest facility energy", "E_facility", "MWh"),
                                 ("Least site water", "water_site", "m3"),
                                 ("Lowest cost", "cost", currency)):
            v = scaled(c, key, unit, None)
            g = np.where(ok & np.isfinite(v))[0]
            if g.size:
                i = g[np.argmin(v[g])]
                best.append((label, f"case {int(c['index'][i])}: {fmt(v[i], 4)} {unit}"))
    tables = []
    jobs = case_jobs_table(f, ok, c)
    if jobs:
        tables.append(("Each job of each case (/case_jobs, over the metrics window)", jobs))
    if ens is not None:
        ens_rows, ens_best = ensemble_section(figs, c, ens, ok, metrics, pv, params)
        tables.append(("Ensemble: mean [p5, p95] over each design point's completed replicates",
                       ens_rows))
        best += ens_best
    shed = ~ok & ~failed
    best.insert(0, ("Cases", f"{n} ({int(ok.sum())} completed, {int(shed.sum())} not comparable "
                             f"(protection acted or the job failed), {int(failed.sum())} failed)"))
    if np.any(~ok):
        best.insert(1, ("Excluded from plots, fronts and rankings",
                        "; ".join(f"case {int(c['index'][i])}: {outcome[i]}"
                                  for i in np.where(~ok)[0][:12])
                        + (f"; ... ({int((~ok).sum()) - 12} more)" if (~ok).sum() > 12 else "")))
    return figs, head, table, best, tables


def case_jobs_table(f, ok, c, limit=200):
    """the per-job table of a sweep whose cases run more than one job (docs/sweep-format.md
    "Per-job metrics"): each job's step, tokens/s, MFU, throughput and largest map shares; a
    case not comparable is marked, as in the cases table. None with one job per case (the /cases
    columns say it all) or in a file from a dctwin before the table"""
    if "case_jobs" not in f:
        return None
    j = f["case_jobs"]
    case = j["case"][()]
    if case.size == 0 or len(set(case.tolist())) == case.size:
        return None
    names, kinds = text(j["job"]), text(j["kind"])
    row_of = {int(k): i for i, k in enumerate(c["index"][()])}

    def col(name):
        return j[name][()] if name in j else np.full(case.size, np.nan)

    def v(x, scale=1.0, nd=4):
        return f"{x * scale:.{nd}g}" if math.isfinite(x) else ""

    step, tok, mfu = col("step_time"), col("tokens_per_second"), col("mfu")
    thr, comp, wait = col("throughput_ratio"), col("map_compute"), col("map_barrier_wait")
    rows = [["case", "job", "kind", "GPUs", "step achieved (s)", "Mtokens/s", "MFU (%)",
             "throughput ratio", "compute (%)", "barrier wait (%)"]]
    for i in range(min(case.size, limit)):
        k = int(case[i])
        mark = "" if ok[row_of.get(k, 0)] else " (EXCLUDED)"
        rows.append([f"{k}{mark}", names[i], kinds[i], str(int(col("gpus")[i])), v(step[i]),
                     v(tok[i], 1e-6), v(mfu[i], 100, 3), v(thr[i]), v(comp[i], 100, 3),
                     v(wait[i], 100, 3)])
    if case.size > limit:
        rows.append([f"... {case.size - limit} more rows (dctwin export --jobs)"] + [""] * 9)
    return rows


def ensemble_section(figs, c, ens, ok, metrics, pv, params):
    """an ensemble sweep (replicates): each metric's mean with its p5-p95 interval per design
    point against the first design parameter, the completed replicates as dots; the table of
    intervals. A design choice is told from the seed's noise where the intervals do not overlap"""
    npts = ens["point"].shape[0]
    reps = ens["replicates"][()]
    done = ens["completed"][()]
    outcome = text(ens["outcome"])
    point_of = c["design_point"][()] if "design_point" in c else c["index"][()] // max(1, reps[0])
    shown = [m for m in metrics if f"mean/{m[1]}" in ens][:6]
    if params and shown:
        p = params[0]
        xs_case, xlabel, cats = pv[p]
        xs = np.array([xs_case[np.where(point_of == k)[0][0]] for k in range(npts)])
        cols = 3
        rows = max(1, math.ceil(len(shown) / cols))
        fig, axes = plt.subplots(rows, cols, figsize=(11, min(7.8, 2.8 * rows)), squeeze=False)
        good = done >= 2
        for k, (label, key, unit, off) in enumerate(shown):
            ax = axes[k // cols][k % cols]
            mean, lo, hi = (scaled(ens[st], key, unit, off) for st in ("mean", "p5", "p95"))
            ycase = scaled(c, key, unit, off)
            ax.scatter(xs_case[ok], ycase[ok], s=6, color="0.6", label="replicates")
            ax.errorbar(xs[good], mean[good], yerr=[mean[good] - lo[good], hi[good] - mean[good]],
                        fmt="o", ms=4, capsize=3, color="C0", label="mean, p5-p95")
            ax.set_xlabel(xlabel, fontsize=8)
            ax.set_ylabel(f"{label}" + (f" ({unit})" if unit else ""), fontsize=8)
            ax.grid(alpha=0.3)
            if cats:
                ax.set_xticks(range(len(cats)), cats, rotation=30, fontsize=7, ha="right")
        for k in range(len(shown), rows * cols):
            axes[k // cols][k % cols].axis("off")
        legend(axes[0][0])
        figs.add(f"Ensemble: mean and p5-p95 over {int(reps[0])} replicates per design point "
                 f"against {p} (completed replicates only; grey: each replicate)", fig,
                 "ensemble.png")
    head = ["point"] + params + ["completed"] + [
        m[0] + (f" ({m[2]})" if m[2] else "") for m in shown]
    rows = [head]
    for k in range(npts):
        row = [str(int(ens["point"][k]))]
        row += [text(ens["parameters"][p])[k] for p in params]
        row.append(f"{int(done[k])}/{int(reps[k])}" + ("" if done[k] == reps[k] else
                                                         f" ({outcome[k]})"))
        for label, key, unit, off in shown:
            def v(st):
                return float(scaled(ens[st], key, unit, off)[k])
            row.append("" if not math.isfinite(v("mean")) else
                       f"{v('mean'):.4g} [{v('p5'):.4g}, {v('p95'):.4g}]")
        rows.append(row)
    best = [("Ensemble", f"{npts} design points x {int(reps[0])} replicates (variation seeds"
                         " and uncertain inputs); intervals over the completed replicates")]
    if np.any(done < reps):
        best.append(("Replicates not completed",
                     "; ".join(f"point {k}: {outcome[k]}" for k in np.where(done < reps)[0][:12])))
    return rows, best


def excluded_note(c, ok, outcome):
    """the caption's note on the cases a plot leaves out, and why"""
    out = np.where(~ok)[0]
    if not out.size:
        return ""
    why = sorted(set(o.split(":")[0] for o in (outcome[i] for i in out)))
    cases = ", ".join(str(int(c["index"][i])) for i in out[:10]) + (" ..." if out.size > 10 else "")
    return (f" (not plotted: case{'s' if out.size > 1 else ''} {cases}, {'; '.join(why)}: "
            f"their load was shed or they failed, so they are not comparable)")


def scaled(c, key, unit, off):
    """a /cases column in the unit people read: J -> kWh or MWh, s -> h, kg -> m3"""
    y = c[key][()].astype(float)
    div = {"kWh": 3.6e6, "MWh": 3.6e9, "h": 3600.0, "m3": 1000.0, "kW": 1e3, "MW": 1e6}.get(unit)
    return y / div if div else y + (off or 0.0)


def sweep_dirs(f):
    """folders a sweep's relative file values may be read from: the sweep file's, then here"""
    sf = f.attrs.get("sweep_file", b"")
    sf = sf.decode() if isinstance(sf, bytes) else str(sf)
    return [d for d in (os.path.dirname(os.path.abspath(sf)) if sf else "", os.getcwd()) if d]


def sweep_currency(f):
    """the unit of /cases/cost: the file's currency attribute, else the base facility's tariff
    currency (plant.tariff.currency; the plant's default EUR)"""
    cur = f.attrs.get("currency", b"")
    cur = cur.decode() if isinstance(cur, bytes) else str(cur)
    if cur:
        return cur
    t = f.attrs.get("facility_text", b"")
    t = t.decode() if isinstance(t, bytes) else str(t)
    m = re.search(r"^\s*currency:\s*([A-Za-z]+)", t, re.M)
    return m.group(1) if m else "EUR"


def plant_fronts(figs, c, ok, params, pv, currency, note=""):
    """facility energy, site water and cost of each case against its training throughput lost,
    coloured by the second parameter and marked by the first, with each panel's Pareto front"""
    span = (c["time_free"][()] + c["time_partial"][()] + c["time_mechanical"][()]) / 86400.0
    days = float(np.nanmedian(span[ok])) if np.any(ok) else 0.0
    if days >= 364:
        over = "annual"
    elif days >= 1:
        over = f"over {fmt(days, 1)} d"
    elif days * 24 >= 1:
        over = f"over {fmt(days * 24, 1)} h"
    else:
        over = f"over {fmt(days * 1440, 1)} min"
    y = c["throughput_lost"][()].astype(float)
    panels = [(f"facility energy, {over} (MWh)", scaled(c, "E_facility", "MWh", None)),
              (f"site water, {over} (m³)", scaled(c, "water_site", "m3", None)),
              (f"electricity cost, {over} ({currency})", scaled(c, "cost", currency, None))]
    colour_by = params[1] if len(params) > 1 else (params[0] if params else None)
    mark_by = params[0] if len(params) > 1 else None
    markers = "osD^vP*X"
    cm = plt.get_cmap("viridis")

    def groups(p):
        if p is None:
            return [(None, np.ones(len(y), dtype=bool))]
        qx, qlabel, qcats = pv[p]
        out = []
        for v in sorted(set(qx[ok].tolist())):
            name = qcats[int(v)] if qcats else (
                str(int(round(v))) if abs(v - round(v)) < 1e-9 else fmt(v, 3))
            out.append((f"{qlabel} = {name}", qx == v))
        return out

    colours, marks = groups(colour_by), groups(mark_by)
    fig, axes = plt.subplots(1, len(panels), figsize=(11.5, 4.2), squeeze=False)
    for k, (xlabel, x) in enumerate(panels):
        ax = axes[0][k]
        good = ok & np.isfinite(x) & np.isfinite(y)
        for j, (clab, cm_) in enumerate(colours):
            for i, (mlab, mm) in enumerate(marks):
                m = good & cm_ & mm
                if m.any():
                    ax.scatter(x[m], y[m], s=34, marker=markers[i % len(markers)],
                               color=cm(j / max(1, len(colours) - 1)), edgecolor="k", lw=0.4)
        idx = np.where(good)[0]
        if idx.size:
            front = idx[pareto(x[idx], y[idx])]
            front = front[np.argsort(x[front])]
            ax.plot(x[front], y[front], "r--", lw=1, label="Pareto front" if k == 0 else None)
        ax.set_xlabel(xlabel, fontsize=8)
        ax.set_ylabel("training throughput lost (1 - ratio)" if k == 0 else "", fontsize=8)
        ax.grid(alpha=0.3)
    # one legend: a colour per value of the second parameter, a marker per value of the first
    ax = axes[0][0]
    for j, (clab, _) in enumerate(colours):
        if clab:
            ax.scatter([], [], s=34, marker="o", color=cm(j / max(1, len(colours) - 1)),
                       edgecolor="k", lw=0.4, label=clab)
    for i, (mlab, _) in enumerate(marks):
        if mlab:
            ax.scatter([], [], s=34, marker=markers[i % len(markers)], color="white",
                       edgecolor="k", lw=0.8, label=mlab)
    legend(ax, loc="best")
    figs.add(f"Facility energy, water and cost {over} against training throughput lost"
             + (f", coloured by {colour_by}" if colour_by else "")
             + (f", marked by {mark_by}" if mark_by else "") + note, fig, "plant_front.png")


# ---------------------------------------------------------------------------------------------
# output

# root attributes shown under "Provenance" (docs/results.md), in this order, where the file has them
PROVENANCE = ["dctwin_version", "git_revision", "command_line", "host", "created", "data_dir",
              "solver_rtol", "solver_atol_temperature", "solver_atol_control", "solver_max_step",
              "output_interval", "gpu_step", "coupling_step"]


def provenance(f):
    """(name, value text) of the provenance attributes the file has"""
    rows = []
    for k in PROVENANCE:
        if k in f.attrs:
            v = f.attrs[k]
            rows.append((k, v.decode() if isinstance(v, bytes) else str(v)))
    return rows


def alarm_table(alarms):
    head = ["component", "first alarm", "severity", "first at (s)", "detected at (s)",
            "isolated at (s)", "detection → isolation (s)", "alarms"]
    rows = []
    for c, e in sorted(alarms.items(), key=lambda kv: kv[1]["first"]):
        d, i = e["detected"], e["isolated"]
        rows.append([c, e["kind"], e["severity"], fmt(e["first"]), fmt(d) if d is not None else "–",
                     fmt(i) if i is not None else "–",
                     fmt(i - d) if d is not None and i is not None else "–", str(e["count"])])
    return head, rows


def html_table(h, head, rows):
    h.write("<table><tr>" + "".join(f"<th>{html.escape(x)}</th>" for x in head) + "</tr>")
    for row in rows:
        h.write("<tr>" + "".join(f"<td>{html.escape(str(x))}</td>" for x in row) + "</tr>")
    h.write("</table>\n")


def write_html(out, title, figs, summary, subtitle="", alarms=None, tables=(), events=None,
               cases=None, prov=None):
    with open(os.path.join(out, "index.html"), "w") as h:
        h.write("<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
                f"<title>{html.escape(title)}</title><style>"
                "body{font-family:sans-serif;max-width:1150px;margin:auto;padding:0 8px}"
                "table{border-collapse:collapse;font-size:12px;margin-bottom:8px}"
                "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
                "img{max-width:100%}</style></head><body>\n")
        h.write(f"<h1>{html.escape(title)}</h1><p>{html.escape(subtitle)}</p>\n")
        h.write("<h2>Summary</h2>")
        html_table(h, ["", ""], summary)
        if alarms is not None:
            h.write("<h3>Alarms</h3>")
            if alarms:
                html_table(h, *alarm_table(alarms))
            else:
                h.write("<p>none</p>")
        for cap, rows in tables:
            h.write(f"<h3>{html.escape(cap)}</h3>")
            html_table(h, rows[0], rows[1:])
        for caption, name, b64, _, _ in figs.items:
            h.write(f"<h2>{html.escape(caption)}</h2><img src='data:image/png;base64,{b64}' "
                    f"alt='{html.escape(caption)}'>\n")
        if events is not None:
            h.write("<h2>Events</h2>")
            if not events:
                h.write("<p>none</p>")
            else:
                shown = events[:MAX_EVENT_ROWS]
                html_table(h, ["time (s)", "severity", "component", "kind", "message"],
                           [[fmt(tt), s, c, k, m] for tt, s, c, k, m in shown])
                if len(events) > len(shown):
                    h.write(f"<p>… and {len(events) - len(shown)} more (the file has them all: "
                            "/events)</p>")
        if cases is not None:
            h.write("<h2>Cases</h2>")
            html_table(h, *cases)
        if prov:
            h.write("<h2>Provenance</h2>")
            html_table(h, ["attribute", "value"], prov)
        h.write("</body></html>\n")


def table_page(pdf, title, blocks):
    """a PDF page of text tables: (heading, head, rows) blocks, long cells wrapped"""
    fig = plt.figure(figsize=(8.27, 11.69))
    fig.text(0.05, 0.97, title, fontsize=13, weight="bold", va="top")
    y = 0.93
    for heading, head, rows in blocks:
        if y < 0.1:
            break
        fig.text(0.05, y, heading, fontsize=10, weight="bold", va="top")
        y -= 0.025
        lines = [head] + rows if head else rows
        for r in lines[:40]:
            s = "   ".join(str(x) for x in r)
            while s and y > 0.04:
                fig.text(0.06, y, s[:120], fontsize=7, va="top", family="monospace",
                         weight="bold" if r is head else "normal")
                s = s[120:]
                y -= 0.016
        y -= 0.015
    pdf.savefig(fig)
    plt.close(fig)


def write_pdf(out, title, figs, blocks):
    with PdfPages(os.path.join(out, "report.pdf")) as pdf:
        table_page(pdf, title, blocks)
        for caption, fig in figs.figs:
            fig.suptitle(caption, fontsize=9, y=0.995) if not fig._suptitle else None
            pdf.savefig(fig)
            plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description="dctwin review report (self-contained HTML + PDF)")
    ap.add_argument("results")
    ap.add_argument("-o", "--output", required=True, help="folder for index.html, report.pdf")
    ap.add_argument("--at", type=float, nargs="*", default=None, metavar="MIN",
                    help="times (min) for the distributions and hotspot maps "
                         "(default: the peak junction and the end)")
    ap.add_argument("--threshold", type=float, default=None, metavar="DEGC",
                    help="temperature for the time-above-threshold map "
                         "(default: 5 K below the run's peak, rounded down)")
    ap.add_argument("--top", type=int, default=10, help="hottest GPUs and racks listed (default 10)")
    a = ap.parse_args()
    why = check_regular_file(a.results, MAX_RESULTS_BYTES)
    if why:
        print(f"dctwin report: {a.results}: {why}", file=sys.stderr)
        return 2
    if same_file(a.results, a.output) or os.path.realpath(a.output) == os.path.realpath(a.results):
        print(f"dctwin report: {a.results}: the output folder is the results file", file=sys.stderr)
        return 2
    os.makedirs(a.output, exist_ok=True)
    try:
        f = h5py.File(a.results, "r")
    except (OSError, ValueError) as e:  # not HDF5, truncated, damaged: a message, no traceback
        reason = str(e).split("(", 1)[-1].rstrip(")") if "(" in str(e) else str(e)
        print(f"dctwin report: {a.results}: cannot read the results file ({reason})",
              file=sys.stderr)
        return 2
    copy = None
    try:
        durable = durable_copy(f, a.output)
        if durable is not None:
            f.close()
            f, note = durable
            copy = f.filename
            print(f"dctwin report: {a.results}: {note}", file=sys.stderr)
        return report(f, a)
    except Exception as e:  # noqa: BLE001 (a crafted or damaged file: a message, no traceback)
        print(f"dctwin report: {a.results}: damaged or not a dctwin results file "
              f"({type(e).__name__}: {str(e)[:300]})", file=sys.stderr)
        return 2
    finally:
        f.close()
        if copy is not None and os.path.exists(copy):
            os.unlink(copy)


# the largest results file read (as the C++ readers: solver/common/bounded_file.h)
MAX_RESULTS_BYTES = 64 << 30


def check_regular_file(path, limit):
    """'' when path is a regular file of at most `limit` bytes, else why not; the file is opened
    without blocking (a FIFO, a device) and examined before anything reads it"""
    import stat
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        return "no such file" if e.errno == 2 else f"cannot open: {e.strerror}"
    try:
        st = os.fstat(fd)
    finally:
        os.close(fd)
    if stat.S_ISDIR(st.st_mode):
        return "is a folder, not a results file"
    if not stat.S_ISREG(st.st_mode):
        return "is not a regular file (a FIFO, a device or a socket)"
    if st.st_size > limit:
        return f"the file is too large ({st.st_size} bytes; at most {limit})"
    return ""


def same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def durable_copy(f, folder):
    """a run file with rows past its durable end (root attribute rows_complete, written only
    after the rows it counts are on disk: a run killed while it flushed or closed) is reported
    up to that end only: a copy in `folder` with its time series cut there, opened, and a note
    to print; None for a file whose every row is durable"""
    if "time" not in f or "rows_complete" not in f.attrs:
        return None
    total = f["time"].shape[0]
    keep = int(f.attrs["rows_complete"])
    if keep < 0 or keep >= total:
        return None
    t = f["time"][()]
    t_end = t[keep - 1] if keep > 0 else -np.inf
    keep_power = int(np.sum(f["power/time"][()] <= t_end)) if "power/time" in f else 0
    import tempfile
    fd, path = tempfile.mkstemp(suffix=".h5", prefix=".durable_", dir=folder)
    os.close(fd)
    g = h5py.File(path, "w")
    for k, v in f.attrs.items():
        g.attrs[k] = v
    for name in f:
        f.copy(f[name], g, name=name)

    def cut(name, obj):
        if not isinstance(obj, h5py.Dataset) or not obj.shape or obj.maxshape[0] is not None:
            return
        n = keep_power if name.startswith("power/") else keep
        if name.startswith("events/") or obj.shape[0] <= n:
            return
        if name.startswith("power/") or obj.shape[0] == total:
            obj.resize(n, axis=0)

    g.visititems(cut)
    g.close()
    note = (f"{total - keep} row(s) past the file's durable end (rows_complete = {keep}: the run "
            f"was stopped while it wrote them) are left out")
    return h5py.File(path, "r"), note


def report(f, a):
    """the page and the PDF for an open results file (a run or a sweep); returns the exit status"""
    schema = f.attrs.get("schema", b"")
    schema = schema.decode() if isinstance(schema, bytes) else str(schema)
    name = os.path.basename(a.results)
    if schema.startswith("dctwin-sweep"):
        figs, head, table, best, tables = sweep_report(f, a.output)
        title = f"dctwin sweep: {name}"
        write_html(a.output, title, figs, best, subtitle=f"{len(table)} cases", tables=tables,
                   cases=(head, table), prov=provenance(f))
        blocks = [("Summary", None, best)] + [(cap, rows[0], rows[1:]) for cap, rows in tables]
        write_pdf(a.output, title, figs, blocks + [("Cases", head, table)])
    else:
        figs, events, summary, alarms, tables, sub = run_report(f, a.output, a)
        title = f"dctwin run: {name}"
        write_html(a.output, title, figs, summary, subtitle=sub, alarms=alarms, tables=tables,
                   events=events, prov=provenance(f))
        blocks = [("Summary", None, summary), ("Alarms", *alarm_table(alarms))]
        blocks += [(cap, rows[0], rows[1:]) for cap, rows in tables[:2]]
        write_pdf(a.output, title, figs, blocks)
    with open(os.path.join(a.output, "figures.json"), "w") as j:
        json.dump({"figures": figs.manifest(), "max_legend": MAX_LEGEND}, j, indent=1)
    print(os.path.join(a.output, "index.html"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
