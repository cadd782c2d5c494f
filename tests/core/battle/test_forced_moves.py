"""Forced moves on the table: a melee fought through the real Quincunx mechanics in a
battle session moves the loser 12" (4 MF) directly away from the victor, still facing it,
its attached leader with it; the log says so; undo puts it back; redo and replay give the
same move from the recorded rolls."""

from __future__ import annotations

import math

import pytest

from app.core.battle import Act, BattleSession, BattleState, MoveUnit, StartBattle, new_battle
from app.core.edits import AddLeader, AddUnit, UpdateUnit
from app.core.roster import Leader, Roster, new_roster, unit_from_entry
from app.rules.geometry import bearing
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.rulesets.quincunx.schema import tables


def roster(registry: Registry, army: str, entry: str, general: str | None = None) -> Roster:
    rs = registry.get("quincunx")
    r = new_roster(rs, army, name=army)
    r = AddUnit(unit_from_entry(rs, army, entry)).apply(r)
    if general is not None:
        r = AddLeader(Leader(id="gen", name=general, rank="general")).apply(r)
        r = UpdateUnit(r.units[0].id, {"leader": "gen"}).apply(r)
    return r


def melee_session(registry: Registry, seed: int) -> BattleSession:
    """Hastati (A1, with Scipio) in the middle of the table; Celtic swordsmen (B1) charge
    into their front, their centre 2" to the Hastati's right."""
    rs = registry.get("quincunx")
    mech = mechanics_for(rs)
    rosters = (
        roster(registry, "roman", "hastati", "Scipio"),
        roster(registry, "carthaginian", "celtic_swordsmen"),
    )
    s = BattleSession(rs, mech, new_battle(rs, mech, rosters), seed=seed)
    s.do(StartBattle())
    w, h = s.state.width, s.state.height
    s.do(MoveUnit(unit="A1", x=w / 2, y=h / 2))
    a1, b1 = s.state.unit("A1"), s.state.unit("B1")
    assert (a1.facing, b1.facing) == (0.0, 180.0)
    s.do(MoveUnit(unit="B1", x=w / 2 + 2, y=h / 2 + (a1.depth + b1.depth) / 2))
    return s


def hastati_recoil(registry: Registry) -> tuple[BattleSession, BattleState]:
    """The first seed whose melee the Hastati lose (and recoil), Scipio still with them."""
    for seed in range(200):
        s = melee_session(registry, seed)
        before = s.state
        step = s.do(Act(action="melee", actor="B1", target="A1"))
        recoiled = any(
            line.startswith("Hastati (A1) lose") and "recoils" in line for line in step.lines
        )
        straggling = "straggler" in step.state.unit("A1").status.markers
        if recoiled and not straggling and step.state.leader_of("A1") is not None:
            return s, before
    raise AssertionError("no seed in 200 made the Hastati recoil")


def test_melee_loser_recoils_twelve_inches_away_from_the_victor(registry: Registry) -> None:
    s, before = hastati_recoil(registry)
    t = tables(s.ruleset)
    inches = t.melee_resolution.recoil_move_factors * t.movement.inches_per_move_factor
    assert inches == 12
    after = s.state
    was, now, celts = before.unit("A1"), after.unit("A1"), before.unit("B1")
    # 12" along the line from the Celts' centre through the Hastati's, facing unchanged
    assert math.hypot(now.x - was.x, now.y - was.y) == pytest.approx(inches)
    away = bearing(celts.x, celts.y, was.x, was.y)
    assert bearing(was.x, was.y, now.x, now.y) == pytest.approx(away)
    assert 180 < away < 270  # back and a little to the left, away from the Celts
    assert now.facing == was.facing
    # the victor stays; the attached leader goes with his unit
    assert (after.unit("B1").x, after.unit("B1").y) == (celts.x, celts.y)
    scipio = after.leader_of("A1")
    assert scipio is not None and (scipio.x, scipio.y) == (now.x, now.y)
    # the log says so
    (entry,) = s.log()[-1:]
    assert any("Hastati (A1) lose" in line and 'recoils 4 MF (12")' in line for line in entry.lines)
    # undo puts the Hastati (and Scipio) back; redo moves them again from the same rolls
    s.undo()
    assert s.state == before
    assert (s.state.unit("A1").x, s.state.unit("A1").y) == (was.x, was.y)
    s.redo()
    assert s.state == after
    assert s.replay() == after


def test_drawn_melee_moves_nobody(registry: Registry) -> None:
    """A round with no casualties leaves both units in contact where they stand."""
    for seed in range(200):
        s = melee_session(registry, seed)
        before = s.state
        step = s.do(Act(action="melee", actor="B1", target="A1"))
        if "melee_with" in step.state.unit("B1").status.extra:
            for uid in ("A1", "B1"):
                assert (step.state.unit(uid).x, step.state.unit(uid).y) == (
                    before.unit(uid).x,
                    before.unit(uid).y,
                )
            return
    raise AssertionError("no seed in 200 gave a drawn round")
