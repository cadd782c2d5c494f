"""Leg VI Carthago (author unnamed): troop and table models, and the cross-checks of its data.

Leg VI counts 20mm bases of 6mm figures and measures in inches. A unit's wear is tracked as
Death, Desertion and Disorder Points (DPs); elephants take none and test for critical hits
and rampage instead. Every table of the source is a typed model here so that the battle
engine and the quick-reference sheet read numbers from ``tables.toml`` alone.

Prose fields (``title``, ``label``, ``summary``, ``note``) are the project's own words. Die
bands are closed ranges ``low..high``; ``None`` at either end means "and beyond" (a modified
roll of 0 reads as the lowest band, a 7 as the highest).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.rules.dice import AVD_FACES
from app.rules.engines import EngineSchema
from app.rules.errors import Problem
from app.rules.ruleset import Ruleset
from app.rules.schema import Category, DiceExpr, Id, Strict, Text, TroopBase

ENGINE = "leg-vi"
Grade = Literal["A", "B", "C", "D"]
ChargeTarget = Literal["any", "light_infantry", "elephant", "cavalry", "unformed"]
ChargeResponseKind = Literal["evade", "stand"]
#: How a troop type holds together: formed bodies, unformed (light troops), or free like an
#: elephant (moves freely but counts as neither formed nor unformed).
Order = Literal["formed", "unformed", "free"]


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


def _covers(bands: tuple[Band, ...], lo: int, hi: int) -> str | None:
    """Why ``bands`` do not give each of ``lo..hi`` exactly one band (None if they do)."""
    for value in range(lo, hi + 1):
        hits = [
            b.result
            for b in bands
            if (b.low is None or b.low <= value) and (b.high is None or value <= b.high)
        ]
        if len(hits) != 1:
            return f"result {value} falls in {len(hits)} bands {hits}, not exactly one"
    return None


# --------------------------------------------------------------------------- troop type


class Troop(TroopBase):
    """A Leg VI troop type: its own numbers on top of the common fields.

    The keys (``movement_class``, ``fatigue``, ``rough_terrain``, ``charge_rule``,
    ``combat_factors``) name rows of ``tables.toml``; the inline values repeat those rows so a
    card can print a troop alone, and :func:`check` makes sure the two agree.
    """

    abbreviation: Text
    light: bool = False
    order: Order = "formed"
    takes_dps: bool = True
    allowed_grades: tuple[Grade, ...] = ()
    movement_class: Id
    march_move: float = Field(gt=0)
    move_dice: tuple[MoveDie, ...] = Field(min_length=1)
    manoeuvres_as: Id | None = None
    fatigue: Id
    fatigue_on: tuple[int, ...] = ()
    rough_terrain: Id
    rough_terrain_dps: int | None = Field(default=None, ge=0)
    side_step_grades: tuple[Grade, ...] = ()
    charge_rule: Id
    charge_targets: tuple[ChargeTarget, ...] = Field(min_length=1)
    charge_responses: tuple[ChargeResponseKind, ...] = Field(min_length=1)
    combat_dice_per_base: int = Field(ge=1)
    combat_factors: tuple[Id, ...] = ()


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
    factor can give, with the same sign as ``dice`` (inspire at most +2, DPs at most -4)."""

    label: Text
    dice: int
    per: Literal["unit", "dp", "action"] = "unit"
    limit: int | None = None
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


# --------------------------------------------------------------------------- access


def tables(rs: Ruleset) -> Tables:
    """The Leg VI tables of ``rs``; TypeError if ``rs`` is not a Leg VI ruleset."""
    if not isinstance(rs.tables, Tables):
        raise TypeError(f"ruleset {rs.id!r} does not hold Leg VI tables")
    return rs.tables


def troops(rs: Ruleset) -> dict[str, Troop]:
    """The Leg VI troop types of ``rs``; TypeError if one is not a Leg VI troop."""
    out: dict[str, Troop] = {}
    for tid, troop in rs.troops.items():
        if not isinstance(troop, Troop):
            raise TypeError(f"ruleset {rs.id!r}: troop {tid!r} is not a Leg VI troop")
        out[tid] = troop
    return out


# --------------------------------------------------------------------------- checks


