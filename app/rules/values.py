"""The plain values the mechanics see and return (the contract's vocabulary, re-exported by
:mod:`app.rules.mechanics`): a unit's :class:`Status` and :class:`Combatant` view, the
leaders, the actions and their options, the :class:`TurnView` of a battle, the
:class:`Situation` of an action, and the results (:class:`Effects`, :class:`Outcome`,
:class:`Resolution`) with their exact odds."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from app.rules.geometry import Footprint
from app.rules.leaderfields import NO_FIELDS, FieldValue, FieldValues
from app.rules.table import DEFAULT_TABLE, Table

Scalar = int | bool | float | str
Side = Literal[0, 1]


class NotImplementedRule(NotImplementedError):
    """A rule this ruleset's mechanics do not implement (reported, never faked)."""


class Dice(Protocol):
    """Where mechanics get their dice. The core records every roll with its purpose, so redo
    and replay give the same values without rolling again."""

    def roll(self, spec: str, purpose: str) -> tuple[int, ...]:
        """Roll ``spec`` (``"d10"``, ``"3d6"``, ``"avd"``, ``"d10z"`` for a d10 read 0-9) and
        return each die's face, before any modifier written in the expression. ``purpose`` is
        a few words for the log ("Hastati melee die", "die of death for Mago")."""
        ...


# --------------------------------------------------------------------------- state values


@dataclass(frozen=True)
class Status:
    """A unit's state under its ruleset.

    ``strength`` counts what the ruleset removes as casualties: figures (Quincunx, MWAN #90;
    a Quincunx elephant unit's 12 casualty points), bases (Leg VI, GSB), or 1 for a D3 unit
    (whose damage is ``hits``). ``hits`` are hits taken and not yet turned into losses (GSB:
    hits on the current base; D3: all hits). ``extra`` holds engine-specific counters (a
    Quincunx elephant's rounds against its current target, a Leg VI legion's lines)."""

    strength: int
    start_strength: int
    hits: int = 0
    rings: int = 0
    dps: int = 0
    grade: str | None = None
    formation: str | None = None
    markers: frozenset[str] = frozenset()
    eliminated: bool = False
    extra: Mapping[str, Scalar] = field(default_factory=dict)

    def has(self, marker: str) -> bool:
        return marker in self.markers

    @property
    def fraction_left(self) -> Fraction:
        return Fraction(self.strength, self.start_strength) if self.start_strength else Fraction(0)

    def apply(self, effects: Effects) -> Status:
        """The status after ``effects`` (pure arithmetic: the mechanics decided them)."""
        extra = dict(self.extra)
        for key in effects.extra_remove:
            extra.pop(key, None)
        extra.update(effects.extra)
        strength = max(0, self.strength - effects.casualties)
        return replace(
            self,
            strength=strength,
            hits=max(0, self.hits + effects.hits),
            rings=max(0, self.rings + effects.rings),
            dps=max(0, self.dps + effects.dps),
            formation=effects.formation if effects.formation is not None else self.formation,
            markers=(self.markers - effects.markers_remove) | effects.markers_add,
            eliminated=self.eliminated or effects.eliminated or strength == 0,
            extra=extra,
        )


@dataclass(frozen=True)
class LeaderView:
    """A leader attached to a unit, as the mechanics see him."""

    id: str
    name: str
    rank: Literal["general", "commander"]
    wounds: int = 0
    actions: int = 0
    #: the fields his engine reads (:mod:`app.rules.leaderfields`), only those set
    fields: Mapping[str, FieldValue] = NO_FIELDS
    side: Side = 0
    attached_to: str | None = None
    x: float = 0.0
    y: float = 0.0
    #: the commands (battlegroups) he leads, as the roster gives them
    commands: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.fields, FieldValues):
            object.__setattr__(self, "fields", FieldValues(self.fields))


@dataclass(frozen=True)
class Combatant:
    """One unit as the mechanics see it. Position is in the ruleset's unit of measure; the
    footprint (``width`` along the front, ``depth``) is centred on (``x``, ``y``);
    ``facing`` is in degrees, 0 = towards +y (the enemy of side 0)."""

    unit_id: str
    name: str
    troop: str
    side: Side
    status: Status
    leader: LeaderView | None = None
    army: str | None = None
    x: float = 0.0
    y: float = 0.0
    facing: float = 0.0
    width: float = 0.0
    depth: float = 0.0
    #: distance (cost) moved so far this turn or round, in the ruleset's unit
    moved: float = 0.0
    #: the roster's command (battlegroup) the unit belongs to, None when it has none
    command: str | None = None

    @cached_property
    def footprint(self) -> Footprint:
        """Its footprint, made once (frozen: it cannot go stale; a move's check and the
        Turn dock's count ask it of every unit, and a unit's combatant is shared by the
        views of every state that holds the unit)."""
        return Footprint(self.x, self.y, self.facing, self.width, self.depth)


