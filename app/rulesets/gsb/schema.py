"""Grown Slightly Bald: five minute Punic War rules (blog post) -- troop and table models.

A small, base-counting game: units of four bases (elephants one), hit points per base, dice
pools by troop type, a d10 activation ladder and victory stars. Everything the text gives as a
number is a field here; the battle engine and the reference sheet read these models only.

Per-troop numbers (move, melee dice, bases, hit points) live on the troop (for unit cards) and
again in the tables keyed by troop id (for the sheet); :func:`check` keeps the two in step.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from app.rules.record import (
    AfterValidator,
    Exact,
    Field,
    PlainValidator,
    ValidationInfo,
    field_validator,
)
from app.rules.ruleset import Ruleset
from app.rules.schema import DiceExpr, Id, Strict, Text, TroopBase
from app.rules.table import TerrainKind

DisengageKind = Literal["none", "any", "from_infantry"]
ShotTiming = Literal["after_move", "before_or_after_move", "before_during_or_after_move"]

# --------------------------------------------------------------------------- bounds
# Issue 13: house-rule numbers are typed as strictly as roster files (a string, a float or a
# bool where a whole number belongs is refused) and bounded: generous for any variant of
# these rules, yet small enough that no accepted value makes the exact odds, the cards or a
# battle run long. The odds grow with a unit's hit points (elephant terror is unbounded, so
# every total up to them is an outcome): MAX_HIT_POINTS keeps the worst matchup to seconds.

#: bases in a unit (the source: 4; elephants 1)
MAX_BASES = 16
#: hit points of one base (the source: 4; lights 2)
MAX_HITS_PER_BASE = 8
#: a unit's hit points, bases x hits per base (the source: 16)
MAX_HIT_POINTS = 64
#: dice one unit rolls, and extra dice for a flank, a general (the source: 2-4, +1 or +2)
MAX_DICE = 12
MAX_EXTRA_DICE = 6
#: faces of one die (the source: d6, d10)
MAX_SIDES = 100
#: dice and faces of the general's death test (the source: 2d6)
MAX_TEST_DICE = 4
MAX_TEST_SIDES = 20
#: distances and moves in unit widths (the source: 1-4)
MAX_UW = 24
#: activations before the ladder starts, and its step (the source: 2 and 1)
MAX_FREE = 20
MAX_STEP = 10
#: victory stars for one unit or general
MAX_STARS = 10


Bases = Annotated[int, Exact(), Field(ge=1, le=MAX_BASES)]
HitsPerBase = Annotated[int, Exact(), Field(ge=1, le=MAX_HITS_PER_BASE)]
ExtraDice = Annotated[int, Exact(), Field(ge=0, le=MAX_EXTRA_DICE)]
Score = Annotated[int, Exact(), Field(ge=1, le=6)]
UnitWidths = Annotated[int, Exact(), Field(ge=0, le=MAX_UW)]
Distance = Annotated[float, Exact(), Field(gt=0, le=MAX_UW, allow_inf_nan=False)]
Stars = Annotated[int, Exact(), Field(ge=0, le=MAX_STARS)]
Flag = Annotated[bool, Exact()]

_DICE = re.compile(r"^(\d*)d(\d+)(z?)([+-]\d+)?$")


def _one_die(text: str) -> str:
    """GSB rolls plain dice (``d6``; ``d10z``, a d10 read 0-9): one die, no modifier, at most
    MAX_SIDES faces (checked on the text, before any die is built)."""
    m = _DICE.match(text.strip().lower())
    if m is None or m.group(1) not in ("", "1") or m.group(4):
        raise ValueError(f"{text!r}: must be one plain die, like d6 or d10z")
    if not 2 <= int(m.group(2)) <= MAX_SIDES:
        raise ValueError(f"{text!r}: a die has 2 to {MAX_SIDES} faces")
    return text


def _test_dice(text: str) -> str:
    """The general's death test: up to MAX_TEST_DICE plain dice of up to MAX_TEST_SIDES."""
    m = _DICE.match(text.strip().lower())
    if m is None or m.group(3) or m.group(4):
        raise ValueError(f"{text!r}: must be plain dice, like 2d6")
    if not 1 <= int(m.group(1) or 1) <= MAX_TEST_DICE:
        raise ValueError(f"{text!r}: the death test rolls 1 to {MAX_TEST_DICE} dice")
    if not 2 <= int(m.group(2)) <= MAX_TEST_SIDES:
        raise ValueError(f"{text!r}: its dice have 2 to {MAX_TEST_SIDES} faces")
    return text


