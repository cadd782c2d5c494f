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

from app.rules.dice import parse_dice
from app.rules.engines import EngineSchema
from app.rules.errors import Problem
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


# --------------------------------------------------------------------------- checks


def tables(rs: Ruleset) -> Tables:
    """The ruleset's tables, typed; ``TypeError`` if it is not a Quincunx ruleset."""
    if not isinstance(rs.tables, Tables):
        raise TypeError(f"ruleset {rs.id!r} does not hold Quincunx tables")
    return rs.tables


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-9


def _check_tables(t: Tables) -> list[Problem]:
    out: list[Problem] = []

    def bad(path: str, message: str) -> None:
        out.append(Problem("tables.toml", path, message))

    per_mf = t.movement.inches_per_move_factor
    for cid, mc in t.movement.classes.items():
        if not _close(mc.move_factors * per_mf, mc.inches):
            bad(
                f"movement.classes.{cid}.inches",
                f"{mc.inches} is not {mc.move_factors} move factors x {per_mf}",
            )
    for name, mf, inches in (
        ("command.range", t.command.range_move_factors, t.command.range_inches),
        ("command.chain", t.command.chain_move_factors, t.command.chain_inches),
        (
            "melee_resolution.recoil",
            t.melee_resolution.recoil_move_factors,
            t.melee_resolution.recoil_inches,
        ),
        ("stragglers.retire", t.stragglers.retire_move_factors, t.stragglers.retire_inches),
        (
            "elephants_and_horses.keep_away",
            t.elephants_and_horses.keep_away_move_factors,
            t.elephants_and_horses.keep_away_inches,
        ),
    ):
        if not _close(mf * per_mf, inches):
            bad(f"{name}_inches", f"{inches} is not {mf} move factors x {per_mf}")
    for i, lm in enumerate(t.leaders.moves):
        if (lm.move_factors is None) != (lm.inches is None):
            bad(f"leaders.moves[{i}]", "give both move_factors and inches, or neither")
        elif (
            lm.move_factors is not None
            and lm.inches is not None
            and not _close(lm.move_factors * per_mf, lm.inches)
        ):
            bad(f"leaders.moves[{i}].inches", f"{lm.inches} is not {lm.move_factors} x {per_mf}")

    for table_name, mods in (
        ("missile_modifiers", t.missile_modifiers.modifiers),
        ("melee_modifiers", t.melee_modifiers.modifiers),
    ):
        for mid, mod in mods.items():
            if mod.kind == "leader" and mod.modifier != t.leaders.attached_bonus:
                bad(
                    f"{table_name}.modifiers.{mid}.modifier",
                    f"a leader modifier must equal leaders.attached_bonus "
                    f"({t.leaders.attached_bonus})",
                )

    for wid, wr in t.missile_ranges.weapons.items():
        if not (wr.short_max <= wr.long_min <= wr.long_max):
            bad(
                f"missile_ranges.weapons.{wid}",
                "ranges must rise: short_max <= long_min <= long_max",
            )

    ladder = t.missile_dice.dice_ladder
    previous_max: int | None = None
    for i, band in enumerate(t.missile_dice.bands):
        path = f"missile_dice.bands[{i}]"
        if previous_max is not None and band.min_firing != previous_max + 1:
            bad(f"{path}.min_firing", f"bands must be contiguous: expected {previous_max + 1}")
        if band.max_firing is not None and band.max_firing < band.min_firing:
            bad(f"{path}.max_firing", "max_firing is below min_firing")
        if band.max_firing is None and i != len(t.missile_dice.bands) - 1:
            bad(f"{path}.max_firing", "only the last band may be open-ended")
        previous_max = band.max_firing
        for col in ("cover", "long", "short"):
            die = getattr(band, col)
            if die is not None and die not in ladder:
                bad(f"{path}.{col}", f"{die!r} is not on the dice ladder {ladder}")

    for i, lvl in enumerate(t.melee.rings):
        if lvl != i:
            bad(f"melee.rings[{i}]", f"rings must run 0, 1, 2, ...; found {lvl}")
    columns = len(t.melee.rings)
    for tid, track in t.melee.tracks.items():
        if len(track.dice) != columns:
            bad(
                f"melee.tracks.{tid}.dice",
                f"has {len(track.dice)} dice; the matrix has {columns} ring columns",
            )

    shifts = t.column_shifts.shifts
    for sid, shift in shifts.items():
        for other in shift.replaces:
            if other not in shifts:
                bad(f"column_shifts.shifts.{sid}.replaces", f"unknown column shift {other!r}")
    for name, ref in (
        ("terrain.woods.melee_column_shift", t.terrain.woods.melee_column_shift),
        ("terrain.streams.melee_column_shift", t.terrain.streams.melee_column_shift),
    ):
        if ref not in shifts:
            bad(name, f"unknown column shift {ref!r}")

    sizes = t.attrition.original_sizes
    for i, row in enumerate(t.attrition.rows):
        if len(row.remaining) != len(sizes):
            bad(
                f"attrition.rows[{i}].remaining",
                f"has {len(row.remaining)} values for {len(sizes)} original sizes",
            )
        if row.column_shift is not None and row.column_shift not in shifts:
            bad(f"attrition.rows[{i}].column_shift", f"unknown column shift {row.column_shift!r}")
    for i, alias in enumerate(t.attrition.size_aliases):
        if alias.column not in sizes:
            bad(f"attrition.size_aliases[{i}].column", f"{alias.column} is not an original size")

    el = t.elephants
    if el.casualty_points_per_element != el.crew_per_element + el.elephant_hits:
        bad(
            "elephants.casualty_points_per_element",
            "must be crew_per_element + elephant_hits",
        )
    if el.casualty_points_per_unit != el.elements_per_unit * el.casualty_points_per_element:
        bad(
            "elephants.casualty_points_per_unit",
            "must be elements_per_unit x casualty_points_per_element",
        )
    if len(el.hit_order) != el.crew_per_element + 1:
        bad("elephants.hit_order", "must name each crew member and then the elephant")
    if el.missile_weapon not in t.missile_ranges.weapons:
        bad("elephants.missile_weapon", f"unknown missile weapon {el.missile_weapon!r}")

    spec = parse_dice(t.rampage.direction_die)
    if spec.count == 1 and spec.modifier == 0:
        wanted = {str(n) for n in spec.faces}
        if set(t.rampage.directions) != wanted:
            bad("rampage.directions", f"must give one direction for each face 1..{spec.sides}")
    else:
        bad("rampage.direction_die", "must be a single plain die such as d8")
    return out


