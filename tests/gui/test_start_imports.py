"""The window's start stays light (issue 14): importing the main window brings no battle code
(the battle window, its odds chart with pyqtgraph and numpy, the battle core), and the
ruleset schema builds no pydantic validator as it loads (a warm start rebuilds the ruleset
from its cache and never validates). Checked in a fresh process, as a start is."""

from __future__ import annotations

import os
import subprocess
import sys

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
