# loading and editing facilities, scenarios and sweeps; bad input raises, never crashes
import pytest

import dctwin
from conftest import POD, ROOT

BROKEN = """\
dctwin: 1
name: broken
facility_water:
  supply_temperature: 32 kW
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    control: {supply_temperature: 36 degC, flow_setpoint: 1100 L/min}
racks:
  - {name: A01, cdu: cdu9, heat_load: 100 kW, type: gb200_nvl72}
"""


def test_load_pod(pod):
    assert pod.name == "pod_gb200"
    assert pod.path == str(POD)
    assert pod.cdus == ["cdu1"]
    assert pod.racks == [f"A0{i}" for i in range(1, 9)]
    assert pod.jobs == ["llm_training"]
    size = pod.check()
    assert (size["cdus"], size["racks"], size["gpus"], size["jobs"]) == (1, 8, 576, 1)
    assert pod.layout["/rack/names"] == pod.racks
    assert "8 rack(s)" in repr(pod)
    assert pod.layout["has_plant"] is False and size["plant"] is False


def test_plant_in_the_layout():
    fac = dctwin.Facility.load(ROOT / "data" / "facilities" / "pod_gb200_plant_w32.yaml")
    assert fac.check()["plant"] is True
    assert fac.layout["has_plant"] is True
    assert fac.layout["plant_rejection"] == "dry_coolers"


def test_air_and_switch_racks_in_the_layout():
    # the layout table's rows (solver/output/observables.h): what a results file would hold
    fab = dctwin.Facility.load(ROOT / "data" / "facilities" / "pod_gb200_fabric.yaml")
    size = fab.check()
    assert size["switch_racks"] > 0 and size["air_racks"] == 0
    assert len(fab.layout["/switch_rack/names"]) == size["switch_racks"]
    assert "/air_rack/names" not in fab.layout
    block = dctwin.Facility.load(ROOT / "data" / "facilities" / "datasheet_block.yaml")
    size = block.check()
    assert size["air_racks"] == len(block.layout["/air_rack/names"]) > 0
    assert len(block.layout["/air_rack/row"]) == len(block.layout["/air_rack/index"]) == size["air_racks"]


def test_missing_files():
    with pytest.raises(FileNotFoundError):
        dctwin.Facility.load("/no/such/facility.yaml")
    with pytest.raises(FileNotFoundError):
        dctwin.Scenario.load("/no/such/scenario.yaml")
    with pytest.raises(FileNotFoundError):
        dctwin.Sweep.load("/no/such/sweep.yaml")
    with pytest.raises(FileNotFoundError):
        dctwin.read_results("/no/such/results.h5")


def test_wrong_types(pod):
    with pytest.raises(TypeError):
        dctwin.Facility.load(42)
    with pytest.raises(TypeError):
        dctwin.run("data/facilities/pod_gb200.yaml")
    with pytest.raises(TypeError):
        dctwin.run(pod, scenario="x.yaml")
    with pytest.raises(TypeError):
        dctwin.run(pod, duration=[1, 2])
    with pytest.raises(ValueError):
        dctwin.run(pod, duration=-5)
    with pytest.raises(ValueError):
        dctwin.run(pod, duration="soon")
    with pytest.raises(ValueError):
        dctwin.run(pod, threads=0)
    with pytest.raises(TypeError):
        dctwin.run(pod, progress=5)
    with pytest.raises(TypeError):
        dctwin.run(pod, cancel=True)
    with pytest.raises(TypeError):
        pod.set("facility_water.supply_temperature", object())
    with pytest.raises(TypeError):
        dctwin.Sweep.grid(pod, {"facility.facility_water.supply_temperature": "30 degC"})


def test_load_errors_carry_every_error_with_its_place(tmp_path):
    f = tmp_path / "broken.yaml"
    f.write_text(BROKEN)
    with pytest.raises(dctwin.LoadError) as info:
        dctwin.Facility.load(str(f))
    e = info.value
    assert isinstance(e, ValueError)
    assert len(e.errors) >= 2
    text = str(e)
    # file:line:col: key: message (got 'value'), one per line
    assert f"{f}:4:23: facility_water.supply_temperature:" in text
    assert "(got '32 kW')" in text
    first = next(x for x in e.errors if x.path == "facility_water.supply_temperature")
    assert (first.file, first.line, first.column, first.value) == (str(f), 4, 23, "32 kW")
    assert str(first) in text
    assert any("cdu9" in x.value or "cdu9" in x.message for x in e.errors)
    # the same from a string, named as given
    with pytest.raises(dctwin.LoadError) as info:
        dctwin.Facility.from_string(BROKEN, name="mine.yaml")
    assert "mine.yaml:4:23:" in str(info.value)
    with pytest.raises(dctwin.LoadError):
        dctwin.Facility.from_string("a: [unclosed")


