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
    assert mean < 0.09
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
