"""The window's start stays light (issue 14): importing the main window brings no battle code
(the battle window, its odds chart with pyqtgraph and numpy, the battle core), and the
ruleset schema builds no pydantic validator as it loads (a warm start rebuilds the ruleset
from its cache and never validates). Checked in a fresh process, as a start is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CODE = """
import sys
import app.rules.schema
import app.gui.main_window
heavy = ("app.core.battle", "app.gui.battle.window", "app.gui.battle.odds_chart",
         "pyqtgraph", "numpy", "app.store.battles")
print("LOADED", sorted(m for m in sys.modules if m in heavy or m.startswith("app.core.battle.")))
print("VALIDATOR", "pydantic.plugin._loader" in sys.modules)
"""


def test_main_window_and_schema_import_nothing_heavy() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run(
        [sys.executable, "-c", CODE], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "LOADED []" in out.stdout, out.stdout
    assert "VALIDATOR False" in out.stdout, out.stdout


WARM_START = """
import sys
from app.cli import main
main([])
found = sorted(m for m in sys.modules if m.split(".")[0] in ("pydantic", "pydantic_core"))
print("PYDANTIC", found)
"""


def test_a_warm_start_shows_the_reopened_roster_without_pydantic(tmp_path: Path) -> None:
    """The ruleset's objects are plain records (``app.rules.record``): a start whose
    ruleset comes from the validated cache never imports pydantic, which validating the
    TOML of the first start did."""
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "CASTRA_HOME": str(tmp_path),
        "CASTRA_DB": str(tmp_path / "c.sqlite3"),
        "CASTRA_QUIT_AFTER_SHOW": "1",
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    runs = [
        subprocess.run(
            [sys.executable, "-c", WARM_START], env=env, capture_output=True, text=True, timeout=120
        )
        for _ in range(2)
    ]
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert "roster open" in run.stdout, run.stdout
    assert "PYDANTIC []" not in runs[0].stdout, runs[0].stdout  # the first start validated
    assert "PYDANTIC []" in runs[1].stdout, runs[1].stdout
