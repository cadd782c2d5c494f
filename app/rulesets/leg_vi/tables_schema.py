"""Leg VI Carthago (author unnamed): the models of ``tables.toml``, one per table of the
source, so that the battle engine and the quick-reference sheet read every number from the
data alone.

Prose fields (``title``, ``label``, ``summary``, ``note``) are the project's own words. Die
bands are closed ranges ``low..high``; ``None`` at either end means "and beyond" (a modified
roll of 0 reads as the lowest band, a 7 as the highest).
"""

from __future__ import annotations

from typing import Annotated, Literal

from app.rules.decisions import UmpireDefault
from app.rules.dice import parse_dice
from app.rules.record import AfterValidator, Field
from app.rules.schema import DiceExpr, Id, Strict, Text
from app.rules.table import TerrainKind

# --------------------------------------------------------------------------- bounds
# Every number a house-rules copy may change is typed and bounded (issue 13): numbers, not
# strings; sizes, distances and dice a game can use, so no accepted value makes the odds, the
# cards or a battle run for minutes.

#: the most faces of a Leg VI die (it uses D6 and the AvD)
MAX_FACES = 20
#: the most dice of one move or rampage (AvD + D6 + D6)
MAX_MOVE_DICE = 3
#: the most combat dice from engaged bases (the source: 10)
MAX_COMBAT_DICE = 100
#: DPs, actions, dice per base, wounds and the like
MAX_SMALL = 20


def _one_die(text: str) -> str:
    """One die rolled alone: the AvD or a die of 2 to MAX_FACES faces, no count, no
    modifier (what a Leg VI table rolls one at a time: a control test, a move die)."""
    d = parse_dice(text)
    if d.count != 1 or d.modifier or not 2 <= d.sides <= MAX_FACES:
        raise ValueError(f"{text!r} is not one die of 2 to {MAX_FACES} faces (like d6 or avd)")
    return text


def _handful_die(text: str) -> str:
    """A die rolled a handful at a time (shooting, combat, free hacks: so many D6): a die of
    2 to MAX_FACES faces written without a count or modifier, and not the AvD."""
    d = parse_dice(text)
    if text.strip().lower() == "avd" or d.modifier or not text.strip().lower().startswith("d"):
        raise ValueError(f"{text!r} is not a die like d6 (no count, no modifier, not avd)")
    _one_die(text)
    return text


OneDie = Annotated[DiceExpr, AfterValidator(_one_die)]
HandfulDie = Annotated[DiceExpr, AfterValidator(_handful_die)]
#: a face of a die
Face = Annotated[int, Field(strict=True, ge=1, le=MAX_FACES)]
Faces = tuple[Face, ...]
#: a modified roll, a band's end, a score needed, a modifier to a roll
Roll = Annotated[int, Field(strict=True, ge=-100, le=100)]
#: dice added or taken away by a factor
DiceMod = Annotated[int, Field(strict=True, ge=-MAX_SMALL, le=MAX_SMALL)]
#: DPs, actions, casualties and other small counts
Small = Annotated[int, Field(strict=True, ge=0, le=MAX_SMALL)]
#: bases in a unit, a line or a threshold
Bases = Annotated[int, Field(strict=True, ge=1, le=100)]
#: a distance on the table, in inches
Inches = Annotated[float, Field(strict=True, gt=0, le=1000)]

Grade = Literal["A", "B", "C", "D"]
ChargeTarget = Literal["any", "light_infantry", "elephant", "cavalry", "unformed"]
ChargeResponseKind = Literal["evade", "stand"]
#: How a troop type holds together: formed bodies, unformed (light troops), or free like an
#: elephant (moves freely but counts as neither formed nor unformed).
Order = Literal["formed", "unformed", "free"]
#: What earns a charge factor (Leg VI, combat factors: "charge, pursue or follow-up", "charge,
#: receive charge, or follow-up").
Impetus = Literal["charge", "receive_charge", "follow_up", "pursue"]


# --------------------------------------------------------------------------- shared pieces


class MoveDie(Strict):
    """One die of a dice move: the pips are inches (``inches_per_pip``)."""

    dice: OneDie
    optional: bool = False
    condition: str | None = None
    inches_per_pip: float = Field(default=1.0, strict=True, gt=0, le=100)


class Band(Strict):
    """A band of die results (or of a hit difference) and what it means."""

    low: Roll | None = None
    high: Roll | None = None
    result: Id
    label: Text
    note: str | None = None


# --------------------------------------------------------------------------- tables


class AverageDie(Strict):
    title: Text
    faces: tuple[Face, ...] = Field(min_length=6, max_length=6)
    note: str | None = None


