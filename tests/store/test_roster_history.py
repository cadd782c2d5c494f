"""Roster history (issue 15, schema 0008): every write of a roster adds one line, in the
same transaction, saying what was done and the version it made; on both engines."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.roster import Roster
from app.store import (
    Store,
    delete_roster,
    duplicate_roster,
    rename_roster,
    restore_roster,
    save_roster,
    update_roster,
    write_roster,
)
from app.store.read import roster_history


def test_every_write_is_a_line_of_the_roster_history(store: Store, full_roster: Roster) -> None:
    rid = save_roster(store, roster=full_roster)
    rename_roster(store, roster_id=rid, name="Cannae")
    update_roster(
        store, roster_id=rid, change=lambda r: replace(r, notes="x"), what="Edit the notes"
    )
    delete_roster(store, roster_id=rid)
    restore_roster(store, roster_id=rid)
    copy = duplicate_roster(store, roster_id=rid)
    history = roster_history(store, roster_id=rid)
    assert [(c.version, c.what) for c in history] == [
        (0, "created"),
        (1, "renamed to 'Cannae'"),
        (2, "Edit the notes"),
        (3, "moved to the bin"),
        (4, "taken out of the bin"),
    ]
    expected = None if not store.on_server else store.member
    assert {c.made_by for c in history} == {expected}
    assert history[0].made_at <= history[-1].made_at
    assert [c.what for c in roster_history(store, roster_id=copy)] == [
        f"made as a copy of roster {rid} ('Cannae')"
    ]
    with pytest.raises(KeyError, match="no roster with id 999"):
        roster_history(store, roster_id=999)


def test_a_refused_write_records_nothing(store: Store, full_roster: Roster) -> None:
    from app.store import StaleWrite

    rid = save_roster(store, roster=full_roster)
    update_roster(store, roster_id=rid, change=lambda r: replace(r, notes="elsewhere"))
    with pytest.raises(StaleWrite):
        write_roster(store, roster=full_roster, roster_id=rid, expected_version=0, what="stale")
    assert [c.what for c in roster_history(store, roster_id=rid)] == ["created", "changed"]


def test_command_line_edits_are_named_in_the_history(
    db_path: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    monkeypatch.setenv("CASTRA_DB", str(db_path))
    new = ["roster", "new", "--ruleset", "leg-vi-carthago", "--army", "roman", "--name", "L"]
    assert main(new) == 0
    assert main(["roster", "add", "L", "velites"]) == 0
    assert main(["roster", "rename", "L", "Legio"]) == 0
    capsys.readouterr()
    assert main(["roster", "history", "Legio"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["version", "when", "(UTC)", "by", "what"]
    assert [line.split(None, 4)[-1] for line in out[2:]] == [
        "created",
        "Add Velites",
        "renamed to 'Legio'",
    ]
    assert main(["roster", "history", "nothing"]) == 1
    assert "Traceback" not in capsys.readouterr().err
