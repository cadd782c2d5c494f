"""Live refresh on a club server (issue 22): every change to a roster, battle, campaign,
side or member is told on ``castra_changes`` when it commits (PostgreSQL's NOTIFY, migration
0009's triggers); a member's :class:`~app.store.server.ChangeListener` hears it within a
second, on a connection of its own. Tested with two members' connections."""

from __future__ import annotations

import select
import time
from dataclasses import replace

import pytest

from app.core.roster import Roster, Unit
from app.rules.registry import Registry
from app.store import StoreError, rename_roster, save_roster, update_roster
from app.store.campaigns import assign_side, create_campaign
from app.store.server import ChangeListener
from tests.conftest import Club
from tests.core.campaign.helpers import leg_vi_campaign
from tests.pgcluster import sql_client


def _roster(name: str) -> Roster:
    return Roster(name, "quincunx", "roman", "Rome", None, units=(Unit("u1", "hastati", "H", 12),))


def _heard(listener: ChangeListener, within: float = 1.0) -> list[str]:
    """What the listener is told within ``within`` seconds (its socket watched, as the
    window's event loop does)."""
    end = time.monotonic() + within
    told: list[str] = []
    while (left := end - time.monotonic()) > 0:
        if select.select([listener.fileno()], [], [], left)[0]:
            told += listener.drain()
            if told:
                # what one commit told comes at once; a moment more for a straggler
                time.sleep(0.05)
                told += listener.drain()
                return told
    return told


def test_another_members_changes_are_heard_within_a_second(club: Club, registry: Registry) -> None:
    ann, uma = club.open("ann"), club.open("uma")
    listener = ChangeListener(ann)
    try:
        assert _heard(listener, 0.2) == []  # nothing yet
        start = time.monotonic()
        rid = save_roster(uma, roster=_roster("Uma's legion"))
        assert "roster" in _heard(listener)
        assert time.monotonic() - start < 1.0
        rename_roster(uma, roster_id=rid, name="Renamed")
        assert "roster" in _heard(listener)
        update_roster(uma, roster_id=rid, change=lambda r: replace(r, notes="drilled"))
        assert "roster" in _heard(listener)
        cid = create_campaign(uma, session=leg_vi_campaign(registry))
        assert "campaign" in _heard(listener)
        assign_side(uma, campaign_id=cid, side="rome", member="ann")
        assert "campaign_side" in _heard(listener)
        with club.raw("uma") as con:  # a change rolled back tells nothing
            con.execute("BEGIN")
            con.execute("UPDATE public.roster SET notes = 'x' WHERE id = %s", (rid,))
            con.execute("ROLLBACK")
        assert _heard(listener, 0.3) == []
    finally:
        listener.close()


def test_a_lost_listener_is_one_line(club: Club) -> None:
    ann = club.open("ann")
    listener = ChangeListener(ann)
    try:
        with sql_client(club.admin_url) as con:
            con.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = 'castra-listen'"
            )
        assert select.select([listener.fileno()], [], [], 2)[0]
        with pytest.raises(StoreError) as err:
            listener.drain()
        assert "\n" not in str(err.value) and "club server" in str(err.value)
    finally:
        listener.close()
