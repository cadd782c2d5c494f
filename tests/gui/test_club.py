"""File > Connect to club server (issue 15): a refusing server is one line and the local
store stays in use; on a server the window sees another member's changes within a few
seconds (the library, and the open roster it has no edit of); File > Use local store goes
back; the address is remembered."""

from __future__ import annotations

from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from app.core.roster import new_roster
from app.gui import dialogs
from app.gui.club import POLL_MS, URL_KEY
from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from app.store import open_store, rename_roster, save_roster
from tests.conftest import Club


def test_connect_see_other_members_and_go_back(
    window: MainWindow,
    pg_url: str,
    registry: Registry,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    said: list[str] = []
    monkeypatch.setattr(dialogs, "error", lambda *a: said.append(str(a[-1])))
    local = window.builder.store
    assert local is not None and not local.on_server
    assert not window.club.connect_to("postgresql://ann@127.0.0.1:1/club")
    assert window.builder.store is local
    assert said[0].startswith("cannot reach the club server") and "\n" not in said[0]
    assert not window.club.connect_to(pg_url.replace("castra_admin@", "castra_admin:secret@"))
    assert "password" in said[1] and window.prefs.q.value(URL_KEY) is None

    rs = registry.get("leg-vi-carthago")
    other = open_store(pg_url)  # another member, meanwhile
    rid = save_roster(other, roster=new_roster(rs, "roman", name="Club legion"))
    assert window.club.connect_to(pg_url)
    store: Any = window.builder.store
    assert store.on_server and window.store_label.text().startswith("Club: ")
    assert window.prefs.q.value(URL_KEY) == pg_url
    assert window.library.model.index_of_roster(rid).isValid()
    assert window.builder.open_roster(rid)
    session = window.builder.session

    rename_roster(other, roster_id=rid, name="Renamed at the club")
    new = save_roster(other, roster=new_roster(rs, "roman", name="Second legion"))
    qtbot.waitUntil(
        lambda: window.library.model.index_of_roster(new).isValid(), timeout=3 * POLL_MS
    )
    qtbot.waitUntil(
        lambda: (
            window.builder.session is not None
            and window.builder.session.roster.name == "Renamed at the club"
        ),
        timeout=3 * POLL_MS,
    )
    assert window.builder.session is not session  # reloaded, not edited over
    other.close()

    assert window.club.use_local()
    back: Any = window.builder.store
    assert not back.on_server and back.path == local.path
    assert not window.club.timer.isActive()
    assert not window.library.model.index_of_roster(new).isValid()  # the local library


def test_an_edit_the_server_refuses_is_undone_and_the_stored_roster_shown(
    make_window: Any,
    settings: Any,
    club: Club,
    registry: Registry,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Ann opened Bob's roster as an umpire (editable); the admin made her a player
    meanwhile: her edit is refused by the server at save, and the roster as stored is shown
    again, now read-only."""
    from app.cli import main
    from app.core.edits import AddUnit
    from app.core.roster import unit_from_entry
    from app.store import load_roster

    rs = registry.get("leg-vi-carthago")
    bob = club.open("bob")
    rid = save_roster(bob, roster=new_roster(rs, "roman", name="Bob's legion"))
    assert main(["server", "add-member", "ann", "--role", "umpire", "--url", club.admin_url]) == 0
    window: MainWindow = make_window()
    assert window.club.connect_to(club.url("ann"))
    assert window.builder.open_roster(rid)
    session = window.builder.session
    assert session is not None and session.read_only is None
    assert main(["server", "add-member", "ann", "--role", "player", "--url", club.admin_url]) == 0
    capsys.readouterr()
    session.apply(AddUnit(unit_from_entry(rs, "roman", "velites")))
    now = window.builder.session
    assert now is not None and now is not session and not now.dirty
    assert now.roster == load_roster(bob, roster_id=rid)  # nothing of ann's edit
    assert now.read_only == "bob's roster: read-only (you are ann, a player)"
    assert "refused" in window.statusBar().currentMessage()
