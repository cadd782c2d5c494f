"""A sample battle of any ruleset: both armies of its first two army lists (the source's
standard army where it gives one, else one unit of each entry), on its table, with a little
terrain placed by commands. For the map's screenshots, its tests and the speed bench; not
a scenario of any source."""

from __future__ import annotations

from app.core.battle.commands import StartBattle
from app.core.battle.session import BattleSession
from app.core.battle.setup import new_battle
from app.core.battle.terrain import AddTerrain
from app.core.edits import AddLeader, AddUnit, UpdateUnit
from app.core.roster import Leader, Roster, new_roster, unit_from_entry
from app.rules.mechanics import Mechanics
from app.rules.ruleset import Ruleset

#: Most units a side of the sample takes from an army list without a standard army.
MAX_ENTRIES = 8


def sample_roster(rs: Ruleset, army_id: str) -> Roster:
    """The army's standard army when its source gives one, else one unit of each of its
    first entries, led by a general attached to the first unit. (A ready army Castra built,
    :mod:`app.core.ready`, is not taken: the sample stays what the map's tests, screenshots
    and the speed bench have always measured.)"""
    army = rs.army(army_id)
    if army.standard is not None and army.standard.origin == "source":
        roster = new_roster(rs, army_id, name=army.name, standard=True)
        if roster.units:
            return roster
    roster = new_roster(rs, army_id, name=army.name)
    for entry_id in list(army.entries)[:MAX_ENTRIES]:
        roster = AddUnit(unit_from_entry(rs, army_id, entry_id)).apply(roster)
    if not roster.leaders:
        general = Leader(id="gen", name=f"{army.side} general", rank="general")
        roster = AddLeader(general).apply(roster)
        roster = UpdateUnit(roster.units[0].id, {"leader": "gen"}).apply(roster)
    return roster


def sample_session(rs: Ruleset, mech: Mechanics, *, seed: int = 1) -> BattleSession:
    """A started battle between the ruleset's first two army lists with a wood, a hill, a
    river and its ford, a road and a marsh placed in proportion to the table."""
    armies = list(rs.armies)
    first, second = armies[0], armies[1] if len(armies) > 1 else armies[0]
    state = new_battle(rs, mech, (sample_roster(rs, first), sample_roster(rs, second)))
    session = BattleSession(rs, mech, state, seed=seed, name=f"{rs.meta.short_name} sample")
    w, h = state.width, state.height

    def at(*points: tuple[float, float]) -> tuple[tuple[float, float], ...]:
        return tuple((round(x * w, 3), round(y * h, 3)) for x, y in points)

    session.do(StartBattle())
    for command in (
        AddTerrain(
            terrain="woods",
            points=at((0.05, 0.40), (0.16, 0.36), (0.22, 0.45), (0.17, 0.58), (0.07, 0.55)),
            name="Silva",
        ),
        AddTerrain(
            terrain="hill", points=at((0.70, 0.38), (0.86, 0.40), (0.84, 0.58), (0.72, 0.56))
        ),
        AddTerrain(
            terrain="river",
            points=at((0.0, 0.50), (0.30, 0.47), (0.55, 0.52), (1.0, 0.49)),
            name="Trebia",
        ),
        AddTerrain(
            terrain="ford", points=at((0.40, 0.46), (0.46, 0.46), (0.46, 0.54), (0.40, 0.54))
        ),
        AddTerrain(terrain="road", points=at((0.43, 0.0), (0.43, 1.0))),
        AddTerrain(
            terrain="marsh", points=at((0.56, 0.60), (0.64, 0.60), (0.64, 0.68), (0.56, 0.68))
        ),
    ):
        session.do(command)
    return session
