"""The window's start stays light (issue 14): importing the main window brings no battle code
(the battle window, its odds chart with pyqtgraph and numpy, the battle core), and the
ruleset schema builds no pydantic validator as it loads (a warm start rebuilds the ruleset
from its cache and never validates); a real start builds no Qt class and loads no module it
does not need, and PySide6 reads the source of no module loaded before it. Checked in a fresh
process, as a start is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from app.core.roster import Roster
from app.store import Store, save_roster

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
print("PLAY", sorted(m for m in sys.modules if m in ("app.rules.values", "app.rules.mechanics")))
from app import classcode
import PySide6.QtWidgets as widgets
print("QSTYLE", "QStyle" in vars(widgets))
print("DATACLASS CODE compiled", classcode.counts["compiled"], "reused", classcode.counts["reused"])
"""


def test_a_warm_start_shows_the_reopened_roster_without_pydantic(tmp_path: Path) -> None:
    """The ruleset's objects are plain records (``app.rules.record``): a start whose
    ruleset comes from the validated cache never imports pydantic, which validating the
    TOML of the first start did. Nor does it compile the methods of its dataclasses: the
    first start kept their code (``app.classcode``)."""
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
    # nor what the mechanics see of a battle (some fifteen dataclasses, made as they load)
    assert "PLAY []" in runs[1].stdout, runs[1].stdout
    compiled = [int(run.stdout.split("DATACLASS CODE compiled ")[1].split()[0]) for run in runs]
    reused = int(runs[1].stdout.split(" reused ")[1].split()[0])
    assert compiled[0] > 200 and compiled[1] == 0, runs[1].stdout
    assert reused > 200, runs[1].stdout
    # a valid roster reopened shows no severity icon: nothing touched QStyle, which PySide6
    # builds with all its enums (some 6 ms) when it is first touched
    assert "QSTYLE False" in runs[1].stdout, runs[1].stdout


#: Qt classes the window's start does not need: PySide6 builds a class and its enums when it
#: is first touched (asking Python for a view's viewport built the first eight as PySide6
#: worked out the viewport's type); printing and its Qt module load when something is printed
LATER = {
    "PySide6.QtWidgets": (
        "QFileDialog",
        "QMessageBox",
        "QWizard",
        "QUndoView",
        "QGraphicsView",
        "QTimeEdit",
        "QMdiArea",
        "QSlider",
        "QProgressDialog",
    ),
    "PySide6.QtGui": ("QGradient", "QDropEvent", "QDesktopServices"),
}
LATER_MODULES = ("app.gui.print_dialog", "app.gui.print_job", "PySide6.QtPrintSupport")

START = """
import sys
from app.cli import _load_before_qt
_load_before_qt()
from app.gui.app import run
run()
from PySide6.QtWidgets import QApplication
from app.gui.main_window import MainWindow
window = next(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow))
print("OPEN", window.statusBar().currentMessage(), window.library.status.text())
built = [f"{m}.{name}" for m, names in LATER.items() for name in names
         if name in vars(sys.modules[m])]
print("BUILT", built + [m for m in LATER_MODULES if m in sys.modules])
"""


def test_the_start_builds_no_qt_class_it_does_not_need(
    tmp_path: Path, db_path: Path, store: Store
) -> None:
    """A real start that reopens a roster (its window shown, the roster open and painted)
    builds none of the Qt classes and loads none of the modules only used later."""
    rid = save_roster(store, roster=Roster("Reopened", "quincunx", "roman", "Rome", "1:100"))
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.ini").write_text(f"[rosters]\nlast={rid}\n", encoding="utf-8")
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "CASTRA_HOME": str(home),
        "CASTRA_DB": str(db_path),
        "CASTRA_QUIT_AFTER_SHOW": "1",
    }
    code = f"LATER = {LATER!r}\nLATER_MODULES = {LATER_MODULES!r}\n" + START
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "OPEN Opened “Reopened” 1 roster" in out.stdout, out.stdout
    assert "BUILT []" in out.stdout, out.stdout


SCAN = """
import importlib, sys
from app.cli import _load_before_qt
_load_before_qt()
import app.gui
feature = importlib.import_module("PySide6.support.feature")
scanned = []
real = feature._mod_uses_pyside
feature._mod_uses_pyside = lambda module: scanned.append(module.__name__) or real(module)
import typing, logging, datetime, app.core.roster, app.store.read
import app.gui.library_model, app.gui.fit
import html
print("SCANNED", [m for m in scanned if not m.startswith("PySide6.")])  # binary: no source
"""


def test_pyside_reads_no_source_of_the_modules_loaded_before_it() -> None:
    """PySide6 reads a module's source the first time an import statement names it after
    PySide6 has loaded; the window's Qt-free modules (and the standard library's) loaded
    before it, and the window's own modules, are entered in its table first, so only other
    new modules are read."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run(
        [sys.executable, "-c", SCAN], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "SCANNED ['html.entities', 'html']" in out.stdout, out.stdout  # new: read
