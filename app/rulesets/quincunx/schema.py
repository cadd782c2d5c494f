"""Quincunx (Duke Seifried, 1999): troop model, tables model and cross-checks.

Quincunx counts figures (1:10 or 1:100) and measures in move factors of 3 inches. A unit's
melee die comes from its *track* in the melee matrix, indexed by the number of "rings"
(rounds fought without rest) and shifted to the right by column shifts (skirmish mode,
attrition, woods, streams, peltast volleys). Everything numeric lives in ``tables.toml``;
this module only types it and checks that the parts refer to one another correctly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from app.rules.schema import DiceExpr, Id, Strict, Text, TroopBase

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset


Formation = Literal["formed", "skirmish", "either"]


# --------------------------------------------------------------------------- troops


class Troop(TroopBase):
    """A Quincunx troop type.

    ``melee_track`` keys ``tables.melee.tracks``; ``movement`` (and ``movement_skirmish`` for
    troops that may be formed or skirmish) key ``tables.movement.classes``;
    ``missile_target`` keys ``tables.missile_modifiers.modifiers`` (the -1 classes that apply
    when the troop is shot at); ``volley`` keys ``tables.pre_melee.volley_dice`` (None: the
    troop has no pre-melee volley and automatically loses the cast against one that has).
    Missile weapons are the common ``weapons`` field, named as ``tables.missile_ranges.weapons``.
    """

    melee_track: Id
    formation: Formation
    movement: Id
    movement_skirmish: Id | None = None
    ranks_formed: tuple[int, ...] = ()
    ranks_skirmish: tuple[int, ...] = ()
    light_class: Literal["peltast", "psiloi"] | None = None
    mounted: bool = False
    missile_target: tuple[Id, ...] = ()
    volley: Id | None = None
    enters_woods: bool = False


# --------------------------------------------------------------------------- tables


class MoveClass(Strict):
    name: Text
    move_factors: int = Field(ge=0)
    inches: float = Field(ge=0)
    note: str | None = None


class MovementTable(Strict):
    """Movement matrix: move factors and inches per round for each class."""

    title: Text
    note: str | None = None
    inches_per_move_factor: float = Field(gt=0)
    classes: dict[Id, MoveClass] = Field(min_length=1)
    rules: tuple[Text, ...] = ()


class CommandTable(Strict):
    title: Text
    note: str | None = None
    range_move_factors: int = Field(ge=0)
    range_inches: float = Field(ge=0)
    chain_move_factors: int = Field(ge=0)
    chain_inches: float = Field(ge=0)
    out_of_command: Text


class EvasionTable(Strict):
    """Skirmishers contacted by a formed unit: evader die against attacker die; the
    evader withdraws one move factor per point it wins by, within its normal move."""

    title: Text
    note: str | None = None
    evader_die: DiceExpr
    attacker_die: DiceExpr
    move_factors_per_point: int = Field(ge=1)
    ties: Literal["fail", "succeed"]
    rounds_without_moving_after: int = Field(ge=0)
    rules: tuple[Text, ...] = ()


class WoodsRule(Strict):
    entry: Text
    fighting_from_woods: Text
    missile_level_shift: int
    melee_column_shift: Id
    melee_inside: Text


class StreamRule(Strict):
    crossing_rounds: int = Field(ge=1)
    steps: tuple[Text, ...] = Field(min_length=1)
    missile_level_shift: int
    melee_column_shift: Id


class TerrainTable(Strict):
    title: Text
    note: str | None = None
    woods: WoodsRule
    streams: StreamRule


class MissileRange(Strict):
    """Short range is up to ``short_max``; long range from ``long_min`` to ``long_max``."""

    name: Text
    short_max: float = Field(gt=0)
    long_min: float = Field(gt=0)
    long_max: float = Field(gt=0)


class MissileRangesTable(Strict):
    title: Text
    note: str | None = None
    arc_degrees: int = Field(gt=0, le=360)
    weapons: dict[Id, MissileRange] = Field(min_length=1)


class MissileBand(Strict):
    """One row of the missilery dice matrix; ``cover`` None is the source's "No" (no fire)."""

    label: Text
    min_firing: int = Field(ge=1)
    max_firing: int | None = Field(default=None, ge=1)
    cover: DiceExpr | None = None
    long: DiceExpr
    short: DiceExpr


