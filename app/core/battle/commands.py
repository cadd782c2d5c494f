"""Battle commands: every change to a battle is one of these (Unknown Horizons routes every
game-state change through its command package the same way).

A command is a small frozen value that can be written to the store and read back. Executing
it against a state with a :class:`Context` (the ruleset's mechanics and the dice) returns the
new state and the log lines in words a player understands; the session records the rolls.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

from app.core.battle.apply import apply_resolution, check_victory, describe_unit
from app.core.battle.base import (
    MAX_OPTION,
    BattleCommand,
    CommandError,
    Context,
    Executed,
    apply_hook,
    ended,
    find_unit,
    leader_words,
    option_value_problem,
    phase_name,
    unit_symbol,
    unit_words,
    when,
)
from app.core.battle.group import GroupMove
from app.core.battle.moves import MOVE_COMMANDS, MoveUnit
from app.core.battle.state import BattleState, BattleUnit
from app.core.battle.terrain import TERRAIN_COMMANDS
from app.rules.inputs import control_problem
from app.rules.mechanics import (
    ActionSpec,
    Mechanics,
    NotImplementedRule,
    Scalar,
    Side,
    Situation,
    Victory,
)

__all__ = [
    "COMMANDS",
    "MAX_OPTION",
    "Act",
    "Adjust",
    "AttachLeader",
    "BattleCommand",
    "CommandError",
    "Context",
    "EndBattle",
    "Executed",
    "MoveUnit",
    "NextPhase",
    "StartBattle",
    "command_from_dict",
    "option_value_problem",
    "unit_symbol",
]


# --------------------------------------------------------------------------- turn flow


@dataclass(frozen=True)
class StartBattle(BattleCommand):
    """The first command of every battle: the ruleset's set-up (decks, ...) and the first
    phase of turn 1."""

    kind: ClassVar[str] = "start"

    @property
    def label(self) -> str:
        return "Start battle"

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        if state.started:
            raise CommandError("the battle has already started")
        state = replace(state, started=True)
        lines = [f"The battle begins: {state.sides[0].name} against {state.sides[1].name}."]
        state, more = apply_hook(state, ctx.mechanics.start_battle(state.view(), ctx.dice), ctx)
        lines += more
        lines.append(f"{when(state, ctx)}: {phase_name(ctx, state.phase)}.")
        state, more = apply_hook(state, ctx.mechanics.begin_phase(state.view(), ctx.dice), ctx)
        lines += more
        return Executed(state, tuple(lines))


def _unmoved(unit: BattleUnit) -> BattleUnit:
    """``unit`` as a new round or turn finds it: no ``moved`` marker, no distance moved. A
    unit that has neither is kept as it is (the same object: what is made of it once, its
    canonical JSON and its view, holds), not rebuilt equal."""
    if "moved" not in unit.status.markers and not unit.moved:
        return unit
    return replace(
        unit, status=replace(unit.status, markers=unit.status.markers - {"moved"}), moved=0.0
    )


@dataclass(frozen=True)
class NextPhase(BattleCommand):
    """End the current phase and begin the next (a new turn after the last phase). A new
    round or turn clears every unit's ``moved`` marker and the distance it has moved."""

    kind: ClassVar[str] = "next"

    @property
    def label(self) -> str:
        return "Next phase"

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        if not state.started:
            raise CommandError("the battle has not started")
        lines: list[str] = []
        state, more = apply_hook(state, ctx.mechanics.end_phase(state.view(), ctx.dice), ctx)
        lines += more
        state, more = check_victory(state, ctx.mechanics)
        lines += more
        if state.result is None:
            count = len(ctx.ruleset.turn.phases)
            if state.phase + 1 < count:
                state = replace(state, phase=state.phase + 1)
            else:
                if state.round < ctx.mechanics.rounds_per_turn:
                    state = replace(state, round=state.round + 1, phase=0)
                else:
                    state = replace(state, turn=state.turn + 1, round=1, phase=0)
                state = replace(state, units=tuple(_unmoved(u) for u in state.units))
            lines.append(f"{when(state, ctx)}: {phase_name(ctx, state.phase)}.")
            state, more = apply_hook(state, ctx.mechanics.begin_phase(state.view(), ctx.dice), ctx)
            lines += more
        state, more = check_victory(state, ctx.mechanics)
        return Executed(state, tuple(lines + more))


