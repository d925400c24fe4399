# dctwin.estimate: the step model without a facility (docs/models/job.md), the same function the
# facility run and `dctwin estimate` use
import pytest

import dctwin
from conftest import ROOT


def test_estimate_pod_job():
    (r,) = dctwin.estimate(str(ROOT / "data" / "estimates" / "pod_gb200_job.yaml"))
    assert r["error"] == ""
    assert r["gpus"] == 576 and r["dp"] == 18 and r["micro_batches"] == 32
    assert sum(r["phases"].values()) == pytest.approx(r["step_time"], rel=1e-12)
    assert r["tokens_per_second"] == pytest.approx(576 * 8192 / r["step_time"], rel=1e-12)
    assert 0.3 < r["mfu"] < 0.7
    m = r["memory"]
    assert r["memory_per_gpu"] == pytest.approx(sum(m.values()), rel=1e-12)
    assert r["measured_step_time"] is None and r["delta"] is None


def test_estimate_validation_suite():
    rs = dctwin.estimate(str(ROOT / "tests" / "validation" / "training_runs.yaml"))
    assert len(rs) >= 40
    assert all(r["error"] == "" for r in rs)
    assert all(r["measured_step_time"] > 0 for r in rs)
    mean = sum(abs(r["delta"]) for r in rs) / len(rs)
    assert mean < 0.075  # the CLI's --tolerance in tests/CMakeLists.txt
    assert any(r["id"].endswith("_fsdp") for r in rs)  # sharding: optim_grads_params


