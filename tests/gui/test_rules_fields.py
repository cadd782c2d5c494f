"""Fields the rules read are edited in the window, each undoable: the Quincunx leader bonus,
the Leg VI exceptional general, the D3 commander's quality and a Leg VI legion's
understrength triarii. Each column shows only for the ruleset that reads it."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QComboBox

from app.gui.actions import ActionKey
from app.gui.leaders import LCol
from app.gui.main_window import MainWindow
from app.gui.roster_model import Col
from app.rules.registry import Registry
from tests.gui.helpers import open_new, roster_of, tree_index

CASES = [
    ("quincunx", "roman", "bonus", 2, None, "+2"),
    ("leg-vi-carthago", "roman", "exceptional", True, False, "yes"),
    ("d3-ancients", "roman", "quality", "good", None, "good"),
]
LABELS = {
    "bonus": "Set bonus of New general to +2",
    "exceptional": "Make New general exceptional",
    "quality": "Make New general a good commander",
}


@pytest.mark.parametrize(("ruleset", "army", "field", "value", "before", "shown"), CASES)
def test_leader_field_edited_and_undone(
    window: MainWindow,
    registry: Registry,
    ruleset: str,
    army: str,
    field: str,
    value: Any,
    before: Any,
    shown: str,
) -> None:
    session = open_new(window, registry, ruleset, army)
    panel = window.editor.leaders
    model = panel.model
    assert model is not None
    # the rules' own field is a column, right after Wounds; the other rules' fields are not
    col = model.column(field)
    assert col == LCol.WOUNDS + 1
    for other in ("bonus", "exceptional", "quality"):
        assert (model.column(other) >= 0) == (other == field), other
    assert not panel.view.isColumnHidden(col)
    panel.add_leader()
    panel.view.closePersistentEditor(panel.view.currentIndex())
    index = model.index(0, col)
    # the delegate offers the rules' choices in a combo box
    editor = panel.view.itemDelegate().createEditor(panel.view.viewport(), None, index)  # type: ignore[arg-type]
    assert isinstance(editor, QComboBox)
    assert value in [editor.itemData(i) for i in range(editor.count())]
    editor.deleteLater()
    assert model.setData(index, value)
    assert session.roster.leaders[0].fields.get(field, before) == value
    assert index.data() == shown
    undo = window.action_registry[ActionKey.UNDO]
    assert undo.text() == f"&Undo {LABELS[field]}"
    undo.trigger()
    assert session.roster.leaders[0].fields.get(field, before) == before


def test_quincunx_bonus_shows_the_rules_default(window: MainWindow, registry: Registry) -> None:
    session = open_new(window, registry, "quincunx", "carthaginian", standard=True)
    model = window.editor.leaders.model
    assert model is not None
    row = next(i for i, ld in enumerate(session.roster.leaders) if ld.name == "Hannibal")
    assert (
        model.index(row, model.column("bonus")).data() == "+2"
    )  # Hannibal and Scipio +2 by the rules
    other = next(i for i, ld in enumerate(session.roster.leaders) if ld.name != "Hannibal")
    assert model.index(other, model.column("bonus")).data() == "+1"


def test_understrength_triarii_edited_and_undone(window: MainWindow, registry: Registry) -> None:
    open_new(window, registry, "leg-vi-carthago", "roman")
    model = window.editor.model
    assert model is not None
    assert not window.editor.tree.isColumnHidden(Col.LINES)
    assert model.add_entry("roman_legion", None)
    unit = roster_of(window).units[0]
    index = tree_index(window, unit.id, Col.LINES)
    choices = model.choices(index)
    assert choices is not None and [v for _, v in choices] == [None, {"Triarii": 4}]
    assert model.setData(index, {"Triarii": 4})
    assert dict(roster_of(window).units[0].lines or {}) == {"Triarii": 4}
    assert index.data() == "understrength triarii (4 bases)"
    assert (
        window.action_registry[ActionKey.UNDO].text() == "&Undo Understrength lines in Roman legion"
    )
    window.action_registry[ActionKey.UNDO].trigger()
    assert roster_of(window).units[0].lines is None
    # velites have one line: nothing to choose, not editable
    assert model.add_entry("velites", None)
    velites = roster_of(window).units[-1]
    assert model.choices(tree_index(window, velites.id, Col.LINES)) == []


def test_lines_column_hidden_where_no_entry_has_lines(
    window: MainWindow, registry: Registry
) -> None:
    open_new(window, registry, "quincunx", "roman")
    assert window.editor.tree.isColumnHidden(Col.LINES)
