#!/usr/bin/python3
"""dctwin review report: an HTML page with plots from a run or a sweep results file.

    /usr/bin/python3 scripts/report.py RESULTS.h5 -o DIR      (or: dctwin report RESULTS.h5 -o DIR)

Needs Debian's python3-h5py, python3-numpy and python3-matplotlib. Writes DIR/index.html and PNGs.
A run file (dctwin run -o, docs/results.md) gives:
  - temperatures (CDU supply and return, hottest rack outlet, hottest GPU junction, room air)
  - flows (CDU secondary, racks)
  - power and PUE over time
  - the hotspot map of the floor (racks by row and position)
  - GPU-to-GPU variation: histograms of junction, power and clock, and each rack's spread
  - the event log
A sweep file (dctwin sweep -o, docs/sweep-format.md) gives:
  - every metric against every parameter
  - the Pareto front of energy overhead (PUE) against training throughput lost
  - the table of cases
Units as people read them: degC, kW, L/min, minutes.
"""
import argparse
import html
import math
import os
import sys

import h5py
import numpy as np

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

C0 = 273.15


def text(ds):
    return [x.decode() if isinstance(x, bytes) else str(x) for x in ds[()]]


def save(fig, out, name):
    fig.tight_layout()
    path = os.path.join(out, name)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return name


def busiest_row(f):
    """the output row with the largest GPU junction spread (training, where the GPUs differ)"""
    if "facility/gpu_T_junction_spread" in f:
        sp = f["facility/gpu_T_junction_spread"][()].ravel()
        if np.any(np.isfinite(sp)):
            return int(np.nanargmax(sp))
    return f["time"].shape[0] - 1