class SequenceStep(Strict):
    numeral: Text
    phase: Id
    name: Text
    summary: Text
    #: who makes moves of their own choosing in this phase (light troops; the others)
    moves: tuple[Literal["light", "others"], ...] = ()
    #: whether charges are declared and made in this phase
    charges: bool = False
    #: whether the side with the initiative acts first in this phase, the other once it is
    #: done ("The player with initiative takes the first actions in all phases")
    initiative_first: bool = False


class Sequence(Strict):
    title: Text
    initiative_die: OneDie
    initiative: Text
    order: Text
    steps: tuple[SequenceStep, ...] = Field(min_length=1)
    note: str | None = None


class UnitSizes(Strict):
    title: Text
    min_bases: Bases
    max_bases: Bases
    elephant_bases: Bases
    legion_bases: Bases
    understrength_per_base: Bases
    note: str | None = None


class LegionLine(Strict):
    name: Text
    troop: Id
    bases: Bases
    alternative_bases: Bases | None = None


class Legion(Strict):
    title: Text
    lines: tuple[LegionLine, ...] = Field(min_length=1)
    line_gap_max: Inches
    line_frontage_mm: float = Field(strict=True, gt=0, le=10_000)
    line_frontage_as_bases: Bases
    quincunx_moves_as: Id
    rear_line_may_face_back: bool
    detached_line_keeps_dps: bool
    note: str | None = None


class Formation(Strict):
    name: Text
    who: Text
    summary: Text


class Formations(Strict):
    title: Text
    items: dict[Id, Formation] = Field(min_length=1)
    unformed_causes: tuple[Text, ...] = ()
    note: str | None = None


class DpTrigger(Strict):
    event: Text
    dps: Small
    dps_general: Small | None = None
    within: Inches | None = None
    who: Text
    note: str | None = None


class MoraleDps(Strict):
    title: Text
    triggers: dict[Id, DpTrigger] = Field(min_length=1)
    note: str | None = None


class LegionThreshold(Strict):
    lines: int = Field(strict=True, ge=1, le=10)
    shaken_at: Bases


class DpLimits(Strict):
    title: Text
    fatigue_manoeuvre_cap: Small
    shaken_at: Bases
    legion_extra_per_line: Small
    legion_quincunx: tuple[LegionThreshold, ...] = ()
    shaken_casualty_per_dp: Small
    shaken_casualty_from: tuple[Text, ...] = ()
    note: str | None = None


class ElephantCritical(Strict):
    title: Text
    die: OneDie
    critical_on: Faces = Field(min_length=1)
    automatic_on_casualty: bool
    outcome_die: OneDie
    outcomes: tuple[Band, ...] = Field(min_length=1)
    note: str | None = None


class RampageDirection(Strict):
    roll: Face
    direction: Text
    bearing_degrees: int = Field(strict=True, ge=0, lt=360)


class Rampage(Strict):
    title: Text
    turn_towards_cause: bool
    move_dice: tuple[OneDie, ...] = Field(min_length=1, max_length=MAX_MOVE_DICE)
    direction_die: OneDie
    directions: tuple[RampageDirection, ...] = Field(min_length=1)
    burst_through_dps_formed: Small
    burst_through_dps_unformed: Small
    gap_within: Inches
    note: str | None = None


class StopRampage(Strict):
    title: Text
    die: OneDie
    destroyed_on_at_least: Roll
    bonus_per_turn_after_first: Roll
    bonus_cumulative: bool
    new_rampage_phase: Id
    note: str | None = None


class ControlDie(Strict):
    who: Text
    die: OneDie


class ControlModifier(Strict):
    label: Text
    value: Roll
    either_sign: bool = False
    optional_after_roll: bool = False


class ControlTest(Strict):
    title: Text
    radius: Inches
    conform_behind_within: Inches
    dice: dict[Id, ControlDie] = Field(min_length=1)
    modifiers: dict[Id, ControlModifier] = Field(default_factory=dict)
    results: tuple[Band, ...] = Field(min_length=1)
    pursuit_continues_at_least: Roll
    note: str | None = None


class CommandAction(Strict):
    name: Text
    cost: int = Field(strict=True, ge=1, le=MAX_SMALL)
    move: Inches | None = None
    dps_removed: Small | None = None
    combat_dice: DiceMod | None = None
    summary: Text


class Command(Strict):
    title: Text
    actions_general: Small
    actions_commander: Small
    actions_exceptional_bonus: Small
    actions: dict[Id, CommandAction] = Field(min_length=1)
    inspire_max_dice: Small
    not_same_turn: tuple[Id, ...] = ()
    note: str | None = None


