"""``castra self-test``: checks that this copy of Castra works, as a newcomer would meet it,
in a data folder of its own (a temporary one: the user's store, settings and house rules are
never read or touched).

It starts the window as ``castra`` does (first start: the store is made by the migrations, the
rulesets load, the sample rosters are given and one opens), then drives it: the window has
its icon; the sample roster is open; File > New battle starts a battle between it and
another sample roster on the "river crossing" table, and its window opens and draws the
units and the terrain; the roster's unit cards are printed to a PDF through the window's
print job; then every window closes and the process exits 0. The first thing that fails is
said in one line, and the exit code is 1. Each step prints what it saw.

It is what the PyInstaller bundle's smoke test runs (``make dist``), and the installed-wheel
test too, so both exercise the files the build must carry: the rulesets, the migrations,
the fonts, the icons and Qt's plugins (the platform, SVG icons).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

if TYPE_CHECKING:
    from app.gui.battle.window import BattleWindow
    from app.gui.main_window import MainWindow

#: the longest the whole test may take before it gives up (a hung step fails, never hangs)
TIMEOUT_S = 180.0
#: the table the battle is fought on (a ready-made layout of every ruleset)
LAYOUT = "river crossing"
#: environment switches of the window that would change what the test drives
_SWITCHES = (
    "CASTRA_DB",
    "CASTRA_SHOW",
    "CASTRA_QUIT_AFTER_SHOW",
    "CASTRA_QUIT_AFTER_MS",
    "CASTRA_QUIT_WHILE_LOADING",
)


class Failed(Exception):
    """A step did not do what it should; the message says which and what was seen."""


def _say(text: str) -> None:
    print(f"self-test: {text}", flush=True)


#: set when the whole test ran out of time: every wait then stops at once
_timed_out: list[bool] = []


def _wait(until: Callable[[], bool], seconds: float) -> bool:
    """Run the event loop until ``until()`` holds (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    loop = QEventLoop()
    while not until():
        if _timed_out:
            raise Failed(f"not done after {TIMEOUT_S:.0f} s")
        if time.monotonic() > deadline:
            return False
        QTimer.singleShot(20, loop.quit)
        loop.exec()
    return True


def _check_icon() -> None:
    icon = QApplication.windowIcon()
    if icon.isNull() or icon.pixmap(64, 64).isNull():
        raise Failed("the window has no icon (resources/app/castra.svg or Qt's SVG support)")
    _say("the window has Castra's icon")


def _check_roster(window: MainWindow) -> None:
    session = window.builder.session
    if session is None:
        raise Failed(
            "no sample roster opened at first start "
            f"(status: {window.statusBar().currentMessage() or 'empty'})"
        )
    roster = session.roster
    rs = window.registry.get(roster.ruleset)
    _say(
        f"{len(window.registry.rulesets)} rulesets loaded; the sample roster "
        f"“{roster.name}” is open ({rs.meta.short_name}, {len(roster.units)} units)"
    )


def _open_battle(window: MainWindow) -> BattleWindow:
    session = window.builder.session
    assert session is not None
    dialog = window.battles.new_battle()
    if dialog is None:
        raise Failed("File > New battle did not open (no store)")
    dialog.roster_a.setCurrentIndex(dialog.roster_a.findData(session.roster_id))
    dialog.table.setCurrentIndex(max(dialog.table.findText(LAYOUT), 0))
    dialog.seed.setValue(1)
    if dialog.roster_b.count() == 0:
        raise Failed(f"no other roster to fight: {dialog.error.text()}")
    dialog.accept()
    if not _wait(lambda: bool(window.battles.windows), 30):
        raise Failed("the battle window did not open")
    battle = next(iter(window.battles.windows.values()))
    if not _wait(battle.isVisible, 10):
        raise Failed("the battle window was not shown")
    state = battle.controller.session.state
    scene = battle.map.map_scene
    if len(scene.units) != len(state.units) or len(scene.terrain) != len(state.terrain):
        raise Failed(
            f"the map draws {len(scene.units)} of {len(state.units)} units and "
            f"{len(scene.terrain)} of {len(state.terrain)} terrain pieces"
        )
    _say(
        f"battle “{battle.controller.session.name}” open: {len(state.units)} units and "
        f"{len(state.terrain)} terrain pieces on the map"
    )
    return battle


def _print_cards(window: MainWindow, pdf: Path) -> None:
    from app.export import card_count
    from app.gui.printables import Document, PrintJob

    session = window.builder.session
    assert session is not None
    roster = session.roster
    done: list[tuple[Path, int] | str] = []
    window.printer.written.connect(lambda path, pages: done.append((path, pages)))
    window.printer.stopped.connect(lambda text: done.append(str(text)))
    job = PrintJob(Document.CARDS, roster.ruleset, pdf, open_after=False)
    if not window.printer.run(job, roster):
        raise Failed("the print job did not start")
    if not _wait(lambda: bool(done), 60):
        raise Failed("the print job did not finish within a minute")
    if isinstance(done[0], str):
        raise Failed(f"printing failed: {done[0]}")
    _path, pages = done[0]
    with open(pdf, "rb") as fh:
        head = fh.read(5)
    if head != b"%PDF-" or pages < 1:
        raise Failed(f"{pdf} is no PDF ({pages} pages, starts {head!r})")
    _say(f"printed {card_count(roster)} unit cards on {pages} pages to {pdf}")


def drive(window: MainWindow, pdf: Path) -> int:
    """The steps, run once the window's start is over: 0 when all passed, else 1 (the step
    that failed said why)."""
    try:
        _check_icon()
        _check_roster(window)
        battle = _open_battle(window)
        _print_cards(window, pdf)
        battle.close()
        window.close()
    except Failed as exc:
        _say(f"FAILED: {exc}")
        return 1
    except Exception as exc:  # whatever broke is named in one line
        _say(f"FAILED: {type(exc).__name__}: {exc}")
        return 1
    _say("passed")
    return 0


def check_output(pdf: Path) -> None:
    """Refuse, before anything starts, a PDF path that cannot be written as a file."""
    if pdf.exists() and not pdf.is_file():
        raise ValueError(f"{pdf} is not a regular file")
    if not pdf.parent.is_dir():
        raise ValueError(f"{pdf.parent} is not a folder")


def run(pdf: Path | None = None) -> int:
    """Start the window in a temporary data folder and drive it (see the module's doc);
    ``pdf``: where to keep the printed cards (default: in the temporary folder)."""
    from app.gui import app as gui_app

    with tempfile.TemporaryDirectory(prefix="castra-self-test-") as home:
        for name in _SWITCHES:
            os.environ.pop(name, None)
        os.environ["CASTRA_HOME"] = home
        out = pdf if pdf is not None else Path(home) / "self-test-cards.pdf"
        _say(f"data folder {home} (temporary)")

        app = QApplication.instance() or QApplication(sys.argv)

        def timed_out() -> None:
            _timed_out.append(True)
            _say(f"FAILED: not done after {TIMEOUT_S:.0f} s")
            app.exit(1)

        QTimer.singleShot(int(TIMEOUT_S * 1000), timed_out)
        return gui_app.run(after_start=lambda window: app.exit(drive(window, out)))
