"""Who moves now and what may move, as the Turn dock says it: the ruleset's own answer
(:meth:`~app.rules.movement.MovementRules.side_to_move`, else
:meth:`~app.rules.mechanics.Mechanics.side_in_play`), and for each side how many of its units
``may_move`` lets move now and which rules hold the others (issue 23: the dock said "In play:
both" while a drag was refused because it was the other side's move)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from app.core.battle.state import BattleState
from app.rules.mechanics import Mechanics


@dataclass(frozen=True)
class SideMoves:
    name: str
    #: units still in the battle
    units: int
    #: of those, how many may move now
    may_move: int
    #: the rules holding the others, with how many each holds, most first
    held: tuple[tuple[str, int], ...]

    def words(self) -> str:
        if self.units == 0:
            return f"{self.name}: no units left"
        if self.may_move == self.units:
            return f"{self.name}: all {self.units} units may move"
        if self.may_move == 0:
            head = f"{self.name}: none of {self.units} units may move"
        else:
            head = f"{self.name}: {self.may_move} of {self.units} units may move"
        rules = "; ".join(f"{rule} ({n})" for rule, n in self.held)
        return f"{head} ({rules})" if rules else head


@dataclass(frozen=True)
class WhoMoves:
    #: the headline: "Carthage moves", "Both sides may move", "Deployment: ..."
    headline: str
    sides: tuple[SideMoves, SideMoves] | None = None
    #: deployment is still open (turn 1's first phase): units may be placed in their zones
    deploying: bool = False


def who_moves(state: BattleState, mech: Mechanics) -> WhoMoves:
    """Who moves in ``state`` and what each side may move now."""
    names = [s.name for s in state.sides]
    if state.result is not None:
        return WhoMoves(f"The battle is over: {state.result.reason}")
    if not state.started:
        return WhoMoves(
            "Deployment: both sides place their units in their zones, then start the battle"
        )
    view = state.view()
    mover = mech.side_to_move(view)
    if mover is None:
        mover = mech.side_in_play(view)
    tallies: list[SideMoves] = []
    for side in (0, 1):
        live = [u for u in state.units if u.side == side and not u.status.eliminated]
        held: Counter[str] = Counter()
        free = 0
        for u in live:
            breach = mech.may_move(view, u.id, "move")
            if breach is None:
                free += 1
            else:
                held[breach.rule] += 1
        tallies.append(SideMoves(names[side], len(live), free, tuple(held.most_common())))
    if mover is not None:
        headline = f"{names[mover]} moves now"
    elif all(t.may_move for t in tallies):
        headline = "Both sides may move"
    elif any(t.may_move for t in tallies):
        able = next(t for t in tallies if t.may_move)
        headline = f"{able.name} may move"
    else:
        headline = "No unit may move in this phase"
    first = next((u for u in state.units if not u.status.eliminated), None)
    deploying = first is not None and mech.may_deploy(view, first.id) is None
    return WhoMoves(headline, (tallies[0], tallies[1]), deploying)
