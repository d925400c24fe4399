# the documented examples run: every docs/examples/*.py is run with the command
# docs/python.md shows for it, in a fresh folder, and prints the output shown there
# (tests/python/docs_blocks.py: numbers to the digits shown); and docs/examples/fws_sweep.py on a
# short sweep whose warmest case has its load shed by protection: its table has no NaN where a
# case ran, the shed case is named with its outcome, and the plot is written
import os
import pathlib
import shlex
import subprocess
import sys

import pytest

from conftest import ROOT
from docs_blocks import blocks, output_matches

EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.py"))


def documented_run(example):
    """the docs/python.md sh block that runs the example, and the output shown under it"""
    for b in blocks((ROOT / "docs" / "python.md").read_text()):
        if b.lang == "sh" and f"docs/examples/{example.name}" in b.text:
            line = next(x for x in b.text.splitlines() if f"docs/examples/{example.name}" in x)
            return line, b.output, b.line
    return None, None, None


def test_every_example_is_documented_with_its_output():
    assert EXAMPLES
    for ex in EXAMPLES:
        line, output, at = documented_run(ex)
        assert line, f"docs/python.md shows no command that runs docs/examples/{ex.name}"
        assert output, f"docs/python.md:{at}: no output shown under the command of {ex.name}"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_example_prints_what_the_docs_show(example, tmp_path):
    line, output, at = documented_run(example)
    words = shlex.split(line)
    while words and "=" in words[0] and not words[0].startswith("-"):
        words.pop(0)  # PYTHONPATH=build/python: this test's own module path is used
    assert words[0] == "/usr/bin/python3", line
    for d in ("docs", "data"):
        os.symlink(ROOT / d, tmp_path / d)
    p = subprocess.run([sys.executable, *words[1:]], cwd=tmp_path, capture_output=True,
                       text=True, env=dict(os.environ), timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    ok, why = output_matches(output, p.stdout)
    assert ok, (f"docs/python.md:{at}: {example.name} does not print what the page shows: "
                f"{why}\n--- it prints:\n{p.stdout}")
    for w in words:  # the files it was asked to write
        if w.endswith(".png"):
            assert (tmp_path / w).stat().st_size > 10000, w


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
