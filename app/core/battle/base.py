"""What every battle command shares: the error a refused command raises, the context it runs
in (ruleset, mechanics, dice), what it returns, and small helpers for the log.

Commands live in :mod:`app.core.battle.commands` (turn flow, actions, corrections) and
beside it by subject; :func:`app.core.battle.commands.command_from_dict` reads any of them
back.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from app.core.battle.apply import apply_resolution
from app.core.battle.state import BattleState, BattleUnit
from app.rules.inputs import control_problem
from app.rules.mechanics import Dice, Mechanics, Outcome, Resolution
from app.rules.ruleset import Ruleset


class CommandError(ValueError):
    """A command that cannot be carried out; the battle is unchanged."""


@dataclass(frozen=True)
class Context:
    ruleset: Ruleset
    mechanics: Mechanics
    dice: Dice


@dataclass(frozen=True)
class Executed:
    state: BattleState
    lines: tuple[str, ...]
    #: what a ruleset action did, as its exact odds count it (None for other commands)
    outcome: Outcome | None = None


class BattleCommand:
    kind: ClassVar[str] = ""

    @property
    def label(self) -> str:
        return self.kind

    def title(self, state: BattleState) -> str:
        """The label in words a player reads, naming units and leaders by name (``state``:
        any state of the battle: names never change in one); :attr:`label` names them by id
        and stays what the log's JSON gives."""
        return self.label

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        out.update({k: v for k, v in vars(self).items()})
        if "options" in out:
            out["options"] = dict(out["options"])
        return out

    @classmethod
    def from_dict(cls, fields: Mapping[str, Any]) -> BattleCommand:
        """Read back :meth:`to_dict` without its ``kind``; commands holding more than plain
        values (paths, terrain) override it."""
        return cls(**fields)


def unit_symbol(ctx: Context) -> str:
    return {"inch": '"', "cm": " cm", "unit_width": " UW"}[ctx.ruleset.meta.unit_of_measure]


def phase_name(ctx: Context, phase: int) -> str:
    phases = ctx.ruleset.turn.phases
    return phases[phase].name if 0 <= phase < len(phases) else f"phase {phase + 1}"


def when(state: BattleState, ctx: Context) -> str:
    if ctx.mechanics.rounds_per_turn > 1:
        return f"Turn {state.turn}, {ctx.mechanics.round_name} {state.round}"
    return f"Turn {state.turn}"


#: Largest magnitude of a whole-number option (a modifier, a count of dice, ...).
MAX_OPTION = 1_000_000


def option_value_problem(key: str, value: object) -> str | None:
    """Why an action's option value cannot enter a battle (a NaN or infinite number, a
    number out of all proportion, text with control characters), or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return f"{key} must be a finite number, not {value}"
    if isinstance(value, int | float) and abs(value) > MAX_OPTION:
        return f"{key} {value:,} is out of range (at most {MAX_OPTION:,})"
    if isinstance(value, str):
        return control_problem(key, value) or (
            f"{key} is too long ({len(value):,} characters)" if len(value) > 200 else None
        )
    return None


#: Longest battle name.
MAX_BATTLE_NAME = 200


def battle_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a battle's name (empty, over :data:`MAX_BATTLE_NAME`
    characters, a control, invisible or direction-changing character), or None."""
    if not name.strip():
        return "the battle name cannot be empty"
    if len(name) > MAX_BATTLE_NAME:
        return f"the battle name is {len(name):,} characters long (at most {MAX_BATTLE_NAME})"
    return control_problem("the battle name", name)


def ended(state: BattleState) -> None:
    if state.result is not None:
        raise CommandError(f"the battle is over ({state.result.reason}); undo to go back")


def apply_hook(state: BattleState, res: Resolution, ctx: Context) -> tuple[BattleState, list[str]]:
    return apply_resolution(state, res, None, None, ctx.mechanics)


def find_unit(state: BattleState, unit_id: str) -> BattleUnit:
    try:
        return state.unit(unit_id)
    except KeyError as exc:
        raise CommandError(str(exc.args[0])) from None


def unit_words(state: BattleState, unit_id: str | None) -> str:
    """``Hastati (A1)``: a unit by name and id (the id alone when the battle has none such)."""
    if unit_id is None:
        return "-"
    try:
        u = state.unit(unit_id)
    except KeyError:
        return unit_id
    return f"{u.name} ({u.id})"


def leader_words(state: BattleState, leader_id: str) -> str:
    """A leader by name (the id when the battle has none such)."""
    for ld in state.leaders:
        if ld.id == leader_id:
            return ld.name
    return leader_id
