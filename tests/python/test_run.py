# runs through the one run path: progress, results arrays equal to `dctwin run`'s file, cancel,
# results files read back
import subprocess
import threading

import h5py
import numpy as np
import pytest

import dctwin
from conftest import POD, ROOT


def file_series(path):
    """every time series of a results file (datasets with a basis), by path"""
    out = {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset) and "basis" in obj.attrs:
                out["/" + name] = (obj[()], obj.attrs["units"], obj.attrs["basis"])
        f.visititems(visit)
    return out


def test_pod_run_equals_the_cli_file(pod, cli, tmp_path):
    calls = []
    res = dctwin.run(pod, duration="5 min", progress=lambda t, T: calls.append((t, T)))
    assert res.status == "completed" and res.ok and not res.cancelled
    assert res.t_end == 300
    # progress: once per output row (60 s), in order, the last at the end
    assert [t for t, _ in calls] == [0, 60, 120, 180, 240, 300]
    assert all(T == 300 for _, T in calls)

    h5 = tmp_path / "cli.h5"
    subprocess.run([cli, "run", str(POD), "--duration", "5min", "-o", str(h5)], check=True,
                   stdout=subprocess.DEVNULL)
    ref = file_series(h5)
    assert set(ref) == set(res.keys())
    for path, (data, units, basis) in ref.items():
        assert res[path].shape == data.shape, path
        np.testing.assert_array_equal(res[path], data, err_msg=path)
        info = res.info(path)
        assert (info["unit"], info["basis"]) == (units, basis), path
        assert info["description"]
    assert res["/time"].tolist() == [0, 60, 120, 180, 240, 300]
    assert res["/gpu/T_junction"].shape == (6, 576)
    assert res["/facility/P_IT"].shape == (6,)
    with h5py.File(h5, "r") as f:
        assert res.rack_names == [x.decode() for x in f["/rack/names"][()]]
        assert res.cdu_names == ["cdu1"] and res.job_names == ["llm_training"]
        assert res.air_rack_names == [] and res.switch_rack_names == []
        # every temperature says whether it is absolute or a difference (CF 1.11 units_metadata)
        meta = lambda p: f[p].attrs["units_metadata"]  # noqa: E731
        assert meta("/rack/T_supply") in ("temperature: on_scale", b"temperature: on_scale")
        assert meta("/facility/gpu_T_junction_spread") in ("temperature: difference",
                                                           b"temperature: difference")
        assert "units_metadata" not in f["/facility/P_IT"].attrs
        np.testing.assert_array_equal(res.layout["/gpu/rack"], f["/gpu/rack"][()])
        assert len(res.events) == len(f["/events/time"])
    assert res.summary["T_junction_max"] == pytest.approx(np.nanmax(res["/gpu/T_junction"]))
    assert res.summary["jobs"][0]["name"] == "llm_training"
    assert "status" in res.summary_text and res.stats["steps"] > 0
    with pytest.raises(KeyError, match="did you mean '/rack/T_supply'"):
        res["/rack/T_suply"]


def test_output_file_and_read_results(pod, tmp_path):
    h5 = tmp_path / "run.h5"
    res = dctwin.run(pod, duration=120, output_interval="30 s", output=h5, power_interval=1.0)
    assert res.attributes["output"] == str(h5)
    assert res["/power/P_IT"].shape == (120,)  # fast rows every second
    back = dctwin.read_results(h5)
    assert back.status == "completed" and back.t_end == 120 and back.source == str(h5)
    assert set(back.keys()) == set(res.keys())
    for path in res:
        np.testing.assert_array_equal(back[path], res[path], err_msg=path)
        assert back.info(path) == res.info(path), path
    assert back.rack_names == res.rack_names
    assert back.attributes["facility_name"] == "pod_gb200"
    assert back.stats["steps"] == res.stats["steps"]
    only = dctwin.read_results(str(h5), series=["/rack/*"])
    assert set(only.keys()) == {"/time"} | {p for p in res if p.startswith("/rack/")}
    # not a results file
    junk = tmp_path / "junk.h5"
    junk.write_bytes(b"this is not HDF5\n" * 10)
    with pytest.raises(dctwin.ResultsError, match="not an HDF5 file"):
        dctwin.read_results(junk)


