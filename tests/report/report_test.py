#!/usr/bin/python3
"""dctwin report on a pod run, a leak run, the hall and a sweep, built here from the bundled files
(short runs), with what the report draws checked: the self-contained page (summary first, every
plot embedded), the PDF, every figure file, legends no longer than the report's cap, figure sizes
readable at hall scale, the alarms' detection and isolation times, sweep categories by what differs.

    report_test.py DCTWIN SOURCE_DIR WORKDIR {pod|leak|hall|sweep|sweep_shed|sweep_ensemble|sweep_plant|...}
"""
import json
import os
import re
import subprocess
import sys


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAILED ({p.returncode}): {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
    return p.stdout


def check(cond, what):
    if not cond:
        sys.exit(f"FAILED: {what}")
    print(f"ok: {what}")


def report(dctwin, h5, out, *extra):
    run([dctwin, "report", h5, "-o", out, *extra])
    page = open(os.path.join(out, "index.html"), encoding="utf-8").read()
    man = json.load(open(os.path.join(out, "figures.json")))
    check(len(man["figures"]) > 0, "the report has figures")
    for fig in man["figures"]:
        check(os.path.getsize(os.path.join(out, fig["file"])) > 1000, f"{fig['file']} written")
        check(fig["legend_entries"] <= man["max_legend"] <= 12,
              f"{fig['file']}: {fig['legend_entries']} legend entries <= {man['max_legend']}")
        check(fig["width_px"] <= 1200 and fig["height_px"] <= 800,
              f"{fig['file']}: {fig['width_px']}x{fig['height_px']} px fits a page")
    # self-contained: every image inline, no other file referenced
    srcs = re.findall(r"src='([^']*)'", page)
    check(len(srcs) == len(man["figures"]) and all(s.startswith("data:image/png;base64,")
                                                    for s in srcs), "every plot embedded (base64)")
    check("href=" not in page, "no links to other files")
    check(page.index("<h2>Summary</h2>") < page.index("<img"), "the summary comes first")
    pdf = open(os.path.join(out, "report.pdf"), "rb").read()
    check(pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") >= len(man["figures"]),
          "report.pdf has a page per plot and the summary")
    return page, man


def power_basis(man, h5):
    """the power plot has one basis, the mean over each output interval, and its
    lines integrate to the energy datasets they come from"""
    import h5py
    import numpy as np
    fig = [f for f in man["figures"] if f["file"] == "power.png"][0]
    check(len(fig.get("data", [])) >= 2, "the power plot's lines are in figures.json")
    with h5py.File(h5, "r") as f:
        for line in fig["data"]:
            check(line["basis"] == "interval mean", f"{line['label']}: an interval mean")
            t, P = np.array(line["t_s"]), np.array(line["W"])
            E = sum(f[p][()].ravel() for p in line["energy"]) - \
                sum((f[p][()].ravel() for p in line["energy_minus"]), np.zeros(len(t)))
            got, want = float(np.sum(P * np.diff(t))), float(E[-1] - E[0])
            check(abs(got - want) <= 1e-9 * abs(want) + 1e-6,
                  f"{line['label']}: the plotted means integrate to the energy "
                  f"({got:.6g} J against {want:.6g} J)")
            check(np.allclose(np.array(f["time"][()]), t), f"{line['label']}: on /time")
        # /facility/P_total is an interval mean too: the plotted total equals it
        tot = [x for x in fig["data"] if x["label"].startswith("total")]
        if tot and "facility/P_total" in f:
            check(np.allclose(np.array(tot[0]["W"]), f["facility/P_total"][()].ravel()[1:],
                              rtol=1e-6), "the plotted total is /facility/P_total")


def bottleneck(page, man, wall):
    """the stacked bottleneck map: a figure, the summary's largest parts, a table whose total is
    the job's wall time since its start"""
    fig = [f for f in man["figures"] if f["file"] == "bottleneck_map.png"]
    check(len(fig) == 1 and "compute" in fig[0]["legend"], "the stacked bottleneck-map figure")
    check("time went" in page, "the largest parts in the summary")
    tot = re.search(r"<td>total \(wall time since start\)</td><td>([0-9.]+) s</td>", page)
    check(tot is not None and abs(float(tot.group(1)) - wall) < 0.01 * wall + 0.5,
          f"the bottleneck parts add up to the wall time since the start ({wall} s): "
          f"{tot.group(1) if tot else None}")


def jobs_table(page, h5):
    """the described job's step model: nominal from /job/model/*, achieved from the run's last
    row, in the report's jobs table and summary, equal to the file's values"""
    import h5py
    with h5py.File(h5, "r") as f:
        step = float(f["job/model/step_time"][0])
        mfu = float(f["job/model/mfu"][0])
        mem = float(f["job/model/memory_per_gpu"][0])
        run_step = float(f["job/iteration_time"][-1][0])
        run_mfu = float(f["job/mfu"][-1][0])
        rc = f["job/model/recompute_name"][0]
        rc = rc.decode() if isinstance(rc, bytes) else str(rc)
    check(step > 0 and 0 < mfu < 1 and mem > 0 and rc in ("none", "selective", "full"),
          f"the pod's job is described: step {step} s, MFU {mfu}, {mem / 1e9} GB, {rc}")
    check(run_step > 0 and abs(run_mfu - mfu * step / run_step) < 1e-9,
          f"achieved: step {run_step} s, MFU {run_mfu} = nominal x step / achieved step")
    row = re.search(r"<tr><td>llm_training</td>((?:<td>[^<]*</td>){10})</tr>", page)
    check(row is not None, "the jobs table has a row for the described job")
    cells = re.findall(r"<td>([^<]*)</td>", row.group(1))
    check(cells[0] == f"{step:.3f}" and cells[1] == f"{run_step:.3f}",
          f"step nominal {cells[0]} and achieved {cells[1]} as in the file")
    check(cells[4] == f"{100 * mfu:.1f}" and cells[5] == f"{100 * run_mfu:.1f}",
          f"MFU nominal {cells[4]} % and achieved {cells[5]} % as in the file")
    check(cells[6].startswith(f"{mem / 1e9:.1f} of ") and cells[9] == rc,
          f"memory per GPU {cells[6]} GB and recompute {cells[9]}")
    check("llm_training: step model" in page, "the step model in the summary")


def refused(cmd, what):
    """the command ends with exit status 6 and a one-line reason, never a traceback or a hang"""
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    check(p.returncode == 6 and "Traceback" not in p.stderr and "dctwin report:" in p.stderr,
          f"{what}: refused ({p.returncode}: {p.stderr.strip()[-160:]})")


def bad_inputs(dctwin, fac, work):
    """crafted and special files; a file with rows past its durable end"""
    import h5py
    fifo = os.path.join(work, "fifo.h5")
    if os.path.exists(fifo):
        os.remove(fifo)
    os.mkfifo(fifo)
    refused([dctwin, "report", fifo, "-o", os.path.join(work, "bad_fifo")], "a FIFO")
    crafted = os.path.join(work, "crafted.h5")
    with h5py.File(crafted, "w") as f:  # HDF5, but with the layout's names of the wrong kinds
        f.attrs["status"] = "completed"
        f["time"] = [[1.0, 2.0], [3.0, 4.0]]
        f["rack/names"] = [1, 2, 3]
        f.create_group("gpu/T_junction")
    refused([dctwin, "report", crafted, "-o", os.path.join(work, "bad_crafted")], "a crafted file")
    text = os.path.join(work, "text.h5")
    with open(text, "w") as f:
        f.write("root:x:0:0:root:/root:/bin/bash\n")
    refused([dctwin, "report", text, "-o", os.path.join(work, "bad_text")], "a text file")
    # a run whose last rows are not durable (rows_complete below the rows /time holds): reported
    # up to its durable end, with a note
    h5 = os.path.join(work, "durable.h5")
    run([dctwin, "run", os.path.join(fac, "pod_gb200.yaml"), "-d", "5min", "-i", "30s", "-o", h5,
         "-q"])
    with h5py.File(h5, "r+") as f:
        f.attrs["rows_complete"] = 6
    p = subprocess.run([dctwin, "report", h5, "-o", os.path.join(work, "durable_report")],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0 and "past the file's durable end" in p.stderr,
          f"rows past the durable end left out ({p.stderr.strip()[-200:]})")
    check(not any(n.startswith(".durable_") for n in os.listdir(os.path.join(work, "durable_report"))),
          "the trimmed copy removed")


def main():
    dctwin, src, work, which = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    fac = os.path.join(src, "data", "facilities")
    h5 = os.path.join(work, f"{which}.h5")
    out = os.path.join(work, f"{which}_report")
    if which == "bad":
        bad_inputs(dctwin, fac, work)
        return
    if which == "pod":
        run([dctwin, "run", os.path.join(fac, "pod_gb200.yaml"), "-d", "8min", "-i", "30s",
             "-o", h5, "-q"])
        page, man = report(dctwin, h5, out, "--at", "4", "8", "--top", "5")
        check("Peak GPU junction" in page and "tray" in page, "peak junction and where")
        check("PUE" in page, "PUE in the summary")
        check("Top 5 hottest GPUs at 4.0 min" in page, "top-N GPUs at a chosen time")
        check(any(f["file"] == "floor_above.png" for f in man["figures"]), "time-above map")
        check(sum(f["file"].startswith("gpu_hist") for f in man["figures"]) == 2,
              "GPU histograms at both chosen times")
        bottleneck(page, man, 3.0 * 60)  # the job starts at 5 min: 3 min of it at 8 min
        power_basis(man, h5)
        jobs_table(page, h5)
    elif which == "leak":
        run([dctwin, "run", os.path.join(fac, "pod_gb200.yaml"), "-s",
             os.path.join(src, "data", "scenarios", "pod_rack_leak.yaml"), "-d", "12min",
             "-o", h5, "-q"])
        page, man = report(dctwin, h5, out)
        row = re.search(r"<tr><td>rack A03</td>(.*?)</tr>", page)
        check(row is not None, "the leaking rack in the alarms table")
        cells = re.findall(r"<td>([^<]*)</td>", row.group(1))
        det, iso, took = float(cells[3]), float(cells[4]), float(cells[5])
        check(600 < det < 620 and iso > det and abs(iso - det - took) < 0.2,
              f"detection {det} s, isolation {iso} s, {took} s between")
        temps = [f for f in man["figures"] if f["file"] == "temperatures.png"][0]
        check("alarms" in temps["legend"], "event markers on the time series")
    elif which == "plant":
        run([dctwin, "run", os.path.join(fac, "pod_gb200_plant_w32.yaml"), "-d", "20min", "-i",
             "60s", "-o", h5, "-q"])
        page, man = report(dctwin, h5, out)
        files = [f["file"] for f in man["figures"]]
        for kind in ("temperatures", "power_and_heat", "mode", "pue"):
            check(any(x.startswith("plant_" + kind) for x in files), f"a plant {kind} figure")
        temps = [f for f in man["figures"] if f["file"].startswith("plant_temperatures")][0]
        check({"plant/T_supply", "weather/T_dry_bulb", "weather/T_wet_bulb"} <= set(temps["legend"]),
              f"plant supply and the weather's dry and wet bulb: {temps['legend']}")
        power = [f for f in man["figures"] if f["file"].startswith("plant_power_and_heat")][0]
        check({"plant/Q_rejected", "plant/P_chillers", "plant/P_fans"} <= set(power["legend"]),
              f"heat rejection and chiller, dry-cooler power: {power['legend']}")
        for row in ("Plant PUE", "Site WUE", "Time in free / partial / full mechanical",
                    "Heat rejected", "Outdoor dry / wet bulb", "Calendar"):
            check(row in page, f"summary row: {row}")
        check("Monthly totals (/monthly)" in page, "the monthly table")
        bottleneck(page, man, 15.0 * 60)
    elif which == "grid":
        # the pod with a grid section (a ramp limit it cannot meet, a band limit it meets) and the
        # fast meter series: the report's meter, spectrum and limits (docs/models/grid.md)
        pod = os.path.join(work, "pod_grid.yaml")
        with open(os.path.join(fac, "pod_gb200.yaml"), encoding="utf-8") as src_f, \
                open(pod, "w", encoding="utf-8") as dst:
            dst.write(src_f.read() + "\ngrid:\n  ramp_limit: 1 kW/s\n  psd_segment: 20 s\n"
                      "  start: 290 s\n  bands:\n    - {f_low: 0.1 Hz, f_high: 2 Hz, limit: 100 MW}"
                      "\n    - {f_low: 3 Hz, f_high: 30 Hz}\n")
        run([dctwin, "run", pod, "-d", "8min", "-i", "30s", "-p", "0.1s", "-o", h5, "-q"])
        page, man = report(dctwin, h5, out)
        files = [f["file"] for f in man["figures"]]
        check("grid_meter.png" in files and "grid_spectrum.png" in files,
              "the meter series and its spectrum")
        spec = [f for f in man["figures"] if f["file"] == "grid_spectrum.png"][0]
        check(any("0.10–2.00 Hz" in x for x in spec["legend"]) and
              any("read to 5.00 Hz" in x for x in spec["legend"]),
              f"the bands on the spectrum, the second read to the series' 5 Hz: {spec['legend']}")
        check("grid metrics from 4.8 to 8.0 min" in page, "the metrics' span (start 290 s)")
        check(re.search(r"largest rise / fall over 1.00 s</td><td>[^<]*</td><td>1.00 kW/s</td>"
                        r"<td>exceeded</td>", page) is not None, "the ramp limit exceeded")
        check(re.search(r"RMS in 0.10–2.00 Hz</td><td>[^<]*</td><td>100000.000 kW</td>"
                        r"<td>met</td>", page) is not None, "the band limit met")
        check("Utility limits" in page and "Meter power swing" in page, "the summary rows")
        import h5py
        with h5py.File(h5, "r") as f:
            swing = float(f["grid/peak_to_peak"][()]) / 1e3
        check(f"Meter power swing</td><td>{swing:.2f} kW" in page,
              f"the summary's swing is /grid/peak_to_peak ({swing:.2f} kW)")
        # a run without --power-interval has no meter section
        run([dctwin, "run", pod, "-d", "2min", "-i", "30s", "-o", h5 + ".slow.h5", "-q"])
        page2, man2 = report(dctwin, h5 + ".slow.h5", out + "_slow")
        check(not any(f["file"].startswith("grid_") for f in man2["figures"]) and
              "Meter power swing" not in page2, "no meter section without the fast series")
    elif which == "hall":
        # 6 min: the hall's job starts at 5 min, so the report has its bottleneck map
        run([dctwin, "run", os.path.join(fac, "hall_gb300.yaml"), "-d", "6min", "-i", "60s",
             "-o", h5, "-q"])
        page, man = report(dctwin, h5, out, "--top", "10")
        bottleneck(page, man, 60.0)
        check("Why it is hot" in page and "estimated" not in page.split("Why it is hot")[1][:300],
              "the peak GPU's cause is the library's /gpu/hot_cause, not an estimate")
        temps = [f for f in man["figures"] if f["file"] == "temperatures.png"][0]
        check(any("min–max of 64" in x for x in temps["legend"]), "64 CDUs drawn as one band")
        check("768 racks in 32 rows" in page and "55296 GPUs" in page, "the hall's size")
        check(page.count("<tr>") < 400, "tables bounded at hall scale")
    elif which == "sweep":
        sweep = os.path.join(work, "sweep.yaml")
        with open(sweep, "w") as s:
            s.write(f"""dctwin_sweep: 1
name: report_test_sweep
facility: {fac}/pod_gb200.yaml
duration: 6 min
output_interval: 60 s
sampling: grid
parameters:
  - name: racks_per_cdu
    path: facility
    values: [{fac}/pod_gb200_r4.yaml, {fac}/pod_gb200_r6.yaml]
  - name: fws_temperature
    path: facility.facility_water.supply_temperature
    values: ["30 degC", "40 degC"]
""")
        run([dctwin, "sweep", sweep, "-j", "2", "-o", h5])
        page, man = report(dctwin, h5, out)
        by = {f["file"]: f for f in man["figures"]}
        leg = by["metrics_fws_temperature.png"]["legend"]
        check(leg == ["racks_per_cdu = 4", "racks_per_cdu = 6"],
              f"coloured by the second parameter, categories by what differs: {leg}")
        leg = by["metrics_racks_per_cdu.png"]["legend"]
        check(leg == ["fws_temperature (°C) = 30", "fws_temperature (°C) = 40"], f"{leg}")
        check("Pareto" in page, "the Pareto front")
        # one job per case: the /cases columns say it all, no per-job table
        check("Each job of each case" not in page, "no per-job table for one job per case")
        # two jobs per case (/case_jobs, docs/sweep-format.md): the report's table of them
        import h5py
        import numpy as np
        sys.path.insert(0, os.path.join(src, "scripts"))
        import report as rp
        two = os.path.join(work, "two_jobs.h5")
        with h5py.File(two, "w") as f:
            f["/cases/index"] = np.array([0, 1])
            f["/case_jobs/case"] = np.array([0, 0, 1, 1])
            f["/case_jobs/job"] = np.array([b"a", b"b", b"a", b"b"])
            f["/case_jobs/kind"] = np.array([b"training"] * 4)
            f["/case_jobs/gpus"] = np.array([288.0] * 4)
            f["/case_jobs/step_time"] = np.array([7.9, np.nan, 8.0, np.nan])
            f["/case_jobs/mfu"] = np.array([0.399, np.nan, 0.396, np.nan])
        with h5py.File(two, "r") as f:
            rows = rp.case_jobs_table(f, np.array([True, False]), f["cases"])
        check(rows is not None and len(rows) == 5, f"a row per case and job: {rows}")
        check(rows[1][:2] == ["0", "a"] and rows[1][4] == "7.9" and rows[1][6] == "39.9",
              f"the first job's step and MFU: {rows[1]}")
        check(rows[3][0] == "1 (EXCLUDED)" and rows[2][4] == "", f"marks and NaN: {rows[2:4]}")
    elif which == "annual":
        # calendar time: a pod year in the annual mode has its start date in the file,
        # and the report shows dates, daily bands, monthly bars and the monthly table
        run([dctwin, "run", os.path.join(fac, "pod_gb200_plant_w32.yaml"), "-s",
             os.path.join(src, "data", "scenarios", "annual", "annual_year_weekly.yaml"),
             "-o", h5, "-q"])
        import h5py
        with h5py.File(h5, "r") as f:
            start = f.attrs["calendar_start"]
            start = start.decode() if isinstance(start, bytes) else start
            check(start == "07-15 00:00" and f.attrs["calendar_year_start"] == 195 * 86400,
                  f"the start date in the file: {start}")
            tz = f.attrs["calendar_time_zone"]
            tz = tz.decode() if isinstance(tz, bytes) else tz
            check(tz == "UTC-07:00" and f.attrs["calendar_utc_offset"] == -7 * 3600,
                  f"the time zone in the file (Phoenix's EPW LOCATION): {tz}")
        page, man = report(dctwin, h5, out)
        check("from 07-15 00:00 of the weather year" in page, "the start date in the summary")
        check("local standard time, UTC-07:00" in page, "the time zone in the summary")
        table = page[page.index("Monthly totals (/monthly)"):]
        check(all(m in table[:4000] for m in ("Jul", "Dec", "Jan", "Jun")), "12 months in the table")
        check(any(f["file"] == "calendar.png" for f in man["figures"]),
              "daily bands and monthly bars")
    elif which == "sweep_shed":
        # a shed case: the 45 degC case of data/sweeps/pod_fws_racks.yaml, shortened: protection
        # powers all 8 racks off at 335 s; the report must flag it, never draw it as the coolest
        sweep = os.path.join(work, "sweep_shed.yaml")
        with open(sweep, "w") as s:
            s.write(f"""dctwin_sweep: 1
name: report_test_shed_sweep
facility: {fac}/pod_gb200_r8.yaml
duration: 7 min
output_interval: 60 s
sampling: list
parameters:
  - name: fws_temperature
    path: facility.facility_water.supply_temperature
    values: ["30 degC", "35 degC", "45 degC"]
""")
        run([dctwin, "sweep", sweep, "-j", "2", "-o", h5])
        import h5py
        with h5py.File(h5, "r") as f:
            st = [x.decode() for x in f["/cases/status"][()]]
            off = f["/cases/racks_powered_off"][()]
            check(st == ["completed", "completed", "protection_acted"], f"/cases/status {st}")
            check(off.tolist() == [0, 0, 8], f"/cases/racks_powered_off {off}")
            check(f["/cases/critical_events"][2] >= 8, "critical events counted")
            check(f.attrs["not_comparable_cases"] == 1, "one case not comparable")
        page, man = report(dctwin, h5, out)
        check("1 not comparable" in page, "the summary counts the shed case")
        check("protection_acted: EXCLUDED (protection acted: 8 rack(s) powered off" in page,
              "the cases table marks the shed case and says why")
        by = {f["file"]: f for f in man["figures"]}
        check("not plotted: case 2, protection acted" in by["pareto.png"]["caption"],
              "the Pareto front says which case it leaves out and why")
        check(all("not plotted: case 2" in f["caption"] for f in man["figures"]),
              "every plot says it leaves the shed case out")
    elif which == "sweep_ensemble":
        # an ensemble (replicates): 2 water temperatures x 3 replicates of the 4-rack pod; the
        # report plots each metric's mean and p5-p95 per design point and tables them, and its
        # design axis is the water, not the replicates' seeds
        sweep = os.path.join(work, "sweep_ensemble.yaml")
        with open(sweep, "w") as s:
            s.write(f"""dctwin_sweep: 1
name: report_test_ensemble
facility: {fac}/pod_gb200_r4.yaml
duration: 9 min
output_interval: 60 s
metrics_from: 6 min
replicates: 3
parameters:
  - name: fws_temperature
    path: facility.facility_water.supply_temperature
    values: ["30 degC", "40 degC"]
""")
        run([dctwin, "sweep", sweep, "-j", "2", "-o", h5])
        page, man = report(dctwin, h5, out)
        by = {f["file"]: f for f in man["figures"]}
        check("ensemble.png" in by, "the ensemble's intervals are plotted")
        check("p5-p95 over 3 replicates" in by["ensemble.png"]["caption"], "its caption")
        check("Ensemble: mean [p5, p95]" in page, "the table of intervals")
        check("3/3" in page, "completed replicates per design point")
        check(not any("variation_seed" in f["file"] for f in man["figures"]),
              "the seeds are not plotted as a design axis")
    elif which == "sweep_plant":
        # the climate x water example (data/sweeps/pod_plant_climate_water.yaml), 2 x 2 cases of
        # 8 minutes: the plant fronts, weather files shown by their site
        wx = os.path.join(src, "data", "weather")
        sweep = os.path.join(work, "sweep_plant.yaml")
        with open(sweep, "w") as s:
            s.write(f"""dctwin_sweep: 1
name: report_test_plant_sweep
facility: {fac}/pod_gb200_plant_w32.yaml
duration: 8 min
output_interval: 60 s
parameters:
  - name: site
    path: facility.plant.weather.epw
    values: [{wx}/phoenix_hot_dry_synthetic.epw, {wx}/singapore_hot_humid_synthetic.epw]
  - name: water
    path: facility.plant.supply_setpoint
    values: ["27 degC", "40 degC"]
    linked:
      - path: facility.facility_water.supply_temperature
        values: ["27 degC", "40 degC"]
      - path: facility.cdus[cdu1].control.supply_temperature
        values: ["31 degC", "42 degC"]
""")
        run([dctwin, "sweep", sweep, "-j", "2", "-o", h5])
        page, man = report(dctwin, h5, out)
        by = {f["file"]: f for f in man["figures"]}
        check("plant_front.png" in by, "the plant's energy, water and cost fronts")
        leg = by["plant_front.png"]["legend"]
        check(leg == ["Pareto front", "water (°C) = 27", "water (°C) = 40",
                      "site = Phoenix (synthetic)", "site = Singapore (synthetic)"],
              f"coloured by the water, marked by the site, sites by name: {leg}")
        check(" over " in by["plant_front.png"]["caption"], "the fronts say their span")
        leg = by["metrics_water.png"]["legend"]
        check(leg == ["site = Phoenix (synthetic)", "site = Singapore (synthetic)"],
              f"metrics coloured by the site, named by it: {leg}")
        check(".epw" not in page and "Singapore (synthetic)" in page,
              "weather files shown as sites, never as paths (plots and the table of cases)")
        check(re.search(r"Lowest cost</td><td>case \d+: [\d.]+ USD", page) is not None
              and "Least site water" in page, "the plant's best cases, cost in the tariff's currency")
    else:
        sys.exit(f"unknown report test {which}")


if __name__ == "__main__":
    main()
