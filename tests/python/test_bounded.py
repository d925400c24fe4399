# bad files and bad sizes: every loader and reader of the module refuses a FIFO, /dev/zero, a
# folder and a 60 MB file at once, with bounded memory and a clear error; run sizes are bounded
# (docs/results.md "Bad inputs and limits")
import os
import subprocess
import sys
import textwrap

import pytest

import dctwin
from conftest import POD, ROOT

LOADERS = {
    "Facility.load": "dctwin.Facility.load(p)",
    "Scenario.load": "dctwin.Scenario.load(p)",
    "Sweep.load": "dctwin.Sweep.load(p)",
    "read_results": "dctwin.read_results(p)",
}


@pytest.fixture
def bad_files(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    large = tmp_path / "large.yaml"
    with open(large, "wb") as f:
        f.write(b"dctwin: 1\n")
        f.truncate(60 << 20)
    folder = tmp_path / "folder"
    folder.mkdir()
    return {"fifo": str(fifo), "dev_zero": "/dev/zero", "folder": str(folder), "large": str(large)}


@pytest.mark.parametrize("call", sorted(LOADERS))
@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "folder", "large"])
def test_loaders_refuse_bad_files_with_bounded_memory(bad_files, call, kind):
    # in a child under a 1 GiB address-space limit and a 20 s timeout: a hang or a read of
    # /dev/zero would be killed, not pass
    code = textwrap.dedent(f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        import dctwin
        p = {bad_files[kind]!r}
        try:
            {LOADERS[call]}
        except (ValueError, OSError, dctwin.LoadError, dctwin.ResultsError) as e:
            print(type(e).__name__, str(e)[:300])
            sys.exit(0)
        print("accepted")
        sys.exit(1)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20,
                       env=os.environ)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    if kind != "folder":
        words = ("regular file", "too large", "FIFO", "device", "not an HDF5 file")
        assert any(w in r.stdout for w in words), r.stdout


def test_non_yaml_is_not_echoed(tmp_path):
    p = tmp_path / "passwd"
    p.write_text("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/bin/sh\n")
    for load in (dctwin.Facility.load, dctwin.Scenario.load):
        with pytest.raises(Exception) as e:
            load(str(p))
        assert "root:x" not in str(e.value) and "daemon" not in str(e.value)


def test_run_sizes_are_bounded(pod):
    for kw in ({"duration": 1e300}, {"duration": "1 h", "output_interval": 1e-9}):
        with pytest.raises(ValueError, match="allow_large"):
            dctwin.run(pod, **kw)


def test_output_never_replaces_the_facility(tmp_path):
    copy = tmp_path / "pod.yaml"
    copy.write_bytes(POD.read_bytes())
    link = tmp_path / "link.yaml"
    link.symlink_to(copy)
    fac = dctwin.Facility.load(str(copy))
    for out in (copy, link):
        with pytest.raises(dctwin.ResultsError, match="is the input file"):
            dctwin.run(fac, duration="1 min", output=str(out))
    assert copy.read_bytes() == POD.read_bytes()


def test_output_never_replaces_a_file_the_facility_names(tmp_path):
    # the results never replace a CSV series (or weather, catalog entry) the load read
    csv = tmp_path / "a01.csv"
    csv.write_text("time_s,value\n0,100\n3600,120\n")
    text = (ROOT / "data" / "facilities" / "two_cdu_mixed.yaml").read_text()
    old = "index: 1, heat_load: 110 kW}"
    assert old in text
    fac_file = tmp_path / "f.yaml"
    fac_file.write_text(text.replace(old, "index: 1, heat_load: {csv: a01.csv, unit: kW}}"))
    fac = dctwin.Facility.load(str(fac_file))
    with pytest.raises(dctwin.ResultsError, match="a01.csv"):
        dctwin.run(fac, duration="1 min", output=str(csv))
    assert csv.read_text() == "time_s,value\n0,100\n3600,120\n"