OneDie = Annotated[DiceExpr, AfterValidator(_one_die)]
TestDice = Annotated[DiceExpr, AfterValidator(_test_dice)]


def _hit_points(hits_per_base: int, info: ValidationInfo) -> int:
    """A unit's hit points, its bases times ``hits_per_base``, are at most MAX_HIT_POINTS."""
    bases = info.data.get("bases")
    if isinstance(bases, int) and bases * hits_per_base > MAX_HIT_POINTS:
        raise ValueError(
            f"{bases} bases x {hits_per_base} hits is {bases * hits_per_base} hit points; "
            f"a unit has at most {MAX_HIT_POINTS}"
        )
    return hits_per_base


def _melee_dice(value: object) -> int | str:
    """A count of melee dice, or ``"as_opponent"`` (elephants): one clear message for
    either."""
    if value == "as_opponent":
        return "as_opponent"
    if type(value) is not int or not 0 <= value <= MAX_DICE:
        raise ValueError(f'must be a whole number of dice, 0 to {MAX_DICE}, or "as_opponent"')
    return value


MeleeDice = Annotated[int | Literal["as_opponent"], PlainValidator(_melee_dice)]


# --------------------------------------------------------------------------- troops


class Troop(TroopBase):
    """A GSB troop type. ``move`` is in unit widths; ``melee_dice`` is a count or
    ``"as_opponent"`` (elephants); ``pivot`` names a row of ``tables.pivot.kinds``."""

    bases: Bases
    hits_per_base: HitsPerBase
    move: UnitWidths
    melee_dice: MeleeDice
    pivot: Id
    disengage: DisengageKind = "none"
    passes_through_friends: Flag = False

    _hit_points = field_validator("hits_per_base")(_hit_points)

    @property
    def total_hits(self) -> int:
        return self.bases * self.hits_per_base


# --------------------------------------------------------------------------- tables


class Initiative(Strict):
    """Each side rolls ``die``; the higher chooses who moves first; ``ties_to`` (an army id)
    wins ties."""

    title: Text
    die: OneDie
    ties_to: Id
    note: str | None = None


class Activation(Strict):
    """Units act one at a time. The first ``free`` activations need no roll; after that a
    ``die`` read ``face_min``..``face_max`` must reach ``first_needed``, rising by ``step``
    after each successful roll. A failed roll passes play."""

    title: Text
    free: Annotated[int, Exact(), Field(ge=0, le=MAX_FREE)]
    die: OneDie
    face_min: Annotated[int, Exact(), Field(ge=0, le=1)]
    face_max: Annotated[int, Exact(), Field(ge=1, le=MAX_SIDES)]
    first_needed: Annotated[int, Exact(), Field(ge=0, le=MAX_SIDES + 1)]
    step: Annotated[int, Exact(), Field(ge=1, le=MAX_STEP)]
    once_per_turn: Flag
    failure_passes_play: Flag
    note: str | None = None

    @field_validator("face_max")
    @classmethod
    def _read(cls, face_max: int, info: ValidationInfo) -> int:
        """The die is read ``face_min``..``face_max``: as many faces as it has (a d10 read
        0-9)."""
        die, face_min = info.data.get("die"), info.data.get("face_min")
        m = _DICE.match(die.strip().lower()) if isinstance(die, str) else None
        if m is not None and isinstance(face_min, int):
            sides = int(m.group(2))
            if face_max - face_min + 1 != sides:
                end = face_min + sides - 1
                raise ValueError(
                    f"a {die} read from {face_min} has {sides} faces: {face_min}-{end}"
                )
        return face_max

    @field_validator("first_needed")
    @classmethod
    def _on_the_die(cls, first: int, info: ValidationInfo) -> int:
        """The first score needed lies on the die, or one past its top (no roll can
        succeed)."""
        low, high = info.data.get("face_min"), info.data.get("face_max")
        if isinstance(low, int) and isinstance(high, int) and not low <= first <= high + 1:
            raise ValueError(f"{first} is off the die ({low}-{high})")
        return first

    def needed(self, activation: int) -> int | None:
        """Score needed for the ``activation``-th unit this player's turn (1-based); None
        when it is free. A result above ``face_max`` means the unit cannot be activated."""
        if activation < 1:
            raise ValueError("activations are counted from 1")
        if activation <= self.free:
            return None
        return self.first_needed + (activation - self.free - 1) * self.step


