# pytest fixtures for the dctwin Python module (ctest label "python": tests/CMakeLists.txt sets
# PYTHONPATH to the build's python/ folder, DCTWIN_CLI and DCTWIN_SOURCE_DIR)
import os
import pathlib

import pytest

ROOT = pathlib.Path(os.environ.get("DCTWIN_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
POD = ROOT / "data" / "facilities" / "pod_gb200.yaml"


@pytest.fixture
def pod():
    import dctwin

    return dctwin.Facility.load(str(POD))


@pytest.fixture
def cli():
    path = os.environ.get("DCTWIN_CLI", str(ROOT / "build" / "solver" / "dctwin"))
    if not os.path.exists(path):
        pytest.skip("the dctwin program is not built (DCTWIN_CLI)")
    return path