@dataclass(frozen=True)
class OptionSpec:
    """A situational option of an action (flank, downhill, charge, ...): shown and editable
    in the resolver, accepted by ``castra odds`` and ``castra battle`` as ``--set key=value``."""

    key: str
    label: str
    kind: Literal["bool", "int", "choice"]
    default: Scalar
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    def parse(self, text: str) -> Scalar:
        if self.kind == "bool":
            low = text.strip().lower()
            if low in ("1", "true", "yes", "on", "y"):
                return True
            if low in ("0", "false", "no", "off", "n"):
                return False
            raise ValueError(f"{self.key}: expected yes or no, got {text!r}")
        if self.kind == "int":
            try:
                value = int(text)
            except ValueError:
                raise ValueError(f"{self.key}: expected a whole number, got {text!r}") from None
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"{self.key}: {value} is below the minimum {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"{self.key}: {value} is above the maximum {self.maximum}")
            return value
        if text not in self.choices:
            raise ValueError(f"{self.key}: {text!r} is not one of {', '.join(self.choices)}")
        return text


Targets = Literal["none", "side", "unit", "pair"]


@dataclass(frozen=True)
class ActionSpec:
    """Something a player can do that the rules resolve: ``melee`` and ``shoot`` (every
    ruleset that has them), and each ruleset's own (evade, control test, rampage, draw a
    chance card, ...). ``targets`` says what it needs: nothing, a side, one unit (the actor)
    or a pair (actor and target). ``odds`` says whether :meth:`Mechanics.odds` answers it."""

    key: str
    label: str
    targets: Targets
    options: tuple[OptionSpec, ...] = ()
    odds: bool = False
    help: str = ""

    def option(self, key: str) -> OptionSpec:
        for spec in self.options:
            if spec.key == key:
                return spec
        known = ", ".join(s.key for s in self.options) or "none"
        raise KeyError(f"{self.label} has no option {key!r} (options: {known})")

    def defaults(self) -> dict[str, Scalar]:
        return {spec.key: spec.default for spec in self.options}


@dataclass(frozen=True)
class TurnView:
    """What the mechanics see of the battle as a whole."""

    turn: int
    phase: int
    initiative: Side | None
    units: tuple[Combatant, ...]
    sides: tuple[Mapping[str, Scalar], Mapping[str, Scalar]]
    armies: tuple[str, str]
    side_names: tuple[str, str]
    #: the round within the turn (Quincunx: a turn is two rounds, move and counter-move)
    round: int = 1
    #: every active leader, with his position and the unit he is attached to
    leaders: tuple[LeaderView, ...] = ()
    #: the table: its size and terrain (72 x 48 with no terrain unless the battle has one)
    table: Table = DEFAULT_TABLE

    def unit(self, unit_id: str) -> Combatant:
        try:
            return self._by_id[unit_id]
        except KeyError:
            raise KeyError(f"no unit {unit_id!r}") from None

    @cached_property
    def _by_id(self) -> dict[str, Combatant]:
        """The units by id, made once a view: asking for each unit of a 1,000-unit battle
        in turn (the Turn dock's count of who may move) scanned the list each time."""
        found: dict[str, Combatant] = {}
        for u in self.units:
            found.setdefault(u.unit_id, u)
        return found

    def side_units(self, side: Side) -> tuple[Combatant, ...]:
        return tuple(u for u in self.units if u.side == side)


