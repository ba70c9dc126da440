"""Shared fixtures: the `mtf` program, the real traces of tests/data, their .mtf archives."""
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("MTF_SOURCE_DIR", Path(__file__).resolve().parents[2]))
DATA = SOURCE / "tests" / "data"
SAMPLE = SOURCE / "samples" / "wavefront-4x10" / "traces.otf2"
MTF = os.environ.get("MTF_BIN", str(SOURCE / "build" / "mtf"))


def real_traces():
    """The list of tests/data/real_traces.hpp (one place for every suite)."""
    text = (DATA / "real_traces.hpp").read_text()
    block = text[text.index("traces = {"):]
    block = block[:block.index("};")]
    return re.findall(r'"([^"]+)"', block)


def run_mtf(*args):
    return subprocess.run([MTF, "-q", *map(str, args)], check=True, capture_output=True,
                          text=True).stdout


def mtf_info(path):
    return json.loads(run_mtf("info", "--json", path))


@pytest.fixture(scope="session")
def archives(tmp_path_factory):
    """Each real trace converted to .mtf by the `mtf` program."""
    out = {}
    folder = tmp_path_factory.mktemp("archives")
    for i, trace in enumerate(real_traces()):
        archive = folder / f"real{i}.mtf"
        run_mtf("convert", DATA / trace, "-o", archive)
        out[trace] = archive
    return out
