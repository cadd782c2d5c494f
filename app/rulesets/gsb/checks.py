"""Grown Slightly Bald: the cross-checks of its data that the schema alone cannot express."""

from __future__ import annotations

from app.rules.errors import Problem
from app.rules.ruleset import Ruleset
from app.rulesets.gsb.schema import Troop, tables

TABLES = "tables.toml"
TROOPS = "troops.toml"


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
        if rule.attacker is not None:
            _troop_ref(rule.attacker, ids, f"tables.optional_rules.{rid}.attacker", problems)
        _troop_ref(rule.target, ids, f"tables.optional_rules.{rid}.target", problems)
    _troop_ref(t.elephants.troop, ids, "tables.elephants.troop", problems)
    for tid in t.disengage.infantry:
        _troop_ref(tid, ids, f"tables.disengage.infantry.{tid}", problems)
    for kind, kind_row in t.terrain.kinds.items():
        if kind_row.melee_cap is not None and kind_row.melee_cap not in t.terrain.rows:
            problems.append(
                Problem(
                    TABLES,
                    f"tables.terrain.kinds.{kind}.melee_cap",
                    f"{kind_row.melee_cap!r} is not one of tables.terrain.rows "
                    f"({', '.join(sorted(t.terrain.rows))})",
                )
            )
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