@dataclass(frozen=True)
class Situation:
    """An action to resolve: who acts (``actor``), on whom (``target``), which other units
    are concerned (``others``, e.g. units near a rampaging elephant), for which ``side``, with
    which options, and the battle around it (``view``, None when computing odds alone)."""

    actor: Combatant | None = None
    target: Combatant | None = None
    side: Side | None = None
    options: Mapping[str, Scalar] = field(default_factory=dict)
    others: tuple[Combatant, ...] = ()
    view: TurnView | None = None

    @property
    def attacker(self) -> Combatant:
        if self.actor is None:
            raise ValueError("this action needs an acting unit")
        return self.actor

    @property
    def defender(self) -> Combatant:
        if self.target is None:
            raise ValueError("this action needs a target unit")
        return self.target

    def flag(self, key: str) -> bool:
        return bool(self.options.get(key, False))

    def number(self, key: str, default: int = 0) -> int:
        return int(self.options.get(key, default))

    def choice(self, key: str, default: str = "") -> str:
        return str(self.options.get(key, default))


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Effects:
    """What happens to one unit: deltas and flags, applied by :meth:`Status.apply`.
    ``move`` names an after-combat move in words ("recoils 12\"", "falls back 1\"")."""

    casualties: int = 0
    hits: int = 0
    dps: int = 0
    rings: int = 0
    markers_add: frozenset[str] = frozenset()
    markers_remove: frozenset[str] = frozenset()
    formation: str | None = None
    eliminated: bool = False
    move: str | None = None
    #: move the unit on the table: (bearing in degrees, 0 = +y; distance in the ruleset's
    #: unit of measure); its facing is unchanged (a recoil faces the enemy)
    shift: tuple[float, float] | None = None
    extra: Mapping[str, Scalar] = field(default_factory=dict)
    extra_remove: frozenset[str] = frozenset()

    def __hash__(self) -> int:
        # kept once made: an Effects is hashed again for every outcome it is part of (the
        # odds of big units pair thousands of them); frozen, so the hash cannot go stale.
        # Hashed twice: a whole number's hash is itself, so a tuple holding this hash
        # hashes as the same tuple holding these effects (see :func:`paired_outcomes`).
        cached = self.__dict__.get("_hash")
        if cached is not None:
            return int(cached)
        value = hash(
            hash(
                (
                    self.casualties,
                    self.hits,
                    self.dps,
                    self.rings,
                    self.markers_add,
                    self.markers_remove,
                    self.formation,
                    self.eliminated,
                    self.move,
                    self.shift,
                    tuple(sorted(self.extra.items())),
                    self.extra_remove,
                )
            )
        )
        object.__setattr__(self, "_hash", value)
        return value

    @property
    def is_empty(self) -> bool:
        return self == NO_EFFECT


NO_EFFECT = Effects()

_NEW: Any = object.__new__
_Made = TypeVar("_Made")
_EFFECT_FIELDS = frozenset(f.name for f in fields(Effects))


def frozen_made(cls: type[_Made], values: dict[str, Any]) -> _Made:
    """``cls(**values)`` for a frozen dataclass without a ``__post_init__``, given every one
    of its fields: equal to it, in a quarter of the time or less (a battle unit's 14 fields:
    0.5 us against 2.2 us). The frozen ``__init__`` sets each field with a call of
    ``object.__setattr__``; here the fields go into the new object's ``__dict__`` at once.
    For what is made by the thousand (a stored state's units and their statuses as it is
    read, each unit's combatant, labels and look): each use is held by a test to the plain
    constructor, field for field."""
    made: _Made = _NEW(cls)
    made.__dict__.update(values)
    return made


def effects_with(effects: Effects, **changes: Any) -> Effects:
    """``dataclasses.replace(effects, **changes)``, equal to it, in a third of the time: the
    fields are copied rather than passed through the frozen dataclass's ``__init__``
    (Effects has no ``__post_init__`` to run). The odds of big units make hundreds (each
    result's disorder or bonus move)."""
    unknown = changes.keys() - _EFFECT_FIELDS
    if unknown:
        raise TypeError(f"Effects has no field {', '.join(sorted(unknown))}")
    made: Effects = _NEW(Effects)
    state = made.__dict__
    state.update(effects.__dict__)
    state.pop("_hash", None)  # the hash kept by the original, if it was hashed
    state.update(changes)
    return made


@dataclass(frozen=True)
class Outcome:
    """The result of one action on its actor and target, without the dice that produced it:
    equal outcomes are one entry in the exact odds. ``result`` is a short label ("defender
    recoils", "set-back", "2 hits")."""

    attacker: Effects = NO_EFFECT
    defender: Effects = NO_EFFECT
    result: str = ""

    #: the hash of an outcome made in bulk, found with it (:func:`paired_outcomes`); the
    #: others find theirs when asked, as a dataclass would (most are hashed once)
    _hash: ClassVar[int | None] = None

    def __hash__(self) -> int:
        known = self._hash
        if known is not None:
            return known
        return hash((self.attacker, self.defender, self.result))  # as a dataclass's own


