"""Quincunx (Duke Seifried, 1999): troop model, tables model and cross-checks.

Quincunx counts figures (1:10 or 1:100) and measures in move factors of 3 inches. A unit's
melee die comes from its *track* in the melee matrix, indexed by the number of "rings"
(rounds fought without rest) and shifted to the right by column shifts (skirmish mode,
attrition, woods, streams, peltast volleys). Everything numeric lives in ``tables.toml``;
this module only types it and checks that the parts refer to one another correctly.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Literal

from app.rules.decisions import UmpireDefault
from app.rules.record import AfterValidator, Field
from app.rules.schema import DiceExpr, Id, Strict, Text, TroopBase
from app.rules.table import TerrainKind

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset


Formation = Literal["formed", "skirmish", "either"]

# --------------------------------------------------------------------------- bounded values
# House rules are data: every number is typed strictly (a string, a float or a boolean where
# a whole number belongs is refused, never converted) and bounded, so that no accepted value
# can make the odds, the cards or a battle run for minutes (issue 13). The bounds are far
# beyond anything the source uses (dice d4-d12, modifiers -1..+2, units of 6-36 figures).

#: the most sides a Quincunx die may have (the source's largest is a d12)
MAX_SIDES = 20
#: the largest plus or minus written on a die or given as a modifier
MAX_PLUS = 20


_DICE = re.compile(r"^(?:(avd)|(\d*)d(\d+)(z?)([+-]\d+)?)$")


def _dice_check(text: str, *, count: tuple[int, int], plain: bool) -> str:
    """The dice of ``text`` within bounds, read from its digits before anything is built
    from them (a die of 99,999,999 faces is refused, never enumerated)."""
    shown = repr(text if len(text) <= 24 else text[:21] + "...")
    m = _DICE.match(text.strip().lower())
    if m is None:
        raise ValueError(f"{shown} is not a dice expression (like d10, 2d6 or d12+2)")
    if m.group(1):
        n, sides, plus = 1, 6, 0
    else:
        digits = (m.group(2) or "1", m.group(3), (m.group(5) or "0").lstrip("+-"))
        if any(len(d) > 4 for d in digits):
            raise ValueError(f"{shown}: too many dice, sides or pluses")
        n, sides, plus = int(digits[0]), int(digits[1]), int(digits[2])
    low, high = count
    dice = "one die" if high == 1 else "a pair of dice" if low == high == 2 else "dice"
    if not low <= n <= high:
        raise ValueError(f"{shown}: expected {dice}, not {n}")
    if not 2 <= sides <= MAX_SIDES:
        raise ValueError(f"{shown}: a die has 2 to {MAX_SIDES} sides")
    if plain and plus:
        raise ValueError(f"{shown}: expected {dice} without a plus or minus")
    if plus > MAX_PLUS:
        raise ValueError(f"{shown}: the plus or minus is at most {MAX_PLUS}")
    return text


def _one_die(text: str) -> str:
    return _dice_check(text, count=(1, 1), plain=False)


def _plain_die(text: str) -> str:
    return _dice_check(text, count=(1, 1), plain=True)


def _pair(text: str) -> str:
    return _dice_check(text, count=(2, 2), plain=True)


def _few_dice(text: str) -> str:
    return _dice_check(text, count=(1, 4), plain=False)


#: one die read with its plus (a melee die, a volley die, d12+2)
OneDie = Annotated[DiceExpr, AfterValidator(_one_die)]
#: one die read by its face alone (initiative, the rampage direction)
PlainDie = Annotated[DiceExpr, AfterValidator(_plain_die)]
#: a pair of plain dice read together (missilery's high minus low, the leader's doubles)
PairOfDice = Annotated[DiceExpr, AfterValidator(_pair)]
#: one to four dice totalled (the rampage's move factors)
FewDice = Annotated[DiceExpr, AfterValidator(_few_dice)]

MoveFactors = Annotated[int, Field(strict=True, ge=0, le=50)]
Inches = Annotated[float, Field(strict=True, ge=0, le=500)]
PositiveInches = Annotated[float, Field(strict=True, gt=0, le=500)]
Plus = Annotated[int, Field(strict=True, ge=-MAX_PLUS, le=MAX_PLUS)]
Rounds = Annotated[int, Field(strict=True, ge=0, le=20)]
AtLeastOneRound = Annotated[int, Field(strict=True, ge=1, le=20)]
Divisor = Annotated[int, Field(strict=True, ge=1, le=20)]
Small = Annotated[int, Field(strict=True, ge=0, le=20)]
AtLeastOne = Annotated[int, Field(strict=True, ge=1, le=20)]
#: figures in a unit (as roster files bound a unit's size)
Figures = Annotated[int, Field(strict=True, ge=0, le=100_000)]
PositiveFigures = Annotated[int, Field(strict=True, ge=1, le=100_000)]
Percent = Annotated[int, Field(strict=True, ge=0, le=100)]
Rank = Annotated[int, Field(strict=True, ge=1, le=10)]


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
    ranks_formed: tuple[Rank, ...] = Field(default=(), max_length=10)
    ranks_skirmish: tuple[Rank, ...] = Field(default=(), max_length=10)
    light_class: Literal["peltast", "psiloi"] | None = None
    mounted: bool = False
    missile_target: tuple[Id, ...] = ()
    volley: Id | None = None
    enters_woods: bool = False


# --------------------------------------------------------------------------- tables


class MoveClass(Strict):
    name: Text
    move_factors: MoveFactors
    inches: Inches
    note: str | None = None


class MovementTable(Strict):
    """Movement matrix: move factors and inches per round for each class."""

    title: Text
    note: str | None = None
    inches_per_move_factor: Annotated[float, Field(strict=True, gt=0, le=100)]
    classes: dict[Id, MoveClass] = Field(min_length=1)
    rules: tuple[Text, ...] = ()


class CommandTable(Strict):
    title: Text
    note: str | None = None
    range_move_factors: MoveFactors
    range_inches: Inches
    chain_move_factors: MoveFactors
    chain_inches: Inches
    out_of_command: Text


class EvasionTable(Strict):
    """Skirmishers contacted by a formed unit: evader die against attacker die; the
    evader withdraws one move factor per point it wins by, within its normal move."""

    title: Text
    note: str | None = None
    evader_die: OneDie
    attacker_die: OneDie
    move_factors_per_point: AtLeastOne
    ties: Literal["fail", "succeed"]
    rounds_without_moving_after: Rounds
    rules: tuple[Text, ...] = ()


class WoodsRule(Strict):
    """Woods; ``edge_inches``: how deep "at the edge" reaches (errata "woods-edge")."""

    entry: Text
    fighting_from_woods: Text
    missile_level_shift: Annotated[int, Field(strict=True, ge=-10, le=10)]
    melee_column_shift: Id
    melee_inside: Text
    edge_inches: PositiveInches


class StreamRule(Strict):
    """The three-round crossing; ``bank_inches``: how near the water a unit stands "at the
    edge" (errata "stream-crossing")."""

    crossing_rounds: AtLeastOneRound
    steps: tuple[Text, ...] = Field(min_length=1)
    missile_level_shift: Annotated[int, Field(strict=True, ge=-10, le=10)]
    melee_column_shift: Id
    bank_inches: PositiveInches
    crossing: Text


