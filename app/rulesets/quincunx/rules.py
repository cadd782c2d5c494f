"""Quincunx: the rules without dice, for the mechanics (:mod:`app.rulesets.quincunx.mechanics`).

Exact dice counts; attrition levels and column shifts; elephant losses; the leader's risk
roll; missile dice; the names of the state kept on units and sides; and the values the
mechanics pass around (a cast, a fight, a loss, a shot). Every number comes from the typed
tables (:mod:`app.rulesets.quincunx.schema`); nothing here casts a die or knows about the
battle core.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from app.rules.dice import parse_dice
from app.rules.mechanics import Combatant, Effects, Scalar, Situation
from app.rulesets.quincunx.schema import AttritionRow, MissileBand, Tables

if TYPE_CHECKING:
    pass


Counts = dict[int, int]
"""Integer weights of equally likely dice results: value -> number of ways."""

#: Compass points as bearings clockwise from North (the rampage chart names them).
COMPASS: dict[str, float] = {
    "north": 0.0,
    "northeast": 45.0,
    "east": 90.0,
    "southeast": 135.0,
    "south": 180.0,
    "southwest": 225.0,
    "west": 270.0,
    "northwest": 315.0,
}
FORMED, SKIRMISH = "formed", "skirmish"
# --------------------------------------------------------------------------- dice counts


def convolve_counts(a: Counts, b: Counts) -> Counts:
    out: Counts = {}
    for va, ca in a.items():
        for vb, cb in b.items():
            out[va + vb] = out.get(va + vb, 0) + ca * cb
    return out


def dice_counts(specs: Sequence[str], modifier: int = 0) -> tuple[Counts, int]:
    """Weights of the total of several dice expressions plus ``modifier``, and the number of
    equally likely throws (their denominator)."""
    total: Counts = {modifier: 1}
    denominator = 1
    for text in specs:
        spec = parse_dice(text)
        one: Counts = {}
        for face in spec.faces:
            one[face] = one.get(face, 0) + 1
        for _ in range(spec.count):
            total = convolve_counts(total, one)
            denominator *= spec.sides
        total = {v + spec.modifier: c for v, c in total.items()}
    return total, denominator


def dice_modifier(specs: Sequence[str]) -> int:
    """The fixed part written in dice expressions (``d12+2`` -> 2)."""
    return sum(parse_dice(s).modifier for s in specs)


# --------------------------------------------------------------------------- attrition


def attrition_limit(t: Tables, row: AttritionRow, start: int) -> Fraction:
    """Figures remaining at which ``row`` applies to a unit of ``start`` figures: the
    table's number for its size (15 reads the 16 column), else the exact fraction."""
    table = t.attrition
    column = start
    for alias in table.size_aliases:
        if alias.size == start:
            column = alias.column
    if column in table.original_sizes:
        return Fraction(row.remaining[table.original_sizes.index(column)])
    return Fraction(start, round(100 / row.percent))


def attrition_rows(t: Tables, strength: int, start: int) -> list[AttritionRow]:
    """Quincunx, Attrition: every row of the attrition table the unit has reached (its
    figures remaining at or below the row's number)."""
    return [r for r in t.attrition.rows if strength <= attrition_limit(t, r, start)]


def effective_shifts(t: Tables, active: Iterable[str]) -> list[str]:
    """The active column shifts that count: a shift that replaces another is used instead of
    it (errata "column-shifts-combine")."""
    ids = sorted(set(active))
    shifts = t.column_shifts.shifts
    replaced = {r for sid in ids for r in shifts[sid].replaces}
    return [sid for sid in ids if sid not in replaced]


def combine_shifts(t: Tables, active: Iterable[str]) -> int:
    """Total melee column shift of the active causes (shifts for different causes add)."""
    return sum(t.column_shifts.shifts[sid].columns for sid in effective_shifts(t, active))


# --------------------------------------------------------------------------- elephants


@dataclass(frozen=True)
class ElephantLoss:
    """Casualty points an elephant unit actually loses, who falls, and whether the last
    elephant goes berserk or dies."""

    casualties: int
    fallen: tuple[str, ...]
    berserk: bool
    killed: bool


def elephant_loss(
    t: Tables, strength: int, start: int, casualties: int, berserk: bool
) -> ElephantLoss:
    """Quincunx, Elephant Attrition: hits take the first element's pikeman, javelineer and
    mahout, then its elephant (three hits), then the next element's crew; when only the last
    elephant is left, its first hit sends it berserk (errata "elephant-last-beast"). A
    berserk elephant's later hits come off its remaining hits; at none it is dead."""
    el = t.elephants
    if casualties <= 0:
        return ElephantLoss(0, (), False, False)
    if berserk:
        lost = min(casualties, strength)
        return ElephantLoss(lost, ("elephant",) * lost, False, lost >= strength)
    lost = max(0, min(casualties, strength - el.elephant_hits))
    per = el.casualty_points_per_element
    crew = el.hit_order[:-1]
    fallen: list[str] = []
    for k in range(start - strength, start - strength + lost):
        element, within = divmod(k, per)
        who = crew[within] if within < len(crew) else el.hit_order[-1]
        fallen.append(f"{who} of element {element + 1}")
    return ElephantLoss(lost, tuple(fallen), casualties > lost, False)


