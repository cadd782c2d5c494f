"""MWAN #90: the cross-checks of its data that the schema alone cannot express."""

from __future__ import annotations

from app.rules.errors import Problem
from app.rules.ruleset import Ruleset
from app.rulesets.mwan90.schema import Tables, Troop, rout_threshold, tables

TABLES = "tables.toml"
TROOPS = "troops.toml"
ARMIES = "armies.toml"


def _check_troops(t: Tables, troops: dict[str, Troop], problems: list[Problem]) -> None:
    for tid, troop in sorted(troops.items()):
        base = f"troops.{tid}"
        if troop.move_class not in t.movement.rows:
            problems.append(
                Problem(
                    TROOPS,
                    f"{base}.move_class",
                    f"{troop.move_class!r} is not one of tables.movement.rows "
                    f"({', '.join(sorted(t.movement.rows))})",
                )
            )
        if troop.hit_class not in t.hits.rows:
            problems.append(
                Problem(
                    TROOPS,
                    f"{base}.hit_class",
                    f"{troop.hit_class!r} is not one of tables.hits.rows "
                    f"({', '.join(sorted(t.hits.rows))})",
                )
            )
        for i, weapon in enumerate(troop.weapons):
            rng = t.missiles.ranges.get(weapon.name)
            if rng is None:
                problems.append(
                    Problem(
                        TROOPS,
                        f"{base}.weapons[{i}].name",
                        f"{weapon.name!r} is not one of tables.missiles.ranges",
                    )
                )
            elif rng != weapon.long_range:
                problems.append(
                    Problem(
                        TROOPS,
                        f"{base}.weapons[{i}].long_range",
                        f"{weapon.long_range} differs from "
                        f"tables.missiles.ranges.{weapon.name} ({rng})",
                    )
                )
        if troop.shoots and not troop.weapons:
            problems.append(Problem(TROOPS, f"{base}.weapons", "a shooting troop needs a weapon"))


def _check_morale(t: Tables, problems: list[Problem]) -> None:
    m = t.morale
    if m.complete and not m.rows:
        problems.append(
            Problem(
                TABLES,
                "tables.morale.rows",
                "complete = true but the table has no rows; add the rows or set complete = false",
            )
        )
    if m.rows and m.die is None:
        problems.append(
            Problem(TABLES, "tables.morale.die", "the morale rows need the die they are read with")
        )


def check(rs: Ruleset) -> list[Problem]:
    """Cross-checks: troop keys exist in the movement and hit tables, weapon ranges agree
    with the missile table, the sequence follows the turn phases, the morale table is
    consistent, and every formed unit size is above its rout threshold."""
    problems: list[Problem] = []
    t = tables(rs)
    troops = {tid: tr for tid, tr in rs.troops.items() if isinstance(tr, Troop)}
    _check_troops(t, troops, problems)

    phases = [p.id for p in rs.turn.phases]
    steps = [s.phase for s in t.sequence.steps]
    if steps != phases:
        problems.append(
            Problem(
                TABLES,
                "tables.sequence.steps",
                f"phases {steps} differ from the turn phases {phases}",
            )
        )
    for i, cls in enumerate(t.melee.flank_rear.only_if_attacked):
        if cls not in t.hits.rows:
            problems.append(
                Problem(
                    TABLES,
                    f"tables.melee.flank_rear.only_if_attacked[{i}]",
                    f"{cls!r} is not one of tables.hits.rows",
                )
            )
    if t.formations.shield_wall.while_immobile_counts_as not in t.hits.rows:
        problems.append(
            Problem(
                TABLES,
                "tables.formations.shield_wall.while_immobile_counts_as",
                "not one of tables.hits.rows",
            )
        )
    _check_morale(t, problems)

    for army_id, army in rs.armies.items():
        for entry_id, entry in army.entries.items():
            troop = troops.get(entry.troop)
            if troop is None:
                continue
            limit = rout_threshold(t, troop)
            if limit is not None and min(entry.sizes) <= limit:
                problems.append(
                    Problem(
                        ARMIES,
                        f"armies.{army_id}.entries.{entry_id}.sizes",
                        f"a {troop.name} unit routs at {limit} figures; every size must be "
                        f"above that",
                    )
                )
    return problems