class MoveRow(Strict):
    label: Text
    move: UnitWidths


class Movement(Strict):
    """Move allowance per troop type, in unit widths (one increment at a time)."""

    title: Text
    unit_width_cm_15mm: Annotated[float, Exact(), Field(gt=0, le=100)]
    rows: dict[Id, MoveRow] = Field(min_length=1)
    flanked_may_turn_to_face: Flag
    note: str | None = None


class PivotKind(Strict):
    """``free_deg``: pivot allowed before each increment at no cost (None = unlimited);
    ``cost`` unit widths for a larger pivot (or, with ``free_deg`` 0, for any pivot)."""

    label: Text
    free_deg: Annotated[int, Exact(), Field(ge=0, le=360)] | None = None
    cost: UnitWidths


class Pivot(Strict):
    title: Text
    kinds: dict[Id, PivotKind] = Field(min_length=1)
    note: str | None = None


class DisengageRow(Strict):
    label: Text
    kind: Literal["any", "from_infantry"]


class Disengage(Strict):
    title: Text
    about_face_cost: UnitWidths
    no_shoot_or_melee_after: Flag
    blocked_when: tuple[Literal["front_and_rear", "both_flanks"], ...]
    rows: dict[Id, DisengageRow] = Field(min_length=1)
    #: the troop types that count as infantry ("heavy cavalry ... from combat with infantry")
    infantry: tuple[Id, ...] = ()
    #: unit widths a flanked unit spends turning to face (errata turn-to-face: none)
    turn_to_face_cost: UnitWidths = 0
    note: str | None = None


class Interpenetration(Strict):
    title: Text
    lights_pass_friends_if_room: Flag
    only_lights_pass_lights: Flag
    note: str | None = None


class HitPointRow(Strict):
    label: Text
    bases: Bases
    hits_per_base: HitsPerBase

    _hit_points = field_validator("hits_per_base")(_hit_points)


class HitPoints(Strict):
    title: Text
    rows: dict[Id, HitPointRow] = Field(min_length=1)
    destroyed_unit_stars: Stars
    note: str | None = None


class MoraleRow(Strict):
    label: Text
    lose_on: Score


class Morale(Strict):
    """Rolled whenever a base is lost: ``die`` at or above ``lose_on`` removes another base.
    ``chain``: whether a base removed by this roll calls for another roll (our decision:
    no)."""

    title: Text
    die: OneDie
    rows: dict[Literal["normal", "last_base", "fighting_elephants"], MoraleRow]
    chain: Flag
    note: str | None = None


class ShooterRow(Strict):
    label: Text
    timing: ShotTiming


class Shooting(Strict):
    """``dice`` dice of ``die`` per shooting unit, each hitting on ``hit_on`` or more."""

    title: Text
    range: Distance
    die: OneDie
    dice: Annotated[int, Exact(), Field(ge=1, le=MAX_DICE)]
    hit_on: Score
    measured_from: Text
    needs_line_of_sight: Flag
    #: the arc a target must be in, about the shooter's facing: 180, at least partly ahead
    #: of the line of its front edge; None, all round (no other arc is read)
    arc_degrees: Literal[180] | None = None
    rows: dict[Id, ShooterRow] = Field(min_length=1)
    note: str | None = None


class MeleeDiceRow(Strict):
    label: Text
    dice: MeleeDice


class Melee(Strict):
    """Dice per troop type (each a ``die``), flank/rear extra dice, and the melee procedure
    switches."""

    title: Text
    die: OneDie
    front_only: Flag
    own_turn_only: Flag
    rows: dict[Id, MeleeDiceRow] = Field(min_length=1)
    as_opponent_uses: Literal["opponent_basic_dice"]
    elephant_vs_elephant_dice: Annotated[int, Exact(), Field(ge=1, le=MAX_DICE)]
    flank_rear_extra_dice: ExtraDice
    flank_rear_extra_dice_by_troop: dict[Id, ExtraDice] = Field(default_factory=dict)
    second_melee_after_destroying: Flag
    note: str | None = None


class HitNumberRow(Strict):
    label: Text
    hit_on: Score


class HitNumbers(Strict):
    """Melee score needed to hit, by the target's troop type. The source promises this table
    and never gives it (see errata)."""

    title: Text
    complete_in_source: Flag
    by: Literal["target"]
    rows: dict[Id, HitNumberRow] = Field(min_length=1)
    note: str | None = None


