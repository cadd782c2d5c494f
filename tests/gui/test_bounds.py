"""The window keeps to the core's bounds of roster values: spin boxes offer only what a roster
file can hold, a refused edit says why in the status bar, and the totals line says when units
of entries the data no longer has are left out."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import QAbstractItemView, QSpinBox
from pytestqt.qtbot import QtBot

from app.core.edits import AddUnit
from app.core.roster import (
    MAX_COUNT,
    MAX_WOUNDS,
    MIN_COUNT,
    MIN_WOUNDS,
    new_roster,
    unit_from_entry,
)
from app.gui.actions import ActionKey
from app.gui.leaders import LCol
from app.gui.main_window import MainWindow
from app.gui.roster_model import Col
from app.rules.registry import Registry
from tests.gui.helpers import open_new, roster_of, tree_index


def _spin_range(view: QAbstractItemView, index: QModelIndex) -> tuple[int, int]:
    """The range of the spin box the view's delegate opens on ``index``."""
    view.setCurrentIndex(index)
    view.edit(index)
    spin = view.findChild(QSpinBox)
    assert spin is not None
    out = (spin.minimum(), spin.maximum())
    view.closePersistentEditor(index)
    return out


def test_spin_boxes_take_their_ranges_from_the_core(
    qtbot: QtBot, window: MainWindow, registry: Registry
) -> None:
    session = open_new(window, registry, "d3-ancients", "roman")
    window.editor.add_entry("legionaries")
    unit = session.roster.units[0]
    qty = _spin_range(window.editor.tree, tree_index(window, unit.id, Col.QTY))
    assert qty == (MIN_COUNT, MAX_COUNT)
    window.action_registry[ActionKey.ADD_LEADER].trigger()
    leaders = window.editor.leaders
    assert leaders.model is not None
    leaders.view.closePersistentEditor(leaders.model.index(0, LCol.NAME))
    wounds = _spin_range(leaders.view, leaders.model.index(0, LCol.WOUNDS))
    assert wounds == (MIN_WOUNDS, MAX_WOUNDS)


def test_refused_edit_is_shown_and_changes_nothing(window: MainWindow, registry: Registry) -> None:
    session = open_new(window, registry, "d3-ancients", "roman")
    window.editor.add_entry("legionaries")
    unit = session.roster.units[0]
    model = window.editor.model
    assert model is not None
    before = session.roster
    assert not model.setData(tree_index(window, unit.id, Col.QTY), MAX_COUNT + 1)
    assert session.roster is before
    assert "count 1,001 is out of range (1 to 1,000)" in window.statusBar().currentMessage()
    window.action_registry[ActionKey.ADD_LEADER].trigger()
    leaders = window.editor.leaders.model
    assert leaders is not None
    before = session.roster
    assert not leaders.setData(leaders.index(0, LCol.WOUNDS), MAX_WOUNDS + 1)
    assert session.roster is before
    assert "wounds 21 is out of range (0 to 20)" in window.statusBar().currentMessage()
    assert leaders.setData(leaders.index(0, LCol.WOUNDS), MAX_WOUNDS)
    assert session.roster.leaders[0].wounds == MAX_WOUNDS


def test_totals_line_says_what_it_leaves_out(window: MainWindow, registry: Registry) -> None:
    rs = registry.get("quincunx")
    roster = new_roster(rs, "roman", name="Old roster")
    roster = AddUnit(unit_from_entry(rs, "roman", "hastati", count=2)).apply(roster)
    ghost = replace(unit_from_entry(rs, "roman", "hastati"), entry="gone", count=3)
    roster = AddUnit(ghost).apply(roster)
    assert window.builder.add_and_open(roster)
    assert len(roster_of(window).units) == 2
    text = window.editor.totals.text()
    assert "<b>5</b> units" in text and "<b>4</b> bases" in text and "<b>240</b> men" in text
    assert "excludes 3 units not in the current list" in text