@dataclass(frozen=True)
class EndBattle(BattleCommand):
    """Declare the result (a ruleset with no victory rule, or the players agree)."""

    kind: ClassVar[str] = "end"
    winner: Side | None = None
    reason: str = "declared by the players"

    @property
    def label(self) -> str:
        return "End battle"

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        problem = control_problem("the reason", self.reason)
        if problem or len(self.reason) > 500:
            raise CommandError(problem or "the reason is too long (at most 500 characters)")
        who = "a draw" if self.winner is None else f"{state.sides[self.winner].name} wins"
        state = replace(state, result=Victory(self.winner, self.reason))
        return Executed(state, (f"The battle ends: {who} ({self.reason}).",))


# --------------------------------------------------------------------------- units


@dataclass(frozen=True)
class Act(BattleCommand):
    """A ruleset action (melee, shoot, evade, control test, ...) resolved by the mechanics."""

    kind: ClassVar[str] = "act"
    action: str = ""
    actor: str | None = None
    target: str | None = None
    side: Side | None = None
    options: Mapping[str, Scalar] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.action.replace("_", " ").capitalize()

    def title(self, state: BattleState) -> str:
        words = self.label
        if self.actor is not None:
            words += f": {unit_words(state, self.actor)}"
        if self.target is not None:
            words += f" against {unit_words(state, self.target)}"
        elif self.actor is None and self.side is not None:
            words += f" ({state.sides[self.side].name})"
        return words

    def situation(self, state: BattleState, mech: Mechanics) -> Situation:
        spec = mech.action(self.action)
        actor = target = None
        if spec.targets in ("unit", "pair"):
            if self.actor is None:
                raise CommandError(f"{spec.label} needs a unit")
            actor = state.combatant(find_unit(state, self.actor))
        elif spec.targets == "side" and self.actor is not None:
            # a side's action may name the unit it is for (GSB: the unit activated)
            actor = state.combatant(find_unit(state, self.actor))
            if self.side is not None and self.side != actor.side:
                raise CommandError(
                    f"{actor.name} ({actor.unit_id}) is not of {state.sides[self.side].name}"
                )
        if spec.targets == "pair":
            if self.target is None:
                raise CommandError(f"{spec.label} needs a target unit")
            target = state.combatant(find_unit(state, self.target))
        side = self.side
        if side is None and actor is not None:
            side = actor.side
        if spec.targets == "side" and side is None:
            raise CommandError(f"{spec.label} needs a side (0 or 1) or a unit of that side")
        for key, value in self.options.items():
            problem = option_value_problem(key, value)
            if problem:
                raise CommandError(problem)
        known = {o.key for o in spec.options}
        unknown = sorted(set(self.options) - known)
        if unknown:
            raise CommandError(
                f"{spec.label} has no option {', '.join(unknown)} "
                f"(options: {', '.join(sorted(known)) or 'none'})"
            )
        sit = Situation(actor=actor, target=target, side=side, view=state.view())
        options = {**spec.defaults(), **mech.derive_options(self.action, sit), **self.options}
        return replace(sit, options=options)

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        mech = ctx.mechanics
        try:
            sit = self.situation(state, mech)
        except KeyError as exc:
            raise CommandError(str(exc.args[0])) from None
        except NotImplementedRule as exc:
            raise CommandError(str(exc)) from None
        for c in (sit.actor, sit.target):
            if c is not None and c.status.eliminated:
                raise CommandError(f"{c.name} ({c.unit_id}) is out of the battle")
        spec = mech.action(self.action)
        head = f"{spec.label}"
        if sit.actor is not None:
            head += f": {describe_unit(sit.actor)}"
        if sit.target is not None:
            head += f" against {describe_unit(sit.target)}"
        elif sit.actor is None and sit.side is not None:
            head += f" ({state.sides[sit.side].name})"
        changed = {k: v for k, v in sit.options.items() if v != spec.defaults().get(k)}
        if changed:
            head += (
                " [" + ", ".join(_option_words(spec, k, changed[k]) for k in sorted(changed)) + "]"
            )
        try:
            res = mech.resolve(self.action, sit, ctx.dice)
        except NotImplementedRule as exc:
            raise CommandError(f"not implemented: {exc}") from None
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        state, lines = apply_resolution(
            state, res, self.actor if sit.actor else None, self.target, mech
        )
        state, more = check_victory(state, mech)
        return Executed(state, (head + ".", *lines, *more), res.outcome)


def _option_words(spec: ActionSpec, key: str, value: Scalar) -> str:
    """An option as the Actions dock shows it ("Who charged: none", "Flank: yes"), not by
    its data key ("charge=none"); the key where the action has no such option."""
    try:
        label = spec.option(key).label
    except KeyError:
        label = key
    if label.endswith(")") and " (" in label:  # the dock's hint: "(0 = from formation)"
        label = label[: label.rindex(" (")]
    words = ("yes" if value else "no") if isinstance(value, bool) else str(value)
    return f"{label}: {words}"