def paired_outcomes(
    attackers: Iterable[tuple[Effects, str, str, int]], defender: Effects, words: str, hash_d: int
) -> list[Outcome]:
    """``[Outcome(a, defender, head + words + tail) for a, head, tail, _ in attackers]``, for
    the exact odds of big units, which make thousands of outcomes from a few dozen effects
    each side: each attacker's effects come with the pieces of the label around the
    defender's ``words`` and with their hash (``hash_d`` the defender's), all found once
    per effect rather than once per outcome, and the frozen dataclass's ``__init__`` (an
    ``object.__setattr__`` per field) is skipped: half the time. Equal to the outcomes
    made the plain way, with the same hashes."""
    made_all: list[Outcome] = []
    new, cls, add = _NEW, Outcome, made_all.append
    for attacker, head, tail, hash_a in attackers:
        made: Outcome = new(cls)
        state = made.__dict__
        state["attacker"] = attacker
        state["defender"] = defender
        state["result"] = result = head + words + tail
        state["_hash"] = hash((hash_a, hash_d, result))
        add(made)
    return made_all


@dataclass(frozen=True)
class UnitChange:
    unit_id: str
    effects: Effects


@dataclass(frozen=True)
class LeaderEvent:
    leader_id: str
    status: Literal["fit", "wounded", "killed", "captured"]
    wounds: int
    text: str


@dataclass(frozen=True)
class Victory:
    winner: Side | None
    reason: str


SideUpdate = Mapping[str, Scalar] | None


@dataclass(frozen=True)
class Resolution:
    """What an action or a phase hook does: effects on the actor and target (``outcome``),
    on other units, updates to each side's record (merged into it), who has the initiative,
    leaders' fates, and the explanation in words a player understands (which dice, which
    modifiers, what happened and why)."""

    outcome: Outcome = Outcome()
    others: tuple[UnitChange, ...] = ()
    sides: tuple[SideUpdate, SideUpdate] = (None, None)
    initiative: Side | None = None
    leader_events: tuple[LeaderEvent, ...] = ()
    explanation: tuple[str, ...] = ()


Odds = dict[Outcome, Fraction]


class CheckedOdds(dict[Outcome, Fraction]):
    """Exact odds whose closed form has checked, in whole numbers before it made their
    Fractions, that they sum to exactly one and hold no impossible outcome: for the odds
    of big units, that each side's weights sum to its denominator, that every pair of the
    sides' results is there, and that each chance is the product of its sides' (as
    :func:`~app.rules.dice.product_fractions` makes it, which tests hold to the plain
    Fractions). :func:`normalise` does not add up their thousands of Fractions of hundreds
    of digits again (a sixth of their time)."""


def normalise(odds: Odds) -> Odds:
    """Check that ``odds`` sum to exactly one and drop impossible outcomes (odds a closed
    form has checked, :class:`CheckedOdds`, are taken as they are)."""
    if isinstance(odds, CheckedOdds):
        return dict(odds)
    by_den, impossible = _by_denominator(odds.values())
    total = _total(by_den)
    if total != 1:
        raise ArithmeticError(f"odds sum to {total}, not 1")
    if not impossible:  # a copy keeps the hashes: no outcome is hashed again
        return dict(odds)
    return {o: p for o, p in odds.items() if p}


def _by_denominator(values: Iterable[Fraction]) -> tuple[dict[int, int], bool]:
    """The numerators added up per denominator, and whether any value is 0."""
    by_den: dict[int, int] = {}
    zero = False
    for p in values:
        n, d = p.as_integer_ratio()  # one call, not two properties: thousands of values
        by_den[d] = by_den.get(d, 0) + n
        if not n:
            zero = True
    return by_den, zero


def _total(by_den: dict[int, int]) -> Fraction:
    """The sum of the numerators over their denominators, over their least common multiple
    in whole numbers: one Fraction, not one addition (a greatest common divisor) per
    denominator (the odds of big units have hundreds of them)."""
    if not by_den:
        return Fraction(0)
    top = math.lcm(*by_den)
    return Fraction(sum(n * (top // d) for d, n in by_den.items()), top)


def exact_sum(values: Iterable[Fraction]) -> Fraction:
    """The exact sum of ``values``, as ``sum`` gives it, but quick for thousands of
    fractions of hundreds of digits (the odds of big units): the numerators are added up in
    whole numbers per denominator, then over the denominators' least common multiple, so no
    fraction is reduced but the total."""
    return _total(_by_denominator(values)[0])


def add_odds(odds: Odds, outcome: Outcome, p: Fraction) -> None:
    odds[outcome] = odds.get(outcome, Fraction(0)) + p
