#!/usr/bin/python3
"""How warm may the facility water be? A facility-water supply temperature sweep on the pod.

The design question: the default pod (data/facilities/pod_gb200.yaml: one XDU1350-class CDU, 8
GB200 NVL72 racks, 576 resolved GPUs running a synchronous training job from 5 min) is specified
for ASHRAE W32 facility water. Warmer water makes the plant cheaper (more free-cooling hours, no
or smaller chillers; the plant is outside dctwin's model), but warmer water means a warmer TCS
loop, hotter GPUs, more leakage power and, at some point, lower clocks: how much training
throughput and how much IT + CDU energy does each degree cost?

Steps:
  1. load the facility (any file; its edits are checked at once);
  2. sweep facility_water.supply_temperature over a grid, every case on the sweep's threads
     (dctwin.Sweep.grid: the same cases and metrics as `dctwin sweep`);
  3. tabulate throughput lost against the best case, the mean power and the energy per training
     iteration over the metrics window (the same window for every case); a case whose load
     protection shed is reported with its outcome and left out of the ranking and the plot;
  4. plot throughput lost against energy per iteration (matplotlib, Agg backend) into a PNG.

Run from the repository root after a build:
  PYTHONPATH=build/python /usr/bin/python3 docs/examples/fws_sweep.py -o fws_sweep.png
"""
import argparse
import sys

import numpy as np

try:
    import dctwin
except ImportError:
    sys.exit("cannot import dctwin: build it (cmake --build build --target dctwin_python) and run "
             "with PYTHONPATH=build/python, or install it (cmake --install build)")

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FWS = "facility.facility_water.supply_temperature"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--facility", default=None,
                    help="facility file (default: the bundled pod_gb200.yaml)")
    ap.add_argument("--low", type=float, default=25.0, help="lowest supply temperature (degC)")
    ap.add_argument("--high", type=float, default=45.0, help="highest supply temperature (degC)")
    ap.add_argument("--step", type=float, default=2.5, help="temperature step (K)")
    ap.add_argument("--duration", default="20 min",
                    help="simulated time per case (default 20 min; the metrics skip the first "
                         "half, at most 20 min)")
    ap.add_argument("-j", "--jobs", dest="threads", type=int, default=2,
                    help="cases run at once (as dctwin sweep -j)")
    ap.add_argument("-o", "--output", default="fws_sweep.png", help="the plot (PNG)")
    args = ap.parse_args()

    # 1. the facility
    path = args.facility or f"{dctwin.data_dirs()[-1]}/facilities/pod_gb200.yaml"
    fac = dctwin.Facility.load(path)
    size = fac.check()
    print(f"{fac.name}: {size['cdus']} CDU, {size['racks']} racks, {size['gpus']} GPUs; "
          f"CDU TCS set point {fac.get('cdus[0].control.supply_temperature')}, "
          f"facility water {fac.get('facility_water.supply_temperature')} as designed")

    # 2. the sweep
    temps = np.arange(args.low, args.high + 1e-9, args.step)
    sweep = dctwin.Sweep.grid(fac, {FWS: [f"{t:g} degC" for t in temps]}, duration=args.duration,
                              name="fws_sweep")
    print(f"{len(sweep)} cases of {args.duration} on {args.threads} threads ...", flush=True)
    res = sweep.run(threads=args.threads)
    if not res["ok"].all():
        for i in np.flatnonzero(~res["ok"]):
            print(f"case {i} failed: {res['error'][i]}")
        sys.exit(1)
    # a case whose load protection shed (racks powered off) ran, but is no design point: it looks
    # cool and frugal. Only comparable cases (status 'completed') enter the table's ranking
    good = res["comparable"]
    for i in np.flatnonzero(~good):
        print(f"{temps[i]:g} degC: {res['outcome'][i]}")
    if not good.any():
        sys.exit("no case ran with its whole load")

    # 3. the table: throughput lost against the best case; mean power and energy per iteration
    #    over the metrics window, the same window for every case (docs/sweep-format.md)
    ratio = res["throughput_ratio"]
    lost = 100.0 * (1.0 - ratio / np.nanmax(ratio[good]))
    power = (res["P_utility_mean"] + res["P_pump_mean"]) / 1e3  # kW: utility (IT + losses) + pumps
    iters = np.where(res["iterations"] > 0, res["iterations"], np.nan)
    per_it = (res["E_utility"] + res["E_cooling"]) / iters / 1e3  # kJ per training iteration
    best = np.nanmin(per_it[good])
    extra = 100.0 * (per_it / best - 1.0)
    window = res["metrics_window"][good][0] / 60.0
    T = lambda k: res[k] - 273.15  # noqa: E731
    print()
    print(f"metrics over the last {window:g} min of each case (from {res['metrics_from'][0]:g} s)")
    print(" FWS    TCS max  Tj max  Tj p99  HBM max  throttled  throughput  lost    power  "
          "per iteration  PUE")
    print(" degC   degC     degC    degC    degC     GPU-s      ratio       %       kW     "
          "kJ      +%")
    for i, t in enumerate(temps):
        if not good[i]:
            print(f" {t:4.1f}   not comparable: {res['status'][i]}")
            continue
        print(f" {t:4.1f}   {T('T_supply_max')[i]:5.1f}    {T('T_junction_max')[i]:5.1f}   "
              f"{T('T_junction_p99')[i]:5.1f}   {T('T_hbm_max')[i]:5.1f}    "
              f"{res['gpu_seconds_throttled'][i]:7.0f}    {ratio[i]:.4f}      {lost[i]:5.2f}   "
              f"{power[i]:5.0f}  {per_it[i]:7.1f} {extra[i]:5.2f}  {res['PUE'][i]:.4f}")
    ok = temps[good & (lost < 0.1)]
    print()
    print(f"warmest supply with < 0.1 % throughput lost: {ok.max():g} degC" if ok.size else
          "every case loses throughput")
    k = int(np.flatnonzero(good)[-1])
    print(f"warmest comparable case, {temps[k]:g} degC: {lost[k]:.2f} % throughput lost, "
          f"{extra[k]:+.2f} % energy per iteration against the best case")

    # 4. the plot
    fig, ax = plt.subplots(figsize=(7, 4.5))
    sc = ax.scatter(lost[good], per_it[good], c=temps[good], cmap="coolwarm", s=50, zorder=3)
    ax.plot(lost[good], per_it[good], color="0.7", zorder=2)
    for i in np.flatnonzero(good):
        ax.annotate(f"{temps[i]:g} °C", (lost[i], per_it[i]), textcoords="offset points",
                    xytext=(6, -3), fontsize=8)
    ax.set_xlabel("training throughput lost against the best case (%)")
    ax.set_ylabel("utility + CDU pump energy per iteration (kJ)")
    shed = ", ".join(f"{t:g} °C" for t in temps[~good])
    ax.set_title(f"{fac.name}: facility-water supply temperature sweep"
                 + (f"\n(not plotted, load shed by protection: {shed})" if shed else ""),
                 fontsize=10)
    fig.colorbar(sc, ax=ax, label="facility-water supply (°C)")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"plot: {args.output}")


if __name__ == "__main__":
    main()
