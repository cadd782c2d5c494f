"""Two members' windows on one club server (issue 22): no address that carries a password;
the umpire gives campaign sides to players (the window and ``castra campaign assign``);
what the server would refuse a player is disabled, saying why, with the read-only banner
in the battle and campaign windows; Fight pressed by a player is one line; after an outage
the window reconnects on its own and saves the edits made meanwhile."""

from __future__ import annotations

from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from app.core.roster import new_roster, unit_from_entry
from app.gui import dialogs
from app.gui.club import POLL_MS, URL_KEY
from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from app.store import load_roster, save_roster
from app.store.campaigns import assign_side, campaign_sides, create_campaign
from tests.conftest import Club
from tests.core.campaign.helpers import leg_vi_campaign
from tests.pgcluster import sql_client


def test_an_address_with_a_password_anywhere_is_refused_and_not_kept(
    window: MainWindow,
    pg_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from app.cli import main

    said: list[str] = []
    monkeypatch.setattr(dialogs, "error", lambda *a: said.append(str(a[-1])))
    for url in (
        f"{pg_url}?password=hunter2",
        f"{pg_url}?sslmode=prefer&PASSWORD=hunter2",
        f"{pg_url}?options=-c%20PGPASSWORD%3Dhunter2",
    ):
        assert not window.club.connect_to(url)
        assert "password" in said[-1] and "hunter2" not in said[-1] and "\n" not in said[-1]
        assert "hunter2" not in window.statusBar().currentMessage()
        assert window.prefs.q.value(URL_KEY) is None
        assert window.builder.store is not None and not window.builder.store.on_server
        assert main(["--store", url, "roster", "list"]) == 1
        err = capsys.readouterr().err
        assert "carries a password" in err and "hunter2" not in err and err.count("\n") == 1


# --------------------------------------------------------------------------- sides


def test_the_umpire_assigns_sides_from_the_command_line(
    club: Club, registry: Registry, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    from app.cli import main

    uma = club.open("uma")
    cid = create_campaign(uma, session=leg_vi_campaign(registry))
    assign = ["campaign", "assign", str(cid)]
    assert main(["--store", club.url("uma"), *assign, "rome", "ann"]) == 0
    assert capsys.readouterr().out == "ann plays Rome in Italy\n"
    assert main(["--store", club.url("uma"), *assign, "Carthage", "bob"]) == 0  # by name
    assert campaign_sides(uma, campaign_id=cid) == {"rome": "ann", "carthage": "bob"}
    capsys.readouterr()
    for store, args, words in (
        (club.url("ann"), ("carthage", "ann"), "refused"),
        (club.url("uma"), ("carthage", "carl"), "'carl' is not a member of the club"),
        (club.url("uma"), ("gaul", "ann"), "gaul"),
        (str(tmp_path / "local.sqlite3"), ("rome", "ann"), "on a club server"),
    ):
        assert main(["--store", store, *assign, *args]) == 1
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1 and "Traceback" not in err, err
    assert campaign_sides(uma, campaign_id=cid) == {"rome": "ann", "carthage": "bob"}


def test_the_umpire_assigns_sides_in_the_campaign_window(
    qtbot: QtBot, club: Club, registry: Registry
) -> None:
    from app.gui.campaign.window import CampaignView, SidesDialog

    uma = club.open("uma")
    cid = create_campaign(uma, session=leg_vi_campaign(registry))
    assign_side(uma, campaign_id=cid, side="carthage", member="bob")
    view = CampaignView(registry, uma)
    qtbot.addWidget(view)
    from app.gui.actions import ActionKey

    action = view.action(ActionKey.CV_ASSIGN)
    assert action.isVisible() and action.isEnabled()

    def choose(dialog: SidesDialog) -> bool:
        assert dialog.combos["carthage"].currentData() == "bob"  # as stored
        dialog.combos["rome"].setCurrentIndex(dialog.combos["rome"].findData("ann"))
        dialog.combos["carthage"].setCurrentIndex(0)  # nobody
        return True

    view.ask_sides = choose
    assert view.assign_sides()
    assert campaign_sides(uma, campaign_id=cid) == {"rome": "ann"}
    assert "Rome: ann" in view.statusBar().currentMessage()
    assert view.lock_bar.isHidden()  # the umpire's window: no banner


# --------------------------------------------------------------------------- a player's window


def test_a_players_campaign_window_disables_what_the_server_refuses(
    qtbot: QtBot, club: Club, registry: Registry
) -> None:
    from app.core.campaign.steps import Promote
    from app.gui.actions import ActionKey
    from app.gui.campaign.window import CampaignView
    from app.store.campaigns import campaign_for_update

    uma = club.open("uma")
    cid = create_campaign(uma, session=leg_vi_campaign(registry))
    assign_side(uma, campaign_id=cid, side="rome", member="ann")
    ann = club.open("ann")
    view = CampaignView(registry, ann)
    qtbot.addWidget(view)
    view.show()
    a = view.actions_
    for key in (ActionKey.CV_RECORD, ActionKey.CV_APPLY, ActionKey.CV_FIGHT, ActionKey.CV_ASSIGN):
        assert not a[key].isEnabled(), key
        assert "the umpire's (you are ann, a player)" in a[key].toolTip()
    assert not a[ActionKey.CV_UNDO].isEnabled()  # the umpire's step
    assert "only steps you made" in a[ActionKey.CV_UNDO].toolTip()
    assert a[ActionKey.CV_CHRONICLE].isEnabled() and a[ActionKey.CV_EXPORT].isEnabled()
    assert view.lock_bar.isVisible()
    assert view.lock_banner.text().startswith("You play Rome:")
    # Fight pressed all the same (a shortcut, a menu left open): one line, no traceback
    assert view.fight() is None
    assert view.statusBar().currentMessage().startswith("Not fought: the club server refused")
    # her own step: undo is hers
    with campaign_for_update(ann, campaign_id=cid, registry=registry) as s:
        s.do(Promote("rome", "varro", "paullus"))
    view.open_campaign(cid)
    assert a[ActionKey.CV_UNDO].isEnabled()
    view.undo()
    assert a[ActionKey.CV_REDO].isEnabled() and not a[ActionKey.CV_UNDO].isEnabled()
    # bob plays no side: read-only
    bobs = CampaignView(registry, club.open("bob"))
    qtbot.addWidget(bobs)
    bobs.show()
    assert bobs.lock_banner.text().startswith("Read-only: you play no side of this campaign")


def test_a_players_library_and_battle_window_are_read_only_where_the_server_refuses(
    make_window: Any, club: Club, registry: Registry
) -> None:
    from app.core.battle import BattleSession, StartBattle, new_battle
    from app.gui.battle.actions import BattleKey
    from app.rules.mechanics import mechanics_for
    from app.store.battles import create_battle

    rs = registry.get("leg-vi-carthago")
    bob, uma = club.open("bob"), club.open("uma")
    bobs = save_roster(bob, roster=new_roster(rs, "roman", name="Bob's legion"))
    window: MainWindow = make_window()
    assert window.club.connect_to(club.url("ann"))
    ann = window.builder.store
    assert ann is not None
    mine = save_roster(ann, roster=new_roster(rs, "carthaginian", name="Ann's army"))
    library = window.builder.library
    library.refresh()
    buttons = library.buttons
    assert library.select_roster(bobs)
    assert not buttons["rename"].isEnabled() and not buttons["delete"].isEnabled()
    assert buttons["rename"].toolTip() == (
        "Disabled: bob's roster: read-only (you are ann, a player)"
    )
    assert buttons["open"].isEnabled()  # she may look
    library.delete_selected()  # Del pressed all the same: said, nothing done
    assert load_roster(bob, roster_id=bobs).name == "Bob's legion"
    assert library.select_roster(mine)
    assert buttons["rename"].isEnabled() and buttons["delete"].isEnabled()

    rosters = (load_roster(bob, roster_id=bobs), load_roster(ann, roster_id=mine))
    mech = mechanics_for(rs)
    session = BattleSession(rs, mech, new_battle(rs, mech, rosters), seed=3, name="Cannae")
    session.do(StartBattle())
    bid = create_battle(uma, session=session, rosters=rosters)
    battle = window.battles.open_battle(bid)
    assert battle is not None
    c = battle.controller
    assert c.locked == "battles are the umpire's: read-only (you are ann, a player)"
    assert battle.lock_bar.isVisible()
    assert battle.lock_banner.text() == c.locked[:1].upper() + c.locked[1:]
    for key in (BattleKey.NEXT_PHASE, BattleKey.ROLL, BattleKey.CHARGE, BattleKey.END_BATTLE):
        assert not battle.acts[key].isEnabled(), key
        assert battle.acts[key].toolTip().startswith("Disabled: battles are the umpire's")
    assert not battle.acts[BattleKey.PRESENT].isEnabled()
    from app.core.battle import NextPhase

    assert c.execute(NextPhase()) is None
    assert battle.statusBar().currentMessage().startswith("Not done: battles are the umpire's")
    battle.close()


def test_the_window_reconnects_after_an_outage_and_saves_the_edits_made_meanwhile(
    make_window: Any, club: Club, registry: Registry, qtbot: QtBot
) -> None:
    from app.core.edits import AddUnit

    rs = registry.get("leg-vi-carthago")
    window: MainWindow = make_window()
    assert window.club.connect_to(club.url("ann"))
    store = window.builder.store
    assert store is not None
    rid = save_roster(store, roster=new_roster(rs, "roman", name="Ann's legion"))
    window.builder.library.refresh()
    assert window.builder.open_roster(rid)
    session = window.builder.session
    assert session is not None

    def outage(on: bool) -> None:
        admin = club.admin_url.rsplit("/", 1)[0] + "/postgres"
        allow = "false" if on else "true"
        with sql_client(admin) as c:
            c.execute(f"ALTER DATABASE {club.database} WITH ALLOW_CONNECTIONS {allow}")
            if on:
                c.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = %s AND usename = 'ann'",
                    (club.database,),
                )

    outage(True)
    try:
        session.apply(AddUnit(unit_from_entry(rs, "roman", "velites")))
        assert session.dirty  # the autosave failed: it waits
        qtbot.waitUntil(lambda: window.club.down is not None, timeout=3 * POLL_MS)
    finally:
        outage(False)
    qtbot.waitUntil(lambda: window.club.down is None, timeout=3 * POLL_MS)
    assert not session.dirty
    assert "is back; saved the edits" in window.statusBar().currentMessage()
    stored = load_roster(club.open("uma"), roster_id=rid)
    assert [u.entry for u in stored.units] == ["velites"]


def test_another_members_change_shows_within_a_second_without_polling(
    make_window: Any, club: Club, registry: Registry, qtbot: QtBot
) -> None:
    """Two members' windows on one server: what one stores, the other shows within a
    second, told by the server (LISTEN/NOTIFY), with no poll running."""
    from app.core.edits import AddUnit

    rs = registry.get("leg-vi-carthago")
    ann_window: MainWindow = make_window()
    uma_window: MainWindow = make_window()
    assert ann_window.club.connect_to(club.url("ann"))
    assert uma_window.club.connect_to(club.url("uma"))
    for w in (ann_window, uma_window):
        assert w.club.listener is not None and not w.club.timer.isActive()
    uma = uma_window.builder.store
    assert uma is not None
    rid = save_roster(uma, roster=new_roster(rs, "roman", name="Uma's legion"))
    qtbot.waitUntil(lambda: ann_window.library.model.index_of_roster(rid).isValid(), timeout=1000)
    assert ann_window.builder.open_roster(rid)  # read-only for ann: uma's
    assert uma_window.builder.open_roster(rid)
    session = uma_window.builder.session
    assert session is not None
    session.apply(AddUnit(unit_from_entry(rs, "roman", "velites")))
    assert not session.dirty
    qtbot.waitUntil(
        lambda: (
            ann_window.builder.session is not None
            and len(ann_window.builder.session.roster.units) == 1
        ),
        timeout=1000,
    )
    assert not ann_window.club.timer.isActive()
