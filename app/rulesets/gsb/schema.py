"""Grown Slightly Bald: five minute Punic War rules (blog post) -- troop and table models.

A small, base-counting game: units of four bases (elephants one), hit points per base, dice
pools by troop type, a d10 activation ladder and victory stars. Everything the text gives as a
number is a field here; the battle engine and the reference sheet read these models only.

Per-troop numbers (move, melee dice, bases, hit points) live on the troop (for unit cards) and
again in the tables keyed by troop id (for the sheet); :func:`check` keeps the two in step.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.rules.ruleset import Ruleset
from app.rules.schema import DiceExpr, Id, Strict, Text, TroopBase

DisengageKind = Literal["none", "any", "from_infantry"]
ShotTiming = Literal["after_move", "before_or_after_move", "before_during_or_after_move"]


# --------------------------------------------------------------------------- troops


class Troop(TroopBase):
    """A GSB troop type. ``move`` is in unit widths; ``melee_dice`` is a count or
    ``"as_opponent"`` (elephants); ``pivot`` names a row of ``tables.pivot.kinds``."""

    bases: int = Field(ge=1)
    hits_per_base: int = Field(ge=1)
    move: int = Field(ge=0)
    melee_dice: int | Literal["as_opponent"]
    pivot: Id
    disengage: DisengageKind = "none"
    passes_through_friends: bool = False

    @property
    def total_hits(self) -> int:
        return self.bases * self.hits_per_base


# --------------------------------------------------------------------------- tables


class Initiative(Strict):
    """Each side rolls ``die``; the higher chooses who moves first; ``ties_to`` (an army id)
    wins ties."""

    title: Text
    die: DiceExpr
    ties_to: Id
    note: str | None = None


class Activation(Strict):
    """Units act one at a time. The first ``free`` activations need no roll; after that a
    ``die`` read ``face_min``..``face_max`` must reach ``first_needed``, rising by ``step``
    after each successful roll. A failed roll passes play."""

    title: Text
    free: int = Field(ge=0)
    die: DiceExpr
    face_min: int
    face_max: int
    first_needed: int
    step: int = Field(ge=0)
    once_per_turn: bool
    failure_passes_play: bool
    note: str | None = None

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
    move: int = Field(ge=0)


class Movement(Strict):
    """Move allowance per troop type, in unit widths (one increment at a time)."""

    title: Text
    unit_width_cm_15mm: float = Field(gt=0)
    rows: dict[Id, MoveRow] = Field(min_length=1)
    flanked_may_turn_to_face: bool
    note: str | None = None


class PivotKind(Strict):
    """``free_deg``: pivot allowed before each increment at no cost (None = unlimited);
    ``cost`` unit widths for a larger pivot (or, with ``free_deg`` 0, for any pivot)."""

    label: Text
    free_deg: int | None = Field(default=None, ge=0)
    cost: int = Field(ge=0)


class Pivot(Strict):
    title: Text
    kinds: dict[Id, PivotKind] = Field(min_length=1)
    note: str | None = None


class DisengageRow(Strict):
    label: Text
    kind: Literal["any", "from_infantry"]


class Disengage(Strict):
    title: Text
    about_face_cost: int = Field(ge=0)
    no_shoot_or_melee_after: bool
    blocked_when: tuple[Literal["front_and_rear", "both_flanks"], ...]
    rows: dict[Id, DisengageRow] = Field(min_length=1)
    note: str | None = None


class Interpenetration(Strict):
    title: Text
    lights_pass_friends_if_room: bool
    only_lights_pass_lights: bool
    note: str | None = None


class HitPointRow(Strict):
    label: Text
    bases: int = Field(ge=1)
    hits_per_base: int = Field(ge=1)


class HitPoints(Strict):
    title: Text
    rows: dict[Id, HitPointRow] = Field(min_length=1)
    destroyed_unit_stars: int = Field(ge=0)
    note: str | None = None


class MoraleRow(Strict):
    label: Text
    lose_on: int = Field(ge=1, le=6)


class Morale(Strict):
    """Rolled whenever a base is lost: ``die`` at or above ``lose_on`` removes another base.
    ``chain``: whether a base removed by this roll calls for another roll (our decision:
    no)."""

    title: Text
    die: DiceExpr
    rows: dict[Literal["normal", "last_base", "fighting_elephants"], MoraleRow]
    chain: bool
    note: str | None = None


class ShooterRow(Strict):
    label: Text
    timing: ShotTiming


class Shooting(Strict):
    """``dice`` dice of ``die`` per shooting unit, each hitting on ``hit_on`` or more."""

    title: Text
    range: float = Field(gt=0)
    die: DiceExpr
    dice: int = Field(ge=1)
    hit_on: int = Field(ge=1, le=6)
    measured_from: Text
    needs_line_of_sight: bool
    rows: dict[Id, ShooterRow] = Field(min_length=1)
    note: str | None = None


class MeleeDiceRow(Strict):
    label: Text
    dice: int | Literal["as_opponent"]


class Melee(Strict):
    """Dice per troop type (each a ``die``), flank/rear extra dice, and the melee procedure
    switches."""

    title: Text
    die: DiceExpr
    front_only: bool
    own_turn_only: bool
    rows: dict[Id, MeleeDiceRow] = Field(min_length=1)
    as_opponent_uses: Literal["opponent_basic_dice"]
    elephant_vs_elephant_dice: int = Field(ge=1)
    flank_rear_extra_dice: int = Field(ge=0)
    flank_rear_extra_dice_by_troop: dict[Id, int] = Field(default_factory=dict)
    second_melee_after_destroying: bool
    note: str | None = None


class HitNumberRow(Strict):
    label: Text
    hit_on: int = Field(ge=1, le=6)


class HitNumbers(Strict):
    """Melee score needed to hit, by the target's troop type. The source promises this table
    and never gives it (see errata)."""

    title: Text
    complete_in_source: bool
    by: Literal["target"]
    rows: dict[Id, HitNumberRow] = Field(min_length=1)
    note: str | None = None


class OptionalRule(Strict):
    """A variant of the hit numbers: ``attacker`` (any unit when unset) hitting ``target``
    from one of ``situations`` also hits on ``hit_on`` (the author's afterthought about heavy
    cavalry; our earlier reading of the missing table)."""

    title: Text
    enabled: bool
    attacker: Id | None = None
    target: Id
    situations: tuple[Literal["front", "flank", "rear"], ...] = Field(min_length=1)
    hit_on: int = Field(ge=1, le=6)
    note: str | None = None


class Elephants(Strict):
    title: Text
    troop: Id
    terror_face: int = Field(ge=1, le=6)
    terror_rerolls: bool
    rampage_radius: float = Field(gt=0)
    rampage_die: DiceExpr
    rampage_hit_on: int = Field(ge=1, le=6)
    rampage_affects: Literal["all_units", "enemy_units"]
    note: str | None = None


class TerrainRow(Strict):
    label: Text
    max_dice: int = Field(ge=1)


class Terrain(Strict):
    title: Text
    rows: dict[Id, TerrainRow] = Field(min_length=1)
    applies_to_attackers_into: bool
    extras_added_after_cap: tuple[Literal["flank", "general"], ...]
    note: str | None = None


class General(Strict):
    title: Text
    per_side: int = Field(ge=0)
    melee_bonus: int
    bonus_kind: Literal["die", "score"]
    death_test: DiceExpr
    dies_on: tuple[int, int]
    test_when: Literal["any_hit", "melee_hit"]
    once_per_melee: bool
    killed_with_unit: bool
    dead_general_stars: int = Field(ge=0)
    may_teleport: bool
    no_bonus_turn_moved: bool
    note: str | None = None


class Victory(Strict):
    title: Text
    stars_percent_of_enemy_units: int = Field(ge=1, le=100)
    rounding: Literal["up"]
    note: str | None = None

    def stars_needed(self, enemy_units: int) -> int:
        """Stars needed against an army of ``enemy_units`` units (rounded up)."""
        return -(-enemy_units * self.stars_percent_of_enemy_units // 100)


class Deployment(Strict):
    title: Text
    screen: bool
    depth_feet: float = Field(gt=0)
    swap_army: Id
    swap_units: int = Field(ge=0)
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