def variation_figs(f, out, t):
    """histograms of junction, power and clock over the GPUs at the row of the widest junction
    spread, and each rack's min / mean / p99 / max junction over time"""
    figs = []
    if "gpu/T_junction" not in f or f["gpu/T_junction"].shape[1] < 2:
        return figs
    k = busiest_row(f)
    fig, axs = plt.subplots(1, 3, figsize=(12, 3.6))
    series = [("gpu/T_junction", -C0, "junction (°C)"), ("gpu/P", 0.0, "GPU power (W)"),
              ("gpu/clock_ratio", 0.0, "SM clock / boost (1: held at a barrier)")]
    for ax, (path, off, label) in zip(axs, series):
        if path not in f:
            ax.set_visible(False)
            continue
        v = f[path][k, :] + off
        v = v[np.isfinite(v)]
        if v.size == 0:
            continue
        ax.hist(v, bins=min(40, max(5, v.size // 10)), color="tab:red", alpha=0.8)
        ax.set_xlabel(label)
        ax.set_ylabel("GPUs")
        ax.set_title(f"max−min {v.max() - v.min():.3g}, p99 {np.percentile(v, 99):.4g}",
                     fontsize=9)
        ax.grid(alpha=0.3)
    fig.suptitle(f"GPU-to-GPU spread at t = {t[k]:.1f} min", fontsize=10)
    figs.append(("GPU-to-GPU spread (histograms)", save(fig, out, "gpu_spread_hist.png")))
    if "rack/gpu_T_junction_max" in f and "rack/gpu_T_junction_min" in f:
        names = text(f["rack/names"])
        lo = f["rack/gpu_T_junction_min"][k, :] - C0
        hi = f["rack/gpu_T_junction_max"][k, :] - C0
        mean = f["rack/gpu_T_junction_mean"][k, :] - C0
        p99 = f["rack/gpu_T_junction_p99"][k, :] - C0
        ok = np.isfinite(hi)
        x = np.arange(len(names))[ok]
        fig, ax = plt.subplots(figsize=(max(6, 0.5 * len(x) + 2), 4))
        ax.vlines(x, lo[ok], hi[ok], color="0.5", lw=6, alpha=0.5, label="min … max")
        ax.plot(x, mean[ok], "o", color="tab:blue", label="mean")
        ax.plot(x, p99[ok], "^", color="tab:red", label="p99")
        ax.set_xticks(x, [names[i] for i in x], rotation=90 if len(x) > 12 else 0, fontsize=7)
        ax.set_ylabel("GPU junction (°C)")
        ax.set_title(f"Per-rack junction spread at t = {t[k]:.1f} min", fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        figs.append(("Per-rack GPU spread", save(fig, out, "rack_spread.png")))
    return figs


def run_report(f, out):
    figs, notes = [], []
    t = f["time"][()] / 60.0
    # temperatures
    fig, ax = plt.subplots(figsize=(9, 4.5))
    if "cdu" in f:
        names = text(f["cdu/names"])
        for k, n in enumerate(names):
            ax.plot(t, f["cdu/T_sec_supply"][:, k] - C0, label=f"{n} supply")
            ax.plot(t, f["cdu/T_sec_return"][:, k] - C0, "--", label=f"{n} return")
    if "rack/T_return" in f:
        ax.plot(t, f["rack/T_return"][()].max(axis=1) - C0, label="hottest rack outlet")
    if "gpu/T_junction" in f:
        ax.plot(t, f["gpu/T_junction"][()].max(axis=1) - C0, label="hottest GPU junction")
    if "room/T_air" in f:
        ax.plot(t, f["room/T_air"][()].ravel() - C0, ":", label="room air")
    ax.set_xlabel("time (min)")
    ax.set_ylabel("temperature (°C)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    figs.append(("Temperatures", save(fig, out, "temperatures.png")))
    # flows
    fig, ax = plt.subplots(figsize=(9, 4))
    if "cdu/V_flow_sec" in f:
        for k, n in enumerate(text(f["cdu/names"])):
            ax.plot(t, f["cdu/V_flow_sec"][:, k] * 60000, label=f"{n} secondary")
    if "rack/V_flow" in f:
        v = f["rack/V_flow"][()] * 60000
        ax.fill_between(t, v.min(axis=1), v.max(axis=1), alpha=0.3, label="racks (min-max)")
    ax.set_xlabel("time (min)")
    ax.set_ylabel("flow (L/min)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    figs.append(("Flows", save(fig, out, "flows.png")))
    # power and PUE
    fig, ax = plt.subplots(figsize=(9, 4))
    if "facility/P_IT" in f:
        ax.plot(t, f["facility/P_IT"][()].ravel() / 1e3, label="IT")
    elif "rack/P" in f:
        ax.plot(t, f["rack/P"][()].sum(axis=1) / 1e3, label="IT (racks)")
    if "facility/P_total" in f:
        ax.plot(t, f["facility/P_total"][()].ravel() / 1e3, label="total (utility + pumps)")
    if "cdu/P_pump" in f:
        ax.plot(t, f["cdu/P_pump"][()].sum(axis=1) / 1e3, label="CDU pumps")
    ax.set_xlabel("time (min)")
    ax.set_ylabel("power (kW)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    if "facility/PUE" in f:
        a2 = ax.twinx()
        pue = f["facility/PUE"][()].ravel()
        a2.plot(t, pue, "k:", label="PUE")
        a2.set_ylabel("PUE")
        ok = pue[np.isfinite(pue)]
        if ok.size:
            a2.set_ylim(1.0, max(1.2, float(ok.max()) * 1.02))
        a2.legend(fontsize=8, loc="upper right")
    figs.append(("Power and PUE", save(fig, out, "power.png")))
    # the floor: racks by row and position, coloured by their hottest GPU (or outlet)
    if "rack/names" in f:
        names = text(f["rack/names"])
        rows = text(f["rack/row"]) if "rack/row" in f else ["A"] * len(names)
        idx = f["rack/index"][()] if "rack/index" in f else np.arange(1, len(names) + 1)
        if "gpu/T_junction" in f and "gpu/rack" in f:
            Tj = f["gpu/T_junction"][()].max(axis=0)
            gr = f["gpu/rack"][()]
            hot = np.array([Tj[gr == r].max() if np.any(gr == r) else np.nan
                            for r in range(len(names))]) - C0
            what = "hottest GPU junction (°C)"
        else:
            hot = f["rack/T_return"][()].max(axis=0) - C0
            what = "hottest rack outlet (°C)"
        row_names = sorted(set(rows))
        fig, ax = plt.subplots(figsize=(max(5, 1.1 * max(idx) + 2), 1.2 * len(row_names) + 1.5))
        cmap = plt.get_cmap("inferno")
        lo, hi = np.nanmin(hot), np.nanmax(hot)
        for k, n in enumerate(names):
            y = row_names.index(rows[k])
            c = cmap(0.15 + 0.8 * (hot[k] - lo) / (hi - lo) if hi > lo else 0.5)
            ax.add_patch(plt.Rectangle((idx[k] - 0.45, y - 0.4), 0.9, 0.8, color=c))
            ax.text(idx[k], y, f"{n}\n{hot[k]:.1f}", ha="center", va="center", fontsize=7,
                    color="white" if (hi > lo and (hot[k] - lo) / (hi - lo) < 0.6) else "black")
        ax.set_xlim(0.3, max(idx) + 0.7)
        ax.set_ylim(-0.7, len(row_names) - 0.3)
        ax.set_yticks(range(len(row_names)), [f"row {r}" for r in row_names])
        ax.set_xlabel("position in the row")
        ax.set_title(f"Floor: {what}, {lo:.1f} … {hi:.1f}")
        ax.set_aspect("equal")
        figs.append(("Hotspot map", save(fig, out, "floor.png")))
    # GPU-to-GPU variation (docs/models/gpu_variation.md): histograms and the per-rack spread
    figs += variation_figs(f, out, t)
    # events
    events = []
    if "events/time" in f and f["events/time"].shape[0] > 0:
        for tt, c, k, s, m in zip(f["events/time"][()], text(f["events/component"]),
                                  text(f["events/kind"]), text(f["events/severity"]),
                                  text(f["events/message"])):
            events.append((tt, s, c, k, m))
    title = f.attrs.get("facility_name", "")
    return figs, events, notes, title


def pareto(x, y):
    """indices of the points no other point beats in both x and y (both minimized)"""
    order = np.lexsort((y, x))
    front, best = [], math.inf
    for i in order:
        if y[i] < best:
            front.append(i)
            best = y[i]
    return front


def sweep_report(f, out):
    figs = []
    c = f["cases"]
    n = c["index"].shape[0]
    status = text(c["status"])
    ok = np.array([s == "ok" for s in status])
    params = list(c["parameters"].keys()) if "parameters" in c else []
    metrics = [("hottest GPU junction", "T_junction_max", "°C", -C0),
               ("hottest cold-plate case", "T_case_max", "°C", -C0),
               ("hottest CDU supply", "T_supply_max", "°C", -C0),
               ("throttled GPU-seconds", "gpu_seconds_throttled", "s", 0.0),
               ("throughput ratio", "throughput_ratio", "", 0.0),
               ("PUE", "PUE", "", 0.0),
               ("cooling energy", "E_cooling", "kWh", None),
               ("IT energy", "E_it", "kWh", None),
               ("lowest flow margin", "flow_margin_min", "", 0.0)]
    metrics = [m for m in metrics if m[1] in c and np.any(np.isfinite(c[m[1]][()][ok]))]
    for p in params:
        txt = text(c["parameters"][p])
        xs = c["parameters_si"][p][()] if "parameters_si" in c else np.full(n, np.nan)
        numeric = np.all(np.isfinite(xs))
        if numeric and np.all(np.abs(xs - 273.15) < 200) and any("degC" in v for v in txt):
            xs = xs - C0
            xlabel = f"{p} (°C)"
        elif numeric:
            xlabel = p
        else:  # files or words: categories
            cats = sorted(set(txt))
            xs = np.array([cats.index(v) for v in txt], dtype=float)
            xlabel = p
        cols = 3
        rows = max(1, math.ceil(len(metrics) / cols))
        fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
        for k, (label, key, unit, off) in enumerate(metrics):
            ax = axes[k // cols][k % cols]
            y = c[key][()].astype(float)
            y = y / 3.6e6 if unit == "kWh" else y + (off or 0.0)
            ax.scatter(xs[ok], y[ok], s=14)
            if np.any(~ok):
                ax.scatter(xs[~ok], np.full((~ok).sum(), np.nanmin(y[ok]) if np.any(ok) else 0),
                           marker="x", color="red", label="failed")
            ax.set_xlabel(xlabel, fontsize=8)
            ax.set_ylabel(f"{label}" + (f" ({unit})" if unit else ""), fontsize=8)
            ax.grid(alpha=0.3)
            if not numeric:
                cats = sorted(set(txt))
                ax.set_xticks(range(len(cats)), [os.path.basename(v) for v in cats], rotation=30,
                              fontsize=6, ha="right")
        for k in range(len(metrics), rows * cols):
            axes[k // cols][k % cols].axis("off")
        safe = "".join(ch if ch.isalnum() else "_" for ch in p)
        figs.append((f"Metrics against {p}", save(fig, out, f"metrics_{safe}.png")))
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
    ax.scatter(x[good], yv[good], s=16, label="cases")
    if idx.size:
        front = idx[pareto(x[idx], yv[idx])]
        front = front[np.argsort(x[front])]
        ax.plot(x[front], yv[front], "r-o", ms=5, label="Pareto front")
        for i in front:
            ax.annotate(str(int(c["index"][i])), (x[i], yv[i]), fontsize=7,
                        textcoords="offset points", xytext=(3, 3))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    figs.append(("Energy overhead against throughput lost: the Pareto front",
                 save(fig, out, "pareto.png")))
    table = []
    shown = [m for m in metrics[:6]]
    for i in range(n):
        row = [str(int(c["index"][i])), status[i]]
        row += [text(c["parameters"][p])[i] for p in params]
        for label, key, unit, off in shown:
            v = float(c[key][i])
            v = v / 3.6e6 if unit == "kWh" else v + (off or 0.0)
            row.append("" if not math.isfinite(v) else f"{v:.4g}")
        table.append(row)
    head = ["case", "status"] + params + [f"{m[0]}" + (f" ({m[2]})" if m[2] else "") for m in shown]
    return figs, head, table


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


def write_html(out, title, figs, events=None, table=None, head=None, subtitle="", prov=None):
    with open(os.path.join(out, "index.html"), "w") as h:
        h.write("<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
                f"<title>{html.escape(title)}</title><style>"
                "body{font-family:sans-serif;max-width:1100px;margin:auto}"
                "table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;"
                "padding:2px 6px}img{max-width:100%}</style></head><body>\n")
        h.write(f"<h1>{html.escape(title)}</h1><p>{html.escape(subtitle)}</p>\n")
        for caption, png in figs:
            h.write(f"<h2>{html.escape(caption)}</h2><img src='{png}' alt='{html.escape(caption)}'>\n")
        if events is not None:
            h.write("<h2>Events</h2>")
            if not events:
                h.write("<p>none</p>")
            else:
                h.write("<table><tr><th>time (s)</th><th>severity</th><th>component</th>"
                        "<th>kind</th><th>message</th></tr>")
                for tt, s, c, k, m in events:
                    h.write(f"<tr><td>{tt:.1f}</td><td>{html.escape(s)}</td><td>{html.escape(c)}"
                            f"</td><td>{html.escape(k)}</td><td>{html.escape(m)}</td></tr>")
                h.write("</table>\n")
        if table is not None:
            h.write("<h2>Cases</h2><table><tr>" + "".join(f"<th>{html.escape(x)}</th>" for x in head)
                    + "</tr>")
            for row in table:
                h.write("<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in row) + "</tr>")
            h.write("</table>\n")
        if prov:
            h.write("<h2>Provenance</h2><table>")
            for k, v in prov:
                h.write(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>")
            h.write("</table>\n")
        h.write("</body></html>\n")


def main():
    ap = argparse.ArgumentParser(description="dctwin review report (HTML + PNG)")
    ap.add_argument("results")
    ap.add_argument("-o", "--output", required=True, help="folder for index.html and the plots")
    a = ap.parse_args()
    os.makedirs(a.output, exist_ok=True)
    try:
        f = h5py.File(a.results, "r")
    except (OSError, ValueError) as e:  # not HDF5, truncated, damaged: a message, no traceback
        reason = str(e).split("(", 1)[-1].rstrip(")") if "(" in str(e) else str(e)
        print(f"dctwin report: {a.results}: cannot read the results file ({reason})",
              file=sys.stderr)
        return 2
    try:
        return report(f, a)
    except (OSError, KeyError, ValueError) as e:
        print(f"dctwin report: {a.results}: damaged or not a dctwin results file ({e})",
              file=sys.stderr)
        return 2
    finally:
        f.close()


def report(f, a):
    """the page for an open results file (a run or a sweep); returns the exit status"""
    schema = f.attrs.get("schema", b"")
    schema = schema.decode() if isinstance(schema, bytes) else str(schema)
    if schema.startswith("dctwin-sweep"):
        figs, head, table = sweep_report(f, a.output)
        n = f["cases/index"].shape[0]
        write_html(a.output, f"dctwin sweep: {os.path.basename(a.results)}", figs, table=table,
                   head=head, subtitle=f"{n} cases", prov=provenance(f))
    else:
        figs, events, notes, title = run_report(f, a.output)
        write_html(a.output, f"dctwin run: {os.path.basename(a.results)}", figs, events=events,
                   subtitle=str(title), prov=provenance(f))
    print(os.path.join(a.output, "index.html"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
