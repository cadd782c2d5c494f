"""Moving units by the line: several units' moves as one step (one undo). Each member's
move is its own :class:`~app.core.battle.moves.MoveUnit`, checked by the ruleset exactly as
a single move is, one after the other -- the leading units first, so those behind may move
into the room they leave. A group with a member the rules refuse is refused whole, naming
every refusal; :func:`plan_group` says beforehand which members may move and why the others
may not, so a player can move the others or cancel.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from app.core.battle.base import (
    BattleCommand,
    CommandError,
    Context,
    Executed,
    ended,
    find_unit,
    unit_words,
)
from app.core.battle.moves import MoveUnit
from app.core.battle.state import BattleState
from app.rules.mechanics import Mechanics
from app.rules.movement import MoveCheck
from app.rules.paths import Leg, Path, PathError, end_pose
from app.rules.ruleset import Ruleset

#: Most units one group move holds (a roster's units: ``app.core.roster.MAX_UNITS``).
MAX_GROUP = 5000
#: Members a step's title names before "and N more".
NAMED = 3


def _names(state: BattleState, units: Sequence[str]) -> str:
    shown = ", ".join(unit_words(state, u) for u in units[:NAMED])
    more = len(units) - NAMED
    return shown + (f" and {more} more" if more > 0 else "")


@dataclass(frozen=True)
class GroupMove(BattleCommand):
    """Move several units together, each along its own path (``moves``, in the order
    they are made). Every member's move is checked as a single move is; if the rules
    refuse any member, the whole group is refused, each refusal named, and nothing moves
    (a member the umpire let through carries ``force``, as a single move does)."""

    kind: ClassVar[str] = "group_move"
    moves: tuple[MoveUnit, ...] = ()

    @property
    def units(self) -> tuple[str, ...]:
        return tuple(m.unit for m in self.moves)

    @property
    def label(self) -> str:
        ids = ", ".join(self.units[:NAMED]) + (", ..." if len(self.moves) > NAMED else "")
        return f"Move {len(self.moves)} units ({ids})"

    def title(self, state: BattleState) -> str:
        return f"Move {len(self.moves)} units: {_names(state, self.units)}"

    def to_dict(self) -> dict[str, Any]:
        moves = []
        for m in self.moves:
            d = m.to_dict()
            d.pop("kind", None)
            moves.append(d)
        return {"kind": self.kind, "moves": moves}

    @classmethod
    def from_dict(cls, fields: Mapping[str, Any]) -> BattleCommand:
        raw = fields.get("moves")
        if not isinstance(raw, list) or len(raw) > MAX_GROUP:
            raise ValueError(f"a group move's moves are a list of at most {MAX_GROUP:,}")
        moves = []
        for d in raw:
            if not isinstance(d, Mapping):
                raise ValueError("each move of a group move is a table of its fields")
            move = MoveUnit.from_dict(d)
            assert isinstance(move, MoveUnit)
            moves.append(move)
        if set(fields) - {"moves"}:
            raise TypeError(f"a group move has no field {sorted(set(fields) - {'moves'})[0]!r}")
        return cls(moves=tuple(moves))

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        problem = _members_problem(state, self.moves)
        if problem is not None:
            raise CommandError(problem)
        lines: list[str] = []
        refused: list[str] = []
        for move in self.moves:
            try:
                done = move.execute(state, ctx)
            except CommandError as exc:
                refused.append(str(exc))
                continue
            state = done.state
            lines += done.lines
        if refused:
            n = len(self.moves)
            raise CommandError(
                f"the group of {n} may not move ({len(refused)} refused): " + "; ".join(refused)
            )
        head = f"{len(self.moves)} units move together: {_names(state, self.units)}."
        return Executed(state, (head, *lines))


def _members_problem(state: BattleState, moves: Sequence[MoveUnit]) -> str | None:
    if not moves:
        return "a group move needs at least one unit"
    if len(moves) > MAX_GROUP:
        return f"a group move holds at most {MAX_GROUP:,} units, not {len(moves):,}"
    seen: set[str] = set()
    sides = set()
    for m in moves:
        if not isinstance(m, MoveUnit) or m.legacy:
            return "each member of a group moves along a path of legs"
        if m.unit in seen:
            return f"{unit_words(state, m.unit)} is in the group twice"
        seen.add(m.unit)
        sides.add(find_unit(state, m.unit).side)
    if len(sides) > 1:
        return "a group's units are all of one side"
    return None


# --------------------------------------------------------------------------- planning


@dataclass(frozen=True)
class Member:
    """One member of a planned group move: its move, and why the rules refuse it (None
    when it may move); ``confirm``: only the umpire's confirmation stands in its way."""

    move: MoveUnit
    refusal: str | None = None
    confirm: bool = False
    #: the mechanics' check of the move where it would be made (the map draws it)
    check: MoveCheck | None = None

    @property
    def unit(self) -> str:
        return self.move.unit


