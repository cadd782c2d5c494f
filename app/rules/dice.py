"""Dice expressions as written in ruleset data (``d10``, ``2d6``, ``d3+1``, ``avd``, ``d10z``
for a d10 read 0-9), and their exact probability distributions."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any, cast

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


@lru_cache(maxsize=1024)
def capped_binomial(n: int, p: Fraction, cap: int) -> Dist:
    """Successes of ``n`` trials, every count of ``cap`` or more counted as ``cap`` (hits
    past what a unit has left change nothing). Only the terms below ``cap`` are computed;
    ``cap`` takes the rest, so the sum is exactly 1."""
    if cap >= n:
        return binomial(n, p)
    q = 1 - p
    out: Dist = {}
    for k in range(cap):
        out[k] = comb(n, k) * p**k * q ** (n - k)
    out[cap] = 1 - sum(out.values(), Fraction(0))
    return out


def capped(dist: Dist, cap: int) -> Dist:
    """``dist`` with every value above ``cap`` counted as ``cap``."""
    out: Dist = {}
    for v, p in dist.items():
        k = min(v, cap)
        out[k] = out.get(k, Fraction(0)) + p
    return out


def power_capped(one: Dist, n: int, cap: int) -> Dist:
    """The sum of ``n`` independent values distributed as ``one``, capped at ``cap``.
    Convolved in whole numbers over the common denominator (much faster than Fractions),
    then turned back into exact Fractions."""
    den = math.lcm(*(p.denominator for p in one.values()))
    weights = {v: int(p * den) for v, p in one.items() if p}
    total = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for a, wa in total.items():
            for b, wb in weights.items():
                k = min(a + b, cap)
                nxt[k] = nxt.get(k, 0) + wa * wb
        total = nxt
    scale = den**n
    return {v: Fraction(w, scale) for v, w in total.items()}


# --------------------------------------------------------------------------- big exact odds


def valuation(n: int, p: int) -> int:
    """How many times the prime ``p`` divides ``n`` (not 0): a few divisions, each by a
    square of the power before, not one per factor (a denominator of 6**1296 has 1,296)."""
    if n == 0:
        raise ValueError("0 is divisible by every power")
    n = abs(n)
    if p == 2:
        return (n & -n).bit_length() - 1
    if n % p:
        return 0
    powers = [p]
    while powers[-1].bit_length() * 2 <= n.bit_length() + 1 and n % (powers[-1] ** 2) == 0:
        powers.append(powers[-1] ** 2)
    v = 0
    for i in range(len(powers) - 1, -1, -1):
        q, r = divmod(n, powers[i])
        if r == 0:
            n, v = q, v + (1 << i)
    return v


_FROM_COPRIME = getattr(Fraction, "_from_coprime_ints", None)  # Python 3.12 and later
_FRACTION: Any = Fraction  # 3.11's constructor takes ``_normalize``, which typeshed omits
_NEW: Any = object.__new__


def _by_slots(numerator: int, denominator: int) -> Fraction:
    """A Fraction made by setting its two slots, as 3.12's ``_from_coprime_ints`` does: no
    checks of the arguments' types, no greatest common divisor (a fifth of the time of
    3.11's ``Fraction(n, d, _normalize=False)``)."""
    made = _NEW(Fraction)
    made._numerator = numerator
    made._denominator = denominator
    out: Fraction = made  # no cast(): a call, and this runs once per outcome
    return out


def _slots_work() -> bool:
    """Whether a Fraction made by :func:`_by_slots` is the Fraction Python makes (this
    Python's Fraction keeps its terms in those two slots)."""
    try:
        made = _by_slots(6, 7)
        return made == Fraction(6, 7) and made + Fraction(1, 7) == 1 and str(made) == "6/7"
    except (AttributeError, TypeError):  # pragma: no cover - a Fraction without the slots
        return False


def _takes_normalize() -> bool:
    """Whether this Python's Fraction constructor takes ``_normalize`` (3.11 does); a
    private hook, so a Python with neither it nor ``_from_coprime_ints`` falls back to
    plain Fractions rather than failing."""
    try:
        _FRACTION(1, 2, _normalize=False)
    except TypeError:
        return False
    return True


#: The quickest way this Python has to make a Fraction of two coprime numbers (None: only
#: the plain constructor, which looks for a common factor again).
_MAKE: Callable[[int, int], Fraction] | None = (
    _by_slots
    if _slots_work()
    else _FROM_COPRIME  # pragma: no cover - a Fraction without the two slots
    if _FROM_COPRIME is not None
    else (lambda n, d: cast(Fraction, _FRACTION(n, d, _normalize=False)))
    if _takes_normalize()
    else None
)

#: Whether a private constructor is there (else the plain, slower Fractions).
_FAST = _MAKE is not None


