"""Dice expressions as written in ruleset data (``d10``, ``2d6``, ``d3+1``, ``avd``, ``d10z``
for a d10 read 0-9), and their exact probability distributions."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from math import comb

#: Leg VI Carthago's average die: a six-sided die marked 2, 3, 3, 4, 4, 5.
AVD_FACES: tuple[int, ...] = (2, 3, 3, 4, 4, 5)

_PATTERN = re.compile(r"^(?:(avd)|(\d*)d(\d+)(z?)([+-]\d+)?)$")


@dataclass(frozen=True)
class DiceSpec:
    """``count`` dice of ``faces`` (a tuple of face values) plus ``modifier``."""

    count: int
    faces: tuple[int, ...]
    modifier: int = 0
    text: str = ""

    @property
    def sides(self) -> int:
        return len(self.faces)

    def __str__(self) -> str:
        return self.text


def parse_dice(text: str) -> DiceSpec:
    """Parse a dice expression; raises ``ValueError`` naming the text if it is not one."""
    m = _PATTERN.match(text.strip().lower())
    if m is None:
        raise ValueError(f"{text!r} is not a dice expression (like d10, 2d6, d3+1 or avd)")
    if m.group(1):
        return DiceSpec(1, AVD_FACES, 0, "AvD")
    count = int(m.group(2) or 1)
    sides = int(m.group(3))
    if count < 1 or sides < 2:
        raise ValueError(f"{text!r}: need at least one die of at least two sides")
    first = 0 if m.group(4) else 1  # "d10z": a d10 read 0-9 (GSB activation)
    modifier = int(m.group(5) or 0)
    return DiceSpec(count, tuple(range(first, first + sides)), modifier, text.strip())


# --------------------------------------------------------------------------- distributions

Dist = dict[int, Fraction]
"""An exact probability distribution: value -> probability (Fractions summing to 1)."""


def faces_dist(faces: tuple[int, ...]) -> Dist:
    """One die: each face equally likely (repeated faces, as on the AvD, add up)."""
    out: Dist = {}
    p = Fraction(1, len(faces))
    for f in faces:
        out[f] = out.get(f, Fraction(0)) + p
    return out


def convolve(a: Dist, b: Dist) -> Dist:
    """Distribution of the sum of two independent values."""
    out: Dist = {}
    for va, pa in a.items():
        for vb, pb in b.items():
            out[va + vb] = out.get(va + vb, Fraction(0)) + pa * pb
    return out


def shift(a: Dist, n: int) -> Dist:
    return {v + n: p for v, p in a.items()}


def max_of(a: Dist, b: Dist) -> Dist:
    """Distribution of the higher of two independent values (D3 commander: two D3, keep the
    higher)."""
    out: Dist = {}
    for va, pa in a.items():
        for vb, pb in b.items():
            k = max(va, vb)
            out[k] = out.get(k, Fraction(0)) + pa * pb
    return out


def dist_of(spec: DiceSpec | str) -> Dist:
    """Exact distribution of the total of a dice expression (``2d6`` -> 2..12)."""
    if isinstance(spec, str):
        spec = parse_dice(spec)
    one = faces_dist(spec.faces)
    total: Dist = {0: Fraction(1)}
    for _ in range(spec.count):
        total = convolve(total, one)
    return shift(total, spec.modifier)


def binomial(n: int, p: Fraction) -> Dist:
    """Number of successes in ``n`` independent trials of probability ``p`` (hits from n dice)."""
    out: Dist = {}
    for k in range(n + 1):
        out[k] = Fraction(comb(n, k)) * p**k * (1 - p) ** (n - k)
    return out


def expectation(a: Dist) -> Fraction:
    return sum((Fraction(v) * p for v, p in a.items()), Fraction(0))


def check_total(a: Dist) -> None:
    """Raise if ``a`` does not sum to exactly one (a guard for odds code)."""
    total = sum(a.values(), Fraction(0))
    if total != 1:
        raise ArithmeticError(f"distribution sums to {total}, not 1")


# --------------------------------------------------------------------------- dice sources


class SeededDice:
    """Dice from a seeded generator: the same seed gives the same faces. Each roll is kept in
    ``rolls`` as ``(purpose, spec, faces)``."""

    def __init__(self, seed: int | str) -> None:
        self._rng = random.Random(seed)
        self.rolls: list[tuple[str, str, tuple[int, ...]]] = []

    def roll(self, spec: str, purpose: str) -> tuple[int, ...]:
        parsed = parse_dice(spec)
        faces = tuple(self._rng.choice(parsed.faces) for _ in range(parsed.count))
        self.rolls.append((purpose, spec, faces))
        return faces


class ScriptedDice:
    """Dice that give the faces a test or a replay wrote down, in order, checking that each
    roll asks for the same dice as was recorded (a replay that diverges fails loudly)."""

    def __init__(self, script: list[tuple[str, tuple[int, ...]]]) -> None:
        self._script = list(script)
        self._next = 0

    def roll(self, spec: str, purpose: str) -> tuple[int, ...]:
        if self._next >= len(self._script):
            raise LookupError(f"no recorded roll left for {purpose!r} ({spec})")
        want_spec, faces = self._script[self._next]
        want, asked = parse_dice(want_spec), parse_dice(spec)
        if (want.count, want.faces, want.modifier) != (asked.count, asked.faces, asked.modifier):
            raise LookupError(
                f"recorded roll {self._next + 1} was {want_spec}, but {purpose!r} asks for {spec}"
            )
        if len(faces) != asked.count or any(f not in asked.faces for f in faces):
            raise LookupError(f"recorded faces {faces} do not fit {spec} ({purpose!r})")
        self._next += 1
        return tuple(faces)

    @property
    def exhausted(self) -> bool:
        return self._next == len(self._script)