#: Who may enter a kind of terrain: everyone; light troops (``enters_woods``; peltasts only
#: unformed); by the streams' three-round crossing; only where a ford lies on it; nobody.
TerrainEntry = Literal["all", "light_troops", "crossing", "at_ford", "none"]


class TerrainKindRule(Strict):
    """What one of Castra's terrain kinds is under Quincunx: who enters (``entry``), its
    cost factor (1: the text slows no move), sight and cover, the kinds it opens where it
    lies over them (a road through a wood, a ford on a river), a note for the log, and the
    errata entry that decided it where the text names no such terrain."""

    entry: TerrainEntry
    cost_factor: Annotated[float, Field(strict=True, ge=1, le=10)] = 1.0
    blocks_sight: bool = False
    cover: bool = False
    opens: tuple[TerrainKind, ...] = ()
    note: Text
    errata: Id | None = None


class TerrainTable(Strict):
    title: Text
    note: str | None = None
    woods: WoodsRule
    streams: StreamRule
    kinds: dict[TerrainKind, TerrainKindRule] = Field(min_length=1)


class MissileRange(Strict):
    """Short range is up to ``short_max``; long range from ``long_min`` to ``long_max``."""

    name: Text
    short_max: PositiveInches
    long_min: PositiveInches
    long_max: PositiveInches