# --------------------------------------------------------------------------- leaders


Fate = Literal["fit", "wounded", "killed"]
Risk = Literal["double one", "double", "no double"]


def risk_reading(faces: tuple[int, ...]) -> Risk:
    """Quincunx, Commanders: the leader's 2d6 (sorted) read as a double one, another
    double, or no double: all that his fate depends on."""
    if faces[0] != faces[-1]:
        return "no double"
    return "double one" if faces[0] == 1 else "double"


def leader_fate(reading: Risk, wounds: int, killing_wounds: int) -> tuple[Fate, int]:
    """Quincunx, Commanders: the 2d6 risk roll: a double one kills, any other double wounds,
    and the wound that reaches ``killing_wounds`` kills. Returns (status, wounds)."""
    if reading == "double one":
        return "killed", wounds
    if reading == "double":
        wounds += 1
        return ("killed" if wounds >= killing_wounds else "wounded"), wounds
    return "fit", wounds


def leader_choices(t: Tables) -> tuple[str, ...]:
    """Choices of a leader-bonus option: as attached, none, or the two bonuses."""
    lt = t.leaders
    return ("attached", "none", str(lt.attached_bonus), str(lt.great_leader_bonus))


# --------------------------------------------------------------------------- missilery


def missile_band(t: Tables, firing: int) -> MissileBand | None:
    """The row of the missilery matrix for the number firing (None below the first)."""
    for band in t.missile_dice.bands:
        if band.min_firing <= firing and (band.max_firing is None or firing <= band.max_firing):
            return band
    return None


def missile_dice(
    band: MissileBand, column: str, cover: bool, crossing_shift: int, ladder: Sequence[str]
) -> str | None:
    """Quincunx, Missilery Matrix: the pair of dice in the band's column (cover / overhead,
    long, short), moved ``crossing_shift`` steps up the dice ladder for a target crossing a
    stream (a 'No' cell rises to the ladder's first step; the top stays the top)."""
    die = band.cover if cover else (band.short if column == "short" else band.long)
    if crossing_shift:
        index = (ladder.index(die) if die is not None else -1) + crossing_shift
        die = ladder[min(index, len(ladder) - 1)] if index >= 0 else None
    return die


# --------------------------------------------------------------------------- state names

# markers
MOVED, FOUGHT, FIRED, SHOT_AT = "moved", "fought", "fired", "shot_at"
EVADED, NO_FIRE, STRAGGLER, BERSERK = "evaded", "no_fire", "straggler", "berserk"
TO_RAMPAGE, OUT_OF_COMMAND = "to_rampage", "out_of_command"
ACTIVITY = frozenset({MOVED, FOUGHT, FIRED, SHOT_AT})
# extra keys
MELEE_WITH, EL_TARGET, EL_ROUNDS = "melee_with", "elephant_target", "elephant_rounds"
PENALTY, PENALTY_ROUNDS, VOLLEY_USED = "pre_melee_penalty", "pre_melee_rounds", "volley_used"
PELTAST_VOLLEY, EVADED_ROUNDS, NO_FIRE_ROUNDS = "peltast_volley", "evaded_rounds", "no_fire_rounds"
MOVE_CLASS, HEADING, DISTANCE = "move_class", "rampage_bearing", "rampage_inches"
# side-record keys
INIT_DIE, INIT_CAST, WON, MOVING = (
    "initiative_die",
    "initiative_cast",
    "won_melee",
    "moving",
)


def fmt(x: float) -> str:
    return f"{x:g}"


@dataclass(frozen=True)
class Cast:
    """One side's melee cast: the dice (data expressions), the fixed modifier and words."""

    dice: tuple[str, ...]
    modifier: int
    words: str

    def total(self, faces: Sequence[int]) -> int:
        return sum(faces) + dice_modifier(self.dice) + self.modifier


@dataclass(frozen=True)
class Fighter:
    unit: Combatant
    cast: Cast
    rings: int
    extra: Mapping[str, Scalar]
    extra_remove: frozenset[str]
    recoils: bool = True


@dataclass(frozen=True)
class Fight:
    """A melee (or a berserk elephant's trample) ready to be cast."""

    kind: str
    a: Fighter
    d: Fighter
    #: the units on the table (a straggler retiring stops at a friendly unit behind it)
    pool: tuple[Combatant, ...] = ()
    #: the outcome of each difference already worked out (counting the odds meets each
    #: difference once per leader-risk reading)
    memo: dict[int, Any] = field(default_factory=dict, compare=False, repr=False)


X = TypeVar("X")


@dataclass(frozen=True)
class Plan(Generic[X]):
    """What an action's ``prepare`` works out before any die: the situation with every
    option filled in (defaults for those not given) and the action's own preparation (a
    fight, a shot, the volley dice, ...), or the outcome when no dice are needed."""

    sit: Situation
    what: X


@dataclass(frozen=True)
class Loss:
    casualties: int
    markers: frozenset[str]
    eliminated: bool
    words: tuple[str, ...]
    straggler: bool


@dataclass(frozen=True)
class Shot:
    dice: str
    modifier: int
    words: tuple[str, ...]
    attacker: Combatant
    target: Combatant
    attacker_effects: Effects
    pool: tuple[Combatant, ...] = ()
