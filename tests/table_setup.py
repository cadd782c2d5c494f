"""Battles set up on the table for the rules' tests: rosters of just the units a case needs,
the units placed where the case says, started, and (for the command-line tests) stored in
the store ``castra`` uses, so the test then plays them through ``castra battle ...`` or the
battle window like a player. The rosters are built here from the army lists' entries, not
taken from a ruleset's ready armies, so a case keeps its units whatever those armies become."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from app.core.battle import BattleSession, BattleState, StartBattle, new_battle
from app.core.edits import AddCommand, AddLeader, AddUnit, UpdateUnit
from app.core.roster import Command, Leader, Roster, new_roster, unit_from_entry
from app.rules.mechanics import Mechanics, Side, mechanics_for
from app.rules.ruleset import Ruleset

#: a unit's place: x, y and facing (degrees, 0 towards +y)
Place = tuple[float, float, float]


def roster_of(
    rs: Ruleset,
    army: str,
    entries: Sequence[str | tuple[str, Mapping[str, Any]]],
    *,
    leaders: Sequence[tuple[str, str, str | None]] = (),
) -> Roster:
    """A roster of ``army`` with one unit of each entry, in order (an entry may come with
    changes to its unit: ``("velites", {"grade": "A"})``), and ``leaders``: (id, rank, the
    entry of the unit he leads as a one-unit command, or None), each commanding the command
    of that unit."""
    roster = new_roster(rs, army, name=f"{rs.id} {army} test")
    for item in entries:
        entry, changes = (item, {}) if isinstance(item, str) else item
        roster = AddUnit(unit_from_entry(rs, army, entry, **changes)).apply(roster)
    for lid, rank, led in leaders:
        roster = AddLeader(Leader(id=lid, name=f"{lid} ({rank})", rank=rank)).apply(roster)  # type: ignore[arg-type]
        if led is None:
            continue
        cid = f"c-{lid}"
        roster = AddCommand(Command(id=cid, name=f"{lid}'s command", leader=lid)).apply(roster)
        for unit in roster.units:
            if unit.entry == led and unit.command is None:
                roster = UpdateUnit(unit.id, {"command": cid}).apply(roster)
    return roster


def placed(state: BattleState, places: Mapping[str, Place]) -> BattleState:
    """``state`` with each unit named in ``places`` where it says (its attached leader with
    it); the other units stay where new_battle stood them."""
    for uid, (x, y, facing) in places.items():
        state = state.replace_unit(replace(state.unit(uid), x=x, y=y, facing=facing))
        leader = state.leader_of(uid)
        if leader is not None:
            state = state.replace_leader(replace(leader, x=x, y=y))
    return state


def started(
    rs: Ruleset,
    rosters: tuple[Roster, Roster],
    places: Mapping[str, Place] = {},
    *,
    seed: int = 1,
    mech: Mechanics | None = None,
    leaders_at: Mapping[str, tuple[float, float]] = {},
    initiative: Side | None = None,
) -> BattleSession:
    """A battle between ``rosters`` with units placed, detached leaders moved to
    ``leaders_at`` (leader id as the state has it, ``A-gen``, ...), the ``initiative`` set
    before the start where the ruleset reads it (D3's first turn), and started."""
    mech = mech or mechanics_for(rs)
    state = placed(new_battle(rs, mech, rosters), places)
    if initiative is not None:
        state = replace(state, initiative=initiative)
    for lid, (x, y) in leaders_at.items():
        state = state.replace_leader(replace(state.leader(lid), x=x, y=y, attached_to=None))
    session = BattleSession(rs, mech, state, seed=seed, name=f"{rs.meta.short_name} test")
    session.do(StartBattle())
    return session


def stored(session: BattleSession, rosters: tuple[Roster, Roster]) -> int:
    """The battle in the store ``castra`` opens (``CASTRA_DB``), with its steps; its id."""
    from app.cli.common import store
    from app.store.battles import create_battle

    return int(create_battle(store(), session=session, rosters=rosters))