def coprime_fraction(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` for two numbers the caller has already freed of
    every common factor (``denominator`` > 0): Python's Fraction would look for one again
    with a greatest common divisor of two numbers of hundreds of digits. Made the way
    Python's own Fraction arithmetic makes its results (:data:`_MAKE`)."""
    if not _FAST or _MAKE is None:
        return Fraction(numerator, denominator)
    return _MAKE(numerator, denominator)


def _odd_terms(
    weights: Sequence[int], den: int
) -> tuple[list[tuple[int, int, int]], dict[int, int]]:
    """Each weight over ``den`` in lowest terms, split as ``m * 2**t / o`` with ``m`` and
    ``o`` odd: (``m``, ``t``, the index of ``o``), and the distinct odd denominators ``o``
    with their indexes. A zero weight is (0, 0, the index of 1). The odd parts of the
    denominators of dice are few (for a d6, powers of 3 that differ only by the threes in a
    binomial coefficient); their powers of two, often as many as the weights, are shifts."""
    out: list[tuple[int, int, int]] = []
    odd: dict[int, int] = {}
    x = (den & -den).bit_length() - 1  # den = od * 2**x
    od = den >> x
    for w in weights:
        if not w:
            out.append((0, 0, odd.setdefault(1, len(odd))))
            continue
        s = (w & -w).bit_length() - 1  # w = m * 2**s
        m = w >> s
        g = math.gcd(m, od)
        out.append((m // g, s - x, odd.setdefault(od // g, len(odd))))
    return out, odd


def _against(
    terms: list[tuple[int, int, int]], odd: dict[int, int]
) -> list[tuple[list[tuple[int, int]], int, int]]:
    """For each odd numerator ``m`` of one side and each odd denominator ``o`` of the other,
    what is left of them once their common factor ``g = gcd(m, o)`` is taken out:
    ``(m/g, o/g)``; with the power of two and the index of the odd denominator of ``m``'s
    own chance. One greatest common divisor of ``m`` with all of the ``o`` at once (their
    least common multiple) finds the numerators that share nothing with any (most: a
    chance in lowest terms keeps the dice's primes below), and only the others are divided
    denominator by denominator."""
    dens = list(odd)
    every = math.lcm(*dens)
    out: list[tuple[list[tuple[int, int]], int, int]] = []
    for m, t, k in terms:
        g = math.gcd(m, every)
        if g == 1:
            out.append(([(m, o) for o in dens], t, k))
        else:  # gcd(m, o) is gcd(g, o), as o divides every
            out.append(([(m // (h := math.gcd(g, o)), o // h) for o in dens], t, k))
    return out


def product_fractions(
    a: Sequence[int], den_a: int, b: Sequence[int], den_b: int
) -> list[list[Fraction]]:
    """``[[Fraction(x * y, den_a * den_b) for y in b] for x in a]``: the exact chances of two
    independent things, from each one's whole-number weights over its denominator, exactly
    equal to the plain Fractions but without a greatest common divisor of two big numbers
    for each pair. Each side's chances are put in lowest terms once, as ``m * 2**t / o``
    with ``m`` and ``o`` odd. A product's odd part ``ma * mb / (oa * ob)`` can share only
    the factors of ``ma`` with ``ob`` and of ``mb`` with ``oa`` (as in Python's own
    Fraction multiplication); the chances of dice have only a few distinct odd
    denominators, so those are found once for each odd numerator and odd denominator of
    the other side, not once per pair. Its power of two ``2**(ta + tb)`` goes above or
    below as a shift. A product is then two multiplications and a shift: in lowest terms
    by construction."""
    if not _FAST or _MAKE is None or den_a <= 0 or den_b <= 0:
        den = den_a * den_b
        return [[Fraction(x * y, den) for y in b] for x in a]
    terms_a, odd_a = _odd_terms(a, den_a)
    terms_b, odd_b = _odd_terms(b, den_b)
    rows_a, rows_b = _against(terms_a, odd_b), _against(terms_b, odd_a)
    # b's chances by each of a's odd denominators: (what is left of b's odd numerator and
    # of a's odd denominator, b's power of two, the index of b's own odd denominator)
    cols = [[(*over[ka], tb, kb) for over, tb, kb in rows_b] for ka in range(len(odd_a))]
    make = _MAKE
    rows: list[list[Fraction]] = []
    # the chances of a throw against itself (two units alike, the same dice each way) are
    # symmetric: each product below the diagonal is the one above it
    mirrored = den_a == den_b and list(a) == list(b)
    for i, (left, ta, ka) in enumerate(rows_a):
        done = [rows[j][i] for j in range(i)] if mirrored else []
        rows.append(
            done
            + [
                make((left[kb][0] * mb) << e, left[kb][1] * oa)
                if (e := ta + tb) >= 0
                else make(left[kb][0] * mb, (left[kb][1] * oa) << -e)
                for mb, oa, tb, kb in cols[ka][len(done) :]
            ]
        )
    # a zero chance times anything is 0 (the shifts above may have left it over 2**k)
    zero = Fraction(0)
    for i in (i for i, (m, _, _) in enumerate(terms_a) if not m):
        rows[i] = [zero] * len(terms_b)
    for j in [j for j, (m, _, _) in enumerate(terms_b) if not m]:
        for row in rows:
            row[j] = zero
    return rows


def fractions_over(weights: Sequence[int], den: int) -> list[Fraction]:
    """``[Fraction(w, den) for w in weights]``, exactly, in lowest terms
    (:func:`product_fractions`)."""
    return [row[0] for row in product_fractions(weights, den, [1], 1)]


def chance_at_least(die: str, need: int, bonus: int = 0, exclude: Iterable[int] = ()) -> Fraction:
    """Chance that one ``die`` scores ``need`` or more after adding ``bonus`` (faces in
    ``exclude`` do not count)."""
    faces = parse_dice(die).faces
    skip = set(exclude)
    good = sum(1 for f in faces if f not in skip and f + bonus >= need)
    return Fraction(good, len(faces))


def chance_of_any(die: str, wanted: Iterable[int]) -> Fraction:
    """Chance that one ``die`` shows one of the faces ``wanted`` (each face counted as often
    as the die bears it: the AvD's 3 and 4 twice)."""
    d = faces_dist(parse_dice(die).faces)
    chosen = set(wanted)
    return sum((p for v, p in d.items() if v in chosen), Fraction(0))


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
