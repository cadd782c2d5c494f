"""Moving units on the table: a move is a path of legs checked by the ruleset's mechanics
(:meth:`~app.rules.movement.MovementRules.check_move`) and refused, with the rule it
breaks, unless the player forces it -- and then the log says what was overridden."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from app.core.battle.base import (
    BattleCommand,
    CommandError,
    Context,
    Executed,
    ended,
    find_unit,
    unit_symbol,
)
from app.core.battle.state import BattleState, BattleUnit
from app.rules.movement import MOVE_REASONS, MoveCheck, MoveReason
from app.rules.paths import Leg, Path, PathError, legs_from_list, legs_to_list, path_text

#: How each reason of moving reads in the log.
VERBS: dict[str, str] = {
    "move": "moves",
    "charge": "charges",
    "evade": "evades",
    "response": "responds",
    "forced": "is forced back",
    "rout": "routs",
    "pursuit": "pursues",
    "deploy": "deploys",
}


def refusal(who: str, check: MoveCheck, force: bool) -> str | None:
    """Why a checked move is refused (None when it goes ahead): a forbidden breach, or one
    that needs the umpire's confirmation, unless ``force``."""
    if force:
        return None
    forbidden = [b for b in check.breaches if b.severity == "forbidden"]
    if forbidden:
        more = f" (and {len(forbidden) - 1} more)" if len(forbidden) > 1 else ""
        return f"{who} may not move so: {forbidden[0]}{more}; force it to override"
    confirm = [b for b in check.breaches if b.severity == "confirm"]
    if confirm:
        return f"{who}: the umpire must confirm: {confirm[0]}; force it to confirm"
    return None


def move_lines(
    unit: BattleUnit, check: MoveCheck, legs: tuple[Leg, ...], u: str, verb: str = "moves"
) -> list[str]:
    """The log of a checked move: path, cost against what was left, terrain, overrides."""
    text = f"{unit.name} ({unit.id}) {verb}: {path_text(legs)} ({check.cost:.1f}{u}"
    if len(check.legs) > 1:
        text += " = " + " + ".join(f"{c.cost:.1f}" for c in check.legs)
    if check.allowance is not None and check.remaining is not None:
        text += f"; {max(check.remaining, 0.0):.1f}{u} of its {check.allowance:g}{u} left"
    lines = [text + ")."]
    if check.terrain_crossed:
        crossed = [
            f"{t.kind} {t.piece_id} ({t.note})" if t.note else f"{t.kind} {t.piece_id}"
            for t in check.terrain_crossed
        ]
        lines.append("Terrain crossed: " + "; ".join(crossed) + ".")
    for b in check.breaches:
        what = "Forced past" if b.severity == "forbidden" else "Confirmed by the umpire"
        lines.append(f"{what}: {b}.")
    return lines


def apply_move(
    state: BattleState, unit: BattleUnit, check: MoveCheck, *, count: bool = True
) -> BattleState:
    """The state after a checked move: the unit at the end pose, marked ``moved``, its
    cost added to what it has moved this turn (``count``), its leader with it."""
    end = check.end
    moved = replace(
        unit,
        x=end.x,
        y=end.y,
        facing=end.facing % 360,
        moved=unit.moved + check.cost if count else unit.moved,
        status=replace(unit.status, markers=unit.status.markers | {"moved"}),
    )
    state = state.replace_unit(moved)
    leader = state.leader_of(unit.id)
    if leader is not None:
        state = state.replace_leader(replace(leader, x=moved.x, y=moved.y))
    return state


@dataclass(frozen=True)
class MoveUnit(BattleCommand):
    """Move a unit along a path of ``legs`` for a ``reason`` (a move, a charge, an evade,
    ...). The ruleset's mechanics check it; a forbidden move, or one the umpire must
    confirm, is refused naming the rule unless ``force`` (the log then records what was
    overridden). The cost is added to what the unit has moved this turn.

    ``x``, ``y``, ``facing`` without legs is the form every move was stored in before
    moves had paths (:attr:`legacy`): read back and executed exactly as it was, so stored
    battles replay as they were played."""

    kind: ClassVar[str] = "move"
    unit: str = ""
    x: float | None = None
    y: float | None = None
    facing: float | None = None
    legs: tuple[Leg, ...] = ()
    reason: MoveReason = "move"
    force: bool = False

    @property
    def legacy(self) -> bool:
        """The old form: straight to ``x``, ``y``, turning to ``facing``, unchecked."""
        return not self.legs and self.x is not None

    @property
    def label(self) -> str:
        verb = "Move" if self.reason == "move" else self.reason.capitalize()
        return f"{verb} {self.unit}"

    def to_dict(self) -> dict[str, Any]:
        if self.legacy:
            return {
                "kind": self.kind,
                "unit": self.unit,
                "x": self.x,
                "y": self.y,
                "facing": self.facing,
            }
        return {
            "kind": self.kind,
            "unit": self.unit,
            "legs": legs_to_list(self.legs),
            "reason": self.reason,
            "force": self.force,
        }

    @classmethod
    def from_dict(cls, fields: Mapping[str, Any]) -> BattleCommand:
        if "legs" not in fields:
            return cls(**fields)
        data = dict(fields)
        try:
            data["legs"] = legs_from_list(data["legs"])
        except PathError as exc:
            raise ValueError(str(exc)) from None
        return cls(**data)

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        if self.legacy:
            return self._legacy(state, ctx)
        unit = find_unit(state, self.unit)
        if unit.status.eliminated:
            raise CommandError(f"{unit.name} ({unit.id}) is out of the battle")
        if self.reason not in MOVE_REASONS or self.reason == "deploy":
            reasons = ", ".join(r for r in MOVE_REASONS if r != "deploy")
            raise CommandError(f"a move's reason is one of {reasons}, not {self.reason!r}")
        try:
            path = Path(self.legs)
        except PathError as exc:
            raise CommandError(str(exc)) from None
        check = ctx.mechanics.check_move(state.view(), unit.id, path, reason=self.reason)
        why = refusal(f"{unit.name} ({unit.id})", check, self.force)
        if why is not None:
            raise CommandError(why)
        lines = move_lines(unit, check, self.legs, unit_symbol(ctx), VERBS[self.reason])
        return Executed(apply_move(state, unit, check), tuple(lines))

    def _legacy(self, state: BattleState, ctx: Context) -> Executed:
        """The old form, executed exactly as it was (its results are in stored battles'
        digests): straight to the point, unchecked but for the table's edge, not counted in
        the unit's ``moved``."""
        if self.x is None or self.y is None:
            raise CommandError("a move needs a path, or a point to move to")
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
