"""MWAN #90: the cross-checks of its data that the schema alone cannot express."""

from __future__ import annotations

import re

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


#: the most sides a die of these tables may have, and the most dice a morale or initiative
#: roll may add up (the article rolls one d6 for everything)
MAX_SIDES = 20
MAX_SUMMED = 4


#: a dice expression's shape, read without building its faces (a hostile "d99999999" must
#: not allocate a hundred million faces just to be refused)
_SHAPE = re.compile(r"^(?:(avd)|(\d*)d(\d+)(z?)([+-]\d+)?)$")


def _die(expr: str, path: str, problems: list[Problem], *, summed: bool) -> int | None:
    """The die's sides when ``expr`` is a die these tables can use, else None with a
    problem: hits are counted on one plain die (``d6``); morale and initiative may add up
    a few dice (``2d6``, ``d6+1``)."""
    m = _SHAPE.match(expr.strip().lower())
    if m is None:
        problems.append(Problem(TABLES, path, f"{expr!r} is not a dice expression"))
        return None
    if m.group(1):
        count, sides, plain = 1, 6, False  # the AvD: faces 2-5
    else:
        count, sides = int(m.group(2) or 1), int(m.group(3))
        plain = not m.group(4) and not m.group(5)
    if count < 1 or sides < 2:
        problems.append(Problem(TABLES, path, f"{expr!r}: a die needs at least two sides"))
        return None
    if summed and (count > MAX_SUMMED or sides > MAX_SIDES):
        problems.append(
            Problem(
                TABLES, path, f"{expr!r}: at most {MAX_SUMMED} dice of at most {MAX_SIDES} sides"
            )
        )
        return None
    if not summed and (count != 1 or not plain or sides > MAX_SIDES):
        problems.append(
            Problem(
                TABLES,
                path,
                f"{expr!r}: hits are counted on one plain die of 2 to {MAX_SIDES} sides (like d6)",
            )
        )
        return None
    return sides


def _check_dice(t: Tables, problems: list[Problem]) -> None:
    """Hits are counted on the faces of one plain die (``d6``), each scoring at its table's
    number; morale and initiative add up a few dice. Anything else would be misread or make
    a battle's rolls and odds run away."""
    sides: dict[str, int] = {}
    for which, expr in (("melee", t.melee.die), ("missiles", t.missiles.die)):
        n = _die(expr, f"tables.{which}.die", problems, summed=False)
        if n is not None:
            sides[which] = n
    for which, maybe in (("initiative", t.initiative.die), ("morale", t.morale.die)):
        if maybe is not None:
            _die(maybe, f"tables.{which}.die", problems, summed=True)
    needs = [(f"tables.hits.rows.{k}.hit_on", r.hit_on, "melee") for k, r in t.hits.rows.items()]
    needs += [
        ("tables.missiles.hit_on", t.missiles.hit_on, "missiles"),
        ("tables.dispersal.hit_on", t.dispersal.hit_on, "missiles"),
    ]
    for path, need, which in needs:
        if which in sides and need > sides[which]:
            problems.append(Problem(TABLES, path, f"{need} is more than the {which} die can roll"))


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
    _check_dice(t, problems)

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
