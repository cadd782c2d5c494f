"""Moving units on the table."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import ClassVar

from app.core.battle.base import (
    BattleCommand,
    CommandError,
    Context,
    Executed,
    ended,
    find_unit,
    unit_symbol,
)
from app.core.battle.state import BattleState


@dataclass(frozen=True)
class MoveUnit(BattleCommand):
    """Move (and turn) a unit; the log gives the distance against its allowance."""

    kind: ClassVar[str] = "move"
    unit: str = ""
    x: float = 0.0
    y: float = 0.0
    facing: float | None = None

    @property
    def legacy(self) -> bool:
        """The form every move was stored in before moves had paths: straight to ``x``,
        ``y``, turning to ``facing``, unchecked. Kept so stored battles replay as played."""
        return True

    @property
    def label(self) -> str:
        return f"Move {self.unit}"

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        for what, value in (("x", self.x), ("y", self.y), ("facing", self.facing)):
            if value is not None and not math.isfinite(value):
                # a NaN facing once entered a battle and broke its redo and replay for good
                raise CommandError(f"the {what} must be a finite number, not {value}")
        unit = find_unit(state, self.unit)
        if unit.status.eliminated:
            raise CommandError(f"{unit.name} ({unit.id}) is out of the battle")
        if not (0 <= self.x <= state.width and 0 <= self.y <= state.height):
            raise CommandError(
                f"({self.x:g}, {self.y:g}) is off the table (0-{state.width:g} by "
                f"0-{state.height:g})"
            )
        distance = math.hypot(self.x - unit.x, self.y - unit.y)
        facing = unit.facing if self.facing is None else self.facing % 360
        moved = replace(
            unit,
            x=self.x,
            y=self.y,
            facing=facing,
            status=replace(unit.status, markers=unit.status.markers | {"moved"}),
        )
        state = state.replace_unit(moved)
        leader = state.leader_of(unit.id)
        if leader is not None:
            state = state.replace_leader(replace(leader, x=self.x, y=self.y))
        u = unit_symbol(ctx)
        allowance = ctx.mechanics.move_allowance(state.combatant(unit), state.view())
        text = f"{unit.name} ({unit.id}) moves {distance:.1f}{u}"
        if facing != unit.facing:
            text += f" and turns to face {facing:.0f} degrees"
        if allowance is not None:
            text += f" of its {allowance:g}{u}"
            if distance > allowance + 1e-9:
                text += f": {distance - allowance:.1f}{u} BEYOND its allowance"
        return Executed(state, (text + ".",))
