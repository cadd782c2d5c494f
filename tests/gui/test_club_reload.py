"""A window on a club server follows another member's battle and campaign (issue 15): the
change poll reloads an open battle window another member advanced (not while the user is
dragging on its map: then at the next look after the drag) and the campaign view's
campaign. Two store connections: the window's and another member's."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.core.battle import Adjust, BattleSession, new_battle
from app.gui.campaign import menu as campaign_menu
from app.gui.club import POLL_MS
from app.gui.main_window import MainWindow
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.store.battles import battle_for_update, create_battle
from app.store.campaigns import campaign_for_update, create_campaign
from tests.conftest import Club
from tests.core.campaign.helpers import leg_vi_campaign
from tests.store.test_store_battles import rosters


def test_an_open_battle_follows_another_umpires_steps_after_a_drag(
    make_window: Any, club: Club, registry: Registry
) -> None:
    other = club.open("uma")  # the other umpire's connection
    rs = registry.get("d3-ancients")
    mech = mechanics_for(rs)
    session = BattleSession(rs, mech, new_battle(rs, mech, rosters(registry)), seed=3, name="B")
    bid = create_battle(other, session=session, rosters=rosters(registry))
    window: MainWindow = make_window()
    assert window.club.connect_to(club.url("uma"))
    assert window.club.timer.interval() == POLL_MS
    window.club.timer.stop()  # its looks are asked here, at once
    battle = window.battles.open_battle(bid)
    assert battle is not None and battle.controller.session.cursor == 0

    with battle_for_update(other, battle_id=bid, registry=registry) as s:
        s.do(Adjust(unit="A1", field="marker", value="+shaken"))
    assert window.club.poll()
    assert battle.controller.session.cursor == 1
    assert "shaken" in battle.controller.state.unit("A1").status.markers
    assert "another member" in battle.statusBar().currentMessage()

    viewport = battle.map.viewport()
    centre = viewport.rect().center()
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    QTest.mousePress(viewport, left, none, centre)  # a drag begins
    assert battle.map.busy
    with battle_for_update(other, battle_id=bid, registry=registry) as s:
        s.do(Adjust(unit="A1", field="marker", value="+routed"))
    assert window.club.poll()  # the change is seen, the battle is left alone while dragging
    assert battle.controller.session.cursor == 1
    QTest.mouseRelease(viewport, left, none, centre)
    assert not battle.map.busy
    assert window.club.poll()  # nothing new in the store, but the battle was passed over
    assert battle.controller.session.cursor == 2
    assert "routed" in battle.controller.state.unit("A1").status.markers


def test_the_campaign_view_follows_another_umpires_steps(
    make_window: Any, club: Club, registry: Registry
) -> None:
    other = club.open("uma")
    cid = create_campaign(other, session=leg_vi_campaign(registry))
    window: MainWindow = make_window()
    assert window.club.connect_to(club.url("uma"))
    window.club.timer.stop()
    view = campaign_menu.open_view(window, cid)
    assert view is not None and view.session is not None
    before = view.session.cursor
    with campaign_for_update(other, campaign_id=cid, registry=registry) as s:
        s.undo()
    assert window.club.poll()
    assert view.session is not None and view.session.cursor == before - 1
    assert view.campaign_id == cid
    assert "another member" in view.statusBar().currentMessage()
