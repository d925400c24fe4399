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
    assert mean < 0.15


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
