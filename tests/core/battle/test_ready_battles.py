"""A battle between each ruleset's Roman and Carthaginian ready armies, through the core: it
starts with every unit inside its deployment zone (a larger table where the ruleset's is too
small for the armies), the leaders the rosters attach stand with their units, and it is
fought: moves and a charge the rules allow, then a melee whose result is one of the odds
read before it; undo, redo and replay give the same states."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.core.battle import (
    Act,
    AttachLeader,
    BattleSession,
    BattleState,
    CommandError,
    MoveUnit,
    NextPhase,
    StartBattle,
    default_table,
    new_battle,
    plan_charge,
)
from app.core.ready import ready_armies, ready_roster
from app.core.roster import Roster
from app.rules.contact import zone_holds
from app.rules.mechanics import mechanics_for
from app.rules.paths import parse_path
from app.rules.registry import Registry
from tests.core.battle.ready_fight import DUELS, fight, unit_named

RULESETS = sorted(DUELS)


def ready_rosters(registry: Registry, ruleset: str) -> tuple[Roster, Roster]:
    """The ruleset's Roman and Carthaginian ready armies, in its lists' order."""
    rs = registry.get(ruleset)
    rosters = tuple(ready_roster(rs, ra.army) for ra in ready_armies(rs))
    assert len(rosters) == 2 and [r.side for r in rosters] == ["Rome", "Carthage"]
    return rosters[0], rosters[1]


def ready_session(
    registry: Registry, ruleset: str, rosters: tuple[Roster, Roster] | None = None
) -> BattleSession:
    rs = registry.get(ruleset)
    mech = mechanics_for(rs)
    rosters = rosters or ready_rosters(registry, ruleset)
    # a ruleset without a scripted duel (a new one) opens on the seed most duels use
    seed = DUELS[ruleset].seed if ruleset in DUELS else 7
    session = BattleSession(rs, mech, new_battle(rs, mech, rosters), seed=seed)
    session.do(StartBattle())
    return session


class CoreFront:
    """The fight's front end on a :class:`BattleSession`."""

    def __init__(self, session: BattleSession) -> None:
        self.session = session

    def _do(self, command: object) -> str | None:
        try:
            step = self.session.do(command)  # type: ignore[arg-type]
        except CommandError:
            return None
        return "\n".join(step.lines)

    def state(self) -> BattleState:
        return self.session.state

    def move(self, unit: str, distance: float) -> str | None:
        return self._do(MoveUnit(unit=unit, legs=parse_path(f"forward {distance!r}")))

    def charge(self, unit: str, target: str) -> str | None:
        try:
            command = plan_charge(self.session.state, self.session.mechanics, unit, target)
        except CommandError:
            return None
        return self._do(command)

    def act(self, action: str, actor: str, target: str | None = None) -> str | None:
        return self._do(Act(action=action, actor=actor, target=target))

    def odds(self, actor: str, target: str) -> list[tuple[str, Fraction]] | None:
        try:
            odds = self.session.odds("melee", actor, target, {}, None)
        except (CommandError, ValueError, KeyError):
            return None
        except Exception as exc:  # a ruleset's own refusal (not now, not this pair)
            if type(exc).__name__.endswith("Refusal"):
                return None
            raise
        return [(o.result, p) for o, p in odds.items()]

    def attach(self, leader: str, unit: str) -> str | None:
        return self._do(AttachLeader(leader=leader, unit=unit))

    def next(self) -> str:
        return "\n".join(self.session.do(NextPhase()).lines)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_ready_armies_deploy_inside_their_zones(registry: Registry, ruleset: str) -> None:
    rosters = ready_rosters(registry, ruleset)
    session = ready_session(registry, ruleset, rosters)
    state, mech = session.state, session.mechanics
    rs = session.ruleset
    view = state.view()
    zones = mech.deployment_zones(view)
    assert {u.side for u in state.units} == {0, 1}
    for u in state.units:
        assert zone_holds(zones[u.side], u.footprint.corners()), (u.id, u.name)
        assert mech.check_deploy(view, u.id, u.footprint) == (), u.name
    # the ruleset's table, but for the Quincunx model armies (73 units of 25mm figures),
    # which stand in their zones only on a table half as large again
    base = default_table(rs)
    grown = 1.5 if ruleset == "quincunx" else 1.0
    assert (state.width, state.height) == (base.width * grown, base.height * grown)
    # every roster unit is on the table, and each leader the roster attaches stands with it
    for side, roster in enumerate(rosters):
        mine = [u for u in state.units if u.side == side]
        assert len(mine) == roster.unit_count()
        for unit in roster.units:
            if unit.leader is None:
                continue
            first = next(u for u in mine if u.roster_unit == unit.id)
            leader = state.leader(f"{'AB'[side]}-{unit.leader}")
            assert leader.attached_to == first.id, (leader.name, unit.name)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_ready_armies_fight(registry: Registry, ruleset: str) -> None:
    session = ready_session(registry, ruleset)
    duel = DUELS[ruleset]
    fought = fight(CoreFront(session), session.mechanics, duel)
    assert fought.moves, "the two closed by moves"
    assert fought.charges and "charges" in fought.charges[-1]
    assert all("Forced" not in line for line in (*fought.moves, *fought.charges))
    # the melee: its exact odds sum to 1, and what was rolled is one of them
    assert sum(p for _, p in fought.odds) == 1 and len(fought.odds) > 1
    [result] = [
        line.removeprefix("Result: ").removesuffix(".")
        for line in fought.melee.splitlines()
        if line.startswith("Result: ")
    ]
    assert result in {r for r, p in fought.odds if p > 0}, (result, fought.odds)
    state = session.state
    a, b = unit_named(state, duel.roman), unit_named(state, duel.carthaginian)
    assert (
        a.status != session.initial.unit(a.id).status
        or b.status != session.initial.unit(b.id).status
    )
    # undo restores the state before the melee, redo reproduces it, replay rebuilds it
    after = session.state
    session.undo()
    assert session.state != after
    session.redo()
    assert session.state == after
    assert session.replay() == after
