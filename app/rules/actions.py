"""Actions declared once: their options, the dice they throw, and what the faces do.

An action (melee, shoot, evade, a control test, ...) is declared a single time as an
:class:`Action`: its options, a ``prepare`` step that needs no dice (who may act, which dice,
which modifiers, in words) and a ``play`` function from the dice thrown to a
:class:`~app.rules.mechanics.Resolution`. ``play`` asks for every die through a
:class:`Throws`:

- to **resolve** the action, :class:`Rolling` throws real dice (the battle's recorded dice), and
  ``play`` runs once;
- for the **exact odds**, :func:`explore` runs ``play`` again and again, feeding it every
  possible value of each throw with its exact probability, and adds up the outcomes.

Both come from the same ``play``, so the odds and the roll agree by construction. A
:class:`Throw` says how its dice are read (a total, the number of dice that score, the highest
die, the faces sorted, ...) and gives the exact distribution of that reading; the common
readings have closed forms (a binomial for dice that score, a convolution for a total), so
exploring branches over tens of readings rather than millions of faces. A reading without a
closed form falls back to counting the faces (bounded by :data:`FACE_LIMIT`). Where even that
is too slow an action may give a ``closed_form`` for its odds; tests then compare it with the
exploration (:func:`explored_odds`).

Nothing here knows a ruleset: the rulesets' packages declare their actions with these parts.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from app.rules.dice import DiceSpec, binomial, dist_of, parse_dice

if TYPE_CHECKING:
    from app.rules.mechanics import (
        ActionSpec,
        Dice,
        OptionSpec,
        Outcome,
        Resolution,
        Situation,
        Targets,
    )

V = TypeVar("V", bound=Hashable)
W = TypeVar("W", bound=Hashable)
T = TypeVar("T", bound=Hashable)
P = TypeVar("P")

#: The most face combinations a reading without a closed form may count (10 d6 is 60 million:
#: such a throw needs a closed form, e.g. :class:`Count`).
FACE_LIMIT = 200_000
#: The most dice one throw may have for its exact odds: four times the largest unit of any
#: army list throws a few hundred; a thousand d6 already make probabilities of 780 digits.
#: Rolling more is allowed; counting their odds exactly is refused in one line.
EXACT_DICE_LIMIT = 1000

Dist = dict[V, Fraction]


class TooManyFaces(ValueError):
    """A throw whose reading has no closed form and too many face combinations to count."""


# --------------------------------------------------------------------------- throws


@dataclass(frozen=True)
class Throw(Generic[V]):
    """One throw of dice and how it is read. ``purpose`` is a few words for the log; it is not
    part of what the throw *is*, so equal throws for different units share their exact
    distribution (cached).

    Subclasses give :meth:`read` (faces -> value) and, where one exists, a closed form in
    :meth:`exact`; a throw made of several rolls (a die rolled again on a 1, ...) overrides
    :meth:`roll` and :meth:`exact` together, and its tests compare the two with
    :func:`explore_roll`."""

    spec: str
    purpose: str = field(default="", compare=False)

    @property
    def dice(self) -> DiceSpec:
        return parse_dice(self.spec)

    def read(self, faces: tuple[int, ...]) -> V:
        raise NotImplementedError

    def roll(self, dice: Dice) -> tuple[V, str]:
        """Throw the dice (one recorded roll of ``spec``); the value and the faces in words."""
        faces = tuple(dice.roll(self.spec, self.purpose))
        return self.read(faces), " ".join(map(str, faces))

    def exact(self) -> Dist[V]:
        """The exact distribution of :meth:`read`: by default every combination of faces
        counted as a multiset (bounded by :data:`FACE_LIMIT`)."""
        return _by_multisets(self.dice, self.read)


def _by_multisets(spec: DiceSpec, read: Callable[[tuple[int, ...]], V]) -> Dist[V]:
    """Count every multiset of faces with its multinomial weight. ``read`` gets the faces in
    the order of the die's face list, so it must not depend on the order the dice fell in."""
    sides, n = spec.sides, spec.count
    if math.comb(n + sides - 1, n) > FACE_LIMIT:
        raise TooManyFaces(
            f"{spec.text or spec}: too many face combinations to count; "
            "read these dice with a closed form"
        )
    total = sides**n
    out: Dist[V] = {}
    for combo in itertools.combinations_with_replacement(range(sides), n):
        weight = math.factorial(n)
        for _, group in itertools.groupby(combo):
            weight //= math.factorial(len(tuple(group)))
        value = read(tuple(spec.faces[i] for i in combo))
        out[value] = out.get(value, Fraction(0)) + Fraction(weight, total)
    return out


