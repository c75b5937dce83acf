"""The wheel carries the built front end and py.typed; the sdist carries the
front end's source and no bundle (quick checks with hatchling on this tree:
tests/browser/test_release.py builds both as released and installs the wheel)."""

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = [
    "gridwidgets/static/widget.js",
    "gridwidgets/static/widget.css",
    "gridwidgets/py.typed",
    "gridwidgets/apps/classroom.ipynb",  # what `python -m gridwidgets classroom` serves
]

pytest.importorskip("hatchling")
if not (ROOT / BUNDLE[0]).is_file():
    pytest.skip("the front end is not built (npm run build)", allow_module_level=True)


def build(target, out):
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", target, "-d", str(out)],
        cwd=ROOT, check=True, capture_output=True, timeout=300,
    )
    (path,) = out.iterdir()
    return path


def test_wheel_contains_the_bundle(tmp_path):
    names = zipfile.ZipFile(build("wheel", tmp_path)).namelist()
    for name in BUNDLE:
        assert name in names
    assert not any(n.startswith(("js/", "node_modules/", "tests/")) for n in names)


def test_sdist_contains_the_front_end_source_and_no_bundle(tmp_path):
    path = build("sdist", tmp_path)
    with tarfile.open(path) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for name in [*BUNDLE[2:], "js/src/index.ts", "package.json", "package-lock.json", "pyproject.toml", "LICENSE"]:
        assert name in names
    assert not any(n.startswith(("node_modules/", "gridwidgets/static/")) for n in names)
