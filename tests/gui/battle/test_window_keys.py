"""Every common act of the battle window has a key, and Help > Keyboard shortcuts (F1)
lists each of them, with the keys the map reads itself."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QTextBrowser
from pytestqt.qtbot import QtBot

from app.gui.battle.actions import OVERLAYS, BattleKey
from app.rules.registry import Registry
from tests.gui.battle.test_window import gsb_session, open_window

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
    dialog.close()
