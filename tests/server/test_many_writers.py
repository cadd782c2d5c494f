"""Many writers on a club server (issue 15): two clients on one roster and one battle, at
once; every write that was acknowledged is stored, and a write from a stale copy is refused
(the window then reloads) rather than overwriting."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace

from app.core.battle import Adjust, BattleSession, new_battle
from app.core.roster import Roster, Unit
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.store import (
    StaleWrite,
    Store,
    load_roster,
    load_roster_versioned,
    save_roster,
    update_roster,
    write_roster,
)
from app.store.battles import battle_for_update, create_battle, load_battle
from tests.server.conftest import Club
from tests.store.test_store_battles import rosters

WRITES = 25


def _together(*work: Callable[[], list[str]]) -> list[list[str]]:
    """Run each function in its own thread at once; what each acknowledged."""
    results: list[list[str]] = [[] for _ in work]
    errors: list[BaseException] = []
    start = threading.Barrier(len(work))

    def run(k: int) -> None:
        start.wait()
        try:
            results[k] = work[k]()
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(work))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    return results


def test_two_clients_on_one_roster_keep_every_acknowledged_write(club: Club) -> None:
    window, other = club.open("ann"), club.open("ann")  # two windows of one player
    umpire = club.open("uma")
    rid = save_roster(window, roster=Roster("Shared", "quincunx", "roman", "Rome", None))
    refused = []

    def from_the_window() -> list[str]:
        """The window's way: write from its copy naming its version; refused: reload."""
        acked = []
        copy, version = load_roster_versioned(window, roster_id=rid)
        for i in range(WRITES):
            unit = Unit(f"w-{i}", "hastati", f"w-{i}", 12)
            while True:
                edited = replace(copy, units=(*copy.units, unit))
                try:
                    saved = write_roster(
                        window, roster=edited, roster_id=rid, expected_version=version, base=copy
                    )
                except StaleWrite:
                    refused.append(i)
                    copy, version = load_roster_versioned(window, roster_id=rid)
                    continue
                copy, version = edited, saved.version
                acked.append(unit.name)
                break
        return acked

    def read_change_write(store: Store, tag: str) -> Callable[[], list[str]]:
        def work() -> list[str]:
            acked = []
            for i in range(WRITES):
                unit = Unit(f"{tag}-{i}", "hastati", f"{tag}-{i}", 12)
                update_roster(
                    store, roster_id=rid, change=lambda r, u=unit: replace(r, units=(*r.units, u))
                )
                acked.append(unit.name)
            return acked

        return work

    acked = _together(
        from_the_window, read_change_write(other, "o"), read_change_write(umpire, "u")
    )
    stored = [u.name for u in load_roster(other, roster_id=rid).units]
    everything = [name for names in acked for name in names]
    assert len(everything) == 3 * WRITES
    assert sorted(stored) == sorted(everything)
    assert refused  # the window's copy did go stale, and it reloaded instead of overwriting


def test_two_clients_on_one_battle_keep_every_acknowledged_step(
    club: Club, registry: Registry
) -> None:
    first, second = club.open("uma"), club.open("uma")
    rs = registry.get("d3-ancients")
    mech = mechanics_for(rs)
    session = BattleSession(rs, mech, new_battle(rs, mech, rosters(registry)), seed=3, name="B")
    bid = create_battle(first, session=session, rosters=rosters(registry))

    def play(store: Store, unit: str, tag: str) -> Callable[[], list[str]]:
        def work() -> list[str]:
            acked = []
            for i in range(WRITES):
                marker = f"{tag}{i}"
                with battle_for_update(store, battle_id=bid, registry=registry) as s:
                    s.do(Adjust(unit=unit, field="marker", value=f"+{marker}"))
                acked.append(marker)
            return acked

        return work

    acked = _together(play(first, "A1", "a"), play(second, "B1", "b"))
    again = load_battle(first, battle_id=bid, registry=registry)
    assert again.cursor == len(again.steps) == 2 * WRITES
    state = again.replay(again.cursor)
    assert set(state.unit("A1").status.markers) == set(acked[0])
    assert set(state.unit("B1").status.markers) == set(acked[1])
    assert state == again.state