def test_edit_facility(pod):
    assert pod.get("facility_water.supply_temperature") == "32 degC"
    pod.set("facility_water.supply_temperature", "40 degC")
    pod.set("cdus[cdu1].control.supply_temperature", "42 degC")
    pod.set("jobs[llm_training].gpu_power_cap", "900 W")
    assert pod.get("facility_water.supply_temperature") == "40 degC"
    assert pod.get("cdus[0].control.supply_temperature") == "42 degC"
    assert pod.edits[0] == ("facility_water.supply_temperature", "40 degC")
    # a rack with a heat load is a prescribed load: its GPUs are no longer resolved
    pod.set("racks[A01].heat_load", "100 kW")
    pod.update({"racks[A02].heat_load": "90 kW", "jobs[llm_training].checkpoint_interval": "1 h"})
    # the described job's parallelism must divide the 432 GPUs left (docs/models/job.md)
    with pytest.raises(dctwin.LoadError, match="does not divide the job's 432 GPUs"):
        pod.check()
    pod.update({"jobs[llm_training].workload.parallelism.pp": 2,
                "jobs[llm_training].workload.tokens_per_iteration": 27 * 32 * 8192})
    assert pod.check()["gpus"] == 6 * 72
    # numbers are written as YAML numbers
    pod.set("racks[A03].index", 9)
    assert pod.get("racks[A03].index") == "9"
    # a missing intermediate key is an error (as in sweeps), not created
    with pytest.raises(dctwin.LoadError, match="no key 'balancing_valve'"):
        pod.set("racks[A03].balancing_valve.opening", 0.5)


def test_bad_edits_leave_the_facility_unchanged(pod):
    before = pod.text
    with pytest.raises(dctwin.LoadError) as info:
        pod.set("facility_water.supply_temperature", "40 kW")
    assert "facility_water.supply_temperature" in str(info.value)
    assert "(got '40 kW')" in str(info.value)
    with pytest.raises(dctwin.LoadError) as info:
        pod.set("facility_water.supply_temp", "40 degC")
    assert "did you mean 'supply_temperature'" in str(info.value)
    with pytest.raises(dctwin.LoadError) as info:
        pod.set("racks[A99].heat_load", "1 kW")
    assert "no entry 'A99'" in str(info.value)
    with pytest.raises(dctwin.LoadError):  # all or none
        pod.update({"facility_water.supply_temperature": "35 degC", "cdus[cdu1].fluid": "mercury"})
    assert pod.text == before and pod.edits == []
    with pytest.raises(KeyError):
        pod.get("facility_water.nothing")


def test_copy_and_save(pod, tmp_path):
    other = pod.copy()
    other.set("facility_water.supply_temperature", "45 degC")
    assert pod.get("facility_water.supply_temperature") == "32 degC"
    out = tmp_path / "edited.yaml"
    other.save(out)
    again = dctwin.Facility.load(out)
    assert again.get("facility_water.supply_temperature") == "45 degC"


def test_scenarios():
    s = dctwin.Scenario()
    assert s.duration == 3600 and s.output_interval == 60
    s = dctwin.Scenario.load(ROOT / "data" / "scenarios" / "pod_pump_failure_redundant.yaml")
    assert s.duration == 1800 and s.output_interval == 10
    assert s.events[0]["kind"] == "pump_failure"
    s.set("duration", "5 min")
    assert s.duration == 300
    with pytest.raises(dctwin.LoadError):
        s.set("duration", "-5 min")
    assert s.duration == 300
    with pytest.raises(dctwin.LoadError):
        dctwin.Scenario.from_string("duration: 10 parsecs\n", name="s.yaml")


def test_sweep_files():
    s = dctwin.Sweep.load(ROOT / "data" / "sweeps" / "pod_fws_racks.yaml")
    assert len(s) == 40 and s.name == "pod_fws_racks"
    p = s.parameters
    assert [x["name"] for x in p] == ["racks_per_cdu", "fws_temperature"]
    assert p[1]["path"] == "facility.facility_water.supply_temperature"
    assert p[1]["values"][0] == "25 degC" and p[1]["values"][-1] == "45 degC"
    assert s.cases[1] == ["../facilities/pod_gb200_r4.yaml", "27.8571 degC"]
    with pytest.raises(dctwin.LoadError) as info:
        dctwin.Sweep.from_string(
            "facility: x.yaml\nparamters: []\n", name="bad_sweep.yaml", base_dir=str(ROOT)
        )
    assert "bad_sweep.yaml:2:1: unknown key 'paramters'; did you mean 'parameters'?" in str(info.value)
    bad = dctwin.Sweep.from_string(
        f"facility: {POD}\nparameters:\n  - {{path: facility.facility_water.supply_temperature, "
        "values: [30 degC, 30 kW]}\n",
        name="values.yaml",
    )
    with pytest.raises(dctwin.LoadError) as info:
        bad.check()
    assert "case 1" in str(info.value) and "30 kW" in str(info.value)


def test_tables():
    obs = dctwin.observables()
    t = next(o for o in obs if o["path"] == "/rack/T_supply")
    assert (t["unit"], t["basis"], t["shape"]) == ("K", "instant", "rack")
    assert list(dctwin.sweep_metrics())[0] == "T_junction_max"
    assert dctwin.to_si("40 degC") == pytest.approx(313.15)
    with pytest.raises(ValueError):
        dctwin.to_si("warm")
    assert dctwin.data_dirs()


def test_odd_files(tmp_path):
    with pytest.raises(IsADirectoryError):
        dctwin.Facility.load(tmp_path)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"name: \xff\xfe\x00\x01\nfacility_water: {supply_temperature: \xff degC}\n")
    with pytest.raises(dctwin.LoadError) as info:
        dctwin.Facility.load(binary)
    assert str(binary) in str(info.value)
    assert all(isinstance(str(x), str) for x in info.value.errors)
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    with pytest.raises(dctwin.LoadError):
        dctwin.Facility.load(empty)