class DieOfDeath(Strict):
    title: Text
    die: OneDie
    triggers: tuple[Text, ...] = Field(min_length=1)
    danger_roll: Face
    results: tuple[Band, ...] = Field(min_length=1)
    wounds_to_kill: int = Field(strict=True, ge=1, le=MAX_SMALL)
    actions_lost_per_wound: Small
    successor_actions: Small
    successor_delay_turns: Small
    unattached_contacted: Text
    note: str | None = None


class MoveClass(Strict):
    name: Text
    march_move: Inches
    dice: tuple[MoveDie, ...] = Field(min_length=1)
    note: str | None = None


class Movement(Strict):
    title: Text
    stop_from_enemy: Inches
    march_beyond: Inches
    may_halt_short_of: Inches
    light_fall_back_keep: Inches
    classes: dict[Id, MoveClass] = Field(min_length=1)
    maximum_dice_moves: tuple[Id, ...] = ()
    bonus_per_die: float = Field(strict=True, ge=0, le=100)
    bonus_moves: tuple[Id, ...] = ()
    straight_ahead_tolerance_degrees: float = Field(strict=True, ge=0, le=360)
    note: str | None = None


class FatigueRule(Strict):
    label: Text
    dps: Small
    on_results: Faces = ()
    note: str | None = None


class Fatigue(Strict):
    title: Text
    rules: dict[Id, FatigueRule] = Field(min_length=1)
    note: str | None = None


class RoughRow(Strict):
    label: Text
    dps: Small | None = None
    light_cover_dps: Small | None = None
    note: str | None = None


#: what a kind of terrain on the table counts as: rough terrain (a row's ``dps``), a minor
#: obstacle or light wood (``light_cover_dps``), open ground, or impassable to all
TerrainClass = Literal["rough", "light", "open", "impassable"]


class TerrainKindRow(Strict):
    """What one kind of terrain piece on the table is in Leg VI: its class, the source's
    word for it, whether it blocks a line of sight and whether it is cover from shooting."""

    counts_as: TerrainClass
    term: Text
    blocks_sight: bool = False
    cover: bool = False


class RoughTerrain(Strict):
    title: Text
    examples: tuple[Text, ...] = ()
    light_examples: tuple[Text, ...] = ()
    rows: dict[Id, RoughRow] = Field(min_length=1)
    #: the table's kinds of terrain; a kind left out is open ground
    kinds: dict[TerrainKind, TerrainKindRow] = Field(default_factory=dict)
    note: str | None = None


class Manoeuvre(Strict):
    name: Text
    cost: Text
    move_fraction: float | None = Field(default=None, strict=True, gt=0, le=10)
    distance: Inches | None = None
    dps: Small
    dps_for: str | None = None
    only_within_enemy: bool = True
    allowed: str | None = None
    summary: Text


class Manoeuvres(Strict):
    title: Text
    dp_range: Inches
    items: dict[Id, Manoeuvre] = Field(min_length=1)
    note: str | None = None


class RedressRow(Strict):
    grades: tuple[Grade, ...] = Field(min_length=1)
    removed: Small
    extra_beyond_enemy: Small


class Redress(Strict):
    title: Text
    enemy_distance: Inches
    rows: dict[Id, RedressRow] = Field(min_length=1)
    note: str | None = None


class Rally(Strict):
    title: Text
    halted_beyond: Inches
    dps_after: Bases
    leader_steady_removes: Small
    note: str | None = None


class DiceModifier(Strict):
    """Dice added (or taken away) per unit, per DP or per action; ``limit`` caps the total this
    factor can give, with the same sign as ``dice`` (inspire at most +2, DPs at most -4).
    ``when`` lists what earns a charge factor (errata 'hi-follow-up-not-pursuit')."""

    label: Text
    dice: DiceMod
    per: Literal["unit", "dp", "action"] = "unit"
    limit: Roll | None = None
    when: tuple[Impetus, ...] = ()
    exceptions: tuple[Text, ...] = ()
    source_text: str | None = None
    note: str | None = None


class Shooting(Strict):
    title: Text
    range: Inches
    die: HandfulDie
    dice_per_base: int = Field(strict=True, ge=1, le=MAX_SMALL)
    halve_against: tuple[Text, ...] = ()
    halve_rounding: Literal["up", "down"]
    halving_cumulative: bool
    modifiers: dict[Id, DiceModifier] = Field(default_factory=dict)
    min_dice: int = Field(strict=True, ge=1, le=MAX_SMALL)
    hit_on: Faces = Field(min_length=1)
    dps_per_hit: Small
    skirmish_options: tuple[Text, ...] = ()
    note: str | None = None


class ChargeRestriction(Strict):
    troops: Text
    targets: tuple[ChargeTarget, ...] = Field(min_length=1)
    note: str | None = None


class ChargeResponse(Strict):
    troops: Text
    responses: tuple[ChargeResponseKind, ...] = Field(min_length=1)
    note: str | None = None


