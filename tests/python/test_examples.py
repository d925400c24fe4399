# the documented examples run (issue 41): docs/examples/fws_sweep.py on a short sweep whose
# warmest case has its load shed by protection; its table has no NaN where a case ran, the shed
# case is named with its outcome, and the plot is written
import os
import pathlib
import subprocess
import sys

from conftest import ROOT


def test_fws_sweep_example(tmp_path):
    png = tmp_path / "fws.png"
    env = dict(os.environ)
    p = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "examples" / "fws_sweep.py"),
         "--facility", str(ROOT / "data" / "facilities" / "pod_gb200_r8.yaml"),
         "--low", "30", "--high", "45", "--step", "15", "--duration", "7 min", "-j", "2",
         "-o", str(png)],
        capture_output=True, text=True, env=env, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    out = p.stdout
    assert "45 degC: protection acted: 8 rack(s) powered off" in out, out
    row30 = [line for line in out.splitlines() if line.startswith(" 30.0")]
    assert row30 and "nan" not in row30[0] and "not comparable" not in row30[0], out
    assert " 45.0   not comparable: protection_acted" in out, out
    assert "warmest comparable case, 30 degC" in out, out
    assert png.exists() and png.stat().st_size > 10000
