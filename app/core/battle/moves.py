"""Moving units on the table: a move is a path of legs checked by the ruleset's mechanics
(:meth:`~app.rules.movement.MovementRules.check_move`) and refused, with the rule it
breaks, unless the player forces it -- and then the log says what was overridden."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from app.core.battle.apply import apply_resolution
from app.core.battle.base import (
    BattleCommand,
    CommandError,
    Context,
    Executed,
    ended,
    find_unit,
    unit_symbol,
    unit_words,
)
from app.core.battle.state import BattleState, BattleUnit
from app.rules.contact import CONTACT_HOWS, ContactHow
from app.rules.geometry import Footprint
from app.rules.mechanics import Mechanics, Resolution
from app.rules.movement import MOVE_REASONS, Breach, MoveCheck, MoveReason
from app.rules.paths import Leg, Path, PathError, legs_from_list, legs_to_list, path_text
from app.rules.table import coordinate_problem

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


def refusal(
    who: str, breaches: Sequence[Breach], force: bool, doing: str = "move so"
) -> str | None:
    """Why a checked move is refused (None when it goes ahead): a forbidden breach, or one
    that needs the umpire's confirmation, unless ``force``."""
    if force:
        return None
    forbidden = [b for b in breaches if b.severity == "forbidden"]
    if forbidden:
        more = f" (and {len(forbidden) - 1} more)" if len(forbidden) > 1 else ""
        return f"{who} may not {doing}: {forbidden[0]}{more}; force it to override"
    confirm = [b for b in breaches if b.severity == "confirm"]
    if confirm:
        return f"{who}: the umpire must confirm: {confirm[0]}; force it to confirm"
    return None


def move_lines(
    unit: BattleUnit, check: MoveCheck, legs: tuple[Leg, ...], u: str, verb: str = "moves"
) -> list[str]:
    """The log of a checked move: path, cost against what was left, terrain, overrides."""
    return [*_path_line(unit, check, legs, u, verb), *override_lines(check.breaches)]


def override_lines(breaches: Sequence[Breach]) -> list[str]:
    """What a forced command overrode, one line each."""
    out = []
    for b in breaches:
        what = "Forced past" if b.severity == "forbidden" else "Confirmed by the umpire"
        out.append(f"{what}: {b}.")
    return out


def _path_line(
    unit: BattleUnit, check: MoveCheck, legs: tuple[Leg, ...], u: str, verb: str
) -> list[str]:
    text = f"{unit.name} ({unit.id}) {verb}: {path_text(legs)} ({check.cost:.1f}{u}"
    if len(check.legs) > 1:
        text += " = " + " + ".join(f"{c.cost:.1f}" for c in check.legs)
    if check.allowance is not None and check.remaining is not None:
        text += f"; {max(check.remaining, 0.0):.1f}{u} of its {check.allowance:g}{u} left"
    lines = [text + ")."]
    if check.terrain_crossed:
        crossed = [
            f"{t.words()} ({t.note})" if t.note else t.words() for t in check.terrain_crossed
        ]
        lines.append("Terrain crossed: " + "; ".join(crossed) + ".")
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


def after_move(
    state: BattleState, unit_id: str, check: MoveCheck, mech: Mechanics
) -> tuple[BattleState, list[str]]:
    """The state after the ruleset's :meth:`~app.rules.movement.MovementRules.on_move` for
    a move just made (nothing when it has nothing to say), and its log lines."""
    res = mech.on_move(state.view(), unit_id, check)
    if res == Resolution():
        return state, []
    return apply_resolution(state, res, None, None, mech)


