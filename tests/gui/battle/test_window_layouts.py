"""Map > Save table as layout… in the battle window: a name asked for, a bad one refused in
one line, the same file ``castra battle table --save`` writes, a layout of the same name
replaced only after a question, and the layout then offered by the New battle dialog."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialogButtonBox, QMenu
from pytestqt.qtbot import QtBot

from app.core.battle import AddTerrain
from app.core.battle.sample import sample_roster, sample_session
from app.core.layouts import file_name, read_layout
from app.gui.battle.actions import BattleKey
from app.gui.battle.layout_dialog import LayoutNameDialog
from app.gui.main_window import MainWindow
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.store import Store
from app.store.repo import save_roster
from tests.gui.battle.test_window import open_window

pytestmark = pytest.mark.gui


def ask(window: Any) -> LayoutNameDialog:
    """Map > Save table as layout…, as a player picks it."""
    menu = next(
        m for m in window.menuBar().findChildren(QMenu) if m.title().replace("&", "") == "Map"
    )
    assert window.acts[BattleKey.SAVE_LAYOUT] in menu.actions()
    window.acts[BattleKey.SAVE_LAYOUT].trigger()
    dialog = window.layout_dialog
    assert isinstance(dialog, LayoutNameDialog) and dialog.isVisible()
    return dialog


def test_save_table_as_layout_from_the_map_menu(
    qtbot: QtBot,
    registry: Registry,
    settings: QSettings,
    store: Store,
    make_window: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rs = registry.get("grown-slightly-bald")
    session = sample_session(rs, mechanics_for(rs))
    window = open_window(qtbot, session, settings)
    pieces = len(session.state.terrain)
    assert pieces > 0
    folder = Path(os.environ["CASTRA_HOME"]) / "tables"

    # a bad name: one line under the field, Save disabled, nothing written
    dialog = ask(window)
    assert not dialog.ok.isEnabled()
    dialog.name.setText("a" * 300)
    assert dialog.error.text() and "\n" not in dialog.error.text()
    assert "characters" in dialog.error.text() and not dialog.ok.isEnabled()
    dialog.name.setText("bad\x07name")
    assert dialog.error.text() and not dialog.ok.isEnabled()
    dialog.accept()  # refused: stays open
    assert dialog.isVisible() and not folder.exists()

    # a good one: saved where the CLI saves, by the same core functions
    dialog.name.setText("  Club table ")
    assert dialog.error.text() == "" and dialog.ok.isEnabled()
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    path = folder / file_name("Club table")
    saved = read_layout(path)
    assert saved.name == "Club table" and len(saved.pieces) == pieces
    assert "Saved layout 'Club table'" in window.statusBar().currentMessage()

    # the same name again (any case): asked first; No keeps the old file
    window.controller.execute(
        AddTerrain(terrain="woods", points=((3.0, 5.0), (5.0, 5.0), (5.0, 7.0)))
    )
    asked: list[str] = []

    def answer(reply: bool) -> Any:
        def confirm(_parent: object, _title: str, text: str, _ok: str) -> bool:
            asked.append(text)
            return reply

        return confirm

    monkeypatch.setattr("app.gui.dialogs.confirm", answer(False))
    dialog = ask(window)
    dialog.name.setText("CLUB TABLE")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert asked and "'Club table'" in asked[0]
    assert len(read_layout(path).pieces) == pieces
    assert "kept" in window.statusBar().currentMessage()
    monkeypatch.setattr("app.gui.dialogs.confirm", answer(True))
    dialog = ask(window)
    dialog.name.setText("Club table")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert len(read_layout(path).pieces) == pieces + 1
    assert sorted(p.name for p in folder.iterdir()) == [path.name]

    # New battle offers it (for any ruleset), and lays it out
    rs = registry.get("d3-ancients")
    save_roster(store, roster=sample_roster(rs, "roman"))
    save_roster(store, roster=sample_roster(rs, "carthaginian"))
    main_window: MainWindow = make_window()
    new = main_window.battles.new_battle()
    assert new is not None
    names = [new.table.itemText(i) for i in range(new.table.count())]
    assert "Club table (saved)" in names
    new.table.setCurrentIndex(names.index("Club table (saved)"))
    table = new.chosen_table(rs)
    assert table is not None and len(table.terrain) == pieces + 1
    new.reject()
