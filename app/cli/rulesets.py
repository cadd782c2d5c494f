"""``castra rulesets`` and ``castra armies RULESET``."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from app.cli.common import CliError, print_json, registry, table
from app.core.ready import ready_name

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset


def register(sub: Any) -> None:
    p = sub.add_parser("rulesets", help="list the loaded rulesets (and any that failed)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_rulesets)

    p = sub.add_parser(
        "morale-table",
        help="a club's own morale table where the source lost it (MWAN #90), kept for new battles",
    )
    p.add_argument("ruleset", metavar="RULESET", help="ruleset id (see `castra rulesets`)")
    p.add_argument(
        "file", metavar="FILE", nargs="?", help='a TOML file: die = "d6" and rows = [...]'
    )
    p.add_argument("--clear", action="store_true", help="forget the saved table")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_morale_table)

    p = sub.add_parser("armies", help="list a ruleset's army lists and their entries")
    p.add_argument("ruleset", metavar="RULESET", help="ruleset id (see `castra rulesets`)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_armies)


def ruleset_info(rs: Ruleset) -> dict[str, Any]:
    m = rs.meta
    return {
        "id": rs.id,
        "name": m.name,
        "author": m.author or m.author_note,
        "year": m.year,
        "engine": m.engine,
        "data_version": m.data_version,
        "counts": m.counts,
        "scales": list(m.scales),
        "unit_of_measure": m.unit_of_measure,
        "armies": {aid: a.name for aid, a in rs.armies.items()},
        "builtin": rs.builtin,
        "folder": str(rs.folder),
        "errata": [
            {
                "id": e.id,
                "kind": e.kind,
                "topic": e.topic,
                "source_says": e.source_says,
                "decision": e.decision,
                "applies_to": list(e.applies_to),
                "override": e.override,
            }
            for e in rs.errata
        ],
    }


def cmd_rulesets(args: argparse.Namespace) -> int:
    reg = registry()
    if args.json:
        print_json(
            {
                "rulesets": [ruleset_info(rs) for rs in reg],
                "failures": [
                    {"folder": key, "problems": [str(p) for p in err.problems]}
                    for key, err in sorted(reg.failures.items())
                ],
            }
        )
        return 0
    rows = [
        (
            rs.id,
            rs.meta.name,
            rs.meta.author or rs.meta.author_note or "",
            rs.meta.year or "",
            rs.meta.counts,
            ", ".join(rs.meta.scales) or "-",
            ", ".join(rs.armies),
        )
        for rs in reg
    ]
    print(table(rows, ("id", "name", "author", "year", "counts", "scales", "army lists")))
    # each ruleset's errata: what its source says is garbled, truncated or silent about, and
    # what Castra decided (the decisions in full are on its printed reference sheet)
    for rs in reg:
        print(f"\n{rs.id}: {len(rs.errata)} errata and interpretations")
        width = max((len(e.id) for e in rs.errata), default=0)
        for e in rs.errata:
            print(f"  {e.id:<{width}}  {e.kind:<14}  {e.topic}")
    for key, err in sorted(reg.failures.items()):
        print(f"\nFAILED {key}:")
        for problem in err.problems:
            print(f"  {problem}")
    return 0


def _get(ruleset_id: str) -> Ruleset:
    try:
        return registry().get(ruleset_id)
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None


def army_info(rs: Ruleset, army_id: str) -> dict[str, Any]:
    army = rs.army(army_id)
    return {
        "id": army_id,
        "name": army.name,
        "side": army.side,
        "min_units": army.min_units,
        "max_units": army.max_units,
        "has_standard": army.standard is not None,
        # the army to play at once (castra battle new RULESET:ARMY)
        "ready": None
        if army.standard is None
        else {
            "key": f"{rs.id}:{army_id}",
            "name": ready_name(rs, army_id),
            "army": army.standard.name,
            "origin": army.standard.origin,
            "units": sum(u.count for u in army.standard.units),
        },
        "entries": [
            {
                "id": eid,
                "name": e.name,
                "troop": e.troop,
                "troop_type": rs.troops[e.troop].name,
                "category": rs.troops[e.troop].category.value,
                "sizes": list(e.sizes),
                "default_size": e.default_size,
                "min": e.min,
                "max": e.max,
                "grades": list(e.grades),
            }
            for eid, e in army.entries.items()
        ],
        "groups": {gid: list(g.entries) for gid, g in army.groups.items()},
    }


def cmd_armies(args: argparse.Namespace) -> int:
    rs = _get(args.ruleset)
    infos = [army_info(rs, aid) for aid in rs.armies]
    if args.json:
        print_json({"ruleset": rs.id, "armies": infos})
        return 0
    unit = "figures" if rs.counts_figures else "bases"
    for info in infos:
        limits = ""
        if info["min_units"] is not None or info["max_units"] is not None:
            limits = f"  [{info['min_units'] or 0}-{info['max_units'] or 'any'} units]"
        print(f"{info['id']}: {info['name']} ({info['side']}){limits}")
        ready = info["ready"]
        if ready is not None:
            whose = "the source's" if ready["origin"] == "source" else "built by Castra"
            print(f"  ready army {ready['key']}: {ready['army']} ({whose}, {ready['units']} units)")
        rows = [
            (
                e["id"],
                e["name"],
                e["troop_type"],
                ",".join(map(str, e["sizes"])),
                e["min"],
                "-" if e["max"] is None else e["max"],
                ",".join(e["grades"]),
            )
            for e in info["entries"]
        ]
        print(
            table(rows, ("entry", "name", "troop type", f"sizes ({unit})", "min", "max", "grades"))
        )
        print()
    return 0


def cmd_morale_table(args: argparse.Namespace) -> int:
    """Show, save (checked) or forget a club's own morale table for a ruleset whose source
    breaks off before it; new battles of the ruleset keep a copy and roll checks on it."""
    from pathlib import Path

    from app.house import (
        HouseError,
        checked,
        morale_file,
        read_table,
        save_morale,
        takes_morale,
    )

    reg = registry()
    try:
        rs = reg.get(args.ruleset)
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None
    if not takes_morale(rs.meta.engine):
        raise CliError(f"{rs.meta.short_name} gives its own morale results: nothing to add")
    if args.clear and args.file:
        raise CliError("give a FILE to save, or --clear, not both")
    path = morale_file(rs.id)
    if args.clear:
        existed = path.exists()
        path.unlink(missing_ok=True)
        print("forgotten" if existed else "no table was saved")
        return 0
    if args.file:
        try:
            saved = save_morale(rs.id, rs.meta.engine, Path(args.file))
        except HouseError as exc:
            raise CliError(str(exc)) from None
        print(f"saved: {saved}; new {rs.meta.short_name} battles roll morale checks on it")
        return 0
    if not path.exists():
        if args.json:
            print_json({"ruleset": rs.id, "saved": False})
        else:
            print(f"no morale table saved for {rs.id} (the checks take the players' result)")
        return 0
    try:
        table_ = read_table(path)
        checked(table_, rs.meta.engine)
    except HouseError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print_json({"ruleset": rs.id, "saved": True, "file": str(path), **table_})
        return 0
    print(f"{path} (die {table_['die']}):")
    for row in table_["rows"]:
        lo, hi = row["rolls"]
        print(f"  {row['unit_in']}: {lo} to {hi}: {row['result']} ({row['outcome']})")
    return 0
