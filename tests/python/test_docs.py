# the documentation runs: every ```python block of docs/python.md is executed in
# order, in one namespace, in a fresh folder where data/ is the repository's (the blocks use
# the paths a reader at the repository root would), and the output shown under a block (a
# ```text block, tests/python/docs_blocks.py) is what the block prints. The blocks are written
# to take seconds: short runs of the bundled pod.
import contextlib
import io
import os
import traceback

import pytest

from conftest import ROOT
from docs_blocks import blocks, output_matches

PAGE = ROOT / "docs" / "python.md"


def python_blocks():
    return [b for b in blocks(PAGE.read_text()) if b.lang == "python"]


def test_the_page_has_blocks_with_output():
    bs = python_blocks()
    assert len(bs) >= 8, bs
    shown = [b for b in bs if b.output is not None]
    assert len(shown) >= 6, f"only {len(shown)} python blocks show their output"


def test_docs_python_md_blocks_run_and_print_what_they_show(tmp_path, monkeypatch):
    pytest.importorskip("pandas")
    os.symlink(ROOT / "data", tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    ns = {"__name__": "__docs__"}
    failures = []
    for b in python_blocks():
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(b.text, f"docs/python.md:{b.line}", "exec"), ns)
        except Exception:  # noqa: BLE001 - every block's failure is reported
            failures.append(f"docs/python.md:{b.line}: the block raised\n{traceback.format_exc()}")
            break  # the next blocks build on this one
        if b.output is not None:
            ok, why = output_matches(b.output, out.getvalue())
            if not ok:
                failures.append(f"docs/python.md:{b.line}: the output shown at line "
                                f"{b.output_line} is not what the block prints: {why}\n"
                                f"--- it prints:\n{out.getvalue()}")
    assert not failures, "\n\n".join(failures)


def test_output_matching_can_fail():
    from docs_blocks import line_matches
    assert line_matches("Tj max 73.7 degC", "Tj max 73.8 degC")  # the last digit's rounding
    assert not line_matches("Tj max 73.7 degC", "Tj max 73.9 degC")
    assert not line_matches("Tj max 73.7 degC", "Tj min 73.7 degC")
    assert line_matches("a   1.5  b", "a 1.5 b")
    assert output_matches("a\n...\nz\n", "a\nb\nc\nz\n")[0]
    assert not output_matches("a\nz\n", "a\nb\nz\n")[0]
