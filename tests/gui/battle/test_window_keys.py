"""Every common act of the battle window has a key, and Help > Keyboard shortcuts (F1)
lists each of them, with the keys the map reads itself; the map's context menu charges."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QTextBrowser
from pytestqt.qtbot import QtBot

from app.gui import help_windows
from app.gui.battle.actions import OVERLAYS, BattleKey
from app.gui.battle.controller import one_line
from app.gui.battle.map.menu import map_menu
from app.rules.registry import Registry
from tests.gui.battle.test_window import d3_session, gsb_session, open_window, to_phase

pytestmark = pytest.mark.gui

COMMON = (
    BattleKey.NEXT_PHASE,
    BattleKey.TOOL_MEASURE,
    BattleKey.TOOL_SELECT,
    BattleKey.ROTATE_LEFT,
    BattleKey.ROTATE_RIGHT,
    BattleKey.FIT,
    BattleKey.GRID,
    BattleKey.ROLL,
    BattleKey.CHARGE,
    BattleKey.UNDO,
    BattleKey.REDO,
    BattleKey.SAVE_LAYOUT,
    *OVERLAYS,
)


def test_common_acts_have_keys_listed_in_help(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    window = open_window(qtbot, gsb_session(registry), settings)
    dialog = window.show_shortcuts()
    text = dialog.findChild(QTextBrowser, "battleShortcutsDialogText")
    assert text is not None
    listed = text.toPlainText()
    for key in COMMON:
        action = window.acts[key]
        assert action.shortcuts(), key
        name = action.text().replace("&", "").rstrip("…")
        assert name in listed, key
        assert action.shortcut().toString() in listed, key
    for words in ("Q / E", "Esc", "Enter", "Mouse wheel", "Right-click", "Edit pieces"):
        assert words in listed
    assert "Edit the selected cell" not in listed  # the roster window's, not this one's
    # only keys a PC keyboard has: Qt's standard Undo, Redo and Close also bind the keys of
    # old Unix keyboards, which the list showed as "Ctrl+Z, F14, Undo"
    cells = re.findall(
        r"<b>(.*?)</b>", help_windows.shortcuts_html(window.acts[k] for k in BattleKey)
    )
    keys = {k.strip() for cell in cells for k in cell.split(",")}
    assert {"Ctrl+Z", "Ctrl+Y", "Ctrl+W"} <= keys
    assert not keys & {"F14", "Undo", "Redo", "Close"}, keys
    dialog.close()


def test_charge_from_the_map_s_context_menu(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """Right-click an enemy with a unit selected: Charge is offered (never against a
    friend), and chosen it is the Actions dock's charge for that pair."""
    session = d3_session(registry)
    window = open_window(qtbot, session, settings)
    to_phase(window, "Movement")
    view = window.map
    view.select_unit("A5")
    scene = view.map_scene
    b5, a4 = session.state.unit("B5"), session.state.unit("A4")
    menu = map_menu(view, scene.frame.to_scene(b5.x, b5.y))
    [charge] = [a for a in menu.actions() if a.text().startswith("Charge ")]
    assert charge.text() == f"Charge {b5.name}"
    friend = map_menu(view, scene.frame.to_scene(a4.x, a4.y))
    assert not any(a.text().startswith("Charge") for a in friend.actions())
    steps = len(session.steps)
    charge.trigger()
    assert (window.acting.actor.currentData(), window.acting.target.currentData()) == ("A5", "B5")
    # 25" away at the start: refused in one line, nothing done
    assert len(session.steps) == steps
    assert "(A5)" in window.statusBar().currentMessage()


def test_a_step_s_log_is_one_status_line() -> None:
    lines = ["Activate a unit: A1.", "activation 1 is free", "", "Result: activated."]
    assert one_line(lines) == "Activate a unit: A1. activation 1 is free. Result: activated."
    assert len(one_line(["x" * 500])) == 300