class MissileDiceTable(Strict):
    title: Text
    note: str | None = None
    columns: tuple[Text, ...] = Field(min_length=3, max_length=3)
    bands: tuple[MissileBand, ...] = Field(min_length=1)
    dice_ladder: tuple[DiceExpr, ...] = Field(min_length=2)
    below_minimum: Text
    casualty_divisor: int = Field(ge=1)


class Modifier(Strict):
    situation: Text
    modifier: int
    kind: Literal["target", "situation", "leader"] = "situation"
    note: str | None = None


class MissileModifiersTable(Strict):
    """``pass_through_blocks_rounds``: rounds after a pass-through shot in which the unit may
    not fire (the source: "no fire may be issued on the following round")."""

    title: Text
    note: str | None = None
    modifiers: dict[Id, Modifier] = Field(min_length=1)
    pass_through_blocks_rounds: int = Field(default=1, ge=0)
    rules: tuple[Text, ...] = ()


class VolleyDie(Strict):
    name: Text
    die: DiceExpr


class PreMeleeTable(Strict):
    """Point-blank volley before the first melee round: each side casts its volley die; the
    lower side applies ``loser_modifier`` to each melee die of the first round only."""

    title: Text
    note: str | None = None
    range_inches: float = Field(gt=0)
    volley_dice: dict[Id, VolleyDie] = Field(min_length=1)
    loser_modifier: int
    rounds_affected: int = Field(ge=1)
    ties: Text
    no_volley: Literal["loses"]
    rules: tuple[Text, ...] = ()


class MeleeTrack(Strict):
    """One row of the melee matrix: the die for 0..7 rings, and the row's special rule."""

    name: Text
    dice: tuple[DiceExpr, ...]
    formation: Formation
    initial_attack_bonus: int = 0
    initial_attack_extra_die: DiceExpr | None = None
    new_target_bonus: tuple[int, ...] = ()
    #: when ``new_target_bonus`` applies: only to a unit that assaults (the attacker of the
    #: melee; errata "elephant-bonus-on-assault"), or in any melee, defending too
    new_target_bonus_on: Literal["assault", "any"] = "assault"
    special: str | None = None
    note: str | None = None


class MeleeMatrix(Strict):
    title: Text
    note: str | None = None
    rings: tuple[int, ...] = Field(min_length=1)
    beyond_last_column: Text
    tracks: dict[Id, MeleeTrack] = Field(min_length=1)


class MeleeModifiersTable(Strict):
    title: Text
    note: str | None = None
    modifiers: dict[Id, Modifier] = Field(min_length=1)


class ColumnShift(Strict):
    situation: Text
    columns: int = Field(ge=1)
    applies_to: Text
    replaces: tuple[Id, ...] = ()


class ColumnShiftsTable(Strict):
    title: Text
    note: str | None = None
    shifts: dict[Id, ColumnShift] = Field(min_length=1)
    combine: Text


class MeleeResolutionTable(Strict):
    title: Text
    note: str | None = None
    casualty_divisor: int = Field(ge=1)
    rings_per_round: int = Field(ge=0)
    recoil_move_factors: int = Field(ge=0)
    recoil_inches: float = Field(ge=0)
    recoil_extra_rings: int = Field(ge=0)
    rest_removes_rings: int = Field(ge=0)
    rest_definition: Text
    victor_follow_up: Text
    pairing: Text
    break_off: Text
    optional_victory_ring_removal: bool = False
    optional_victory_ring_removal_note: str | None = None
    rules: tuple[Text, ...] = ()


class InitiativeTable(Strict):
    title: Text
    note: str | None = None
    rounds_per_turn: int = Field(ge=1)
    die: DiceExpr
    die_after_melee_win: DiceExpr
    winner_chooses: Text
    ties: Text
    rules: tuple[Text, ...] = ()