class MissileRangesTable(Strict):
    title: Text
    note: str | None = None
    arc_degrees: Annotated[int, Field(strict=True, gt=0, le=360)]
    weapons: dict[Id, MissileRange] = Field(min_length=1)


class MissileBand(Strict):
    """One row of the missilery dice matrix; ``cover`` None is the source's "No" (no fire)."""

    label: Text
    min_firing: PositiveFigures
    max_firing: PositiveFigures | None = None
    cover: PairOfDice | None = None
    long: PairOfDice
    short: PairOfDice


class MissileDiceTable(Strict):
    title: Text
    note: str | None = None
    columns: tuple[Text, ...] = Field(min_length=3, max_length=3)
    bands: tuple[MissileBand, ...] = Field(min_length=1, max_length=50)
    dice_ladder: tuple[PairOfDice, ...] = Field(min_length=2, max_length=20)
    below_minimum: Text
    casualty_divisor: Divisor


class Modifier(Strict):
    situation: Text
    modifier: Plus
    kind: Literal["target", "situation", "leader"] = "situation"
    note: str | None = None


class MissileModifiersTable(Strict):
    """``pass_through_blocks_rounds``: rounds after a pass-through shot in which the unit may
    not fire (the source: "no fire may be issued on the following round")."""

    title: Text
    note: str | None = None
    modifiers: dict[Id, Modifier] = Field(min_length=1)
    pass_through_blocks_rounds: Rounds = 1
    rules: tuple[Text, ...] = ()


class VolleyDie(Strict):
    name: Text
    die: OneDie


class PreMeleeTable(Strict):
    """Point-blank volley before the first melee round: each side casts its volley die; the
    lower side applies ``loser_modifier`` to each melee die of the first round only."""

    title: Text
    note: str | None = None
    range_inches: PositiveInches
    volley_dice: dict[Id, VolleyDie] = Field(min_length=1)
    loser_modifier: Plus
    rounds_affected: AtLeastOneRound
    ties: Text
    no_volley: Literal["loses"]
    rules: tuple[Text, ...] = ()


class MeleeTrack(Strict):
    """One row of the melee matrix: the die for 0..7 rings, and the row's special rule."""

    name: Text
    dice: tuple[OneDie, ...] = Field(max_length=20)
    formation: Formation
    initial_attack_bonus: Plus = 0
    initial_attack_extra_die: OneDie | None = None
    new_target_bonus: tuple[Plus, ...] = Field(default=(), max_length=20)
    #: when ``new_target_bonus`` applies: only to a unit that assaults (the attacker of the
    #: melee; errata "elephant-bonus-on-assault"), or in any melee, defending too
    new_target_bonus_on: Literal["assault", "any"] = "assault"
    special: str | None = None
    note: str | None = None


class MeleeMatrix(Strict):
    title: Text
    note: str | None = None
    rings: tuple[Rounds, ...] = Field(min_length=1, max_length=20)
    beyond_last_column: Text
    tracks: dict[Id, MeleeTrack] = Field(min_length=1)


class MeleeModifiersTable(Strict):
    title: Text
    note: str | None = None
    modifiers: dict[Id, Modifier] = Field(min_length=1)


