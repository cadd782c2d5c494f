"""Exact odds put in rows for showing: each outcome with its chance (sorted likeliest first,
as ``castra odds`` prints them) and the expected losses of each side. Plain arithmetic on
the mechanics' exact distribution; nothing here knows a rule.

The odds of big units have thousands of outcomes whose chances are Fractions of hundreds of
digits over a few dozen denominators: comparing two of them multiplies them crosswise,
adding two finds a greatest common divisor, and ``float`` of one divides numbers of hundreds
of digits. Everything here works on each chance's numerator over one common denominator
(:func:`common_numerators`), whole numbers that compare and add as plain integers, and gives
exactly what the plain Fraction arithmetic gives (the tests hold them to it)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

from app.rules.mechanics import Effects, Odds, Outcome
from app.rules.values import exact_sum

#: the effects whose expectation is worth a bar: losses in the ruleset's own coin
LOSS_KEYS = ("casualties", "hits", "dps", "rings")


def effects_words(e: Effects) -> str:
    """``casualties 2, hits 1, shaken`` or ``-`` (the CLI's column text)."""
    parts = [f"{k} {getattr(e, k)}" for k in LOSS_KEYS if getattr(e, k)]
    parts += sorted(e.markers_add)
    if e.eliminated:
        parts.append("eliminated")
    if e.move:
        parts.append(e.move)
    return ", ".join(parts) or "-"


def common_numerators(odds: Odds) -> tuple[list[int], int]:
    """Each chance's numerator over the chances' least common denominator, in the odds'
    order, and that denominator: ``chance == Fraction(numerator, denominator)`` for each, so
    the numerators order and add up as the chances do, and ``numerator / denominator`` is
    ``float(chance)`` (a division of whole numbers is correctly rounded)."""
    ratios = [p.as_integer_ratio() for p in odds.values()]
    dens = {d for _, d in ratios}
    if not dens:
        return [], 1
    top = math.lcm(*dens)
    scale = {d: top // d for d in dens}
    return [n * scale[d] for n, d in ratios], top


def ranked(odds: Odds) -> list[tuple[Outcome, Fraction, float]]:
    """The outcomes likeliest first, outcomes as likely in the order of their results (then
    as the odds hold them): the order of ``sorted(odds.items(), key=lambda kv: (-kv[1],
    kv[0].result))``. Each comes with its chance and the chance as ``float(chance)``, both
    found from the whole numbers of :func:`common_numerators` rather than by comparing and
    dividing Fractions."""
    nums, top = common_numerators(odds)
    items = list(odds.items())
    results = [o.result for o, _ in items]
    # two stable sorts of the positions: by result, then by chance from the likeliest
    # (``reverse`` keeps equal chances in the order the first sort left them)
    order = sorted(range(len(items)), key=results.__getitem__)
    order.sort(key=nums.__getitem__, reverse=True)
    return [(*items[i], nums[i] / top) for i in order]


def by_chance(odds: Odds) -> list[tuple[Outcome, Fraction]]:
    """The odds likeliest first, outcomes as likely as the odds hold them: the order of
    ``sorted(odds.items(), key=lambda kv: -kv[1])``, found as :func:`ranked` finds it."""
    nums, _ = common_numerators(odds)
    items = list(odds.items())
    return [items[i] for i in sorted(range(len(items)), key=nums.__getitem__, reverse=True)]


def likeliest(odds: Odds) -> tuple[Outcome, Fraction]:
    """The likeliest outcome and its chance; the first in the odds' order of those as
    likely, as ``max(odds.items(), key=lambda kv: kv[1])`` gives it. ``odds`` is not
    empty."""
    nums, _ = common_numerators(odds)
    best = max(range(len(nums)), key=nums.__getitem__)
    outcome = list(odds)[best]
    return outcome, odds[outcome]


def shares(odds: Odds) -> list[float]:
    """``[float(p) for p in odds.values()]``, found from :func:`common_numerators`."""
    nums, top = common_numerators(odds)
    return [n / top for n in nums]


class OutcomeRow(NamedTuple):
    """One outcome as the dock and the command line show it (a named tuple: thousands are
    made for the odds of big units, each quicker than a frozen dataclass's)."""

    result: str
    attacker: str
    defender: str
    chance: Fraction
    #: ``float(chance)`` (the same float, a quicker division: :func:`ranked`)
    share: float


def outcome_rows(odds: Odds) -> list[OutcomeRow]:
    """The odds as rows, likeliest first (:func:`ranked`), each side's effects in words."""
    words: dict[int, str] = {}  # by id: the effects are held by ``odds`` while this runs

    def said(e: Effects) -> str:
        text = words.get(id(e))
        if text is None:
            text = words[id(e)] = effects_words(e)
        return text

    return [
        OutcomeRow(o.result or "-", said(o.attacker), said(o.defender), p, share)
        for o, p, share in ranked(odds)
    ]


def chance_after(rows: list[OutcomeRow], most: int) -> Fraction:
    """The chance of every row after the first ``most``, exactly (:func:`exact_sum`)."""
    return exact_sum(r.chance for r in rows[most:])


def chance_bars(rows: list[OutcomeRow], most: int) -> list[tuple[str, Fraction]]:
    """The first ``most`` rows' results and chances, and the chance of all the others as
    one bar, ``"N other outcomes"`` (when it is not nothing)."""
    bars = [(r.result, r.chance) for r in rows[:most]]
    rest = chance_after(rows, most)
    if rest:
        bars.append((f"{len(rows) - most} other outcomes", rest))
    return bars


def expected_losses(odds: Odds) -> dict[str, Fraction]:
    """``attacker_casualties``, ``defender_hits``, ...: the exact expectation of every loss
    that can happen (zero expectations left out), in the order the odds first name each.
    Each is added up in whole numbers over the chances' common denominator
    (:func:`common_numerators`) and made a Fraction once: the odds of big units have
    thousands of chances of hundreds of digits, and adding Fractions reduces each sum."""
    nums, top = common_numerators(odds)
    # each side's losses by its effects' id (``odds`` holds them while this runs): the odds
    # of big units pair a few dozen effects a side into thousands of outcomes
    named: tuple[dict[int, list[tuple[str, int]]], ...] = ({}, {})
    sums: dict[str, int] = {}
    for o, n in zip(odds, nums, strict=True):
        for side, e in enumerate((o.attacker, o.defender)):
            losses = named[side].get(id(e))
            if losses is None:
                word = ("attacker", "defender")[side]
                losses = named[side][id(e)] = [
                    (f"{word}_{key}", getattr(e, key)) for key in LOSS_KEYS if getattr(e, key)
                ]
            for name, value in losses:
                sums[name] = sums.get(name, 0) + n * value
    return {k: Fraction(v, top) for k, v in sums.items() if v}
