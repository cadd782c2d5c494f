"""What a battle came to: each side's losses, the leaders' fates and the winner, as a plain
value. The battle window shows it (the Sides dock while fighting, the result at the end),
the battle report prints it, and campaigns read it to carry losses and leaders forward.

Losses are read from the units' state, never estimated: strength lost (figures or bases,
as the ruleset counts them: :attr:`Mechanics.strength_unit`), units out of the battle,
hits, rings and DPs standing.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.battle.state import BattleState
from app.rules.mechanics import Mechanics, Side


@dataclass(frozen=True)
class SideLosses:
    """One side's losses so far, from its units' state."""

    side: Side
    name: str
    units: int
    units_out: int
    strength_start: int
    strength_lost: int
    hits: int
    rings: int
    dps: int

    @property
    def units_left(self) -> int:
        return self.units - self.units_out


@dataclass(frozen=True)
class LeaderFate:
    id: str
    side: Side
    name: str
    rank: str
    status: str
    wounds: int
    attached_to: str | None


@dataclass(frozen=True)
class BattleSummary:
    """``over`` is False while the battle goes on (then ``winner`` and ``reason`` are
    None); ``winner`` is None for a draw."""

    over: bool
    winner: Side | None
    reason: str | None
    turn: int
    strength_unit: str
    sides: tuple[SideLosses, SideLosses]
    leaders: tuple[LeaderFate, ...]

    @property
    def headline(self) -> str:
        if not self.over:
            return f"The battle goes on (turn {self.turn})"
        if self.winner is None:
            return f"A draw ({self.reason})"
        return f"{self.sides[self.winner].name} wins ({self.reason})"


def side_losses(state: BattleState, side: Side) -> SideLosses:
    mine = [u for u in state.units if u.side == side]
    return SideLosses(
        side=side,
        name=state.sides[side].name,
        units=len(mine),
        units_out=sum(1 for u in mine if u.status.eliminated),
        strength_start=sum(u.status.start_strength for u in mine),
        strength_lost=sum(
            u.status.start_strength - (0 if u.status.eliminated else u.status.strength)
            for u in mine
        ),
        hits=sum(u.status.hits for u in mine if not u.status.eliminated),
        rings=sum(u.status.rings for u in mine if not u.status.eliminated),
        dps=sum(u.status.dps for u in mine if not u.status.eliminated),
    )


def battle_summary(state: BattleState, mechanics: Mechanics) -> BattleSummary:
    """The battle's result as it stands (``over`` once a victory rule or the players have
    ended it)."""
    result = state.result
    return BattleSummary(
        over=result is not None,
        winner=None if result is None else result.winner,
        reason=None if result is None else result.reason,
        turn=state.turn,
        strength_unit=mechanics.strength_unit,
        sides=(side_losses(state, 0), side_losses(state, 1)),
        leaders=tuple(
            LeaderFate(ld.id, ld.side, ld.name, ld.rank, ld.status, ld.wounds, ld.attached_to)
            for ld in state.leaders
        ),
    )
