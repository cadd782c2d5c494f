"""Quincunx: how its dice are thrown and read, for the actions declared once
(:mod:`app.rules.actions`).

Every Quincunx roll that decides an outcome is read in a way that keeps the exact odds small:

- a melee (or a trample) is two opposed casts read together as their **difference**
  (:func:`clash`): each 2 points of it is a casualty to the lower side, so nothing else
  about the two totals matters;
- missilery is a pair of dice read as their **spread**, high minus low (:func:`spread`);
- the pre-melee volley and skirmisher evasion are two single dice read as their difference;
- the risk to a leader is 2d6 read as **double one, another double, or no double**
  (:func:`app.rulesets.quincunx.rules.risk_reading`).

Each throw still rolls its dice one recorded roll at a time, in the order the battle has
always recorded them, so stored battles replay unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from app.rules.actions import Dist, Joint, Throw, exact_of
from app.rules.mechanics import Dice
from app.rulesets.quincunx.rules import dice_counts, dice_modifier


@dataclass(frozen=True)
class SideCast(Throw[int]):
    """One side's melee cast (Quincunx, Melee Matrix): its dice -- the matrix die, a pike
    phalanx's extra d6 on an initial attack, a trampling elephant's d12+2, or none for
    stragglers -- each rolled as its own recorded roll, totalled with the dice's own pluses
    and the side's ``modifier``. Its faces in words: ``"9 + 4 -> 14"``."""

    spec: str = ""
    specs: tuple[str, ...] = ()
    modifier: int = 0

    def roll(self, dice: Dice) -> tuple[int, str]:
        faces: list[int] = []
        for spec in self.specs:
            faces.extend(dice.roll(spec, self.purpose))
        total = sum(faces) + dice_modifier(self.specs) + self.modifier
        return total, f"{' + '.join(str(f) for f in faces)} -> {total}"

    def exact(self) -> Dist[int]:
        counts, den = dice_counts(self.specs, self.modifier)
        return {v: Fraction(c, den) for v, c in counts.items()}


def side_cast(specs: tuple[str, ...], modifier: int, purpose: str) -> SideCast:
    return SideCast(" + ".join(specs), purpose, specs, modifier)


def difference(a: int, b: int) -> int:
    """Two opposed casts read together: the first minus the second."""
    return a - b


@dataclass(frozen=True)
class Clash(Joint[int]):
    """Two opposed throws read as their difference (a :class:`~app.rules.actions.Joint`
    whose ``how`` is :func:`difference`), its distribution convolved in whole numbers over
    the parts' common denominator rather than in fractions: the same values, several times
    faster the first time a pair of casts is met."""

    def exact(self) -> Dist[int]:
        first, second = (exact_of(p) for p in self.parts)
        den = math.lcm(*(p.denominator for p in (*first.values(), *second.values())))
        a = {cast(int, v): int(p * den) for v, p in first.items()}
        b = {cast(int, v): int(p * den) for v, p in second.items()}
        out: dict[int, int] = {}
        for va, wa in a.items():
            for vb, wb in b.items():
                out[va - vb] = out.get(va - vb, 0) + wa * wb
        return {v: Fraction(w, den * den) for v, w in out.items()}


def clash(attacker: Throw[int], defender: Throw[int]) -> Clash:
    """Quincunx, Melee: both sides cast (the attacker first, as recorded) and only the
    difference counts. Its faces in words: the two sides' words joined by ``"; "``
    (:func:`sides_of` splits them again)."""
    # Joint's parts are typed Throw[Hashable]; Throw is invariant in its reading, so say so
    parts = cast("tuple[Throw[Hashable], ...]", (attacker, defender))
    return Clash(parts=parts, how=difference)


def sides_of(shown: str) -> tuple[str, str]:
    """The words of each side of a :func:`clash` (or a pair of opposed dice) as rolled."""
    first, _, second = shown.partition("; ")
    return first, second


def spread(faces: tuple[int, ...]) -> int:
    """Quincunx, Missilery: a pair of dice read as the high die minus the low (sorted)."""
    return faces[-1] - faces[0]
