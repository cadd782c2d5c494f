"""Leg VI Carthago (author unnamed): the models of ``tables.toml``, one per table of the
source, so that the battle engine and the quick-reference sheet read every number from the
data alone.

Prose fields (``title``, ``label``, ``summary``, ``note``) are the project's own words. Die
bands are closed ranges ``low..high``; ``None`` at either end means "and beyond" (a modified
roll of 0 reads as the lowest band, a 7 as the highest).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.rules.schema import DiceExpr, Id, Strict, Text

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

    dice: DiceExpr
    optional: bool = False
    condition: str | None = None
    inches_per_pip: float = Field(default=1.0, gt=0)


class Band(Strict):
    """A band of die results (or of a hit difference) and what it means."""

    low: int | None = None
    high: int | None = None
    result: Id
    label: Text
    note: str | None = None


# --------------------------------------------------------------------------- tables


class AverageDie(Strict):
    title: Text
    faces: tuple[int, ...] = Field(min_length=6, max_length=6)
    note: str | None = None


class SequenceStep(Strict):
    numeral: Text
    phase: Id
    name: Text
    summary: Text


class Sequence(Strict):
    title: Text
    initiative_die: DiceExpr
    initiative: Text
    order: Text
    steps: tuple[SequenceStep, ...] = Field(min_length=1)
    note: str | None = None


class UnitSizes(Strict):
    title: Text
    min_bases: int = Field(ge=1)
    max_bases: int = Field(ge=1)
    elephant_bases: int = Field(ge=1)
    legion_bases: int = Field(ge=1)
    understrength_per_base: int = Field(ge=1)
    note: str | None = None


class LegionLine(Strict):
    name: Text
    troop: Id
    bases: int = Field(ge=1)
    alternative_bases: int | None = Field(default=None, ge=1)


class Legion(Strict):
    title: Text
    lines: tuple[LegionLine, ...] = Field(min_length=1)
    line_gap_max: float = Field(gt=0)
    line_frontage_mm: float = Field(gt=0)
    line_frontage_as_bases: int = Field(ge=1)
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
    dps: int = Field(ge=0)
    dps_general: int | None = Field(default=None, ge=0)
    within: float | None = Field(default=None, gt=0)
    who: Text
    note: str | None = None


class MoraleDps(Strict):
    title: Text
    triggers: dict[Id, DpTrigger] = Field(min_length=1)
    note: str | None = None


class LegionThreshold(Strict):
    lines: int = Field(ge=1)
    shaken_at: int = Field(ge=1)


class DpLimits(Strict):
    title: Text
    fatigue_manoeuvre_cap: int = Field(ge=0)
    shaken_at: int = Field(ge=1)
    legion_extra_per_line: int = Field(ge=0)
    legion_quincunx: tuple[LegionThreshold, ...] = ()
    shaken_casualty_per_dp: int = Field(ge=0)
    shaken_casualty_from: tuple[Text, ...] = ()
    note: str | None = None


class ElephantCritical(Strict):
    title: Text
    die: DiceExpr
    critical_on: tuple[int, ...] = Field(min_length=1)
    automatic_on_casualty: bool
    outcome_die: DiceExpr
    outcomes: tuple[Band, ...] = Field(min_length=1)
    note: str | None = None


class RampageDirection(Strict):
    roll: int = Field(ge=1)
    direction: Text
    bearing_degrees: int = Field(ge=0, lt=360)


class Rampage(Strict):
    title: Text
    turn_towards_cause: bool
    move_dice: tuple[DiceExpr, ...] = Field(min_length=1)
    direction_die: DiceExpr
    directions: tuple[RampageDirection, ...] = Field(min_length=1)
    burst_through_dps_formed: int = Field(ge=0)
    burst_through_dps_unformed: int = Field(ge=0)
    gap_within: float = Field(gt=0)
    note: str | None = None


class StopRampage(Strict):
    title: Text
    die: DiceExpr
    destroyed_on_at_least: int
    bonus_per_turn_after_first: int
    bonus_cumulative: bool
    new_rampage_phase: Id
    note: str | None = None


class ControlDie(Strict):
    who: Text
    die: DiceExpr


class ControlModifier(Strict):
    label: Text
    value: int
    either_sign: bool = False
    optional_after_roll: bool = False


class ControlTest(Strict):
    title: Text
    radius: float = Field(gt=0)
    conform_behind_within: float = Field(gt=0)
    dice: dict[Id, ControlDie] = Field(min_length=1)
    modifiers: dict[Id, ControlModifier] = Field(default_factory=dict)
    results: tuple[Band, ...] = Field(min_length=1)
    pursuit_continues_at_least: int
    note: str | None = None


class CommandAction(Strict):
    name: Text
    cost: int = Field(ge=1)
    move: float | None = Field(default=None, gt=0)
    dps_removed: int | None = Field(default=None, ge=0)
    combat_dice: int | None = None
    summary: Text


class Command(Strict):
    title: Text
    actions_general: int = Field(ge=0)
    actions_commander: int = Field(ge=0)
    actions_exceptional_bonus: int = Field(ge=0)
    actions: dict[Id, CommandAction] = Field(min_length=1)
    inspire_max_dice: int = Field(ge=0)
    not_same_turn: tuple[Id, ...] = ()
    note: str | None = None


class DieOfDeath(Strict):
    title: Text
    die: DiceExpr
    triggers: tuple[Text, ...] = Field(min_length=1)
    danger_roll: int
    results: tuple[Band, ...] = Field(min_length=1)
    wounds_to_kill: int = Field(ge=1)
    actions_lost_per_wound: int = Field(ge=0)
    successor_actions: int = Field(ge=0)
    successor_delay_turns: int = Field(ge=0)
    unattached_contacted: Text
    note: str | None = None


class MoveClass(Strict):
    name: Text
    march_move: float = Field(gt=0)
    dice: tuple[MoveDie, ...] = Field(min_length=1)
    note: str | None = None


class Movement(Strict):
    title: Text
    stop_from_enemy: float = Field(gt=0)
    march_beyond: float = Field(gt=0)
    may_halt_short_of: float = Field(gt=0)
    light_fall_back_keep: float = Field(gt=0)
    classes: dict[Id, MoveClass] = Field(min_length=1)
    maximum_dice_moves: tuple[Id, ...] = ()
    bonus_per_die: float = Field(ge=0)
    bonus_moves: tuple[Id, ...] = ()
    straight_ahead_tolerance_degrees: float = Field(ge=0)
    note: str | None = None


class FatigueRule(Strict):
    label: Text
    dps: int = Field(ge=0)
    on_results: tuple[int, ...] = ()
    note: str | None = None


class Fatigue(Strict):
    title: Text
    rules: dict[Id, FatigueRule] = Field(min_length=1)
    note: str | None = None


class RoughRow(Strict):
    label: Text
    dps: int | None = Field(default=None, ge=0)
    light_cover_dps: int | None = Field(default=None, ge=0)
    note: str | None = None


class RoughTerrain(Strict):
    title: Text
    examples: tuple[Text, ...] = ()
    light_examples: tuple[Text, ...] = ()
    rows: dict[Id, RoughRow] = Field(min_length=1)
    note: str | None = None


class Manoeuvre(Strict):
    name: Text
    cost: Text
    move_fraction: float | None = Field(default=None, gt=0)
    distance: float | None = Field(default=None, gt=0)
    dps: int = Field(ge=0)
    dps_for: str | None = None
    only_within_enemy: bool = True
    allowed: str | None = None
    summary: Text


class Manoeuvres(Strict):
    title: Text
    dp_range: float = Field(gt=0)
    items: dict[Id, Manoeuvre] = Field(min_length=1)
    note: str | None = None


class RedressRow(Strict):
    grades: tuple[Grade, ...] = Field(min_length=1)
    removed: int = Field(ge=0)
    extra_beyond_enemy: int = Field(ge=0)


class Redress(Strict):
    title: Text
    enemy_distance: float = Field(gt=0)
    rows: dict[Id, RedressRow] = Field(min_length=1)
    note: str | None = None


class Rally(Strict):
    title: Text
    halted_beyond: float = Field(gt=0)
    dps_after: int = Field(ge=0)
    leader_steady_removes: int = Field(ge=0)
    note: str | None = None


class DiceModifier(Strict):
    """Dice added (or taken away) per unit, per DP or per action; ``limit`` caps the total this
    factor can give, with the same sign as ``dice`` (inspire at most +2, DPs at most -4).
    ``when`` lists what earns a charge factor (errata 'hi-follow-up-not-pursuit')."""

    label: Text
    dice: int
    per: Literal["unit", "dp", "action"] = "unit"
    limit: int | None = None
    when: tuple[Impetus, ...] = ()
    exceptions: tuple[Text, ...] = ()
    source_text: str | None = None
    note: str | None = None


class Shooting(Strict):
    title: Text
    range: float = Field(gt=0)
    die: DiceExpr
    dice_per_base: int = Field(ge=1)
    halve_against: tuple[Text, ...] = ()
    halve_rounding: Literal["up", "down"]
    halving_cumulative: bool
    modifiers: dict[Id, DiceModifier] = Field(default_factory=dict)
    min_dice: int = Field(ge=0)
    hit_on: tuple[int, ...] = Field(min_length=1)
    dps_per_hit: int = Field(ge=0)
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
    die: DiceExpr
    dice_per_engaged_base: int = Field(ge=1)
    casualty_on_at_least: int


class Charges(Strict):
    title: Text
    range: float = Field(gt=0)
    restrictions: dict[Id, ChargeRestriction] = Field(min_length=1)
    barred: tuple[Text, ...] = ()
    responses: dict[Id, ChargeResponse] = Field(min_length=1)
    free_hack: FreeHack
    halt_on_vacated_grades: tuple[Grade, ...] = ()
    elephant_open_ranks_die: DiceExpr
    elephant_open_ranks_pass_on: tuple[int, ...] = ()
    elephant_open_ranks_contact_on: tuple[int, ...] = ()
    light_charged_by_elephant_dps: int = Field(ge=0)
    note: str | None = None


class CombatDice(Strict):
    title: Text
    die: DiceExpr
    per_base: int = Field(ge=1)
    per_elephant: int = Field(ge=1)
    max_base_dice: int = Field(ge=1)
    overlap_per_flank: int = Field(ge=0)
    legion_second_line_fraction: float = Field(ge=0, le=1)
    min_dice: int = Field(ge=0)
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
    die: DiceExpr
    hard_hit_on: tuple[int, ...] = Field(min_length=1)
    normal_hit_on: tuple[int, ...] = Field(min_length=1)
    hard_situations: dict[Id, HitSituation] = Field(min_length=1)
    leader_automatic_hits: int = Field(ge=0)
    advantage_of_ground: Text
    note: str | None = None


class Support(Strict):
    title: Text
    max_gap: float = Field(gt=0)
    min_fraction_of_stands: float = Field(gt=0, le=1)
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
    extra_dps_inflicted: int = Field(default=0, ge=0)
    extra_dps_to: str | None = None
    note: str | None = None


class ResultBand(Strict):
    name: Text
    min_diff: int | None = None
    max_diff: int | None = None
    dps: int = Field(ge=0)
    casualties: int = Field(default=0, ge=0)
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
    distance: float | None = Field(default=None, gt=0)
    full_move: bool = False
    formed: bool = True
    dps_removed: int = Field(default=0, ge=0)
    blocked_casualties: int | None = Field(default=None, ge=0)
    surrender_within: float | None = Field(default=None, gt=0)
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