class FreeHack(Strict):
    die: HandfulDie
    dice_per_engaged_base: int = Field(strict=True, ge=1, le=MAX_SMALL)
    casualty_on_at_least: Roll


class Charges(Strict):
    title: Text
    range: Inches
    restrictions: dict[Id, ChargeRestriction] = Field(min_length=1)
    barred: tuple[Text, ...] = ()
    responses: dict[Id, ChargeResponse] = Field(min_length=1)
    free_hack: FreeHack
    halt_on_vacated_grades: tuple[Grade, ...] = ()
    elephant_open_ranks_die: OneDie
    elephant_open_ranks_pass_on: Faces = ()
    elephant_open_ranks_contact_on: Faces = ()
    light_charged_by_elephant_dps: Small
    note: str | None = None


class CombatDice(Strict):
    title: Text
    die: HandfulDie
    per_base: int = Field(strict=True, ge=1, le=MAX_SMALL)
    per_elephant: int = Field(strict=True, ge=1, le=MAX_SMALL)
    max_base_dice: int = Field(strict=True, ge=1, le=MAX_COMBAT_DICE)
    overlap_per_flank: Small
    legion_second_line_fraction: float = Field(strict=True, ge=0, le=1)
    min_dice: int = Field(strict=True, ge=1, le=MAX_SMALL)
    note: str | None = None


class CombatFactors(Strict):
    title: Text
    factors: dict[Id, DiceModifier] = Field(min_length=1)
    note: str | None = None


class HitSituation(Strict):
    label: Text
    exception: str | None = None


class HitNumbers(Strict):
    title: Text
    die: HandfulDie
    hard_hit_on: Faces = Field(min_length=1)
    normal_hit_on: Faces = Field(min_length=1)
    hard_situations: dict[Id, HitSituation] = Field(min_length=1)
    leader_automatic_hits: Small
    advantage_of_ground: Text
    note: str | None = None


class Support(Strict):
    title: Text
    max_gap: Inches
    min_fraction_of_stands: float = Field(strict=True, gt=0, le=1)
    legion_third_line_supports: bool
    note: str | None = None


class MultipleCombat(Strict):
    title: Text
    grade_from: Literal["average_round_up"]
    dps_from: Literal["most_dps"]
    supporting_dps_ignored: bool
    other_factors_from: Literal["most_engaged_bases"]
    note: str | None = None


class ResultMove(Strict):
    """What a unit in one situation does after a result band: ``moves`` name
    ``after_combat_moves``; with ``choice`` the player picks one, else the first that fits."""

    situation: Text
    moves: tuple[Id, ...] = ()
    choice: bool = False
    elephant_critical: bool = False
    extra_dps_inflicted: Small = 0
    extra_dps_to: str | None = None
    note: str | None = None


class ResultBand(Strict):
    name: Text
    min_diff: Roll | None = None
    max_diff: Roll | None = None
    dps: Small
    casualties: Small = 0
    rout_if: tuple[Literal["shaken", "unformed"], ...] = ()
    moves: tuple[ResultMove, ...] = Field(min_length=1)
    note: str | None = None


class CombatResults(Strict):
    title: Text
    bands: dict[Id, ResultBand] = Field(min_length=1)
    move_order: Text
    note: str | None = None


class AfterCombatMove(Strict):
    name: Text
    distance: Inches | None = None
    full_move: bool = False
    formed: bool = True
    dps_removed: Small = 0
    blocked_casualties: Small | None = None
    surrender_within: Inches | None = None
    summary: Text


class AfterCombatMoves(Strict):
    title: Text
    moves: dict[Id, AfterCombatMove] = Field(min_length=1)
    note: str | None = None


class Tables(Strict):
    """Every table of Leg VI Carthago (see the module docstring for the conventions)."""

    avd: AverageDie
    sequence: Sequence
    unit_sizes: UnitSizes
    legion: Legion
    formations: Formations
    morale_dps: MoraleDps
    dp_limits: DpLimits
    elephant_critical: ElephantCritical
    rampage: Rampage
    stop_rampage: StopRampage
    control_test: ControlTest
    command: Command
    die_of_death: DieOfDeath
    movement: Movement
    fatigue: Fatigue
    rough_terrain: RoughTerrain
    manoeuvres: Manoeuvres
    redress: Redress
    rally: Rally
    shooting: Shooting
    charges: Charges
    combat_dice: CombatDice
    combat_factors: CombatFactors
    hit_numbers: HitNumbers
    support: Support
    multiple_combat: MultipleCombat
    combat_results: CombatResults
    after_combat_moves: AfterCombatMoves
    #: the umpire's call on the result where Castra plays a side (errata umpire-default)
    umpire: UmpireDefault | None = None
