"""Screenshots of the four boards mid-game in JupyterLab, light and dark, at
1280x720: what the page draws, to compare a front-end change before and after.

    python tools/board_screenshots.py OUT_DIR [--python PYTHON] [--repo REPO]

``--python`` runs JupyterLab and its kernel with another interpreter (a
checkout's own venv, for the "before" pictures of an older commit) and
``--repo`` puts that checkout first on the kernel's path. The positions are
``BOARD_POSITIONS`` of ``tests/browser/lab_harness.py`` (random legal moves from a
fixed seed), so every run shows the same positions. Writes
``OUT_DIR/<game>-<light|dark>.png``. Uses Debian's Chromium headless, as the
browser tests do; the server binds to 127.0.0.1 and is stopped at the end.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "browser"))

import lab_harness as harness  # noqa: E402

THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--python", default=sys.executable, help="the interpreter of JupyterLab and its kernel")
    parser.add_argument("--repo", default=None, help="a checkout to import gridwidgets from (first on the path)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="gw-shots-"))
    extra = [str(Path(args.repo).resolve())] if args.repo else None
    try:
        with harness.JupyterLab(root, python=args.python, extra_pythonpath=extra) as lab, \
                harness.Browser(viewport=(1280, 720)) as browser:
            for game in harness.BOARD_POSITIONS:
                name = f"shot_{game}.ipynb"
                harness.write_notebook(root / name, [harness.board_position_code(game)])
                for theme, label in THEMES.items():
                    nb = browser.open_notebook(lab, name)
                    try:
                        nb.set_theme(label)
                        nb.run_all()
                        sel = f'[data-game="{game}"]'
                        nb.wait_for("(sel) => !!document.querySelector(sel + ' [data-cell]')", sel)
                        moves = int(nb.run_code("print(g.version)"))
                        nb.wait_for("([sel, v]) => document.querySelector(sel).dataset.version === String(v)",
                                    [sel, moves])
                        left = "() => !document.querySelector('#jp-left-stack').classList.contains('lm-mod-hidden')"
                        if nb.evaluate(left):
                            nb.execute_command("application:toggle-left-area")
                        # the widget's top at the top of the notebook's panel
                        nb.evaluate("(sel) => document.querySelector(sel).scrollIntoView({block: 'start'})", sel)
                        nb.page.mouse.move(0, 0)
                        nb.page.evaluate("() => document.activeElement && document.activeElement.blur()")
                        path = args.out / f"{game}-{theme}.png"
                        nb.page.screenshot(path=str(path), animations="disabled")
                        print(path)
                    finally:
                        nb.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