def _check_troops(rs: Ruleset, t: Tables, out: list[Problem]) -> None:
    for tid, troop in troops(rs).items():
        at = f"troops.{tid}"
        move = t.movement.classes.get(troop.movement_class)
        if move is None:
            out.append(
                Problem(
                    "troops.toml",
                    f"{at}.movement_class",
                    f"{troop.movement_class!r} is not in tables.movement.classes",
                )
            )
        else:
            if troop.march_move != move.march_move:
                out.append(
                    Problem(
                        "troops.toml",
                        f"{at}.march_move",
                        f"{troop.march_move} differs from movement class "
                        f"{troop.movement_class!r} ({move.march_move})",
                    )
                )
            if troop.move_dice != move.dice:
                out.append(
                    Problem(
                        "troops.toml",
                        f"{at}.move_dice",
                        f"differs from movement class {troop.movement_class!r}",
                    )
                )
        if troop.manoeuvres_as is not None and troop.manoeuvres_as not in rs.troops:
            out.append(
                Problem(
                    "troops.toml",
                    f"{at}.manoeuvres_as",
                    f"unknown troop type {troop.manoeuvres_as!r}",
                )
            )
        fatigue = t.fatigue.rules.get(troop.fatigue)
        if fatigue is None:
            out.append(
                Problem(
                    "troops.toml",
                    f"{at}.fatigue",
                    f"{troop.fatigue!r} is not in tables.fatigue.rules",
                )
            )
        elif troop.fatigue_on != fatigue.on_results:
            out.append(
                Problem(
                    "troops.toml",
                    f"{at}.fatigue_on",
                    f"{troop.fatigue_on} differs from fatigue rule {troop.fatigue!r} "
                    f"({fatigue.on_results})",
                )
            )
        rough = t.rough_terrain.rows.get(troop.rough_terrain)
        if rough is None:
            out.append(
                Problem(
                    "troops.toml",
                    f"{at}.rough_terrain",
                    f"{troop.rough_terrain!r} is not in tables.rough_terrain.rows",
                )
            )
        elif troop.rough_terrain_dps != rough.dps:
            out.append(
                Problem(
                    "troops.toml",
                    f"{at}.rough_terrain_dps",
                    f"{troop.rough_terrain_dps} differs from rough terrain row "
                    f"{troop.rough_terrain!r} ({rough.dps})",
                )
            )
        charge = t.charges.restrictions.get(troop.charge_rule)
        if charge is None:
            out.append(
                Problem(
                    "troops.toml",
                    f"{at}.charge_rule",
                    f"{troop.charge_rule!r} is not in tables.charges.restrictions",
                )
            )
        elif troop.charge_targets != charge.targets:
            out.append(
                Problem(
                    "troops.toml",
                    f"{at}.charge_targets",
                    f"{troop.charge_targets} differs from charge rule "
                    f"{troop.charge_rule!r} ({charge.targets})",
                )
            )
        for i, fid in enumerate(troop.combat_factors):
            if fid not in t.combat_factors.factors:
                out.append(
                    Problem(
                        "troops.toml",
                        f"{at}.combat_factors[{i}]",
                        f"{fid!r} is not in tables.combat_factors.factors",
                    )
                )
        want = (
            t.combat_dice.per_elephant
            if troop.category == Category.ELEPHANT
            else t.combat_dice.per_base
        )
        if troop.combat_dice_per_base != want:
            out.append(
                Problem(
                    "troops.toml",
                    f"{at}.combat_dice_per_base",
                    f"{troop.combat_dice_per_base} differs from tables.combat_dice ({want})",
                )
            )


def _check_bands(t: Tables, out: list[Problem]) -> None:
    for path, bands in (
        ("tables.control_test.results", t.control_test.results),
        ("tables.die_of_death.results", t.die_of_death.results),
        ("tables.elephant_critical.outcomes", t.elephant_critical.outcomes),
    ):
        why = _covers(bands, 1, 6)
        if why:
            out.append(Problem("tables.toml", path, why))
    rolls = sorted(d.roll for d in t.rampage.directions)
    if rolls != list(range(1, 7)):
        out.append(
            Problem(
                "tables.toml",
                "tables.rampage.directions",
                f"rolls {rolls} are not 1 to 6 once each",
            )
        )
    if tuple(t.avd.faces) != AVD_FACES:
        out.append(
            Problem(
                "tables.toml",
                "tables.avd.faces",
                f"{t.avd.faces} differ from the dice module's AvD {AVD_FACES}",
            )
        )
    diff_bands = tuple(
        Band(low=b.min_diff, high=b.max_diff, result=bid, label=b.name)
        for bid, b in t.combat_results.bands.items()
    )
    why = _covers(diff_bands, -12, 12)
    if why:
        out.append(Problem("tables.toml", "tables.combat_results.bands", f"hit difference {why}"))
    for bid, band in t.combat_results.bands.items():
        for i, rm in enumerate(band.moves):
            for j, mid in enumerate(rm.moves):
                if mid not in t.after_combat_moves.moves:
                    out.append(
                        Problem(
                            "tables.toml",
                            f"tables.combat_results.bands.{bid}.moves[{i}].moves[{j}]",
                            f"{mid!r} is not in tables.after_combat_moves.moves",
                        )
                    )


