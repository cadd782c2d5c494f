"""Leg VI Carthago: the cross-checks of its data that the schema alone cannot express."""

from __future__ import annotations

from app.rules.dice import AVD_FACES, parse_dice
from app.rules.errors import Problem
from app.rules.ruleset import Ruleset
from app.rules.schema import Category
from app.rulesets.leg_vi.schema import tables, troops
from app.rulesets.leg_vi.tables_schema import Band, Tables


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


def _face_range(die: str) -> tuple[int, int]:
    faces = parse_dice(die).faces
    return min(faces), max(faces)


def _most_hits(t: Tables) -> int:
    """More hits than one side of a combat can score: every base die, every factor that
    adds dice and the leader's automatic hits."""
    factors = sum(max(0, f.dice, f.limit or 0) for f in t.combat_factors.factors.values())
    return t.combat_dice.max_base_dice + factors + t.hit_numbers.leader_automatic_hits


def _check_bands(t: Tables, out: list[Problem]) -> None:
    """Every roll a table can be read with falls in exactly one of its bands: the faces of
    its die (a control test's also moved by every modifier), and every hit difference a
    combat can give; a rampage has one direction for each face of its die."""
    ct = t.control_test
    shift = sum(abs(m.value) for m in ct.modifiers.values())
    ranges = [_face_range(d.die) for d in ct.dice.values()]
    for path, bands, (lo, hi) in (
        (
            "tables.control_test.results",
            ct.results,
            (min(r[0] for r in ranges) - shift, max(r[1] for r in ranges) + shift),
        ),
        ("tables.die_of_death.results", t.die_of_death.results, _face_range(t.die_of_death.die)),
        (
            "tables.elephant_critical.outcomes",
            t.elephant_critical.outcomes,
            _face_range(t.elephant_critical.outcome_die),
        ),
    ):
        why = _covers(bands, lo, hi)
        if why:
            out.append(Problem("tables.toml", path, why))
    rolls = sorted(d.roll for d in t.rampage.directions)
    want = sorted(set(parse_dice(t.rampage.direction_die).faces))
    if rolls != want:
        out.append(
            Problem(
                "tables.toml",
                "tables.rampage.directions",
                f"rolls {rolls} are not the faces of {t.rampage.direction_die} once each",
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
    most = _most_hits(t)
    why = _covers(diff_bands, -most, most)
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