@dataclass(frozen=True)
class Total(Throw[int]):
    """The sum of the dice plus the expression's modifier (``2d6``, ``d3+1``, ``avd``)."""

    def read(self, faces: tuple[int, ...]) -> int:
        return sum(faces) + self.dice.modifier

    def exact(self) -> Dist[int]:
        return dist_of(self.dice)


@dataclass(frozen=True)
class Highest(Throw[int]):
    """The highest die plus the modifier (D3: a commander rolls two D3 and keeps the higher)."""

    def read(self, faces: tuple[int, ...]) -> int:
        return max(faces) + self.dice.modifier

    def exact(self) -> Dist[int]:
        d = self.dice
        n, sides = d.count, Fraction(1, d.sides)
        below: dict[int, Fraction] = {}
        for f in sorted(set(d.faces)):
            below[f] = sides * sum(1 for g in d.faces if g <= f)
        out: Dist[int] = {}
        previous = Fraction(0)
        for f in sorted(below):
            at_most = below[f] ** n
            out[f + d.modifier] = at_most - previous
            previous = at_most
        return {v: p for v, p in out.items() if p}


@dataclass(frozen=True)
class Count(Throw[int]):
    """How many dice score: a die scores when its face plus ``bonus`` is at least ``need``,
    except the faces in ``never`` (a natural 1 that always misses). ``cap`` counts every
    total above it as ``cap`` (hits beyond a unit's remaining strength change nothing)."""

    need: int = 0
    bonus: int = 0
    never: frozenset[int] = frozenset()
    cap: int | None = None

    def scores(self, face: int) -> bool:
        return face not in self.never and face + self.bonus >= self.need

    def read(self, faces: tuple[int, ...]) -> int:
        hits = sum(1 for f in faces if self.scores(f))
        return hits if self.cap is None else min(hits, self.cap)

    @property
    def chance(self) -> Fraction:
        faces = self.dice.faces
        return Fraction(sum(1 for f in faces if self.scores(f)), len(faces))

    def exact(self) -> Dist[int]:
        dist = binomial(self.dice.count, self.chance)
        if self.cap is not None:
            dist = cap_dist(dist, self.cap)
        return {v: p for v, p in dist.items() if p}


@dataclass(frozen=True)
class Faces(Throw[tuple[int, ...]]):
    """The faces as they fell, in order. Exploring one branches over every ordered
    combination, so keep it to one or two dice; a reading that does not care about the order
    is :class:`Classify`."""

    def read(self, faces: tuple[int, ...]) -> tuple[int, ...]:
        return faces

    def exact(self) -> Dist[tuple[int, ...]]:
        d = self.dice
        if d.sides**d.count > FACE_LIMIT:
            raise TooManyFaces(f"{self.spec}: too many ordered faces to count")
        p = Fraction(1, d.sides**d.count)
        out: Dist[tuple[int, ...]] = {}
        for faces in itertools.product(d.faces, repeat=d.count):
            out[faces] = out.get(faces, Fraction(0)) + p
        return out


@dataclass(frozen=True)
class Classify(Throw[V]):
    """The faces, sorted, read by ``how`` (a double one, any other double, or neither; the
    two highest dice; ...). ``how`` must not depend on the order the dice fell in, and should
    be a module-level function so equal throws share their cached distribution."""

    how: Callable[[tuple[int, ...]], V] | None = None

    def read(self, faces: tuple[int, ...]) -> V:
        if self.how is None:
            raise TypeError("Classify needs a reading function")
        return self.how(tuple(sorted(faces)))