def test_record_patterns(pod):
    res = dctwin.run(pod, duration=60, record=["/cdu/*", "/facility/P_IT"])
    assert set(res.keys()) == {"/time", "/facility/P_IT"} | {
        o["path"] for o in dctwin.observables() if o["path"].startswith("/cdu/")}
    # a typo is an error naming the pattern and the nearest series, as `dctwin run --record`
    # (it used to keep only /time without a word)
    with pytest.raises(ValueError, match=r"record '/facility/P_TI': matches no series; near: "
                                         r".*/facility/P_IT"):
        dctwin.run(pod, duration=60, record=["/facility/P_TI"])


def test_cancel_from_the_callback(pod, tmp_path):
    token = dctwin.Cancel()
    h5 = tmp_path / "cancelled.h5"

    def progress(t, T):
        if t >= 120:
            token.cancel()

    res = dctwin.run(pod, duration="10 min", progress=progress, cancel=token, output=h5)
    assert res.status == "cancelled" and res.cancelled and token.cancelled
    assert 120 <= res.t_end < 600
    assert res["/time"][-1] <= res.t_end
    back = dctwin.read_results(h5)
    assert back.status == "cancelled"
    np.testing.assert_array_equal(back["/rack/T_supply"], res["/rack/T_supply"])


def test_an_exception_in_the_callback_cancels_and_propagates(pod, tmp_path):
    h5 = tmp_path / "raised.h5"

    class Stop(Exception):
        pass

    def progress(t, T):
        if t >= 60:
            raise Stop("enough")

    with pytest.raises(Stop, match="enough"):
        dctwin.run(pod, duration="10 min", progress=progress, output=h5)
    back = dctwin.read_results(h5)  # closed cleanly: the rows so far
    assert back.status == "cancelled" and back.t_end < 600


def test_cancel_from_another_thread_while_the_gil_is_released(pod):
    token = dctwin.Cancel()
    started = threading.Event()
    out = {}

    def work():
        out["res"] = dctwin.run(pod, duration="4 h", progress=lambda t, T: started.set(),
                                cancel=token)

    th = threading.Thread(target=work)
    th.start()
    assert started.wait(30)  # this thread runs while the run does
    token.cancel()
    th.join(60)
    assert not th.is_alive()
    assert out["res"].status == "cancelled" and out["res"].t_end < 4 * 3600


def test_scenario_run(pod):
    sc = dctwin.Scenario.from_string(
        "duration: 3 min\noutput_interval: 30 s\nevents:\n"
        "  - {time: 1 min, cdu: cdu1, pump_failure: 1}\n", name="pump.yaml")
    res = dctwin.run(pod, sc)
    assert res.t_end == 180 and len(res["/time"]) == 7
    assert any(e["kind"] == "pump_failure" for e in res.events)
    # the event table gives each event its typed kind
    for e in res.events:
        assert e["kind_id"] == getattr(dctwin.EventKind, e["kind"])
    bad = dctwin.Scenario.from_string("events:\n  - {time: 1 min, cdu: cdu7, pump_failure: 1}\n")
    with pytest.raises(dctwin.LoadError, match="cdu7"):
        dctwin.run(pod, bad, duration=60)


def test_ctrl_c_stops_a_run(tmp_path):
    import os
    import signal
    import sys

    script = tmp_path / "long.py"
    script.write_text(
        "import sys, dctwin\n"
        f"fac = dctwin.Facility.load({str(POD)!r})\n"
        "def progress(t, T):\n"
        "    print('running', flush=True)\n"
        "try:\n"
        "    dctwin.run(fac, duration='24 h', progress=progress)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(3)\n")
    p = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                         env=dict(os.environ))
    assert p.stdout.readline().strip() == "running"
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    assert p.returncode == 3 and "interrupted" in out


def test_runs_on_python_threads_equal_serial_runs(pod):
    from concurrent.futures import ThreadPoolExecutor

    warm = pod.copy()
    warm.set("facility_water.supply_temperature", "42 degC")
    serial = [dctwin.run(f, duration="7 min") for f in (pod, warm)]
    with ThreadPoolExecutor(2) as pool:
        parallel = list(pool.map(lambda f: dctwin.run(f, duration="7 min"), (pod, warm)))
    for a, b in zip(serial, parallel):
        for path in a:
            np.testing.assert_array_equal(a[path], b[path], err_msg=path)
    assert serial[1]["/cdu/T_prim_supply"][-1, 0] == pytest.approx(315.15)