def check(rs: Ruleset) -> list[Problem]:
    """Cross-checks that the typed data cannot express alone."""
    t = tables(rs)
    out = _check_tables(t)

    def bad(path: str, message: str) -> None:
        out.append(Problem("troops.toml", path, message))

    for tid, troop in rs.troops.items():
        if not isinstance(troop, Troop):
            out.append(Problem("troops.toml", f"troops.{tid}", "not a Quincunx troop"))
            continue
        base = f"troops.{tid}"
        if troop.melee_track not in t.melee.tracks:
            bad(f"{base}.melee_track", f"unknown melee track {troop.melee_track!r}")
        if troop.movement not in t.movement.classes:
            bad(f"{base}.movement", f"unknown movement class {troop.movement!r}")
        if troop.movement_skirmish is not None and troop.movement_skirmish not in (
            t.movement.classes
        ):
            bad(
                f"{base}.movement_skirmish",
                f"unknown movement class {troop.movement_skirmish!r}",
            )
        if troop.formation == "either" and troop.movement_skirmish is None:
            bad(f"{base}.movement_skirmish", "a troop that may skirmish needs a skirmish move")
        if troop.formation != "either" and troop.movement_skirmish is not None:
            bad(f"{base}.movement_skirmish", "only a troop that may be formed or skirmish has one")
        for i, mt in enumerate(troop.missile_target):
            mod = t.missile_modifiers.modifiers.get(mt)
            if mod is None or mod.kind != "target":
                bad(f"{base}.missile_target[{i}]", f"{mt!r} is not a missile target class")
        if troop.formation in ("skirmish", "either") and "skirmisher" not in troop.missile_target:
            bad(f"{base}.missile_target", "a troop that skirmishes must list 'skirmisher'")
        if troop.formation == "formed" and "skirmisher" in troop.missile_target:
            bad(f"{base}.missile_target", "a formed-only troop is never a skirmisher target")
        if troop.volley is not None and troop.volley not in t.pre_melee.volley_dice:
            bad(f"{base}.volley", f"unknown pre-melee volley {troop.volley!r}")
        if troop.mounted != troop.category.mounted:
            bad(f"{base}.mounted", f"does not agree with category {troop.category.value!r}")
        if troop.shoots != bool(troop.weapons):
            bad(f"{base}.shoots", "a troop shoots exactly when it has missile weapons")
        for i, weapon in enumerate(troop.weapons):
            rng = t.missile_ranges.weapons.get(weapon.name)
            if rng is None:
                bad(f"{base}.weapons[{i}].name", f"unknown missile weapon {weapon.name!r}")
            elif weapon.short_range != rng.short_max or weapon.long_range != rng.long_max:
                bad(
                    f"{base}.weapons[{i}]",
                    f"ranges {weapon.short_range}/{weapon.long_range} differ from the missile "
                    f"ranges table {rng.short_max}/{rng.long_max}",
                )

    for path, ids in (
        ("elephants.escort_troops", t.elephants.escort_troops),
        ("elephants_and_horses.exempt_troops", t.elephants_and_horses.exempt_troops),
    ):
        for i, troop_id in enumerate(ids):
            if troop_id not in rs.troops:
                out.append(
                    Problem("tables.toml", f"{path}[{i}]", f"unknown troop type {troop_id!r}")
                )
    return out


SCHEMA = EngineSchema(
    engine="quincunx",
    troop_model=Troop,
    tables_model=Tables,
    builtin_folder="quincunx",
    check=check,
)