def _check_rules(rs: Ruleset, t: Tables, out: list[Problem]) -> None:
    phases = tuple(p.id for p in rs.turn.phases)
    steps = tuple(s.phase for s in t.sequence.steps)
    if steps != phases:
        out.append(
            Problem(
                "tables.toml",
                "tables.sequence.steps",
                f"phases {steps} differ from ruleset.toml turn phases {phases}",
            )
        )
    if t.stop_rampage.new_rampage_phase not in phases:
        out.append(
            Problem(
                "tables.toml",
                "tables.stop_rampage.new_rampage_phase",
                f"{t.stop_rampage.new_rampage_phase!r} is not a turn phase",
            )
        )
    lim = t.dp_limits
    for i, th in enumerate(lim.legion_quincunx):
        want = lim.shaken_at + lim.legion_extra_per_line * (th.lines - 1)
        if th.shaken_at != want:
            out.append(
                Problem(
                    "tables.toml",
                    f"tables.dp_limits.legion_quincunx[{i}].shaken_at",
                    f"{th.shaken_at} but {th.lines} lines give {want}",
                )
            )
    for i, line in enumerate(t.legion.lines):
        if line.troop not in rs.troops:
            out.append(
                Problem(
                    "tables.toml",
                    f"tables.legion.lines[{i}].troop",
                    f"unknown troop type {line.troop!r}",
                )
            )
    if sum(line.bases for line in t.legion.lines) != t.unit_sizes.legion_bases:
        out.append(
            Problem(
                "tables.toml",
                "tables.legion.lines",
                f"bases do not add up to {t.unit_sizes.legion_bases}",
            )
        )
    if t.legion.quincunx_moves_as not in rs.troops:
        out.append(
            Problem(
                "tables.toml",
                "tables.legion.quincunx_moves_as",
                f"unknown troop type {t.legion.quincunx_moves_as!r}",
            )
        )
    for aid in (*t.movement.maximum_dice_moves, *t.movement.bonus_moves):
        if aid not in t.after_combat_moves.moves and aid != "evade":
            out.append(
                Problem(
                    "tables.toml",
                    "tables.movement",
                    f"{aid!r} is neither 'evade' nor an after-combat move",
                )
            )
    ld, cmd = rs.leaders, t.command
    for key, table_value, leader_value in (
        ("actions_general", cmd.actions_general, ld.actions_general),
        ("actions_commander", cmd.actions_commander, ld.actions_commander),
        ("actions_exceptional_bonus", cmd.actions_exceptional_bonus, ld.actions_exceptional_bonus),
    ):
        if table_value != leader_value:
            out.append(
                Problem(
                    "tables.toml",
                    f"tables.command.{key}",
                    f"{table_value} differs from ruleset.toml leaders.{key} ({leader_value})",
                )
            )
    for i, aid in enumerate(cmd.not_same_turn):
        if aid not in cmd.actions:
            out.append(
                Problem(
                    "tables.toml",
                    f"tables.command.not_same_turn[{i}]",
                    f"{aid!r} is not a command action",
                )
            )


def _check_armies(rs: Ruleset, t: Tables, out: list[Problem]) -> None:
    sizes = t.unit_sizes
    all_troops = troops(rs)
    legion = tuple((ln.troop, ln.bases, ln.alternative_bases) for ln in t.legion.lines)
    for aid, army in rs.armies.items():
        for eid, entry in army.entries.items():
            at = f"armies.{aid}.entries.{eid}"
            troop = all_troops.get(entry.troop)
            if troop is None:
                continue  # the loader reports unknown troops
            if entry.lines:
                if entry.sizes != (sizes.legion_bases,):
                    out.append(
                        Problem(
                            "armies.toml",
                            f"{at}.sizes",
                            f"a legion is {sizes.legion_bases} bases, not {entry.sizes}",
                        )
                    )
                got = tuple((ln.troop, ln.bases, ln.alternative_bases) for ln in entry.lines)
                if got != legion:
                    out.append(
                        Problem(
                            "armies.toml",
                            f"{at}.lines",
                            f"lines {got} differ from tables.legion.lines {legion}",
                        )
                    )
            elif troop.category == Category.ELEPHANT:
                if entry.sizes != (sizes.elephant_bases,):
                    out.append(
                        Problem(
                            "armies.toml",
                            f"{at}.sizes",
                            f"an elephant unit is {sizes.elephant_bases} base",
                        )
                    )
            else:
                bad = [s for s in entry.sizes if not sizes.min_bases <= s <= sizes.max_bases]
                if bad:
                    out.append(
                        Problem(
                            "armies.toml",
                            f"{at}.sizes",
                            f"sizes {bad} are outside {sizes.min_bases}-{sizes.max_bases} bases",
                        )
                    )
            if troop.allowed_grades:
                bad_grades = [g for g in entry.grades if g not in troop.allowed_grades]
                if bad_grades or not entry.grades:
                    out.append(
                        Problem(
                            "armies.toml",
                            f"{at}.grades",
                            f"troop {entry.troop!r} may only be graded "
                            f"{list(troop.allowed_grades)}",
                        )
                    )


def check(rs: Ruleset) -> list[Problem]:
    """Cross-checks the data cannot express: troop keys name table rows and agree with them,
    die tables cover 1-6 once, result bands cover every hit difference, the legion is 4/4/2
    everywhere, unit sizes respect the 2-8 base rule, elephants are graded C only."""
    try:
        t = tables(rs)
        troops(rs)
    except TypeError as exc:
        return [Problem("tables.toml", "", str(exc))]
    out: list[Problem] = []
    _check_troops(rs, t, out)
    _check_bands(t, out)
    _check_rules(rs, t, out)
    _check_armies(rs, t, out)
    return out


SCHEMA = EngineSchema(
    engine=ENGINE,
    troop_model=Troop,
    tables_model=Tables,
    builtin_folder="leg-vi-carthago",
    check=check,
)
