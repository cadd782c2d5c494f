"""Issue 21 in the battle window: every step the window acknowledged is in the store, as
another process reads it, even when something in the window's process opened and closed the
store's files (which drops SQLite's POSIX locks) and another process then used the store.

The first test is the issue's reproduction through the window's own save path (the
controller); the second opens a real file dialog on the store's folder while a battle window is
open, and checks both that it leaves this process's locks in place and that nothing is lost."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QFileSystemModel
from pytestqt.qtbot import QtBot

from app.core.battle import NextPhase
from app.gui.battle.controller import BattleController
from app.gui.files import _dialog
from app.rules.registry import Registry
from app.store import Store
from app.store.battles import create_battle
from tests.gui.battle.test_window import gsb_rosters, gsb_session, open_window

pytestmark = [pytest.mark.gui, pytest.mark.skipif(os.name != "posix", reason="POSIX locks")]

ROOT = Path(__file__).resolve().parents[3]


def other_process(db: Path, *args: str) -> None:
    """``castra ARGS`` in another process on the same store: it opens and closes it."""
    env = dict(os.environ, CASTRA_DB=str(db))
    out = subprocess.run(
        [sys.executable, "-m", "app", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr


def stored_steps(db: Path, battle_id: int) -> int:
    """How many steps of the battle another process finds in the store."""
    code = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        "print(c.execute('SELECT count(*) FROM battle_step WHERE battle_id = ?', "
        "(int(sys.argv[2]),)).fetchone()[0])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(db), str(battle_id)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return int(out.stdout)


def test_the_windows_steps_survive_a_descriptor_closed_in_its_process(
    qtbot: QtBot, store: Store, registry: Registry
) -> None:
    """The issue's reproduction: two steps, the store file opened and closed in the window's
    process, ``castra battle log`` in another, three more steps: all six are stored."""
    session = gsb_session(registry)
    rosters = gsb_rosters(registry)
    battle_id = create_battle(store, session=session, rosters=rosters)
    controller = BattleController(session, store=store, battle_id=battle_id, rosters=rosters)
    for _ in range(2):
        assert controller.execute(NextPhase()) is not None
    os.close(os.open(store.path, os.O_RDONLY))
    other_process(store.path, "battle", "log", str(battle_id))
    for _ in range(3):
        assert controller.execute(NextPhase()) is not None
    assert controller.session.cursor == 6
    assert stored_steps(store.path, battle_id) == 6
    store.close()
    assert stored_steps(store.path, battle_id) == 6


def posix_locks(*paths: Path) -> list[str]:
    """This process's POSIX (not OFD) locks on ``paths``, from ``/proc/locks``."""
    inodes = {f":{p.stat().st_ino} " for p in paths if p.exists()}
    pid = f" {os.getpid()} "
    lines = Path("/proc/locks").read_text().splitlines()
    mine = [ln for ln in lines if " POSIX " in ln and pid in ln and any(i in ln for i in inodes)]
    return sorted(ln.split(":", 1)[1].strip() for ln in mine)  # without the list's ordinal


def show_folder(qtbot: QtBot, dialog: QFileDialog, folder: Path) -> None:
    """Show ``dialog`` and wait until its file list has read ``folder`` (and so asked the
    icon provider about every file there)."""
    model = dialog.findChild(QFileSystemModel)
    assert model is not None
    with qtbot.waitSignal(model.directoryLoaded, timeout=10_000):
        dialog.show()
    qtbot.wait(300)  # the file-information thread asks for icons after listing
    parent = model.index(str(folder))
    names = {model.index(r, 0, parent).data() for r in range(model.rowCount(parent))}
    assert {"castra.sqlite3", "castra.sqlite3-wal", "castra.sqlite3-shm"} <= names


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="needs /proc/locks")
def test_a_file_dialog_on_the_stores_folder_loses_nothing(
    qtbot: QtBot, store: Store, registry: Registry, settings: QSettings
) -> None:
    session = gsb_session(registry)
    rosters = gsb_rosters(registry)
    window = open_window(qtbot, session, settings, store, rosters)
    controller = window.controller
    assert controller.battle_id is not None
    controller.execute(NextPhase())
    files = [store.path.with_name(store.path.name + s) for s in ("", "-shm")]
    held = posix_locks(*files)
    assert held  # SQLite's own locks, the ones a stray close would drop

    # Castra's dialog, navigated to the store's folder, listing every file
    dialog = _dialog(window, "Map image", store.path.parent / "map.png", "All files (*)")
    dialog.setDirectory(str(store.path.parent))
    show_folder(qtbot, dialog, store.path.parent)
    assert posix_locks(*files) == held  # it sniffed nothing: SQLite's locks are all there
    other_process(store.path, "roster", "list")
    other_process(store.path, "battle", "log", str(controller.battle_id))
    for _ in range(3):
        assert controller.execute(NextPhase()) is not None
    dialog.reject()
    assert stored_steps(store.path, controller.battle_id) == controller.session.cursor == 5

    # Qt's default dialog does sniff (so the check above can fail): the pin keeps the store
    plain = QFileDialog(window, "Plain", str(store.path.parent))
    plain.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    show_folder(qtbot, plain, store.path.parent)
    assert posix_locks(*files) != held
    other_process(store.path, "battle", "log", str(controller.battle_id))
    for _ in range(2):
        assert controller.execute(NextPhase()) is not None
    plain.reject()
    assert stored_steps(store.path, controller.battle_id) == controller.session.cursor == 7