class ColumnShift(Strict):
    situation: Text
    columns: AtLeastOne
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
    casualty_divisor: Divisor
    rings_per_round: Small
    recoil_move_factors: MoveFactors
    recoil_inches: Inches
    recoil_extra_rings: Small
    rest_removes_rings: Small
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
    rounds_per_turn: Annotated[int, Field(strict=True, ge=1, le=10)]
    die: PlainDie
    die_after_melee_win: PlainDie
    winner_chooses: Text
    ties: Text
    rules: tuple[Text, ...] = ()


class AttritionRow(Strict):
    percent: Annotated[int, Field(strict=True, gt=0, le=100)]
    remaining: tuple[Figures, ...] = Field(min_length=1, max_length=50)
    effect: Text
    column_shift: Id | None = None
    disintegrates: bool = False


class SizeAlias(Strict):
    size: PositiveFigures
    column: PositiveFigures


class AttritionTable(Strict):
    title: Text
    note: str | None = None
    original_sizes: tuple[PositiveFigures, ...] = Field(min_length=1, max_length=50)
    size_aliases: tuple[SizeAlias, ...] = Field(default=(), max_length=50)
    rows: tuple[AttritionRow, ...] = Field(min_length=1, max_length=20)
    threshold: Text
    other_sizes: Text
    remove_from: Text


class StragglersTable(Strict):
    title: Text
    note: str | None = None
    retire_move_factors: MoveFactors
    retire_inches: Inches
    captured_by_enemy_above_percent: Percent
    rules: tuple[Text, ...] = ()


class ElephantTable(Strict):
    title: Text
    note: str | None = None
    elements_per_unit: AtLeastOne
    crew_per_element: Small
    elephant_hits: AtLeastOne
    casualty_points_per_element: Annotated[int, Field(strict=True, ge=1, le=100)]
    casualty_points_per_unit: Annotated[int, Field(strict=True, ge=1, le=1000)]
    hit_order: tuple[Text, ...] = Field(min_length=1, max_length=21)
    spacing_mm: Annotated[float, Field(strict=True, gt=0, le=1000)]
    escort_troops: tuple[Id, ...] = ()
    escorts_between: Small
    escorts_each_side: Small
    missile_as_figures: Annotated[int, Field(strict=True, ge=1, le=1000)]
    missile_weapon: Id
    missile_strength: Text
    melee: Text
    last_elephant: Text
    rules: tuple[Text, ...] = ()


class RampageTable(Strict):
    title: Text
    note: str | None = None
    direction_die: PlainDie
    directions: dict[str, Text] = Field(min_length=1)
    north: Text
    move_die: FewDice
    trample_die: OneDie
    rules: tuple[Text, ...] = ()


class ElephantsAndHorsesTable(Strict):
    title: Text
    note: str | None = None
    keep_away_move_factors: MoveFactors
    keep_away_inches: Inches
    exempt_troops: tuple[Id, ...] = ()
    rules: tuple[Text, ...] = ()


class LeaderMove(Strict):
    wounds: Small
    move_factors: MoveFactors | None = None
    inches: Inches | None = None
    effect: Text


class LeadersTable(Strict):
    title: Text
    note: str | None = None
    attached_bonus: Plus
    great_leader_bonus: Plus
    great_leaders: tuple[Text, ...] = ()
    bonus_applies: Text
    risk_when: Text
    risk_dice: PairOfDice
    killed_on: Text
    wounded_on: Text
    moves: tuple[LeaderMove, ...] = Field(min_length=1, max_length=20)
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
    #: the umpire's call on the result where Castra plays a side (errata umpire-default)
    umpire: UmpireDefault | None = None


# --------------------------------------------------------------------------- access


def tables(rs: Ruleset) -> Tables:
    """The ruleset's tables, typed; ``TypeError`` if it is not a Quincunx ruleset."""
    if not isinstance(rs.tables, Tables):
        raise TypeError(f"ruleset {rs.id!r} does not hold Quincunx tables")
    return rs.tables