#: the largest strength, hits, rings or DPs a unit can be set to by hand (no unit has more
#: than 100,000 figures; the window's field goes as far)
MAX_ADJUST = 100_000
#: the longest marker name
MAX_MARKER = 64


@dataclass(frozen=True)
class Adjust(BattleCommand):
    """Correct a unit's state by hand (the table is the authority): strength, hits, rings,
    DPs, or a marker added (``+shaken``) or removed (``-shaken``). A state the rules do not
    allow (:meth:`Mechanics.status_problem`: more bases than the unit began with, a GSB base
    with more hits than its hit points) is refused and the battle is unchanged."""

    kind: ClassVar[str] = "adjust"
    unit: str = ""
    field: Literal["strength", "hits", "rings", "dps", "marker"] = "strength"
    value: str = ""

    @property
    def label(self) -> str:
        return f"Adjust {self.unit}"

    def title(self, state: BattleState) -> str:
        return f"Adjust {unit_words(state, self.unit)}: {self.field} {self.value}"

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        unit = find_unit(state, self.unit)
        status = unit.status
        if self.field == "marker":
            if len(self.value) < 2 or self.value[0] not in "+-":
                raise CommandError("a marker is given as +name or -name")
            name = self.value[1:]
            bad = control_problem("a marker", name)
            if bad is not None:
                raise CommandError(bad)
            if len(name) > MAX_MARKER:
                raise CommandError(f"a marker is at most {MAX_MARKER} characters")
            markers = status.markers | {name} if self.value[0] == "+" else status.markers - {name}
            new = replace(status, markers=markers)
            text = f"{'adds' if self.value[0] == '+' else 'removes'} marker {name}"
        else:
            try:
                number = int(self.value)
            except ValueError:
                raise CommandError(f"{self.field} must be a whole number") from None
            if number < 0:
                raise CommandError(f"{self.field} cannot be negative")
            if number > MAX_ADJUST:
                raise CommandError(
                    f"{self.field} {number:,} is out of range (at most {MAX_ADJUST:,})"
                )
            old = getattr(status, self.field)
            changes: dict[str, Any] = {self.field: number}
            new = replace(status, **changes)
            if self.field == "strength":
                new = replace(new, eliminated=number == 0)
            text = f"sets {self.field} from {old} to {number}"
        problem = ctx.mechanics.status_problem(unit.troop, new)
        if problem is not None:
            raise CommandError(f"{unit.name} ({unit.id}): {problem}")
        state = state.replace_unit(replace(unit, status=new))
        return Executed(state, (f"By hand: {unit.name} ({unit.id}) {text}.",))


@dataclass(frozen=True)
class AttachLeader(BattleCommand):
    """Attach a leader to a unit of his side, or detach him (``unit`` None)."""

    kind: ClassVar[str] = "attach"
    leader: str = ""
    unit: str | None = None

    @property
    def label(self) -> str:
        return "Attach leader" if self.unit else "Detach leader"

    def title(self, state: BattleState) -> str:
        who = leader_words(state, self.leader)
        if self.unit is None:
            return f"Detach {who}"
        return f"Attach {who} to {unit_words(state, self.unit)}"

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        try:
            leader = state.leader(self.leader)
        except KeyError as exc:
            raise CommandError(str(exc.args[0])) from None
        if not leader.active:
            raise CommandError(f"{leader.name} is {leader.status}")
        if self.unit is None:
            state = state.replace_leader(replace(leader, attached_to=None))
            return Executed(state, (f"{leader.name} leaves his unit.",))
        unit = find_unit(state, self.unit)
        if unit.side != leader.side:
            raise CommandError(f"{leader.name} cannot join an enemy unit")
        state = state.replace_leader(replace(leader, attached_to=unit.id, x=unit.x, y=unit.y))
        return Executed(state, (f"{leader.name} joins {unit.name} ({unit.id}).",))


_ALL: tuple[type[BattleCommand], ...] = (
    StartBattle,
    NextPhase,
    EndBattle,
    Act,
    Adjust,
    AttachLeader,
    *MOVE_COMMANDS,
    GroupMove,
    *TERRAIN_COMMANDS,
)
COMMANDS: dict[str, type[BattleCommand]] = {c.kind: c for c in _ALL}


def command_from_dict(data: Mapping[str, Any]) -> BattleCommand:
    """Read back a command written by :meth:`BattleCommand.to_dict` (ValueError, or a
    TypeError for a field it does not have, when it cannot be)."""
    kind = data.get("kind")
    cls = COMMANDS.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown battle command {kind!r}")
    fields = {k: v for k, v in data.items() if k != "kind"}
    return cls.from_dict(fields)