@dataclass(frozen=True)
class GroupPlan:
    """What a group move would do: each member in the order it would move."""

    members: tuple[Member, ...]

    @property
    def free(self) -> tuple[Member, ...]:
        """The members the rules let move as they are."""
        return tuple(m for m in self.members if m.refusal is None)

    @property
    def to_confirm(self) -> tuple[Member, ...]:
        """The members that may move once the umpire confirms."""
        return tuple(m for m in self.members if m.refusal is not None and m.confirm)

    @property
    def refused(self) -> tuple[Member, ...]:
        """The members the rules forbid to move so."""
        return tuple(m for m in self.members if m.refusal is not None and not m.confirm)

    def command(self, *, confirmed: bool = False) -> GroupMove | None:
        """The group move of the members that may move (and of those the umpire confirmed,
        forced, when ``confirmed``); None when none may."""
        moves = [m.move for m in self.free]
        if confirmed:
            moves = [
                m.move if m.refusal is None else _forced(m.move)
                for m in self.members
                if m.refusal is None or m.confirm
            ]
        return GroupMove(moves=tuple(moves)) if moves else None


def _forced(move: MoveUnit) -> MoveUnit:
    return MoveUnit(unit=move.unit, legs=move.legs, reason=move.reason, force=True)


class _NoDice:
    """Moves throw no dice; a plan must not either."""

    def roll(self, spec: str, purpose: str) -> tuple[int, ...]:
        raise CommandError(f"planning a move threw dice ({purpose}); make it one unit at a time")


def in_order(state: BattleState, moves: Sequence[MoveUnit]) -> tuple[MoveUnit, ...]:
    """``moves`` in the order they are made: the unit furthest along the group's way
    first (the way: the members' mean displacement), so the ones behind move into the room
    it leaves; ties keep the given order."""
    starts = {m.unit: find_unit(state, m.unit).footprint for m in moves}
    ends = {m.unit: end_pose(starts[m.unit], list(m.legs)) for m in moves}
    dx = sum(ends[u].x - s.x for u, s in starts.items()) / max(len(moves), 1)
    dy = sum(ends[u].y - s.y for u, s in starts.items()) / max(len(moves), 1)
    if math.hypot(dx, dy) < 1e-9:
        return tuple(moves)
    ahead = {u: s.x * dx + s.y * dy for u, s in starts.items()}
    return tuple(sorted(moves, key=lambda m: -ahead[m.unit]))


def plan_group(
    state: BattleState, ruleset: Ruleset, mechanics: Mechanics, moves: Sequence[MoveUnit]
) -> GroupPlan:
    """Which of ``moves`` the rules allow, each checked as it would be made (in
    :func:`in_order`, after the members before it that may move); :class:`CommandError`
    for a group that cannot be one (empty, a unit twice, both sides)."""
    problem = _members_problem(state, moves)
    if problem is not None:
        raise CommandError(problem)
    ctx = Context(ruleset, mechanics, _NoDice())
    members = []
    for move in in_order(state, moves):
        check = None
        try:
            check = mechanics.check_move(
                state.view(), move.unit, Path(move.legs), reason=move.reason
            )
            state = move.execute(state, ctx).state
        except (CommandError, PathError) as exc:
            why = (
                str(exc)
                if isinstance(exc, CommandError)
                else f"{unit_words(state, move.unit)}: {exc}"
            )
            members.append(Member(move, why, "the umpire must confirm" in why, check))
            continue
        members.append(Member(move, check=check))
    return GroupPlan(tuple(members))


def same_path(state: BattleState, units: Sequence[str], legs: Sequence[Leg]) -> list[MoveUnit]:
    """Each of ``units`` along the same path (``forward 4``: each four ahead of where it
    faces), for :func:`plan_group`."""
    return [MoveUnit(unit=find_unit(state, u).id, legs=tuple(legs)) for u in units]
