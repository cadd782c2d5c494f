"""Real dice at a real table: faces thrown by the players, given to the core instead of
rolled by it.

Most battles are fought with miniatures and real dice; the app is the umpire's companion.
Any command (an action, a phase that rolls initiative, the start of a battle that shuffles
a deck) can be executed with faces typed in. The core asks for exactly the dice the command
throws, one request at a time, in the order its ``play`` throws them (:class:`DiceRequest`:
"2d6 for the charge test"), and checks each answer (how many dice, which faces the die
bears) before using it. Given faces are recorded like any roll, so undo, redo and replay
treat them the same.

How a caller learns what to ask: :func:`next_request` executes the command on a copy of the
state with the faces given so far; when the command throws past them it stops at that throw
and names it. Commands change nothing outside the state they return, so trying them again is
free of side effects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.core.battle.base import CommandError
from app.rules.dice import parse_dice


@dataclass(frozen=True)
class DiceRequest:
    """One throw a command makes: ``spec`` as the ruleset writes it (``2d6``, ``d10z``,
    ``avd``), what it is for, and its place among the command's throws (0 first)."""

    spec: str
    purpose: str
    index: int

    @property
    def count(self) -> int:
        return parse_dice(self.spec).count

    @property
    def faces(self) -> tuple[int, ...]:
        """The faces one die bears, each once, in order (the AvD: 2, 3, 4, 5)."""
        return tuple(sorted(set(parse_dice(self.spec).faces)))

    def describe(self) -> str:
        """``2 x d6`` style words for a dialog: how many dice of which kind."""
        d = parse_dice(self.spec)
        low, high = self.faces[0], self.faces[-1]
        die = "AvD (2-5)" if self.spec.strip().lower() == "avd" else f"d{d.sides} ({low}-{high})"
        return die if d.count == 1 else f"{d.count} x {die}"


class DiceWanted(Exception):
    """Raised inside a command's execution at the first throw beyond the faces given."""

    def __init__(self, request: DiceRequest) -> None:
        super().__init__(f"{request.spec} for {request.purpose}")
        self.request = request


def faces_problem(spec: str, faces: Sequence[int]) -> str | None:
    """Why ``faces`` are not a throw of ``spec`` (how many dice, a face the die does not
    bear), in one line, or None when they are."""
    d = parse_dice(spec)
    if len(faces) != d.count:
        return (
            f"{spec} is {d.count} {'die' if d.count == 1 else 'dice'}: "
            f"give {d.count} face{'' if d.count == 1 else 's'}, not {len(faces)}"
        )
    allowed = sorted(set(d.faces))
    for f in faces:
        if f not in allowed:
            shown = ", ".join(map(str, allowed))
            return f"{f} is not a face of {spec} (its faces: {shown})"
    return None


def parse_faces(text: str) -> list[int]:
    """Faces typed by a player: whole numbers separated by commas or spaces ("4,6", "4 6").
    ValueError naming what is wrong otherwise."""
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise ValueError("no dice faces given (type them like 4,6)")
    if len(parts) > 1000:
        raise ValueError(f"{len(parts):,} faces is far more than any action throws")
    out: list[int] = []
    for p in parts:
        if not (p.isascii() and p.isdigit()) or len(p) > 3:
            raise ValueError(f"{p[:20]!r} is not a die face (a whole number like 4)")
        out.append(int(p))
    return out


class GivenDice:
    """Dice whose faces the players threw: each roll takes the next faces given (as many as
    the throw has dice), checked against the die. With ``ask`` set, a roll beyond the given
    faces raises :class:`DiceWanted` naming it (to learn what to ask next); without, it is a
    :class:`CommandError` saying which dice are still needed."""

    def __init__(self, faces: Sequence[int], *, ask: bool = False) -> None:
        self._faces = list(faces)
        self._next = 0
        self._ask = ask
        self.requests: list[DiceRequest] = []

    def roll(self, spec: str, purpose: str) -> tuple[int, ...]:
        request = DiceRequest(spec, purpose, len(self.requests))
        self.requests.append(request)
        count = request.count
        if self._next >= len(self._faces):
            if self._ask:
                raise DiceWanted(request)
            raise CommandError(
                f"the dice given ran out: {spec} for {purpose} is still to throw "
                f"({request.describe()})"
            )
        faces = self._faces[self._next : self._next + count]
        if len(faces) < count:
            raise CommandError(
                f"{spec} for {purpose} needs {count} faces; only {len(faces)} "
                f"{'is' if len(faces) == 1 else 'are'} left of the dice given"
            )
        problem = faces_problem(spec, faces)
        if problem is not None:
            raise CommandError(f"{purpose}: {problem}")
        self._next += count
        return tuple(faces)

    @property
    def unused(self) -> int:
        """How many faces given were not thrown."""
        return len(self._faces) - self._next
