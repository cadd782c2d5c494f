"""The historical battles (issue 28), in every ruleset each is set for: the files load and
every battle is set for all five rulesets; each side's army is valid under its ruleset's
lists, stands for every force the sources give, and holds their numbers within the rounding
the scale forces; the battle opens on its field with every unit where the ruleset's own
deployment checks allow it (or the battle's zones, where it overrides them); and it is
fought a few steps to a declared result, compared with what happened."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app import bundled
from app.core.battle import BattleSession, CommandError, EndBattle, MoveUnit, NextPhase
from app.core.battle.result import result_from_state
from app.core.scenario.build import force_men, scenario_rosters, unit_id
from app.core.scenario.deploy import deployment_breaches, named_posts
from app.core.scenario.history import compare
from app.core.scenario.library import Scenario, ScenarioLibrary, load_library
from app.core.scenario.start import scenario_library, scenario_session
from app.core.totals import strength_of
from app.core.validation import Severity, validate
from app.rules.contact import zone_holds
from app.rules.mechanics import mechanics_for
from app.rules.paths import parse_path
from app.rules.registry import Registry
from tests.builtin import ruleset_ids

RULESETS = ruleset_ids()
#: the battles the issue asks for, at least
WANTED = {"trebia", "trasimene", "cannae", "metaurus", "ilipa", "zama"}

_STRUCTURE = load_library(bundled.SCENARIOS_DIR)
BATTLES = [sc.id for sc in _STRUCTURE]
CASES = [(b, r) for b in BATTLES for r in RULESETS]


@pytest.fixture(scope="module")
def library(registry: Registry) -> ScenarioLibrary:
    lib = scenario_library(registry)
    assert not lib.failures, lib.failure_lines()
    return lib


def test_the_battles_load_in_the_order_of_the_war(library: ScenarioLibrary) -> None:
    assert not _STRUCTURE.failures, _STRUCTURE.failure_lines()
    assert {sc.id for sc in library} >= WANTED
    years = [sc.data.battle.year for sc in library]
    assert years == sorted(years, reverse=True)
    for sc in library:
        assert set(sc.rulesets) == set(RULESETS), sc.id


def _each_source_number(sc: Scenario) -> Iterator[str]:
    for side in sc.data.sides.values():
        for force in side.forces:
            yield force.cite
        yield side.losses.cite


def test_every_number_is_cited(library: ScenarioLibrary) -> None:
    for sc in library:
        for cite in _each_source_number(sc):
            assert any(a in cite for a in ("Polybius", "Livy", "Appian")), (sc.id, cite)
        for side in sc.data.sides.values():
            for force in side.forces:
                if force.reading:  # Castra's own reading is explained
                    assert force.note or sc.data.battle.notes, (sc.id, force.id)


@pytest.mark.parametrize(("battle", "ruleset"), CASES)
def test_the_armies_are_valid_and_hold_the_sources_numbers(
    library: ScenarioLibrary, registry: Registry, battle: str, ruleset: str
) -> None:
    sc = library.find(battle)
    rs = registry.get(ruleset)
    rosters = scenario_rosters(sc, rs)
    for side_id, roster in zip(sc.side_ids, rosters, strict=True):
        errors = [m for m in validate(rs, roster).messages if m.severity is Severity.ERROR]
        # only an army the file says is larger than its list may break the list's maxima
        beyond = sc.army(ruleset, side_id).beyond_lists
        if beyond:
            assert "Beyond the army list" in roster.notes
            errors = [m for m in errors if m.code != "entry.max"]
        assert not errors, [f"{m.subject}: {m.text}" for m in errors]
    if not (rs.counts_figures or ruleset == "leg-vi-carthago"):
        return  # GSB and D3 count no men: each unit stands for a share of its force
    for roster in rosters:
        army = rs.army(roster.army)
        for force_id, (got, source) in force_men(sc, rs, roster).items():
            if source == 0:
                continue  # elephants are counted in beasts, not men
            # the rounding the scale forces: half the largest unit standing for the force
            units = [u for u in roster.units if _force(sc, roster, u.id) == force_id]
            largest = max(
                strength_of(rs, army.entries[u.entry], u.size, roster.scale).men or 0 for u in units
            )
            slack = largest * sc.data.rulesets[ruleset].factor / 2
            assert abs(got - source) <= slack, (roster.side, force_id, got, source, slack)


def _force(sc: Scenario, roster: object, uid: str) -> str:
    from app.core.roster import Roster

    assert isinstance(roster, Roster)
    side = next(s for s in sc.side_ids if sc.side(s).name == roster.side)
    army = sc.army(roster.ruleset, side)
    for n, u in enumerate(army.units, start=1):
        if unit_id(n) == uid:
            return u.force
    raise KeyError(uid)


@pytest.mark.parametrize(("battle", "ruleset"), CASES)
def test_the_battle_opens_deployed_and_is_fought_to_a_result(
    library: ScenarioLibrary, registry: Registry, battle: str, ruleset: str
) -> None:
    sc = library.find(battle)
    rs = registry.get(ruleset)
    mech = mechanics_for(rs)
    session, rosters = scenario_session(sc, rs, mech, seed=7)
    state = session.state
    assert state.scenario == sc.id
    # every unit on the table, each at the post the battle's order of battle gives it
    assert len([u for u in state.units if u.side == 0]) == rosters[0].unit_count()
    assert len([u for u in state.units if u.side == 1]) == rosters[1].unit_count()
    assert named_posts(sc, rosters[0], sc.side_ids[0]), "the roster's lines name their posts"
    # the ruleset's own deployment checks pass: zone, table, no unit on another, terrain
    assert deployment_breaches(state, mech) == []
    zones = mech.deployment_zones(state.view())
    if any(sc.side(s).zone is not None for s in sc.side_ids):
        assert state.zones is not None and sc.data.battle.zones_note
    for u in state.units:
        assert zone_holds(zones[u.side], u.footprint.corners()), u.name
    # every leader fielded stands with his troops or behind them
    for ld in state.leaders:
        assert state.table.holds(((ld.x, ld.y),)), ld.name
    _fight_a_little(session)
    hw = sc.data.battle.winner
    winner = None if hw == "draw" else sc.side_ids.index(hw)
    session.do(EndBattle(winner=winner, reason="declared by the players"))
    result = result_from_state(session.state, rosters, lost_markers=mech.lost_markers)
    assert result.winner == winner
    comparison = compare(sc, rs, session.state, rosters, mech.lost_markers)
    lines = comparison.lines()
    assert "as in history" in lines[0]
    assert len(lines) >= 3
    for report in comparison.sides:
        assert report.men > 0 and 0.0 <= report.share_lost <= 1.0


def _fight_a_little(session: BattleSession) -> None:
    """Through the phases of the first turn, each side in play moving a unit of its front
    a little where its rules allow it now (a refusal changes nothing)."""
    phases = len(session.ruleset.turn.phases)
    moved: set[int] = set()
    for _ in range(phases + 1):
        state = session.state
        if state.result is not None:
            return
        for u in state.units:
            if u.side in moved:
                continue
            try:
                session.do(MoveUnit(unit=u.id, legs=parse_path("forward 0.5")))
            except (CommandError, ValueError):
                continue
            moved.add(u.side)
        try:
            session.do(NextPhase())
        except CommandError:
            return