def test_annual_mode_as_the_cli(pod, cli, tmp_path):
    # annual=True is `dctwin run --annual`: the same windows, the same rows, the mode recorded
    sc_text = ("duration: 2 h\noutput_interval: 30 min\n"
               "annual: {window: 5 min, settle: 10 min, period: 1 h}\n")
    sc = dctwin.Scenario.from_string(sc_text, name="year.yaml")
    out = tmp_path / "py.h5"
    res = dctwin.run(pod, sc, annual=True, output=str(out))
    assert res.ok and res.t_end == 7200
    # windows: the start, the job's settling after its start at 5 min, then one an hour
    assert res.stats["annual_windows"] >= 3
    assert 0 < res.stats["annual_window_time"] < 7200
    assert res.stats["annual_window_time"] + res.stats["annual_slow_time"] == pytest.approx(7200)
    full = dctwin.run(pod, sc)
    assert full.stats["annual_windows"] == 0
    scen = tmp_path / "year.yaml"
    scen.write_text(sc_text)
    h5 = tmp_path / "cli.h5"
    subprocess.run([cli, "run", str(POD), "-s", str(scen), "--annual", "-o", str(h5)], check=True,
                   stdout=subprocess.DEVNULL)
    with h5py.File(h5, "r") as f, h5py.File(out, "r") as g:
        for a in ("mode", "annual_window", "annual_settle", "annual_period", "annual_windows"):
            assert f.attrs[a] == g.attrs[a], a
        assert f.attrs["mode"] in ("annual", b"annual")
        assert f.attrs["annual_window"] == 300 and f.attrs["annual_period"] == 3600
        np.testing.assert_array_equal(f["/facility/P_IT"][()], res["/facility/P_IT"])


def test_series_carry_dimension_scales(pod, tmp_path):
    """the axes are HDF5 dimension scales (H5DS), as netCDF-4 and xarray read
    coordinates: /time on every series' rows, the names on a rack, CDU or job series' columns"""
    h5 = tmp_path / "scales.h5"
    dctwin.run(pod, duration=60, output=str(h5), power_interval=0.5)
    with h5py.File(h5, "r") as f:
        for axis in ("/time", "/rack/names", "/cdu/names", "/power/time"):
            assert h5py.h5ds.is_scale(f[axis].id), axis
        T = f["/rack/T_supply"]
        assert T.dims[0][0].name == "/time" and T.dims[1][0].name == "/rack/names"
        assert len(f["/rack/names"]) == T.shape[1]
        assert f["/cdu/T_sec_supply"].dims[1][0].name == "/cdu/names"
        assert f["/facility/P_IT"].dims[0][0].name == "/time"
        assert f["/job/iterations"].dims[1][0].name == "/job/names"
        assert f["/power/rack_P"].dims[0][0].name == "/power/time"
        # GPU series: rows on /time; their columns are labelled by /gpu/rack and /gpu/slot
        assert f["/gpu/T_junction"].dims[0][0].name == "/time"
    # and the file still reads back as before
    back = dctwin.read_results(h5)
    assert back["/rack/T_supply"].shape[1] == len(back.rack_names)


def test_the_step_model_per_job_from_a_run_and_its_file(pod, tmp_path):
    """the described job's step model (/job/model/*, nominal) and what the run achieved
    (/job/tokens_per_second, /job/mfu), the same from the run and from its results file"""
    h5 = tmp_path / "job.h5"
    res = dctwin.run(pod, duration="7 min", output_interval="60 s", output=h5)
    step = res["/job/model/step_time"]
    assert step.shape == (1,) and step[0] > 0
    assert res.info("/job/model/step_time") == {
        "unit": "s", "basis": "nominal", "shape": "job",
        "description": res.info("/job/model/step_time")["description"]}
    assert "nominal step time" in res.info("/job/model/step_time")["description"]
    assert res.info("/job/model/memory_per_gpu")["unit"] == "B"
    assert 0 < res["/job/model/mfu"][0] < 1
    assert res.layout["/job/model/recompute_name"][0] in ("none", "selective", "full")
    # achieved: the nominal value x the model's step / the run's mean iteration time
    T = res["/job/iteration_time"][-1, 0]
    assert T > 0
    assert res["/job/mfu"][-1, 0] == pytest.approx(res["/job/model/mfu"][0] * step[0] / T,
                                                   rel=1e-12)
    assert res["/job/tokens_per_second"][-1, 0] * T == pytest.approx(4718592, rel=1e-12)
    assert np.isnan(res["/job/mfu"][0, 0])  # before the job's first iteration
    back = dctwin.read_results(h5)
    for path in [p for p in res if p.startswith("/job/model/")]:
        np.testing.assert_array_equal(back[path], res[path], err_msg=path)
        assert back.info(path) == res.info(path), path
    assert back.layout["/job/model/recompute_name"] == res.layout["/job/model/recompute_name"]
    with h5py.File(h5, "r") as f:
        assert f["/job/model/step_time"].attrs["basis"] == "nominal"
        assert f["/job/model/step_time"].attrs["units"] == "s"
        assert f["/job/model/step_time"].attrs["description"]


