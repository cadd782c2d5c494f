"""The contract between a ruleset's mechanics module and the battle core.

Each ruleset's ``app/rulesets/<engine>/mechanics.py`` subclasses :class:`Mechanics` and
overrides the small hooks its rules need (python-chess's variants are the model): numbers
come from the ruleset's tables (``app.rulesets.<engine>.schema.tables(rs)``); conditions are
Python.

Mechanics see plain values -- a :class:`Situation` holding the acting unit, its target, other
units and the chosen options, and a :class:`TurnView` of the battle -- and return plain values:
a :class:`Resolution` (what changes, and why, in words) and, for actions with odds, the exact
distribution of :class:`Outcome` values. They never change the battle themselves: the core
applies the effects, records every roll and writes the log. Given the same dice, ``resolve``
must produce exactly the ``Outcome`` that ``odds`` counts for those dice.

An action or hook a ruleset does not implement raises :class:`NotImplementedRule` naming the
rule, so nothing is silently skipped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar, Literal, Protocol

from app.rules.geometry import Footprint, aspect, edge_distance

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset

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
    bonus: int = 0
    wounds: int = 0
    actions: int = 0
    quality: str | None = None
    exceptional: bool = False
    side: Side = 0
    attached_to: str | None = None
    x: float = 0.0
    y: float = 0.0


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

    @property
    def footprint(self) -> Footprint:
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

    def unit(self, unit_id: str) -> Combatant:
        for u in self.units:
            if u.unit_id == unit_id:
                return u
        raise KeyError(f"no unit {unit_id!r}")

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
        return hash(
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

    @property
    def is_empty(self) -> bool:
        return self == NO_EFFECT


NO_EFFECT = Effects()


@dataclass(frozen=True)
class Outcome:
    """The result of one action on its actor and target, without the dice that produced it:
    equal outcomes are one entry in the exact odds. ``result`` is a short label ("defender
    recoils", "set-back", "2 hits")."""

    attacker: Effects = NO_EFFECT
    defender: Effects = NO_EFFECT
    result: str = ""


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


def normalise(odds: Odds) -> Odds:
    """Check that ``odds`` sum to exactly one and drop impossible outcomes."""
    total = sum(odds.values(), Fraction(0))
    if total != 1:
        raise ArithmeticError(f"odds sum to {total}, not 1")
    return {o: p for o, p in odds.items() if p}


def add_odds(odds: Odds, outcome: Outcome, p: Fraction) -> None:
    odds[outcome] = odds.get(outcome, Fraction(0)) + p


# --------------------------------------------------------------------------- the base class


class Mechanics:
    """Base of every ruleset's mechanics. Subclasses set ``engine`` and override hooks."""

    engine: ClassVar[str] = ""
    #: what ``Status.strength`` counts, for the log and the inspector
    strength_unit: ClassVar[str] = "figures"
    #: how many times a turn runs through the phases (Quincunx: two rounds, move and
    #: counter-move); ``TurnView.round`` says which
    rounds_per_turn: ClassVar[int] = 1
    #: what a round is called in the log ("round"; D3: "player turn")
    round_name: ClassVar[str] = "round"

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    # -- set-up -------------------------------------------------------------------------

    def initial_status(self, troop: str, size: int, grade: str | None) -> Status:
        """A fresh unit of ``size`` (figures or bases, as the roster counts them)."""
        return Status(strength=size, start_strength=size, grade=grade)

    def status_problem(self, troop: str, status: Status) -> str | None:
        """Why ``status`` is not a state a unit of ``troop`` can be in under these rules, in
        words, or None when it is one. The core refuses such a state when it is typed by hand
        (``battle adjust``, ``castra odds``), since the mechanics assume they never see one.

        The generic check: strength from 0 to the unit's starting strength; hits, rings and
        DPs not negative. Rulesets extend it with the limits their tables set (call
        ``super()`` first)."""
        what = self.strength_unit
        if status.strength < 0:
            return f"strength cannot be negative ({status.strength} {what})"
        if status.strength > status.start_strength:
            return (
                f"strength {status.strength} is more than the unit's "
                f"{status.start_strength} {what} at the start"
            )
        for name in ("hits", "rings", "dps"):
            value = getattr(status, name)
            if value < 0:
                return f"{name} cannot be negative ({value})"
        return None

    def start_battle(self, view: TurnView, dice: Dice) -> Resolution:
        """Once, when the battle is created (build chance-card decks, ...)."""
        return Resolution()

    # -- turn ---------------------------------------------------------------------------

    def phases(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.ruleset.turn.phases)

    def begin_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """When ``view.phase`` of ``view.turn`` begins (roll initiative, draw a card, ...)."""
        return Resolution()

    def end_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """When ``view.phase`` ends (rest, rally, elimination, clearing markers, ...)."""
        return Resolution()

    def move_allowance(self, unit: Combatant, view: TurnView | None = None) -> float | None:
        """The unit's move in the ruleset's unit of measure; None when dice decide it."""
        return None

    # -- actions ------------------------------------------------------------------------

    def actions(self) -> Sequence[ActionSpec]:
        """Every action this ruleset resolves."""
        return ()

    def derive_options(self, action: str, sit: Situation) -> dict[str, Scalar]:
        """Options the table itself decides, filled in before the player edits them: by
        default the attack's aspect from the units' positions (options named ``aspect``,
        ``flank``, ``rear`` or ``flank_or_rear``) and the base-edge distance (``distance``).
        Rulesets override this to read more from the state."""
        spec = self.action(action)
        keys = {o.key for o in spec.options}
        out: dict[str, Scalar] = {}
        if sit.actor is None or sit.target is None:
            return out
        a, t = sit.actor, sit.target
        side_of = aspect(t.footprint, a.x, a.y)
        if "aspect" in keys:
            out["aspect"] = side_of
        if "flank" in keys:
            out["flank"] = side_of == "flank"
        if "rear" in keys:
            out["rear"] = side_of == "rear"
        if "flank_or_rear" in keys:
            out["flank_or_rear"] = side_of != "front"
        if "distance" in keys:
            out["distance"] = round(edge_distance(a.footprint, t.footprint))
        return out

    def action(self, key: str) -> ActionSpec:
        for spec in self.actions():
            if spec.key == key:
                return spec
        known = ", ".join(a.key for a in self.actions()) or "none"
        raise NotImplementedRule(
            f"{self.ruleset.meta.short_name} has no action {key!r} (actions: {known})"
        )

    def resolve(self, action: str, sit: Situation, dice: Dice) -> Resolution:
        """Resolve ``action`` with ``dice``."""
        raise NotImplementedRule(f"{self.ruleset.meta.short_name}: {action}")

    def odds(self, action: str, sit: Situation) -> Odds:
        """The exact distribution of ``Outcome`` for ``action`` (sums to 1)."""
        raise NotImplementedRule(f"{self.ruleset.meta.short_name}: odds of {action}")

    # -- the end ------------------------------------------------------------------------

    def victory(self, view: TurnView) -> Victory | None:
        """The winner by the ruleset's victory rule, or None while the battle goes on."""
        return None

    # -- helpers for subclasses -----------------------------------------------------------

    def troop_name(self, troop: str) -> str:
        return self.ruleset.troop(troop).name


# --------------------------------------------------------------------------- finding them


def mechanics_for(ruleset: Ruleset) -> Mechanics:
    """The mechanics of ``ruleset``: its engine's class (:attr:`Engine.mechanics
    <app.rules.engine.Engine.mechanics>`, code of ``app.rulesets``, never of the ruleset's
    folder) reading the ruleset's own numbers."""
    return ruleset.engine.mechanics(ruleset)