def test_estimate_bad_case(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("dctwin_estimate: 1\ncases:\n  - {id: x, gpu: h100_sxm, gpus: 64, workload: "
                 "{layers: 80, hidden: 8192, heads: 64, vocab: 128256, sequence_length: 8192, "
                 "global_batch: 64, parallelism: {tp: 3}}}\n")
    (r,) = dctwin.estimate(str(f))
    assert "parallelism" in r["error"] and "bad.yaml:" in r["error"]
    f.write_text("dctwin_estimate: 1\ncases:\n  - {id: x, gpu: h100_sxn, gpus: 8, workload: {}}\n")
    with pytest.raises(dctwin.LoadError):
        dctwin.estimate(str(f))


def test_estimate_vp_auto(tmp_path):
    # `vp: auto` (an integer key's word) takes the fastest interleaving that fits; a word that
    # is not `auto` is a file:line error naming the key
    case = ("dctwin_estimate: 1\ncases:\n  - {id: x, gpu: h100_sxm, gpus: 64, workload: "
            "{layers: 80, hidden: 8192, ffn_hidden: 28672, gated_mlp: true, heads: 64, kv_heads: 8, "
            "vocab: 128256, sequence_length: 4096, global_batch: 64, recompute: full, "
            "parallelism: {tp: 8, pp: 8, vp: %s}}}\n")
    f = tmp_path / "vp.yaml"
    times = {}
    for vp in ("1", "2", "5", "10"):
        f.write_text(case % vp)
        (r,) = dctwin.estimate(str(f))
        assert r["error"] == "" and r["vp"] == int(vp)
        times[int(vp)] = r["step_time"]
    f.write_text(case % "auto")
    (r,) = dctwin.estimate(str(f))
    assert r["error"] == ""
    assert r["vp"] == min(times, key=times.get)
    assert r["step_time"] == pytest.approx(min(times.values()), rel=1e-12)
    f.write_text(case % "fast")
    with pytest.raises(dctwin.LoadError, match=r"vp\.yaml:.*vp"):
        dctwin.estimate(str(f))


def test_estimate_gpu_memory(tmp_path):
    # gpu_memory overrides the GPU type's HBM: half the bandwidth doubles the memory-bound phase
    case = ("dctwin_estimate: 1\ncases:\n  - {id: x, gpu: h100_sxm, gpus: 64, %sworkload: "
            "{layers: 80, hidden: 8192, ffn_hidden: 28672, gated_mlp: true, heads: 64, kv_heads: 8, "
            "vocab: 128256, sequence_length: 4096, global_batch: 64, recompute: full, "
            "parallelism: {tp: 8, pp: 8}}}\n")
    f = tmp_path / "hbm.yaml"
    f.write_text(case % "")
    (a,) = dctwin.estimate(str(f))
    f.write_text(case % "gpu_memory: {bandwidth: 1.675 TB/s}, ")
    (b,) = dctwin.estimate(str(f))
    assert a["error"] == "" and b["error"] == ""
    assert b["phases"]["elementwise"] == pytest.approx(2 * a["phases"]["elementwise"], rel=1e-9)
    f.write_text(case % "gpu_memory: {capacity: 8 GB}, ")
    (c,) = dctwin.estimate(str(f))
    assert "does not fit" in c["error"]


def test_estimate_scaling_series(tmp_path, cli):
    # a tag naming a scaling series: the CLI prints the MFU of its first and last case, measured
    # (the model's FLOPs over the measured step) and estimated, and the growth's error
    import re
    import subprocess
    case = ("  - {id: %s, gpu: h100_sxm, gpus: %d, measured_step_time: %g s, tags: [toy_scaling], "
            "workload: {layers: 32, hidden: 4096, ffn_hidden: 14336, gated_mlp: true, heads: 32, "
            "kv_heads: 8, vocab: 128256, sequence_length: 4096, global_batch: 256, "
            "parallelism: {tp: 8, pp: 1}}}\n")
    f = tmp_path / "series.yaml"
    f.write_text("dctwin_estimate: 1\ncases:\n" + case % ("big", 64, 1.5) + case % ("small", 16, 5.0)
                 + case.replace("toy_scaling", "other") % ("alone", 8, 9.0))
    rs = {r["id"]: r for r in dctwin.estimate(str(f))}
    assert all(r["error"] == "" for r in rs.values())
    out = subprocess.run([cli, "estimate", str(f)], capture_output=True, text=True, check=True).stdout
    lines = [l for l in out.splitlines() if l.startswith("series ")]
    assert len(lines) == 1  # one series: a tag on a single case is none
    m = re.match(r"series toy_scaling \(2 cases, 16 to 64 GPUs\): MFU measured ([\d.]+) -> ([\d.]+) "
                 r"% \(([+-][\d.]+) points\), estimated ([\d.]+) -> ([\d.]+) % \(([+-][\d.]+) points\): "
                 r"growth off by ([+-][\d.]+) points", lines[0])
    assert m, lines[0]
    mfu_meas = {k: 100 * rs[k]["mfu"] * rs[k]["step_time"] / rs[k]["measured_step_time"]
                for k in ("small", "big")}
    vals = [float(x) for x in m.groups()]
    assert vals[0] == pytest.approx(mfu_meas["small"], abs=0.06)  # ordered by GPUs, not file order
    assert vals[1] == pytest.approx(mfu_meas["big"], abs=0.06)
    assert vals[3] == pytest.approx(100 * rs["small"]["mfu"], abs=0.06)
    assert vals[4] == pytest.approx(100 * rs["big"]["mfu"], abs=0.06)
    growth_err = (vals[4] - vals[3]) - (vals[1] - vals[0])
    assert vals[6] == pytest.approx(growth_err, abs=0.2)


def test_estimate_power_cap(tmp_path):
    # a job's power cap (docs/models/job.md "Power limit"): the compute kernels run at the clock
    # the GPU holds under it, slowed less than the clock by the share of a GEMM's time that does
    # not follow it; the memory-bound kernels and the collectives keep their time; the type's
    # default limit changes nothing; a cap outside the settable range is a file:line error
    case = ("  - {id: %s, gpu: h100_sxm, gpus: 64, %s workload: {layers: 80, hidden: 8192, "
            "ffn_hidden: 28672, gated_mlp: true, heads: 64, kv_heads: 8, vocab: 128256, "
            "sequence_length: 4096, global_batch: 64, recompute: full, "
            "parallelism: {tp: 8, pp: 8}}}\n")
    f = tmp_path / "cap.yaml"
    f.write_text("dctwin_estimate: 1\ncases:\n" + case % ("free", "") +
                 case % ("tdp", "gpu_power_cap: 700 W,") + case % ("capped", "gpu_power_cap: 450 W,"))
    free, tdp, capped = dctwin.estimate(str(f))
    assert free["error"] == tdp["error"] == capped["error"] == ""
    assert tdp["step_time"] == free["step_time"]
    slow = capped["phases"]["forward"] / free["phases"]["forward"]
    assert 1.1 < slow < 1.0 / 0.6
    # (the backward: the same kernels, a slightly different share held by their HBM floor)
    assert capped["phases"]["backward"] / free["phases"]["backward"] == pytest.approx(slow, rel=0.05)
    assert capped["phases"]["elementwise"] == free["phases"]["elementwise"]
    assert capped["mfu"] < free["mfu"]
    f.write_text("dctwin_estimate: 1\ncases:\n" + case % ("x", "gpu_power_cap: 800 W,"))
    (r,) = dctwin.estimate(str(f))
    assert "gpu_power_cap 800 W" in r["error"] and "200 W ... 700 W" in r["error"]
    assert "cap.yaml:3" in r["error"]