def test_calendar_attributes_in_memory_as_in_the_file(tmp_path):
    # a plant's weather sets the calendar: the in-memory results carry the file's attributes
    fac = dctwin.Facility.load(ROOT / "data" / "facilities" / "pod_gb200_plant_w32.yaml")
    h5 = tmp_path / "plant.h5"
    res = dctwin.run(fac, duration="2 min", output=str(h5))
    disk = dctwin.read_results(str(h5))
    for key in ("calendar_year_start", "calendar_start", "calendar_utc_offset",
                "calendar_time_zone"):
        assert res.attributes[key] == disk.attributes[key], key
    assert res.attributes["calendar_time_zone"] == "UTC-07:00"  # the Phoenix EPW's zone
    assert res.attributes["calendar_start"] == "07-15 00:00"
    assert "calendar            t = 0 at 07-15 00:00" in res.summary_text
    assert "UTC-07:00" in res.summary_text


def test_grid_metrics_match_scipy_welch(tmp_path):
    """the meter's metrics (docs/models/grid.md): /grid/psd/density is scipy's Welch estimate of
    /power/P_utility (Hann, 50 % overlap, constant detrend, density), in the file, read back and in
    memory alike"""
    signal = pytest.importorskip("scipy.signal")
    pod = dctwin.Facility.from_string(
        POD.read_text() + "\ngrid: {start: 300 s, psd_segment: 10 s}\n", name="pod_grid.yaml",
        base_dir=str(POD.parent))
    h5 = tmp_path / "grid.h5"
    res = dctwin.run(pod, duration=340, output_interval="60 s", output=h5, power_interval=0.1)
    back = dctwin.read_results(h5)
    t, P = back["/power/time"], back["/power/P_utility"]
    x = P[t >= 300 - 1e-9]
    dt = back["/grid/dt"][0]
    assert dt == pytest.approx(0.1)
    n = int(round(10 / dt))
    f, S = signal.welch(x, fs=1 / dt, window="hann", nperseg=n, noverlap=n // 2,
                        detrend="constant", scaling="density")
    np.testing.assert_allclose(back["/grid/psd/frequency"], f, rtol=1e-12)
    np.testing.assert_allclose(back["/grid/psd/density"], S, rtol=1e-9, atol=1e-9 * S.max())
    assert back["/grid/peak_to_peak"][0] == pytest.approx(x.max() - x.min())
    assert back.info("/grid/bands/rms")["unit"] == "W"
    for path in ("/grid/psd/density", "/grid/bands/rms", "/grid/max_rise_window"):
        np.testing.assert_array_equal(res[path], back[path], err_msg=path)
    assert res.summary["grid"]["/grid/mean"][0] == back["/grid/mean"][0]


def test_event_and_fault_tables(pod, tmp_path):
    kinds = dctwin.event_kinds()
    assert [k["kind"] for k in kinds][:2] == ["pump_failure", "pump_switchover"]
    assert all(k["id"] == getattr(dctwin.EventKind, k["kind"]) for k in kinds)
    assert {"job_failed", "setpoint"} <= {k["kind"] for k in kinds}
    faults = dctwin.fault_kinds()
    assert {f["key"] for f in faults} >= {"pump_failure", "valve_stuck", "leak", "fabric"}
    assert all(f["event"] in {k["kind"] for k in kinds} for f in faults)
    # the results file lists the table's kinds in order on /events/kind; a file read back
    # gives each event its kind_id
    sc = dctwin.Scenario.from_string(
        "duration: 2 min\noutput_interval: 30 s\nevents:\n"
        "  - {time: 1 min, cdu: cdu1, valve_stuck: 0.3}\n", name="stuck.yaml")
    path = tmp_path / "r.h5"
    dctwin.run(pod, sc, output=str(path))
    with h5py.File(path, "r") as f:
        listed = f["/events/kind"].attrs["kinds"]
        listed = listed.decode() if isinstance(listed, bytes) else str(listed)
    assert listed.split(",") == [k["kind"] for k in kinds]
    back = dctwin.read_results(str(path))
    stuck = [e for e in back.events if e["kind"] == "valve_stuck"]
    assert stuck and stuck[0]["kind_id"] == dctwin.EventKind.valve_stuck