class AttritionRow(Strict):
    percent: int = Field(gt=0, le=100)
    remaining: tuple[int, ...] = Field(min_length=1)
    effect: Text
    column_shift: Id | None = None
    disintegrates: bool = False


class SizeAlias(Strict):
    size: int = Field(ge=1)
    column: int = Field(ge=1)


class AttritionTable(Strict):
    title: Text
    note: str | None = None
    original_sizes: tuple[int, ...] = Field(min_length=1)
    size_aliases: tuple[SizeAlias, ...] = ()
    rows: tuple[AttritionRow, ...] = Field(min_length=1)
    threshold: Text
    other_sizes: Text
    remove_from: Text


class StragglersTable(Strict):
    title: Text
    note: str | None = None
    retire_move_factors: int = Field(ge=0)
    retire_inches: float = Field(ge=0)
    captured_by_enemy_above_percent: int = Field(ge=0, le=100)
    rules: tuple[Text, ...] = ()


class ElephantTable(Strict):
    title: Text
    note: str | None = None
    elements_per_unit: int = Field(ge=1)
    crew_per_element: int = Field(ge=0)
    elephant_hits: int = Field(ge=1)
    casualty_points_per_element: int = Field(ge=1)
    casualty_points_per_unit: int = Field(ge=1)
    hit_order: tuple[Text, ...] = Field(min_length=1)
    spacing_mm: float = Field(gt=0)
    escort_troops: tuple[Id, ...] = ()
    escorts_between: int = Field(ge=0)
    escorts_each_side: int = Field(ge=0)
    missile_as_figures: int = Field(ge=1)
    missile_weapon: Id
    missile_strength: Text
    melee: Text
    last_elephant: Text
    rules: tuple[Text, ...] = ()


class RampageTable(Strict):
    title: Text
    note: str | None = None
    direction_die: DiceExpr
    directions: dict[str, Text] = Field(min_length=1)
    north: Text
    move_die: DiceExpr
    trample_die: DiceExpr
    rules: tuple[Text, ...] = ()


class ElephantsAndHorsesTable(Strict):
    title: Text
    note: str | None = None
    keep_away_move_factors: int = Field(ge=0)
    keep_away_inches: float = Field(ge=0)
    exempt_troops: tuple[Id, ...] = ()
    rules: tuple[Text, ...] = ()


class LeaderMove(Strict):
    wounds: int = Field(ge=0)
    move_factors: int | None = Field(default=None, ge=0)
    inches: float | None = Field(default=None, ge=0)
    effect: Text


class LeadersTable(Strict):
    title: Text
    note: str | None = None
    attached_bonus: int
    great_leader_bonus: int
    great_leaders: tuple[Text, ...] = ()
    bonus_applies: Text
    risk_when: Text
    risk_dice: DiceExpr
    killed_on: Text
    wounded_on: Text
    moves: tuple[LeaderMove, ...] = Field(min_length=1)
    rules: tuple[Text, ...] = ()


class Tables(Strict):
    """Every table of Quincunx. The battle engine and the quick-reference sheet read these."""

    movement: MovementTable
    command: CommandTable
    evasion: EvasionTable
    terrain: TerrainTable
    missile_ranges: MissileRangesTable
    missile_dice: MissileDiceTable
    missile_modifiers: MissileModifiersTable
    pre_melee: PreMeleeTable
    melee: MeleeMatrix
    melee_modifiers: MeleeModifiersTable
    column_shifts: ColumnShiftsTable
    melee_resolution: MeleeResolutionTable
    initiative: InitiativeTable
    attrition: AttritionTable
    stragglers: StragglersTable
    elephants: ElephantTable
    rampage: RampageTable
    elephants_and_horses: ElephantsAndHorsesTable
    leaders: LeadersTable


# --------------------------------------------------------------------------- access


def tables(rs: Ruleset) -> Tables:
    """The ruleset's tables, typed; ``TypeError`` if it is not a Quincunx ruleset."""
    if not isinstance(rs.tables, Tables):
        raise TypeError(f"ruleset {rs.id!r} does not hold Quincunx tables")
    return rs.tables
