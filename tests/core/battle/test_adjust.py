"""Correcting a unit by hand (``Adjust``) with the real rulesets' mechanics: a state the rules
do not allow is refused with a reason and the battle is unchanged, so no later action sees a
unit the mechanics cannot resolve."""

from __future__ import annotations

import pytest

from app.core.battle import (
    Act,
    Adjust,
    BattleSession,
    CommandError,
    MoveUnit,
    NextPhase,
    StartBattle,
    new_battle,
)
from app.core.edits import AddUnit
from app.core.roster import Roster, new_roster, unit_from_entry
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from tests.builtin import ruleset_ids


def _roster(registry: Registry, ruleset: str, army: str, entries: list[str]) -> Roster:
    rs = registry.get(ruleset)
    roster = new_roster(rs, army, name=army)
    for entry in entries:
        roster = AddUnit(unit_from_entry(rs, army, entry)).apply(roster)
    return roster


def _session(registry: Registry, ruleset: str, a: Roster, b: Roster) -> BattleSession:
    rs = registry.get(ruleset)
    mech = mechanics_for(rs)
    s = BattleSession(rs, mech, new_battle(rs, mech, (a, b)), seed=7)
    s.do(StartBattle())
    return s


@pytest.fixture
def gsb(registry: Registry) -> BattleSession:
    """Rome's heavy and light infantry (B: Carthage's light infantry and elephants)."""
    return _session(
        registry,
        "grown-slightly-bald",
        _roster(registry, "grown-slightly-bald", "rome", ["heavy_infantry", "light_infantry"]),
        _roster(registry, "grown-slightly-bald", "carthage", ["light_infantry", "elephants"]),
    )


def _refused(session: BattleSession, command: Adjust, *words: str) -> None:
    before, steps = session.state, len(session.steps)
    with pytest.raises(CommandError) as info:
        session.do(command)
    for w in words:
        assert w in str(info.value), str(info.value)
    assert session.state == before and len(session.steps) == steps


@pytest.mark.parametrize(
    ("unit", "hits", "hp"),
    [("B1", 9, 2), ("B1", 2, 2), ("B2", 4, 4), ("A1", 4, 4)],
    ids=["light-9", "light-2", "elephant-4", "heavy-4"],
)
def test_gsb_hits_on_a_base_stop_below_its_hit_points(
    gsb: BattleSession, unit: str, hits: int, hp: int
) -> None:
    """GSB, Hit points: hits count on the current base, which is removed when its hit
    points (light troops 2, others 4: the hit-points table) are used up."""
    _refused(gsb, Adjust(unit=unit, field="hits", value=str(hits)), f"{hp} hit points")


def test_gsb_hits_below_the_limit_are_set(gsb: BattleSession) -> None:
    gsb.do(Adjust(unit="B1", field="hits", value="1"))
    gsb.do(Adjust(unit="B2", field="hits", value="3"))
    assert (gsb.state.unit("B1").status.hits, gsb.state.unit("B2").status.hits) == (1, 3)


def test_gsb_melee_after_a_refused_adjust(gsb: BattleSession) -> None:
    """The finding: ``adjust B hits 9`` used to be taken and the next melee went wrong."""
    _refused(gsb, Adjust(unit="B1", field="hits", value="9"))
    # a melee needs contact (GSB, Melee): A1 goes to touch B1's front, facing it
    a1, b1 = gsb.state.unit("A1"), gsb.state.unit("B1")
    assert b1.facing == 180.0
    gsb.do(MoveUnit(unit="A1", x=b1.x, y=b1.y - (a1.depth + b1.depth) / 2, facing=0.0))
    # only the unit activated fights, in its side's activations (GSB, Turn order)
    while gsb.mechanics.side_in_play(gsb.state.view()) != 0:
        gsb.do(NextPhase())
    gsb.do(Act(action="activate", actor="A1"))
    step = gsb.do(Act(action="melee", actor="A1", target="B1"))
    assert step.lines
    # the melee leaves both units in states GSB allows (hits below a base's hit points)
    for uid in ("A1", "B1"):
        unit = gsb.state.unit(uid)
        assert gsb.mechanics.status_problem(unit.troop, unit.status) is None, uid


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_strength_above_the_start_is_refused_in_every_ruleset(
    registry: Registry, ruleset: str
) -> None:
    """No ruleset gives a unit more than it started with (the generic check)."""
    rs = registry.get(ruleset)
    armies = list(rs.armies)
    first = [next(iter(rs.army(armies[0]).entries))]
    second = [next(iter(rs.army(armies[1]).entries))]
    s = _session(
        registry,
        ruleset,
        _roster(registry, ruleset, armies[0], first),
        _roster(registry, ruleset, armies[1], second),
    )
    start = s.state.unit("A1").status.start_strength
    _refused(s, Adjust(unit="A1", field="strength", value=str(start + 1)), "at the start")
    s.do(Adjust(unit="A1", field="strength", value=str(start)))
    assert s.state.unit("A1").status.strength == start


def test_quincunx_rings_past_the_track_are_taken(registry: Registry) -> None:
    """Quincunx errata 'More than seven rings or column shifts': anything past the last column
    reads the last column, so eight rings are a state the rules know."""
    s = _session(
        registry,
        "quincunx",
        _roster(registry, "quincunx", "roman", ["hastati"]),
        _roster(registry, "quincunx", "carthaginian", ["celtic_swordsmen"]),
    )
    s.do(Adjust(unit="A1", field="rings", value="9"))
    assert s.state.unit("A1").status.rings == 9


@pytest.mark.parametrize("field", ["strength", "hits", "rings", "dps"])
@pytest.mark.parametrize("value", ["100001", "99999999999999999999999"])
def test_a_count_beyond_any_unit_is_refused(gsb: BattleSession, field: str, value: str) -> None:
    """No unit has more than 100,000 figures, and the window's field goes as far: a bigger
    number (the command line takes any digits) is refused, so no state holds a number the
    window cannot show."""
    _refused(gsb, Adjust(unit="A1", field=field, value=value), "out of range", "100,000")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("marker", "words"),
    [("+sha\x1bken", ("control character",)), ("+" + "m" * 65, ("at most 64",))],
)
def test_a_marker_name_is_plain_text_of_a_sane_length(
    gsb: BattleSession, marker: str, words: tuple[str, ...]
) -> None:
    _refused(gsb, Adjust(unit="A1", field="marker", value=marker), *words)
