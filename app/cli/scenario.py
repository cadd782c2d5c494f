"""``castra scenario list | show NAME | new NAME``: the war's great battles, as the sources
give them, ready to fight in every ruleset (issue 28)."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from app.cli.common import MAX_ID, CliError, number, print_json, registry, store, table
from app.core.scenario.library import Scenario, ScenarioLibrary

_library: ScenarioLibrary | None = None


def library() -> ScenarioLibrary:
    """The battles (built-in, then the user's own folder), checked against every ruleset;
    a file that did not load is a warning on stderr, once."""
    global _library
    if _library is None:
        from app.core.scenario.start import scenario_library
        from app.paths import user_scenarios_dir

        _library = scenario_library(registry(), user_scenarios_dir())
        for key, err in sorted(_library.failures.items()):
            print(f"castra: warning: scenario {key}: {err.problems[0]}", file=sys.stderr)
    return _library


def find(name: str) -> Scenario:
    try:
        return library().find(name)
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None


def register(sub: Any) -> None:
    p = sub.add_parser("scenario", help="historical battles: the sources' forces on their field")
    ssub = p.add_subparsers(dest="scenario_command", metavar="ACTION", required=True)

    q = ssub.add_parser("list", help="the historical battles")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_list)

    q = ssub.add_parser("show", help="a battle: the account, the forces, the field, the armies")
    q.add_argument("name", metavar="NAME", help="the battle's id or name (trebia, Cannae)")
    q.add_argument("--ruleset", help="only this ruleset's armies")
    q.add_argument("--scale", help="the roster scale (rulesets that count figures)")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_show)

    q = ssub.add_parser("new", help="the battle ready to fight, or its rosters to edit first")
    q.add_argument("name", metavar="NAME")
    q.add_argument("--ruleset", required=True)
    q.add_argument("--scale", help="the roster scale (rulesets that count figures)")
    q.add_argument("--seed", type=number("--seed", 0, MAX_ID), help="dice seed (default: random)")
    q.add_argument(
        "--rosters",
        action="store_true",
        help="save the two armies as rosters to edit first (then: castra battle new A B "
        "--scenario NAME)",
    )
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_new)


def _ruleset(text: str) -> Any:
    try:
        return registry().get(text)
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None


# ---------------------------------------------------------------------------- list


def cmd_list(args: argparse.Namespace) -> int:
    lib = library()
    if args.json:
        print_json(
            [
                {
                    "id": sc.id,
                    "name": sc.name,
                    "date": sc.data.battle.date,
                    "place": sc.data.battle.place,
                    "sides": [
                        {"id": s, "name": sc.side(s).name, "commander": sc.side(s).commander}
                        for s in sc.side_ids
                    ],
                    "winner": sc.data.battle.winner,
                    "rulesets": list(sc.rulesets),
                    "builtin": sc.builtin,
                }
                for sc in lib
            ]
        )
        return 0
    rows = [
        (
            sc.id,
            sc.name,
            sc.data.battle.date,
            " v ".join(f"{sc.side(s).name} ({sc.side(s).commander})" for s in sc.side_ids),
            len(sc.rulesets),
        )
        for sc in lib
    ]
    print(table(rows, ("id", "battle", "when", "sides", "rulesets")))
    return 0


# ---------------------------------------------------------------------------- show


def show_dict(sc: Scenario, rulesets: list[Any], scale: str | None) -> dict[str, Any]:
    """The battle as ``castra scenario show --json`` prints it."""
    from app.core.scenario.build import scenario_roster
    from app.core.totals import roster_totals

    b = sc.data.battle
    out: dict[str, Any] = {
        "id": sc.id,
        "name": sc.name,
        "date": b.date,
        "year_bc": b.year,
        "place": b.place,
        "account": b.account,
        "outcome": b.outcome,
        "winner": b.winner,
        "sources": list(b.sources),
        "notes": b.notes,
        "zones_note": b.zones_note or None,
        "field": {
            "note": sc.data.field.note,
            "pieces": [
                {"kind": p.kind, "name": p.name, "points": [list(pt) for pt in p.points]}
                for p in sc.data.field.pieces
            ],
        },
        "sides": [],
        "rulesets": {},
    }
    for side_id in sc.side_ids:
        side = sc.side(side_id)
        out["sides"].append(
            {
                "id": side_id,
                "name": side.name,
                "commander": side.commander,
                "forces": [
                    {
                        "id": f.id,
                        "name": f.name,
                        "men": f.men,
                        "elephants": f.elephants,
                        "cite": f.cite,
                        "reading": f.reading,
                        "note": f.note or None,
                    }
                    for f in side.forces
                ],
                "leaders": [
                    {"id": ld.id, "name": ld.name, "fate": ld.fate, "notes": ld.notes}
                    for ld in side.leaders
                ],
                "losses": {
                    "men": side.losses.men,
                    "text": side.losses.text,
                    "cite": side.losses.cite,
                },
                "objective": None
                if side.objective is None
                else {"text": side.objective.text, "met_in_history": side.objective.met},
                "posts": [{"id": p.id, "name": p.name, "area": list(p.area)} for p in side.posts],
            }
        )
    for rs in rulesets:
        setting = sc.data.rulesets[rs.id]
        sides = []
        for side_id in sc.side_ids:
            try:
                roster = scenario_roster(sc, rs, side_id, scale=scale)
            except ValueError as exc:
                raise CliError(str(exc)) from None
            totals = roster_totals(rs, roster)
            sides.append(
                {
                    "side": side_id,
                    "army": roster.army,
                    "units": totals.units,
                    "figures": totals.figures,
                    "bases": totals.bases,
                    "men": None if totals.men is None else totals.men * setting.factor,
                    "source_men": sum(f.men for f in sc.side(side_id).forces),
                    "leaders": [ld.name for ld in roster.leaders],
                    "lines": [
                        {
                            "name": u.name,
                            "entry": u.entry,
                            "count": u.count,
                            "size": u.size,
                            "leader": u.leader,
                            "stands_for": u.notes,
                        }
                        for u in roster.units
                    ],
                }
            )
        out["rulesets"][rs.id] = {
            "name": rs.meta.short_name,
            "scale": str(roster.scale) if roster.scale is not None else None,
            "factor": setting.factor,
            "represents": setting.represents,
            "notes": setting.notes or None,
            "sides": sides,
        }
    return out


def _wrap(text: str, indent: str = "  ") -> str:
    import textwrap

    return textwrap.fill(text, 96, initial_indent=indent, subsequent_indent=indent)


def cmd_show(args: argparse.Namespace) -> int:
    sc = find(args.name)
    if args.ruleset is not None:
        rs = _ruleset(args.ruleset)
        if rs.id not in sc.rulesets:
            raise CliError(f"{sc.name} is not set for {rs.meta.short_name}")
        rulesets = [rs]
    else:
        rulesets = [_ruleset(r) for r in sc.rulesets if r in registry()]
        if args.scale is not None:
            rulesets = [rs for rs in rulesets if rs.counts_figures]
    d = show_dict(sc, rulesets, args.scale)
    if args.json:
        print_json(d)
        return 0
    print(f"{d['name']}, {d['date']}")
    print(_wrap(d["place"]))
    print()
    print(_wrap(d["account"]))
    print()
    print("Outcome:")
    print(_wrap(d["outcome"]))
    print(f"Sources: {'; '.join(d['sources'])}")
    if d["notes"]:
        print("Which sources Castra follows:")
        print(_wrap(d["notes"]))
    for side in d["sides"]:
        total = sum(f["men"] for f in side["forces"])
        print(f"\n{side['name']}: {side['commander']}; {total:,} men")
        for f in side["forces"]:
            what = f"{f['men']:,} men" if f["men"] else f"{f['elephants']} elephants"
            reading = "; Castra's reading" if f["reading"] else ""
            print(f"  {what:>12}  {f['name']} ({f['cite']}{reading})")
            if f["note"]:
                print(_wrap(f["note"], " " * 16))
        print(f"  Losses in history: {side['losses']['text']} ({side['losses']['cite']})")
        if side["objective"] is not None:
            met = "met" if side["objective"]["met_in_history"] else "not met"
            print(f"  Objective: {side['objective']['text']} (in history: {met})")
        print("  Battle order: " + "; ".join(p["name"] for p in side["posts"]))
        for ld in side["leaders"]:
            print(f"  {ld['name']}: {ld['notes']}")
    print("\nThe field:")
    print(_wrap(d["field"]["note"]))
    if d["zones_note"]:
        print("Deployment zones:")
        print(_wrap(d["zones_note"]))
    for rid, r in d["rulesets"].items():
        scale = f", {r['scale']}" if r["scale"] else ""
        print(f"\n{r['name']}{scale}:")
        print(_wrap(r["represents"]))
        if r["notes"]:
            print(_wrap(r["notes"]))
        for s in r["sides"]:
            name = sc.side(s["side"]).name
            men = f"{s['men']:,} men" if s["men"] is not None else "no men counted"
            print(
                f"  {name}: {s['units']} units, {men} (the sources: {s['source_men']:,}); "
                f"leaders: {', '.join(s['leaders']) or 'none'}"
            )
            for line in s["lines"]:
                count = f"{line['count']} x " if line["count"] > 1 else ""
                print(f"    {count}{line['name']} ({line['size']}): {line['stands_for']}")
        del rid
    return 0


# ---------------------------------------------------------------------------- new


def create_on_field(
    sc: Scenario,
    rs: Any,
    rosters: tuple[Any, Any],
    *,
    seed: int,
    records: tuple[dict[str, Any], dict[str, Any]] = ({}, {}),
    name: str | None = None,
) -> tuple[int, Any, tuple[Any, Any]]:
    """The battle started on ``sc``'s field with ``rosters`` and stored in one go (one
    line, exit 1, nothing stored when it cannot be): its id, session and rosters. What
    ``scenario new`` and ``battle new --scenario`` share."""
    from app.core.battle import CommandError
    from app.core.scenario.start import scenario_session
    from app.rules.mechanics import NotImplementedRule, mechanics_for
    from app.usecases.battle import create_battle

    try:
        mech = mechanics_for(rs)
        session, rosters = scenario_session(
            sc, rs, mech, seed=seed, rosters=rosters, records=records, name=name
        )
    except (CommandError, NotImplementedRule, ValueError) as exc:
        raise CliError(str(exc)) from None
    return create_battle(store(), session=session, rosters=rosters), session, rosters


def print_new(bid: int, session: Any, sc: Scenario, seed: int, as_json: bool) -> None:
    """What both commands print of the battle they started."""
    state = session.state
    if as_json:
        print_json(
            {
                "id": bid,
                "name": session.name,
                "scenario": sc.id,
                "seed": seed,
                "table": {"width": state.width, "height": state.height},
                "sides": [side.roster for side in state.sides],
                "log": list(session.log()[-1].lines),
            }
        )
        return
    u = session.mechanics.length_symbol()
    print(f"battle {bid}: {session.name} (seed {seed}), on the field of {sc.name}")
    print(f"Table {state.width:g} x {state.height:g}{u}: {sc.data.field.note}")
    for k, side in enumerate(state.sides):
        mine = sum(1 for x in state.units if x.side == k)
        print(f"{'AB'[k]}: {side.roster}, {mine} units")
    for line in session.log()[-1].lines:
        print(line)


def cmd_new(args: argparse.Namespace) -> int:
    from app.core.scenario.build import scenario_rosters

    sc = find(args.name)
    rs = _ruleset(args.ruleset)
    try:
        rosters = scenario_rosters(sc, rs, scale=args.scale)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.rosters:
        return _save_rosters(rosters, args.json)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    bid, session, _ = create_on_field(sc, rs, rosters, seed=seed)
    print_new(bid, session, sc, seed, args.json)
    return 0


def _save_rosters(rosters: tuple[Any, Any], as_json: bool) -> int:
    from app.usecases.roster import save_new_rosters

    saved = save_new_rosters(store(), rosters)
    if as_json:
        print_json([{"id": rid, "name": name} for rid, name in saved])
        return 0
    for rid, name in saved:
        print(f"created roster {rid}: {name}")
    print(
        "Edit them, then fight them on the field: castra battle new "
        f"{saved[0][0]} {saved[1][0]} --scenario {rosters[0].name.split(':')[0]!r}"
    )
    return 0
