# sweeps on threads: the metrics table, equal to `dctwin sweep`'s /cases table
import subprocess

import h5py
import numpy as np
import pytest

import dctwin
from conftest import POD

FWS = "facility.facility_water.supply_temperature"


def test_grid_sweep_equals_the_cli(pod, cli, tmp_path):
    sweep = dctwin.Sweep.grid(pod, {FWS: ["30 degC", "40 degC"]}, duration="6 min")
    assert len(sweep) == 2 and sweep.cases == [["30 degC"], ["40 degC"]]
    seen = []
    res = sweep.run(threads=2, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 2), (2, 2)]
    assert len(res) == 2 and res["ok"].all() and res["comparable"].all()
    assert res["status"] == ["completed", "completed"]
    assert res["index"].tolist() == [0, 1]
    np.testing.assert_allclose(res["facility_water.supply_temperature"], [303.15, 313.15])
    assert res.values["facility_water.supply_temperature"] == ["30 degC", "40 degC"]
    assert res.units["T_supply_max"] == "K"
    assert res["T_supply_max"][1] > res["T_supply_max"][0]
    assert set(dctwin.sweep_metrics()) <= set(res.keys())

    yaml = tmp_path / "fws.yaml"
    yaml.write_text(f"facility: {POD}\nduration: 6 min\nparameters:\n"
                    f"  - {{path: {FWS}, values: [30 degC, 40 degC]}}\n")
    out = tmp_path / "cli_sweep.h5"
    subprocess.run([cli, "sweep", str(yaml), "-j", "2", "-o", str(out)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with h5py.File(out, "r") as f:
        for name in dctwin.sweep_metrics():
            np.testing.assert_array_equal(res[name], f["/cases/" + name][()], err_msg=name)
    # the same table written by the module
    mine = tmp_path / "py_sweep.h5"
    res.write(mine)
    with h5py.File(mine, "r") as f:
        np.testing.assert_array_equal(f["/cases/T_supply_max"][()], res["T_supply_max"])

    # every job's metrics: one row per case and job, the same from the run and from the file;
    # the pod's one job is the /cases columns' first training job
    jobs = res.jobs()
    assert len(jobs) == 2 and jobs["case"].tolist() == [0, 1]
    assert jobs["job"] == ["llm_training", "llm_training"] and jobs["kind"][0] == "training"
    assert jobs.units["step_time"] == "s" and jobs.basis["step_time"] == "window mean"
    np.testing.assert_array_equal(jobs["step_time"], res["step_time"])
    np.testing.assert_array_equal(jobs["map_compute"], res["map_compute"])
    table = dctwin.read_results(str(out))
    assert table.jobs is not None and len(table.jobs) == 2
    np.testing.assert_array_equal(table.jobs["tokens_per_second"], jobs["tokens_per_second"])
    csv = subprocess.run([cli, "export", str(out), "--jobs"], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    assert csv[0].startswith("case,job,kind,gpus,") and len(csv) == 3

    # the sweep file itself, run from Python
    again = dctwin.Sweep.load(yaml).run(threads=1, max_cases=1)
    assert len(again) == 1
    np.testing.assert_array_equal(again["T_supply_max"], res["T_supply_max"][:1])


def test_grid_sweep_errors(pod):
    with pytest.raises(dctwin.LoadError, match="expected facility.<path>"):
        dctwin.Sweep.grid(pod, {"facility_water.supply_temperature": ["30 degC"]})
    with pytest.raises(dctwin.LoadError, match="30 kW"):
        dctwin.Sweep.grid(pod, {FWS: ["30 degC", "30 kW"]})
    with pytest.raises(ValueError):
        dctwin.Sweep.grid(pod, {})
    sweep = dctwin.Sweep.grid(pod, {FWS: ["30 degC"]}, duration=60)
    with pytest.raises(ValueError):
        sweep.run(threads=-1)


def test_sweep_callback_exception_stops_new_cases(pod):
    sweep = dctwin.Sweep.grid(pod, {FWS: ["30 degC", "32 degC", "34 degC", "36 degC"]},
                              duration=60)

    def progress(done, total):
        raise RuntimeError("stop the sweep")

    with pytest.raises(RuntimeError, match="stop the sweep"):
        sweep.run(threads=1, progress=progress)
    token = dctwin.Cancel()
    res = sweep.run(threads=1, progress=lambda d, t: token.cancel(), cancel=token)
    assert len(res) == 1


def test_sweep_files_load_where_users_work(pod, cli, tmp_path):
    """a sweep's /cases file reads back in Python (and pandas) and exports as CSV"""
    pd = pytest.importorskip("pandas")
    yaml = tmp_path / "fws.yaml"
    yaml.write_text(f"facility: {POD}\nduration: 6 min\nparameters:\n"
                    f"  - {{name: fws, path: {FWS}, values: [30 degC, 40 degC]}}\n")
    out = tmp_path / "sweep.h5"
    subprocess.run([cli, "sweep", str(yaml), "-j", "2", "-o", str(out)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t = dctwin.read_results(out)
    assert isinstance(t, dctwin.SweepTable) and len(t) == 2
    assert t["status"] == ["completed", "completed"] and t["comparable"].all()
    assert t["parameters/fws"] == ["30 degC", "40 degC"]
    assert t.units["E_utility"] == "J" and t.basis["E_utility"] == "window total"
    assert t.basis["P_utility_mean"] == "window mean"
    with h5py.File(out, "r") as f:
        np.testing.assert_array_equal(t["T_junction_max"], f["/cases/T_junction_max"][()])
    df = t.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 2
    assert list(df.columns[:5]) == ["index", "status", "outcome", "error", "wall_seconds"]
    assert df.attrs["units"]["T_junction_max"] == "K"
    assert (df["metrics_window"] == df["metrics_window"][0]).all()
    # a run's events as a DataFrame
    res = dctwin.run(pod, duration=30)
    ev = res.events_frame()
    assert list(ev.columns) == ["time", "component", "kind", "severity", "message"]
    # dctwin export writes the table, one row per case
    csv = tmp_path / "cases.csv"
    subprocess.run([cli, "export", str(out), "-o", str(csv)], check=True)
    back = pd.read_csv(csv)
    assert len(back) == 2 and back["status"].tolist() == ["completed", "completed"]
    assert "T_junction_max (K)" in back.columns
    np.testing.assert_allclose(back["T_junction_max (K)"], t["T_junction_max"], rtol=1e-15)
    # a run file where a sweep file is expected and the other way round: clear errors
    p = subprocess.run([cli, "export", str(out), "--series", "/rack/*"], capture_output=True,
                       text=True)
    assert p.returncode != 0 and "is a sweep's /cases file" in p.stderr
    with pytest.raises(ValueError, match="is a sweep's /cases file"):
        dctwin.read_results(out, series=["/rack/*"])


def test_sweep_metrics_have_the_step_model(pod):
    """the first training job's step time, tokens/s, MFU and memory per GPU in /cases"""
    res = dctwin.Sweep.grid(pod, {FWS: ["30 degC"]}, duration="8 min").run(threads=1)
    assert res["ok"].all()
    for name, unit in (("step_time_model", "s"), ("step_time", "s"),
                       ("tokens_per_second", "1/s"), ("mfu", "1"), ("memory_per_gpu", "B")):
        assert res.units[name] == unit, name
        assert np.isfinite(res[name][0]) and res[name][0] > 0, name
    assert res["tokens_per_second"][0] * res["step_time"][0] == pytest.approx(4718592, rel=1e-12)
    assert 0 < res["mfu"][0] < 1


def test_ensemble_intervals_in_python_equal_the_file(cli, tmp_path):
    # an ensemble (replicates): Sweep.grid(replicates=) and a sweep file run by the CLI give the
    # same /ensemble table; pandas reads it with units and basis; the intervals are numpy's
    pd = pytest.importorskip("pandas")
    r4 = POD.parent / "pod_gb200_r4.yaml"
    fac = dctwin.Facility.load(str(r4))
    with pytest.raises(ValueError, match="2 to 10000 replicates"):
        dctwin.Sweep.grid(fac, {FWS: ["30 degC"]}, duration="9 min", replicates=1)
    sweep = dctwin.Sweep.grid(fac, {FWS: ["30 degC", "40 degC"]}, duration="9 min",
                              replicates=3, seed=5)
    assert len(sweep) == 6
    res = sweep.run(threads=2)
    ens = res.ensemble()
    assert len(ens) == 2
    df = ens.to_pandas()
    assert isinstance(df, pd.DataFrame)
    assert df["parameters/facility_water.supply_temperature"].tolist() == ["30 degC", "40 degC"]
    assert df["completed"].tolist() == [3, 3]
    assert df.attrs["units"]["p95/E_it"] == "J"
    assert df.attrs["basis"]["mean/T_junction_max"] == "ensemble mean of window max"
    # the statistics are numpy's over each design point's replicates
    tj = res["T_junction_max"].reshape(2, 3)
    np.testing.assert_allclose(df["mean/T_junction_max"], tj.mean(axis=1), rtol=1e-12)
    np.testing.assert_allclose(df["std/T_junction_max"], tj.std(axis=1, ddof=1), rtol=1e-12)
    np.testing.assert_allclose(df["p5/T_junction_max"], np.percentile(tj, 5, axis=1), rtol=1e-12)
    np.testing.assert_allclose(df["p95/T_junction_max"], np.percentile(tj, 95, axis=1),
                               rtol=1e-12)
    assert len(set(tj[0].tolist())) == 3  # the seeds differ, so do the replicates
    # the same sweep as a file, through the CLI: the same table, read back
    yaml = tmp_path / "ens.yaml"
    yaml.write_text(f"facility: {r4}\nduration: 9 min\nreplicates: 3\nseed: 5\nparameters:\n"
                    f"  - {{path: {FWS}, values: [\"30 degC\", \"40 degC\"]}}\n")
    subprocess.run([cli, "sweep", str(yaml), "-q", "-j", "2", "-o", str(tmp_path / "e.h5")],
                   check=True)
    table = dctwin.read_results(str(tmp_path / "e.h5"))
    assert table.ensemble is not None and len(table.ensemble) == 2
    fdf = table.ensemble.to_pandas()
    for col in ("mean/T_junction_max", "p5/throughput_ratio", "p95/E_it", "std/P_utility_mean"):
        np.testing.assert_array_equal(fdf[col].to_numpy(), df[col].to_numpy())
    assert table["design_point"].tolist() == [0, 0, 0, 1, 1, 1]
    assert table["replicate"].tolist() == [0, 1, 2, 0, 1, 2]
    # a sweep without replicates has no ensemble
    assert dctwin.Sweep.grid(fac, {FWS: ["30 degC"]}, duration="1 min").run().ensemble() is None