class OptionalRule(Strict):
    """A variant of the hit numbers: ``attacker`` (any unit when unset) hitting ``target``
    from one of ``situations`` also hits on ``hit_on`` (the author's afterthought about heavy
    cavalry; our earlier reading of the missing table)."""

    title: Text
    enabled: Flag
    attacker: Id | None = None
    target: Id
    situations: tuple[Literal["front", "flank", "rear"], ...] = Field(min_length=1)
    hit_on: Score
    note: str | None = None


class Elephants(Strict):
    title: Text
    troop: Id
    terror_face: Score
    terror_rerolls: Flag
    rampage_radius: Distance
    rampage_die: OneDie
    rampage_hit_on: Score
    rampage_affects: Literal["all_units", "enemy_units"]
    note: str | None = None


class TerrainRow(Strict):
    label: Text
    max_dice: Annotated[int, Exact(), Field(ge=1, le=MAX_DICE)]


class TerrainKindRow(Strict):
    """What one of Castra's terrain kinds is in GSB: whether it can be entered (or the
    umpire decides), whether it blocks sight across it, and which melee cap of
    ``terrain.rows`` applies in it (None: none)."""

    label: Text
    passable: bool | Literal["confirm"]
    blocks_sight: Flag = False
    melee_cap: Id | None = None
    note: str | None = None


class Terrain(Strict):
    title: Text
    rows: dict[Id, TerrainRow] = Field(min_length=1)
    kinds: dict[TerrainKind, TerrainKindRow] = Field(default_factory=dict)
    applies_to_attackers_into: Flag
    extras_added_after_cap: tuple[Literal["flank", "general"], ...]
    note: str | None = None


class General(Strict):
    title: Text
    per_side: Annotated[int, Exact(), Field(ge=0, le=10)]
    melee_bonus: ExtraDice
    bonus_kind: Literal["die", "score"]
    death_test: TestDice
    dies_on: tuple[Annotated[int, Exact(), Field(ge=1, le=MAX_TEST_SIDES)], ...]
    test_when: Literal["any_hit", "melee_hit"]
    once_per_melee: Flag
    killed_with_unit: Flag
    dead_general_stars: Stars
    may_teleport: Flag
    no_bonus_turn_moved: Flag
    note: str | None = None

    @field_validator("dies_on")
    @classmethod
    def _one_face_per_die(cls, faces: tuple[int, ...], info: ValidationInfo) -> tuple[int, ...]:
        """``dies_on`` names one face for each die of the death test (6, 6 for 2d6)."""
        test = info.data.get("death_test")
        m = _DICE.match(test.strip().lower()) if isinstance(test, str) else None
        if m is not None:
            count, sides = int(m.group(1) or 1), int(m.group(2))
            if len(faces) != count or max(faces, default=0) > sides:
                raise ValueError(
                    f"{list(faces)} must name one face (1-{sides}) for each of the {count} "
                    f"dice of {test}"
                )
        return faces


class Victory(Strict):
    title: Text
    stars_percent_of_enemy_units: Annotated[int, Exact(), Field(ge=1, le=100)]
    rounding: Literal["up"]
    note: str | None = None

    def stars_needed(self, enemy_units: int) -> int:
        """Stars needed against an army of ``enemy_units`` units (rounded up)."""
        return -(-enemy_units * self.stars_percent_of_enemy_units // 100)


class Deployment(Strict):
    title: Text
    screen: Flag
    depth_feet: Annotated[float, Exact(), Field(gt=0, le=100)]
    swap_army: Id
    swap_units: Annotated[int, Exact(), Field(ge=0, le=50)]
    note: str | None = None


class Tables(Strict):
    """Every table of Grown Slightly Bald."""

    initiative: Initiative
    activation: Activation
    movement: Movement
    pivot: Pivot
    disengage: Disengage
    interpenetration: Interpenetration
    hit_points: HitPoints
    morale: Morale
    shooting: Shooting
    melee: Melee
    hit_numbers: HitNumbers
    optional_rules: dict[Id, OptionalRule] = Field(default_factory=dict)
    elephants: Elephants
    terrain: Terrain
    general: General
    victory: Victory
    deployment: Deployment


# --------------------------------------------------------------------------- access


def tables(rs: Ruleset) -> Tables:
    """The ruleset's tables, typed; TypeError if it is not a GSB ruleset."""
    if not isinstance(rs.tables, Tables):
        raise TypeError(f"ruleset {rs.id!r} does not have Grown Slightly Bald tables")
    return rs.tables
