"""Quincunx: the cross-checks of its data that the schema alone cannot express."""

from __future__ import annotations

from typing import TYPE_CHECKING, get_args

from app.rules.dice import parse_dice
from app.rules.errors import Problem
from app.rules.table import TerrainKind

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset
from app.rulesets.quincunx.schema import Tables, Troop, tables


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

    errata = {e.id for e in rs.errata}
    for kind in get_args(TerrainKind):
        rule = t.terrain.kinds.get(kind)
        if rule is None:
            out.append(Problem("tables.toml", "terrain.kinds", f"no rule for terrain {kind!r}"))
        elif rule.errata is not None and rule.errata not in errata:
            out.append(
                Problem(
                    "tables.toml",
                    f"terrain.kinds.{kind}.errata",
                    f"no errata entry {rule.errata!r}",
                )
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