@dataclass(frozen=True)
class Joint(Throw[V]):
    """Several throws made one after another (each its own recorded roll) and read together
    by ``how`` (two opposed dice read as their difference, ...). Its distribution combines
    the parts' distributions, so exploring it branches once, over the combined readings."""

    spec: str = ""
    parts: tuple[Throw[Hashable], ...] = ()
    how: Callable[..., V] | None = None

    def _how(self) -> Callable[..., V]:
        if self.how is None:
            raise TypeError("Joint needs a reading function")
        return self.how

    def roll(self, dice: Dice) -> tuple[V, str]:
        values: list[Hashable] = []
        shown: list[str] = []
        for part in self.parts:
            value, text = part.roll(dice)
            values.append(value)
            shown.append(text)
        return self._how()(*values), "; ".join(shown)

    def exact(self) -> Dist[V]:
        how = self._how()
        out: Dist[V] = {}
        dists = [exact_of(p) for p in self.parts]
        for combo in itertools.product(*(d.items() for d in dists)):
            p = math.prod((q for _, q in combo), start=Fraction(1))
            value = how(*(v for v, _ in combo))
            out[value] = out.get(value, Fraction(0)) + p
        return out


def cap_dist(dist: Mapping[int, Fraction], cap: int) -> dict[int, Fraction]:
    """``dist`` with every value above ``cap`` counted as ``cap``."""
    out: dict[int, Fraction] = {}
    for v, p in dist.items():
        k = min(v, cap)
        out[k] = out.get(k, Fraction(0)) + p
    return out


def _dice_in(spec: str) -> int:
    """How many dice a throw's text names, summed over its terms ("d12 + d6" is 2)."""
    return sum(int(n or 1) for n in re.findall(r"(\d*)\s*[dD]\d+", spec))


@lru_cache(maxsize=4096)
def exact_of(throw: Throw[V]) -> Dist[V]:
    """``throw.exact()``, checked to sum to one, cached by the throw's value. A throw of more
    than :data:`EXACT_DICE_LIMIT` dice is refused (:class:`TooManyFaces`)."""
    count = _dice_in(throw.spec)
    if count > EXACT_DICE_LIMIT:
        raise TooManyFaces(
            f"{count:,} dice in one throw: too many to count the exact odds "
            f"(at most {EXACT_DICE_LIMIT:,}); the roll itself works"
        )
    dist = throw.exact()
    total = sum(dist.values(), Fraction(0))
    if total != 1:
        raise ArithmeticError(f"{type(throw).__name__} {throw.spec}: odds sum to {total}")
    return dist


# --------------------------------------------------------------------------- throwing


class Throws(Protocol):
    """What an action's ``play`` throws its dice with."""

    #: True when real dice are rolled (the faces are known and worth putting in words);
    #: False while the odds are being counted
    rolling: bool

    def throw(self, throw: Throw[V]) -> tuple[V, str]:
        """The throw's reading and its faces in words ("" while counting odds)."""
        ...


class Rolling:
    """Throws with real dice: each throw is rolled (and so recorded) by ``dice``."""

    rolling = True

    def __init__(self, dice: Dice) -> None:
        self.dice = dice

    def throw(self, throw: Throw[V]) -> tuple[V, str]:
        return throw.roll(self.dice)


class _Branch(Exception):
    """Raised by the explorer at the first throw past the path it was given."""

    def __init__(self, dist: Mapping[Any, Fraction]) -> None:
        super().__init__()
        self.dist = dist


class Chooser:
    """The explorer's side of a run: values for the throws already decided, in order; at the
    first throw past them, the run stops and the explorer branches on its distribution."""

    rolling = False

    def __init__(self, path: Sequence[Hashable]) -> None:
        self._path = path
        self._next = 0

    def choose(self, dist: Callable[[], Mapping[V, Fraction]]) -> V:
        if self._next < len(self._path):
            value = self._path[self._next]
            self._next += 1
            return cast(V, value)  # the path holds a value that dist() gave
        raise _Branch(dist())

    def throw(self, throw: Throw[V]) -> tuple[V, str]:
        return self.choose(lambda: exact_of(throw)), ""


#: How many runs one exploration may take before it is refused as too slow for exact odds.
RUN_LIMIT = 200_000


