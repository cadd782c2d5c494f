"""``castra odds RULESET --attacker ENTRY --defender ENTRY``: the exact distribution of a
melee or shooting matchup (or any action with odds), computed, not sampled."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from app.cli.common import MAX_SMALL, CliError, number, print_json, registry, table
from app.core.battle.odds_summary import expected_losses, ranked
from app.core.capabilities import declared_fields
from app.rules.inputs import control_problem
from app.rules.mechanics import (
    Combatant,
    Effects,
    LeaderView,
    Mechanics,
    NotImplementedRule,
    Odds,
    Scalar,
    Side,
    Situation,
    mechanics_for,
)
from app.rules.ruleset import Ruleset
from app.rules.schema import MAX_BONUS, MIN_BONUS, ArmyEntry
from app.rules.schema import MAX_UNIT_SIZE as MAX_SIZE


def register(sub: Any) -> None:
    p = sub.add_parser(
        "odds",
        help="exact odds of a melee or shooting matchup",
        description="Exact odds of an action between two units, from the ruleset's tables. "
        "State options per side: --rings-a/--rings-d, --dps-a/--dps-d, --grade-a/--grade-d, "
        "--strength-a/--strength-d (figures or bases left), --leader-a/--leader-d (bonus); "
        "situation options with --set key=value (see --list-options).",
    )
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument(
        "--attacker",
        required=True,
        metavar="ENTRY",
        help="army-list entry (or ARMY:ENTRY, or a troop type id)",
    )
    p.add_argument("--defender", required=True, metavar="ENTRY")
    p.add_argument("--action", default="melee", help="melee (default), shoot, ...")
    for who in ("a", "d"):
        name = "attacker" if who == "a" else "defender"
        p.add_argument(
            f"--size-{who}",
            type=number(f"--size-{who}", 1, MAX_SIZE),
            help=f"{name}'s size (default: the list's)",
        )
        p.add_argument(
            f"--strength-{who}",
            type=number(f"--strength-{who}", 0, MAX_SIZE),
            help=f"{name}'s figures/bases left",
        )
        for what in ("rings", "dps", "hits"):
            p.add_argument(
                f"--{what}-{who}", type=number(f"--{what}-{who}", 0, MAX_SMALL), default=0
            )
        p.add_argument(f"--grade-{who}")
        p.add_argument(
            f"--leader-{who}",
            type=number(f"--leader-{who}", MIN_BONUS, MAX_BONUS),
            metavar="BONUS",
            help=f"a leader attached to the {name} with this bonus",
        )
        p.add_argument(
            f"--marker-{who}",
            action="append",
            default=[],
            metavar="MARKER",
            help="a status marker (shaken, disordered, ...); repeatable",
        )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a situation option (flank=yes, charge=yes, terrain=woods, ...)",
    )
    p.add_argument("--list-options", action="store_true", help="list the action's options")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_odds)


def _entries(rs: Ruleset, text: str) -> tuple[str | None, str, list[ArmyEntry]]:
    """The army, the troop type and the army-list entries ``text`` stands for (an entry id,
    ``ARMY:ENTRY``, or a troop id: every entry of that troop, in list order)."""
    army_id, _, entry_id = text.rpartition(":")
    if army_id and army_id not in rs.armies:
        known = ", ".join(rs.armies)
        raise CliError(f"{rs.meta.short_name} has no army list {army_id!r} (lists: {known})")
    found: list[tuple[str, ArmyEntry]] = []
    for aid, army in rs.armies.items():
        if army_id and aid != army_id:
            continue
        if entry_id in army.entries:
            found.append((aid, army.entries[entry_id]))
    if len({(e.troop, e.default_size) for _, e in found}) > 1:
        armies = ", ".join(f"{a}:{entry_id}" for a, _ in found)
        raise CliError(f"{entry_id!r} is in several army lists; say which: {armies}")
    if found:
        return found[0][0], found[0][1].troop, [e for _, e in found]
    if entry_id in rs.troops:
        of_troop = [
            (aid, entry)
            for aid, army in rs.armies.items()
            if not army_id or aid == army_id
            for entry in army.entries.values()
            if entry.troop == entry_id
        ]
        first = of_troop[0][0] if of_troop else (army_id or None)
        return first, entry_id, [e for _, e in of_troop]
    raise CliError(f"{rs.meta.short_name} has no entry or troop type {text!r}")


def parse_sets(mech: Mechanics, action: str, pairs: Sequence[str]) -> dict[str, Scalar]:
    spec = mech.action(action)
    out: dict[str, Scalar] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise CliError(f"--set takes KEY=VALUE, not {pair[:40]!r}", code=2)
        bad = control_problem("--set", pair)
        if bad:
            raise CliError(bad)
        if len(value.strip()) > 40:
            raise CliError(
                f"--set {key.strip()[:40]}: the value is too long ({len(value):,} characters)"
            )
        try:
            parsed = spec.option(key.strip()).parse(value.strip())
        except (KeyError, ValueError) as exc:
            raise CliError(str(exc.args[0])) from None
        if isinstance(parsed, int) and not isinstance(parsed, bool) and abs(parsed) > MAX_SMALL:
            raise CliError(
                f"--set {key.strip()}: {parsed:,} is out of range (at most {MAX_SMALL:,})"
            )
        out[key.strip()] = parsed
    return out


def _combatant(mech: Mechanics, args: argparse.Namespace, who: str, text: str) -> Combatant:
    rs = mech.ruleset
    army, troop, entries = _entries(rs, text)
    size = getattr(args, f"size_{who}")
    if size is None:
        if not entries:
            raise CliError(
                f"no army list fields troop type {troop!r}, so it has no default size: "
                f"give --size-{who}"
            )
        size = entries[0].default_size
    if size < 1:
        raise CliError(f"--size-{who} must be at least 1")
    for key in ("rings", "dps", "hits"):
        if getattr(args, f"{key}_{who}") < 0:
            raise CliError(f"--{key}-{who} cannot be negative")
    grade = getattr(args, f"grade_{who}")
    grades = sorted({g for e in entries for g in e.grades})
    if grade is None:
        grade = entries[0].default_grade if entries else None
    elif grades and grade not in grades:
        raise CliError(f"--grade-{who} {grade!r} is not one of {', '.join(grades)}")
    elif not grades and entries:
        raise CliError(f"{rs.meta.short_name} gives {text!r} no grades")
    status = mech.initial_status(troop, size, grade)
    strength = getattr(args, f"strength_{who}")
    if strength is not None:
        if not 0 < strength <= status.start_strength:
            raise CliError(f"--strength-{who} must be 1-{status.start_strength}")
        status = replace(status, strength=strength)
    status = replace(
        status,
        rings=getattr(args, f"rings_{who}"),
        dps=getattr(args, f"dps_{who}"),
        hits=getattr(args, f"hits_{who}"),
        markers=status.markers | frozenset(getattr(args, f"marker_{who}")),
    )
    problem = mech.status_problem(troop, status)
    if problem is not None:
        name = "attacker" if who == "a" else "defender"
        raise CliError(f"the {name} ({rs.troop(troop).name}): {problem}")
    bonus = getattr(args, f"leader_{who}")
    # the number the rules add for an attached leader: the first number field they read
    field = next((f for f in declared_fields(rs) if f.kind == "number"), None)
    fields = {field.name: bonus} if field is not None and bonus is not None else {}
    leader = None if bonus is None else LeaderView("leader", "Leader", "commander", fields=fields)
    side: Side = 0 if who == "a" else 1
    return Combatant(
        f"{who.upper()}1", rs.troop(troop).name, troop, side, status, leader=leader, army=army
    )


def effects_dict(e: Effects) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("casualties", "hits", "dps", "rings"):
        if getattr(e, key):
            out[key] = getattr(e, key)
    if e.markers_add:
        out["markers"] = sorted(e.markers_add)
    if e.markers_remove:
        out["markers_removed"] = sorted(e.markers_remove)
    if e.eliminated:
        out["eliminated"] = True
    if e.move:
        out["move"] = e.move
    if e.formation:
        out["formation"] = e.formation
    return out


def effects_text(e: Effects) -> str:
    d = effects_dict(e)
    parts = [f"{k} {v}" for k, v in d.items() if k in ("casualties", "hits", "dps", "rings")]
    parts += d.get("markers", [])
    if d.get("eliminated"):
        parts.append("eliminated")
    if "move" in d:
        parts.append(d["move"])
    return ", ".join(parts) or "-"


def odds_rows(odds: Odds) -> list[dict[str, Any]]:
    return [
        {
            "result": o.result,
            "attacker": effects_dict(o.attacker),
            "defender": effects_dict(o.defender),
            "probability": share,
            "fraction": f"{p.numerator}/{p.denominator}",
        }
        for o, p, share in ranked(odds)
    ]


#: the expectations the command line prints, in this order (rings are left out)
EXPECTED_KEYS = tuple(
    f"{side}_{key}" for side in ("attacker", "defender") for key in ("casualties", "hits", "dps")
)


def expectations(odds: Odds) -> dict[str, float]:
    exact = expected_losses(odds)
    return {k: round(float(exact[k]), 4) for k in EXPECTED_KEYS if k in exact}


def print_odds(odds: Odds) -> None:
    rows = [
        (
            o.result or "-",
            effects_text(o.attacker),
            effects_text(o.defender),
            f"{share * 100:6.2f}%",
            f"{p.numerator}/{p.denominator}",
        )
        for o, p, share in ranked(odds)
    ]
    print(table(rows, ("result", "attacker", "defender", "chance", "exact")))
    exp = expectations(odds)
    if exp:
        print("\nExpected: " + ", ".join(f"{k.replace('_', ' ')} {v:g}" for k, v in exp.items()))


def cmd_odds(args: argparse.Namespace) -> int:
    try:
        rs = registry().get(args.ruleset)
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None
    try:
        mech = mechanics_for(rs)
        spec = mech.action(args.action)
    except (NotImplementedRule, ImportError) as exc:
        raise CliError(str(exc)) from None
    if args.list_options:
        for o in spec.options:
            extra = f" ({', '.join(o.choices)})" if o.choices else ""
            print(f"{o.key:22} {o.kind:6} default {o.default!s:8} {o.label}{extra}")
        return 0
    if not spec.odds:
        raise CliError(f"{spec.label} has no odds in {rs.meta.short_name}")
    attacker = _combatant(mech, args, "a", args.attacker)
    defender = _combatant(mech, args, "d", args.defender)
    options = {**spec.defaults(), **parse_sets(mech, args.action, args.set)}
    sit = Situation(actor=attacker, target=defender, side=0, options=options)
    try:
        odds = mech.odds(args.action, sit)
    except NotImplementedRule as exc:
        raise CliError(f"not implemented: {exc}") from None
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print_json(
            {
                "ruleset": rs.id,
                "action": args.action,
                "attacker": {
                    "troop": attacker.troop,
                    "name": attacker.name,
                    "strength": attacker.status.strength,
                },
                "defender": {
                    "troop": defender.troop,
                    "name": defender.name,
                    "strength": defender.status.strength,
                },
                "options": options,
                "outcomes": odds_rows(odds),
                "expected": expectations(odds),
                "total": str(sum(odds.values(), Fraction(0))),
            }
        )
        return 0
    print(f"{rs.meta.short_name}: {spec.label}, {attacker.name} against {defender.name}")
    changed = {k: v for k, v in options.items() if v != spec.defaults().get(k)}
    if changed:
        print("Options: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    print()
    print_odds(odds)
    return 0
