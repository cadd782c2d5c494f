"""A few steps of a battle between a ruleset's two ready armies, played the same way through
any front end: the core (a :class:`BattleSession`) or ``castra battle``.

Two units that stand face to face across the table (:data:`DUELS`) close in: in each phase
the side in play (both, where the rules name none) activates its unit where the ruleset
activates units (GSB) and moves it forward by the longest
legal distance it finds (the whole allowance, or just short of the distances the rules stop
at), rolling its dice move first where the ruleset moves by dice; when the rules allow a
charge into contact, it charges; once the two touch, the melee's exact odds are read and the
melee is fought. Every move, charge and melee goes through the ruleset's own checks, never
forced: a refusal changes nothing, and the next phase is tried."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from app.core.battle import BattleState, BattleUnit
from app.rules.geometry import edge_distance
from app.rules.mechanics import Mechanics

#: units closer than this are in contact
TOUCH = 0.01


@dataclass(frozen=True)
class Duel:
    """The dice seed, the Roman and the Carthaginian unit (by name) that meet, and leaders
    (roster id, unit name) each side attaches to its unit first."""

    seed: int
    roman: str
    carthaginian: str
    attach: tuple[tuple[str, str], ...] = ()


#: Each ruleset's pair: units of the two armies' front lines that stand face to face.
DUELS: dict[str, Duel] = {
    "d3-ancients": Duel(7, "Italian horse (Laelius)", "Carthaginian horse"),
    "grown-slightly-bald": Duel(
        7, "Roman and allied horse (heavy cavalry) 1", "Numidian light cavalry"
    ),
    # the legion against the Spaniards Hannibal stands with: his die of death is in the odds
    "leg-vi-carthago": Duel(7, "Second legion", "Spanish scutarii"),
    "mwan90": Duel(1, "Roman cavalry (equites)", "Spanish and Gallic cavalry 2"),
    # each commander joins his battlegroup's unit, so it is in command wherever it goes
    "quincunx": Duel(
        1,
        "Hastati (right) 2",
        "Celtic Swordsmen (right) 1",
        (
            ("right_legion_commander", "Hastati (right) 2"),
            ("right_infantry_commander", "Celtic Swordsmen (right) 1"),
        ),
    ),
}


class Front(Protocol):
    """What the fight asks of a front end; each command returns None when refused."""

    def state(self) -> BattleState: ...

    def move(self, unit: str, distance: float) -> str | None: ...

    def charge(self, unit: str, target: str) -> str | None: ...

    def act(self, action: str, actor: str, target: str | None = None) -> str | None: ...

    def odds(self, actor: str, target: str) -> list[tuple[str, Fraction]] | None: ...

    def attach(self, leader: str, unit: str) -> str | None: ...

    def next(self) -> str: ...


@dataclass
class Fought:
    """What the fight did: its moves and charges (the log lines), the odds read before the
    melee and the melee's lines."""

    moves: list[str] = field(default_factory=list)
    charges: list[str] = field(default_factory=list)
    odds: list[tuple[str, Fraction]] = field(default_factory=list)
    melee: str = ""
    phases: int = 0


def unit_named(state: BattleState, name: str) -> BattleUnit:
    return next(u for u in state.units if u.name == name)


def _distances(allowance: float, gap: float) -> list[float]:
    """Forward distances to try, longest first: the whole allowance, or up to 8, 4 or half
    an inch short of the enemy (where moves must stop: Leg VI's march move and its 4"), or
    less."""
    wanted = [allowance, gap - 8.05, gap - 4.0, gap - 4.001, gap - 4.05, gap - 0.5, 3.0, 1.0]
    return sorted({min(d, allowance) for d in wanted if d > 0.01}, reverse=True)


def _advance(front: Front, mech: Mechanics, mover: BattleUnit, gap: float) -> str | None:
    state = front.state()
    allowance = mech.move_allowance(state.combatant(mover), state.view())
    if allowance:
        for d in _distances(allowance, gap):
            done = front.move(mover.id, d)
            if done is not None:
                return done
    if "dice_move" in {a.key for a in mech.actions()} and front.act("dice_move", mover.id):
        rolled = front.state().unit(mover.id).status.extra.get("rolled_move", 0)
        for d in _distances(float(rolled), gap):
            done = front.move(mover.id, d)
            if done is not None:
                return done
    return None


def fight(front: Front, mech: Mechanics, duel: Duel, limit: int = 150) -> Fought:
    """Close the duel's two units and fight one melee (AssertionError when the limit of
    phases passes first)."""
    got = Fought()
    start = front.state()
    for leader, name in duel.attach:
        side = "AB"[unit_named(start, name).side]
        assert front.attach(f"{side}-{leader}", unit_named(start, name).id) is not None
    for phase in range(limit):
        got.phases = phase
        state = front.state()
        view = state.view()
        a, b = unit_named(state, duel.roman), unit_named(state, duel.carthaginian)
        in_play = mech.side_in_play(view)
        pairs = [(a, b), (b, a)] if in_play != 1 else [(b, a), (a, b)]
        gap = edge_distance(a.footprint, b.footprint)
        for mover, other in pairs:
            if (  # GSB: a unit acts once activated (its turn sequence, issue 25)
                "activate" in {x.key for x in mech.actions()}
                and mover.side == in_play
                and not mover.status.has("activated")
                and front.act("activate", mover.id) is not None
            ):
                state = front.state()
                view = state.view()
                mover = state.unit(mover.id)
            if gap < TOUCH:
                odds = front.odds(mover.id, other.id)
                if odds is None:
                    continue
                melee = front.act("melee", mover.id, other.id)
                if melee is not None:
                    got.odds, got.melee = odds, melee
                    return got
                continue
            if in_play is not None and mover.side != in_play:
                continue
            if mech.may_move(view, mover.id, "charge") is None:
                charged = front.charge(mover.id, other.id)
                if charged is not None:
                    got.charges.append(charged)
                    break
            if mech.may_move(view, mover.id, "move") is None:
                moved = _advance(front, mech, mover, gap)
                if moved is not None:
                    got.moves.append(moved)
                    break
        front.next()
    raise AssertionError(f"{duel.roman} and {duel.carthaginian} did not fight in {limit} phases")
