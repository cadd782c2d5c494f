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

from app.rules.engines import EngineSchema
from app.rules.errors import Problem
from app.rules.ruleset import Ruleset
from app.rules.schema import DiceExpr, Id, Strict, Text, TroopBase

TABLES = "tables.toml"
TROOPS = "troops.toml"

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
    """A variant the author suggested afterwards: ``attacker`` hitting ``target`` from one of
    ``situations`` also hits on ``hit_on``."""

    title: Text
    enabled: bool
    attacker: Id
    target: Id
    situations: tuple[Literal["flank", "rear"], ...] = Field(min_length=1)
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


# --------------------------------------------------------------------------- checks


def tables(rs: Ruleset) -> Tables:
    """The ruleset's tables, typed; TypeError if it is not a GSB ruleset."""
    if not isinstance(rs.tables, Tables):
        raise TypeError(f"ruleset {rs.id!r} does not have Grown Slightly Bald tables")
    return rs.tables


def _rows_match_troops(
    rows: dict[str, object], troops: set[str], path: str, problems: list[Problem]
) -> None:
    for tid in sorted(troops - set(rows)):
        problems.append(Problem(TABLES, path, f"no row for troop type {tid!r}"))
    for key in sorted(set(rows) - troops):
        problems.append(Problem(TABLES, f"{path}.{key}", f"{key!r} is not a troop type"))


def _troop_ref(tid: str, troops: set[str], path: str, problems: list[Problem]) -> None:
    if tid not in troops:
        problems.append(Problem(TABLES, path, f"unknown troop type {tid!r}"))


def check(rs: Ruleset) -> list[Problem]:
    """Cross-checks: every troop has a row in each per-troop table and its numbers agree
    with it; every key named by a table or troop exists; army sizes equal the troop's bases."""
    problems: list[Problem] = []
    t = tables(rs)
    troops: dict[str, Troop] = {}
    for tid, troop in rs.troops.items():
        if isinstance(troop, Troop):
            troops[tid] = troop
    ids = set(troops)

    _rows_match_troops(dict(t.movement.rows), ids, "tables.movement.rows", problems)
    _rows_match_troops(dict(t.hit_points.rows), ids, "tables.hit_points.rows", problems)
    _rows_match_troops(dict(t.melee.rows), ids, "tables.melee.rows", problems)
    _rows_match_troops(dict(t.hit_numbers.rows), ids, "tables.hit_numbers.rows", problems)
    shooters = {tid for tid, tr in troops.items() if tr.shoots}
    _rows_match_troops(dict(t.shooting.rows), shooters, "tables.shooting.rows", problems)
    movers = {tid for tid, tr in troops.items() if tr.disengage != "none"}
    _rows_match_troops(dict(t.disengage.rows), movers, "tables.disengage.rows", problems)

    for tid, troop in sorted(troops.items()):
        base = f"troops.{tid}"
        if tid in t.movement.rows and t.movement.rows[tid].move != troop.move:
            problems.append(
                Problem(
                    TROOPS,
                    f"{base}.move",
                    f"{troop.move} differs from tables.movement.rows.{tid}.move "
                    f"({t.movement.rows[tid].move})",
                )
            )
        if tid in t.melee.rows and t.melee.rows[tid].dice != troop.melee_dice:
            problems.append(
                Problem(
                    TROOPS,
                    f"{base}.melee_dice",
                    f"{troop.melee_dice} differs from tables.melee.rows.{tid}.dice "
                    f"({t.melee.rows[tid].dice})",
                )
            )
        hp = t.hit_points.rows.get(tid)
        if hp is not None and (hp.bases, hp.hits_per_base) != (troop.bases, troop.hits_per_base):
            problems.append(
                Problem(
                    TROOPS,
                    f"{base}.hits_per_base",
                    f"{troop.bases} bases x {troop.hits_per_base} hits differs "
                    f"from tables.hit_points.rows.{tid} "
                    f"({hp.bases} x {hp.hits_per_base})",
                )
            )
        if troop.pivot not in t.pivot.kinds:
            problems.append(
                Problem(
                    TROOPS,
                    f"{base}.pivot",
                    f"{troop.pivot!r} is not one of tables.pivot.kinds "
                    f"({', '.join(sorted(t.pivot.kinds))})",
                )
            )
        row = t.disengage.rows.get(tid)
        if row is not None and row.kind != troop.disengage:
            problems.append(
                Problem(
                    TROOPS,
                    f"{base}.disengage",
                    f"{troop.disengage!r} differs from "
                    f"tables.disengage.rows.{tid}.kind ({row.kind!r})",
                )
            )

    for tid in t.melee.flank_rear_extra_dice_by_troop:
        _troop_ref(tid, ids, f"tables.melee.flank_rear_extra_dice_by_troop.{tid}", problems)
    for rid, rule in t.optional_rules.items():
        _troop_ref(rule.attacker, ids, f"tables.optional_rules.{rid}.attacker", problems)
        _troop_ref(rule.target, ids, f"tables.optional_rules.{rid}.target", problems)
    _troop_ref(t.elephants.troop, ids, "tables.elephants.troop", problems)
    if t.activation.face_min > t.activation.face_max:
        problems.append(Problem(TABLES, "tables.activation.face_max", "face_max is below face_min"))
    for path, army_ref in (
        ("tables.initiative.ties_to", t.initiative.ties_to),
        ("tables.deployment.swap_army", t.deployment.swap_army),
    ):
        if army_ref not in rs.armies:
            problems.append(Problem(TABLES, path, f"unknown army {army_ref!r}"))

    for army_id, army in rs.armies.items():
        for entry_id, entry in army.entries.items():
            unit_troop = troops.get(entry.troop)
            if unit_troop is not None and entry.sizes != (unit_troop.bases,):
                problems.append(
                    Problem(
                        "armies.toml",
                        f"armies.{army_id}.entries.{entry_id}.sizes",
                        f"a {unit_troop.name} unit is {unit_troop.bases} bases; sizes must be "
                        f"[{unit_troop.bases}]",
                    )
                )
    return problems


SCHEMA = EngineSchema(
    engine="gsb",
    troop_model=Troop,
    tables_model=Tables,
    builtin_folder="grown-slightly-bald",
    check=check,
)
