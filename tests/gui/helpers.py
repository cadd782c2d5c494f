"""Small helpers for the GUI tests."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from app.core.roster import Roster, new_roster
from app.gui.main_window import MainWindow
from app.gui.session import RosterSession
from app.rules.registry import Registry


def open_new(
    window: MainWindow,
    registry: Registry,
    ruleset: str,
    army: str,
    *,
    name: str = "Test roster",
    standard: bool = False,
) -> RosterSession:
    roster = new_roster(registry.get(ruleset), army, name=name, standard=standard)
    assert window.builder.add_and_open(roster)
    session = window.builder.session
    assert session is not None
    return session


def session_of(window: MainWindow) -> RosterSession:
    session = window.builder.session
    assert session is not None
    return session


def roster_of(window: MainWindow) -> Roster:
    return session_of(window).roster


def find_item(tree: QTreeWidget, text: str, column: int = 0) -> QTreeWidgetItem:
    items = tree.findItems(text, Qt.MatchFlag.MatchExactly | Qt.MatchFlag.MatchRecursive, column)
    assert items, f"no item {text!r}"
    return items[0]


def double_click_item(qtbot: QtBot, tree: QTreeWidget, item: QTreeWidgetItem) -> None:
    tree.scrollToItem(item)
    pos = tree.visualItemRect(item).center()
    # As a real double-click: Qt's test double-click sends no press of its own.
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def unit_names(window: MainWindow) -> list[str]:
    return [u.name for u in roster_of(window).units]


def tree_index(window: MainWindow, unit_id: str, column: int = 0) -> QModelIndex:
    model = window.editor.model
    assert model is not None
    index = model.unit_index(unit_id, column)
    assert index.isValid()
    return index
