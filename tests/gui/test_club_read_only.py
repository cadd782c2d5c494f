"""On a club server another member's roster opens read-only (issue 15): the store says who
may change it (the owner, or an umpire), and the editor shows why it cannot be changed
instead of refusing at save. Umpires edit any roster."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from app.core.edits import AddUnit
from app.core.roster import new_roster, unit_from_entry
from app.gui.actions import ActionKey
from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from app.store import load_roster_versioned, save_roster
from app.store.read import roster_lock
from tests.conftest import Club


def test_another_players_roster_opens_read_only_and_an_umpire_edits_it(
    make_window: Any, club: Club, registry: Registry
) -> None:
    rs = registry.get("leg-vi-carthago")
    bob = club.open("bob")
    theirs = save_roster(bob, roster=new_roster(rs, "roman", name="Bob's legion"))
    window: MainWindow = make_window()
    assert window.club.connect_to(club.url("ann"))
    ann: Any = window.builder.store
    mine = save_roster(ann, roster=new_roster(rs, "roman", name="Ann's legion"))
    assert roster_lock(ann, roster_id=mine) is None

    assert window.builder.open_roster(theirs)
    session = window.builder.session
    assert session is not None
    banner = window.builder.editor.read_only_banner
    assert banner.isVisibleTo(window)
    assert banner.text() == "bob's roster: read-only (you are ann, a player)"
    editor = window.builder.editor
    assert editor.name_edit.isReadOnly() and not editor.scale_combo.isEnabled()
    assert editor.model is not None
    cell = editor.model.index(0, 0, editor.model.index(0, 0))
    assert not editor.model.flags(cell) & Qt.ItemFlag.ItemIsEditable
    assert not window.builder.actions[ActionKey.ADD_UNIT].isEnabled()
    assert not editor.leaders.add_button.isEnabled()
    said: list[str] = []
    session.refused.connect(said.append)
    assert not session.apply(AddUnit(unit_from_entry(rs, "roman", "velites")))
    assert said and said[0].endswith("read-only (you are ann, a player)")
    assert window.builder.session is session and not session.dirty  # nothing to reload
    assert load_roster_versioned(bob, roster_id=theirs)[1] == 0  # nothing written

    assert window.builder.open_roster(mine)  # her own: editable
    assert not banner.isVisibleTo(window) and not editor.name_edit.isReadOnly()
    assert window.builder.actions[ActionKey.ADD_UNIT].isEnabled()

    assert window.club.connect_to(club.url("uma"))  # the umpire may edit anyone's
    assert window.builder.open_roster(theirs)
    session = window.builder.session
    assert session is not None and session.read_only is None
    assert not banner.isVisibleTo(window)
    assert session.apply(AddUnit(unit_from_entry(rs, "roman", "velites")))
    assert load_roster_versioned(bob, roster_id=theirs)[1] == 1