@dataclass(frozen=True)
class MoveUnit(BattleCommand):
    """Move a unit along a path of ``legs`` for a ``reason`` (a move, a charge, an evade,
    ...). The ruleset's mechanics check it; a forbidden move, or one the umpire must
    confirm, is refused naming the rule unless ``force`` (the log then records what was
    overridden). The cost is added to what the unit has moved this turn; then the ruleset's
    :meth:`~app.rules.movement.MovementRules.on_move` applies.

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

    def title(self, state: BattleState) -> str:
        verb = "Move" if self.reason == "move" else self.reason.capitalize()
        return f"{verb} {unit_words(state, self.unit)}"

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
        why = refusal(f"{unit.name} ({unit.id})", check.breaches, self.force)
        if why is not None:
            raise CommandError(why)
        lines = move_lines(unit, check, self.legs, unit_symbol(ctx), VERBS[self.reason])
        state, more = after_move(apply_move(state, unit, check), unit.id, check, ctx.mechanics)
        return Executed(state, (*lines, *more))

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


# --------------------------------------------------------------------------- contact


_HOW_WORDS = {
    "front": "front to front",
    "flank": "to the flank",
    "rear": "to the rear",
    "corner": "corner to corner",
}


@dataclass(frozen=True)
class Charge(BattleCommand):
    """Charge into contact: ``unit`` moves along a legal path until it touches ``target``,
    aligned as the ruleset says (:meth:`~app.rules.contact.ContactRules.contact`), then the
    ruleset's :meth:`~app.rules.movement.MovementRules.on_move` and
    :meth:`~app.rules.contact.ContactRules.on_contact` apply. Made with
    :func:`plan_charge`, the command holds the path found, so its replay does not depend
    on how contact is searched for; without ``legs`` it searches when executed. Either way
    the charge passes exactly the ruleset's checks of a charge
    (:meth:`~app.rules.contact.ContactRules.check_charge`: the move, and who may charge
    whom); one it forbids is refused naming the rule unless ``force``."""

    kind: ClassVar[str] = "charge"
    unit: str = ""
    target: str = ""
    legs: tuple[Leg, ...] = ()
    how: str = ""
    force: bool = False

    @property
    def label(self) -> str:
        return f"Charge {self.unit}"

    def title(self, state: BattleState) -> str:
        return f"Charge: {unit_words(state, self.unit)} against {unit_words(state, self.target)}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "unit": self.unit,
            "target": self.target,
            "legs": legs_to_list(self.legs),
            "how": self.how,
            "force": self.force,
        }

    @classmethod
    def from_dict(cls, fields: Mapping[str, Any]) -> BattleCommand:
        data = dict(fields)
        try:
            data["legs"] = legs_from_list(data.get("legs", []))
        except PathError as exc:
            raise ValueError(str(exc)) from None
        return cls(**data)

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        unit, target = find_unit(state, self.unit), find_unit(state, self.target)
        who, whom = f"{unit.name} ({unit.id})", f"{target.name} ({target.id})"
        if unit.status.eliminated:
            raise CommandError(f"{who} is out of the battle")
        mech, view = ctx.mechanics, state.view()
        if self.how and self.how not in CONTACT_HOWS:
            raise CommandError(f"contact is one of {', '.join(CONTACT_HOWS)}, not {self.how!r}")
        if self.legs:
            try:
                path = Path(self.legs)
            except PathError as exc:
                raise CommandError(str(exc)) from None
            check = mech.check_charge(view, unit.id, target.id, path)
            breaches = list(check.breaches)
            how: ContactHow = _how(self.how)
        else:
            contact = mech.contact(view, unit.id, target.id)
            if contact.path is None or contact.check is None:
                reason = contact.breaches[0] if contact.breaches else "no path found"
                raise CommandError(f"{who} cannot reach {whom}: {reason}")
            path, check, how = contact.path, contact.check, contact.how
            breaches = list(contact.breaches)
        why = refusal(who, breaches, self.force, doing=f"charge {whom}")
        if why is not None:
            raise CommandError(why)
        u = unit_symbol(ctx)
        lines = [
            f"{who} charges {whom}: contact {_HOW_WORDS.get(how, how)}.",
            *_path_line(unit, check, path.legs, u, "moves"),
            *override_lines(breaches),
        ]
        state, moved = after_move(apply_move(state, unit, check), unit.id, check, mech)
        res = mech.on_contact(state.view(), unit.id, target.id, how)
        state, more = apply_resolution(state, res, None, None, mech)
        return Executed(state, (*lines, *moved, *more))


def _how(text: str) -> ContactHow:
    for how in CONTACT_HOWS:
        if how == text:
            return how
    return "front"


def plan_charge(
    state: BattleState, mechanics: Mechanics, unit: str, target: str, *, force: bool = False
) -> Charge:
    """A :class:`Charge` holding the path the mechanics find into contact (so the stored
    command replays the same path whatever later versions search); :class:`CommandError`
    when there is no path at all."""
    u, t = find_unit(state, unit), find_unit(state, target)
    contact = mechanics.contact(state.view(), u.id, t.id)
    if contact.path is None:
        reason = contact.breaches[0] if contact.breaches else "no path found"
        raise CommandError(f"{u.name} ({u.id}) cannot reach {t.name} ({t.id}): {reason}")
    return Charge(u.id, t.id, contact.path.legs, contact.how, force)


# --------------------------------------------------------------------------- deployment


@dataclass(frozen=True)
class Deploy(BattleCommand):
    """Place a unit (centre ``x``, ``y``, facing ``facing`` or as it stands) inside its
    side's deployment zone, while deploying is open
    (:meth:`~app.rules.contact.ContactRules.check_deploy`); refused naming the rule unless
    ``force``. Deploying is not moving: nothing is added to the unit's moved distance."""

    kind: ClassVar[str] = "deploy"
    unit: str = ""
    x: float = 0.0
    y: float = 0.0
    facing: float | None = None
    force: bool = False

    @property
    def label(self) -> str:
        return f"Deploy {self.unit}"

    def title(self, state: BattleState) -> str:
        return f"Deploy {unit_words(state, self.unit)}"

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        for what, value in (("x", self.x), ("y", self.y), ("facing", self.facing)):
            if value is not None:
                problem = coordinate_problem(f"the {what}", value)
                if problem is not None:
                    raise CommandError(problem)
        unit = find_unit(state, self.unit)
        who = f"{unit.name} ({unit.id})"
        facing = unit.facing if self.facing is None else self.facing % 360
        pose = Footprint(float(self.x), float(self.y), facing, unit.width, unit.depth)
        breaches = ctx.mechanics.check_deploy(state.view(), unit.id, pose)
        why = refusal(who, breaches, self.force, doing="deploy there")
        if why is not None:
            raise CommandError(why)
        placed = replace(unit, x=pose.x, y=pose.y, facing=facing)
        state = state.replace_unit(placed)
        leader = state.leader_of(unit.id)
        if leader is not None:
            state = state.replace_leader(replace(leader, x=placed.x, y=placed.y))
        line = f"{who} deploys at ({pose.x:g}, {pose.y:g}) facing {facing:g} degrees."
        return Executed(state, (line, *override_lines(breaches)))


MOVE_COMMANDS: tuple[type[BattleCommand], ...] = (MoveUnit, Charge, Deploy)
