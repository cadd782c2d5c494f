"""Starting a historical battle: the one function the command line, the window and a
campaign's Fight call, so the three set it up alike (the battle's own armies, or rosters
given: edited ones, a campaign's armies as they stand)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from app import bundled
from app.core.battle import BattleSession, StartBattle
from app.core.roster import Roster
from app.core.scenario.build import scenario_rosters
from app.core.scenario.deploy import scenario_battle
from app.core.scenario.library import Scenario, ScenarioLibrary, find_scenario, load_library
from app.rules.mechanics import Mechanics, Scalar
from app.rules.ruleset import Ruleset


def scenario_library(rulesets: Iterable[Ruleset], user: Path | None = None) -> ScenarioLibrary:
    """The built-in battles and those in ``user`` (a club's own), checked against
    ``rulesets``."""
    return load_library(bundled.SCENARIOS_DIR, user, rulesets)


def builtin_scenario(scenario_id: str, rs: Ruleset, user: Path | None = None) -> Scenario | None:
    """One battle by id (the built-in files first, then ``user``'s), checked against
    ``rs``; None when there is none."""
    return find_scenario(scenario_id, bundled.SCENARIOS_DIR, user, (rs,))


def battle_name(sc: Scenario, rs: Ruleset) -> str:
    """ "The Trebia (218 BC), Quincunx"."""
    return f"{sc.name} ({sc.data.battle.year} BC), {rs.meta.short_name}"


def scenario_session(
    sc: Scenario,
    rs: Ruleset,
    mech: Mechanics,
    *,
    seed: int,
    rosters: tuple[Roster, Roster] | None = None,
    scale: str | None = None,
    records: tuple[Mapping[str, Scalar], Mapping[str, Scalar]] = ({}, {}),
    name: str | None = None,
) -> tuple[BattleSession, tuple[Roster, Roster]]:
    """The battle started (its first command done) on the battle's field, with the battle's
    own armies at ``scale`` or with ``rosters`` (in any order: the field is turned about
    when the first of them fights as the battle's second side), and the rosters it was
    made from (stored with it). ValueError when the battle is not set for the ruleset or
    the rosters cannot fight it."""
    if rosters is None:
        rosters = scenario_rosters(sc, rs, scale=scale)
    for roster in rosters:
        if roster.ruleset != rs.id:
            raise ValueError(f"roster {roster.name!r} is for {roster.ruleset}, not {rs.id}")
    state = scenario_battle(sc, rs, mech, rosters, records=records)
    session = BattleSession(rs, mech, state, seed=seed, name=name or battle_name(sc, rs))
    session.do(StartBattle())
    return session, rosters