def explore(run: Callable[[Chooser], T], *, limit: int = RUN_LIMIT) -> dict[T, Fraction]:
    """Every result of ``run`` with its exact probability.

    ``run`` is called with a :class:`Chooser`; each value it chooses (each throw) branches the
    exploration. It is run once per node of the tree of choices, from the start each time,
    so it must be deterministic given its choices and must change nothing outside itself."""
    out: dict[T, Fraction] = {}
    stack: list[tuple[tuple[Hashable, ...], Fraction]] = [((), Fraction(1))]
    runs = 0
    while stack:
        path, p = stack.pop()
        runs += 1
        if runs > limit:
            raise TooManyFaces(f"more than {limit:,} branches of dice to count")
        try:
            result = run(Chooser(path))
        except _Branch as branch:
            for value, q in branch.dist.items():
                if q:
                    stack.append(((*path, value), p * q))
            continue
        out[result] = out.get(result, Fraction(0)) + p
    return out


class _ChoosingDice:
    """Dice whose every roll is a choice among all ordered faces (for :func:`explore_roll`)."""

    def __init__(self, chooser: Chooser) -> None:
        self._chooser = chooser

    def roll(self, spec: str, purpose: str) -> tuple[int, ...]:
        return self._chooser.choose(lambda: exact_of(Faces(spec)))


def explore_roll(throw: Throw[V], *, limit: int = RUN_LIMIT) -> dict[V, Fraction]:
    """The distribution of ``throw.roll`` found by trying every face of every roll it makes:
    what a closed form in ``throw.exact`` must equal (used by tests)."""
    return explore(lambda ch: throw.roll(_ChoosingDice(ch))[0], limit=limit)


# --------------------------------------------------------------------------- actions


def _no_plan(sit: Situation) -> Any:
    return None


@dataclass(frozen=True)
class Action(Generic[P]):
    """An action declared once.

    ``prepare(sit)`` checks that the action is allowed and works out everything that needs no
    dice (which dice, which modifiers, why), raising ``ValueError`` with the reason when it is
    not allowed. ``play(sit, plan, throws)`` throws the dice through ``throws`` and returns the
    :class:`Resolution`. :meth:`resolve` runs it with real dice; :meth:`exact_odds` counts it
    with every throw (or uses ``closed_form``, which tests hold equal to the count)."""

    key: str
    label: str
    targets: Targets
    play: Callable[[Situation, P, Throws], Resolution]
    prepare: Callable[[Situation], P] = _no_plan
    options: tuple[OptionSpec, ...] = ()
    help: str = ""
    #: whether the odds are offered to players (some actions' odds say nothing useful)
    odds: bool = True
    closed_form: Callable[[Situation, P], dict[Outcome, Fraction]] | None = None

    @property
    def spec(self) -> ActionSpec:
        from app.rules.mechanics import ActionSpec

        return ActionSpec(self.key, self.label, self.targets, self.options, self.odds, self.help)

    def resolve(self, sit: Situation, dice: Dice) -> Resolution:
        return self.play(sit, self.prepare(sit), Rolling(dice))

    def explored_odds(self, sit: Situation) -> dict[Outcome, Fraction]:
        """The odds counted by running ``play`` with every throw (never the closed form)."""
        plan = self.prepare(sit)
        return explore(lambda ch: self.play(sit, plan, ch).outcome)

    def exact_odds(self, sit: Situation) -> dict[Outcome, Fraction]:
        if self.closed_form is not None:
            return self.closed_form(sit, self.prepare(sit))
        return self.explored_odds(sit)


def merge(dists: Iterable[tuple[Mapping[V, Fraction], Fraction]]) -> Dist[V]:
    """A mixture: each distribution weighted, added up."""
    out: Dist[V] = {}
    for dist, weight in dists:
        for v, p in dist.items():
            out[v] = out.get(v, Fraction(0)) + p * weight
    return out


def mapped(dist: Mapping[V, Fraction], how: Callable[[V], W]) -> Dist[W]:
    """The distribution of ``how(value)``."""
    out: Dist[W] = {}
    for v, p in dist.items():
        k = how(v)
        out[k] = out.get(k, Fraction(0)) + p
    return out
