"""The New roster dialog, driven like a user: choose, type, click Create."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from app.gui.main_window import MainWindow
from app.gui.new_roster import NewRosterDialog
from app.store import Store, list_rosters, load_roster
from tests.gui.helpers import roster_of


def _create(qtbot: QtBot, dialog: NewRosterDialog) -> None:
    button = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_create_a_roster_through_the_dialog(qtbot: QtBot, window: MainWindow, store: Store) -> None:
    dialog = window.builder.new_roster()
    assert dialog.isVisible()
    dialog.select("mwan90", "carthaginian")
    assert dialog.side_edit.text() == "Carthage"
    assert dialog.scale_combo.isVisibleTo(dialog)  # MWAN counts figures
    # the article gives no army: the ready army is Castra's, and not taken unless asked
    assert dialog.standard_check.isEnabled()
    assert "Hannibal's army in Italy" in dialog.standard_check.text()
    dialog.standard_check.setChecked(False)
    dialog.scale_combo.setCurrentIndex(dialog.scale_combo.findData("1:100"))
    dialog.name_edit.clear()
    qtbot.keyClicks(dialog.name_edit, "Zama, 202 BC")
    _create(qtbot, dialog)
    assert not dialog.isVisible()
    roster = roster_of(window)
    assert (roster.name, roster.ruleset, roster.army, roster.side, roster.scale) == (
        "Zama, 202 BC",
        "mwan90",
        "carthaginian",
        "Carthage",
        "1:100",
    )
    [summary] = list_rosters(store)
    assert load_roster(store, roster_id=summary.id) == roster
    assert window.library.selected_roster() == summary.id


def test_start_from_the_standard_army(qtbot: QtBot, window: MainWindow) -> None:
    dialog = window.builder.new_roster()
    dialog.select("quincunx", "roman")
    assert dialog.standard_check.isEnabled() and dialog.standard_check.isChecked()
    assert "model legion" in dialog.standard_check.text().lower()
    _create(qtbot, dialog)
    roster = roster_of(window)
    assert roster.unit_count() == 41 and len(roster.commands) == 5
    assert roster.notes.startswith("Ready army: Model legion in five battlegroups")
    assert "as the source gives it" in roster.notes


def test_start_from_a_ready_army_castra_built(qtbot: QtBot, window: MainWindow) -> None:
    dialog = window.builder.new_roster()
    dialog.select("d3-ancients", "carthaginian")
    assert dialog.standard_check.isChecked()
    assert dialog.standard_check.text() == (
        "Start from the ready army (Castra's): Hannibal's army at Zama, in eight units"
    )
    _create(qtbot, dialog)
    roster = roster_of(window)
    assert roster.unit_count() == 8 and roster.leader("hannibal").fields["quality"] == "good"
    assert "Built by Castra" in roster.notes and "ready-armies-built" in roster.notes


def test_bad_values_get_a_clear_message(qtbot: QtBot, window: MainWindow, store: Store) -> None:
    dialog = window.builder.new_roster()
    dialog.select("leg-vi-carthago", "roman")
    assert not dialog.scale_combo.isVisibleTo(dialog)  # Leg VI counts bases
    assert "counts bases" in dialog.scale_note.text()
    dialog.name_edit.clear()
    _create(qtbot, dialog)
    assert dialog.isVisible()
    assert dialog.error_label.isVisibleTo(dialog)
    assert "needs a name" in dialog.error_label.text()
    dialog.name_edit.setText("x" * 300)
    _create(qtbot, dialog)
    assert "at most 200" in dialog.error_label.text()
    dialog.name_edit.setText("Leg VI test")
    dialog.side_edit.clear()
    _create(qtbot, dialog)
    assert "Side" in dialog.error_label.text()
    assert list_rosters(store) == []
    dialog.side_edit.setText("Rome")
    _create(qtbot, dialog)
    assert not dialog.isVisible()
    assert roster_of(window).scale is None
