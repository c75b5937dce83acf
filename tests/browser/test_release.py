"""The package as released (issue 26): ``make dist`` builds the sdist and the
wheel from a clean copy of the tree (the wheel from the sdist, whose build
hook builds the front end from ``js/`` with npm), ``twine check`` passes, the
wheel holds the bundle and no tests or tutorials, and the wheel installed in
a new virtual environment with only JupyterLab beside it plays a Gridlock
board clicked in Chromium.

Slow (two isolated builds, an npm install, a virtual environment): a few
minutes. Every wait is on a condition (a process's exit, the server's answer,
the board's ``data-version``), bounded.
"""

from __future__ import annotations

import email.parser
import os
import re
import subprocess
import tarfile
import venv
import zipfile
from pathlib import Path

import lab_harness as harness
import pytest

import gridwidgets

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
pytest.importorskip("build", reason="the build package is not installed (the dev extra has it)")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser

REPO = harness.REPO_ROOT
ROOT = '[data-game="gridlock"]'


def run(cmd: list[str], timeout: float, **kw) -> subprocess.CompletedProcess:
    """Run ``cmd``; a failure or a timeout names the command and shows the end of its output."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"{' '.join(cmd[:4])} did not finish within {timeout} s") from exc
    assert r.returncode == 0, f"{' '.join(cmd[:4])} failed ({r.returncode}):\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}"
    return r


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """``make dist`` into a temporary folder: ``(wheel, sdist, what make printed)``."""
    if not (REPO / ".git").exists():
        pytest.skip("make dist reads the git checkout (git archive)")
    out = tmp_path_factory.mktemp("dist")
    env = dict(os.environ, COLUMNS="400")  # twine's verdicts one line each
    r = run(["make", "--no-print-directory", "dist", f"DIST={out}"], 1200, cwd=REPO, env=env)
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return wheel, sdist, re.sub(r"\x1b\[[0-9;]*m", "", r.stdout + r.stderr)  # twine colours its verdicts


def test_make_dist_builds_the_wheel_from_the_sdist_and_twine_check_passes(dist):
    wheel, sdist, log = dist
    assert wheel.name == f"gridwidgets-{gridwidgets.__version__}-py3-none-any.whl"
    assert sdist.name == f"gridwidgets-{gridwidgets.__version__}.tar.gz"
    assert "Building wheel from sdist" in log, log[-2000:]
    for path in (wheel, sdist):
        assert f"Checking {path}: PASSED" in log, log[-2000:]


def test_the_wheel_holds_the_bundle_and_the_license_and_no_tests_or_tutorials(dist):
    wheel, _, _ = dist
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        bundle = z.read("gridwidgets/static/widget.js").decode()
        meta = email.parser.Parser().parsestr(z.read(f"gridwidgets-{gridwidgets.__version__}.dist-info/METADATA")
                                              .decode())
    assert "gridwidgets/static/widget.css" in names and "gridwidgets/py.typed" in names
    assert len(bundle) > 20_000 and "data-cell" in bundle  # the built front end, not a stub
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names[-8:]
    top = {n.split("/", 1)[0] for n in names}
    assert top <= {"gridwidgets", f"gridwidgets-{gridwidgets.__version__}.dist-info"}, top
    assert not [n for n in names if Path(n).name.startswith("test_") or "/tests/" in n or n.startswith("notebooks/")]
    # the one notebook inside is the classroom app that `python -m gridwidgets classroom` serves
    assert [n for n in names if n.endswith(".ipynb")] == ["gridwidgets/apps/classroom.ipynb"]
    assert meta["Version"] == gridwidgets.__version__
    assert meta["License-Expression"] == "MIT"
    assert {"all", "lab", "rooms", "fast", "openspiel", "rl"} <= set(meta.get_all("Provides-Extra"))
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert {"Homepage", "Documentation", "Source", "Issues", "Changelog"} <= set(urls)
    assert any(c.startswith("License :: ") or c.startswith("Topic :: ") for c in meta.get_all("Classifier"))


def test_the_sdist_carries_the_front_end_source_and_no_bundle(dist):
    _, sdist, _ = dist
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for name in ("js/src/index.ts", "js/build.mjs", "package.json", "package-lock.json", "pyproject.toml",
                 "LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "README.md", "gridwidgets/py.typed"):
        assert name in names, name
    assert not [n for n in names if n.startswith(("node_modules/", "gridwidgets/static/", "js/src/generated/"))]


@pytest.fixture(scope="module")
def wheel_env(dist, tmp_path_factory):
    """A new virtual environment with the wheel and JupyterLab only: its python."""
    wheel, _, _ = dist
    where = tmp_path_factory.mktemp("wheel-env")
    venv.create(where, with_pip=True)
    python = where / "bin" / "python"
    run([str(python), "-m", "pip", "install", "--quiet", str(wheel), "jupyterlab>=4.2"], 900)
    return python


def test_the_installed_wheel_plays_a_gridlock_board_clicked_in_jupyterlab(wheel_env, shared_browser, tmp_path):
    python = wheel_env
    where = run([str(python), "-c", "import gridwidgets; print(gridwidgets.__file__, gridwidgets.__version__)"],
                60, cwd=tmp_path).stdout.split()
    assert where[0].startswith(str(python.parents[1])) and where[1] == gridwidgets.__version__, where
    root = tmp_path / "root"
    root.mkdir()
    harness.write_notebook(root / "release.ipynb", [
        "import gridwidgets as gw\nprint(gw.__file__)",
        "g = gw.Gridlock()\nw = g.widget()\nw",
    ])
    with harness.JupyterLab(root, extra_pythonpath=[], python=python, startup_timeout=120) as lab:
        nb = shared_browser.open_notebook(lab, "release.ipynb")
        try:
            nb.run_all(timeout=120)
            nb.wait_for("(sel) => !!document.querySelector(sel + '[data-version=\"0\"] [data-cell=\"B2\"]')", ROOT)
            nb.page.locator(ROOT).first.locator('[data-cell="B2"]').click()
            nb.wait_for("(sel) => document.querySelector(sel).dataset.version === '1'", ROOT)
            assert nb.run_code("print([str(m) for m in g.history], gw.__file__)").split() == [
                "['B2']", where[0]], "the click did not reach the game in the wheel's kernel"
            label = nb.page.locator(ROOT).first.locator('[data-cell="B2"]').get_attribute("aria-label")
            assert label.startswith("B2, X"), label
        finally:
            nb.close()

