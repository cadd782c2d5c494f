"""``castra roster new|add|show|list|export|import`` and ``castra validate FILE``."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli import roster_edit
from app.cli.common import (
    CliError,
    find_stored,
    fmt,
    number,
    print_json,
    registry,
    store,
    table,
)
from app.core.ready import ready_notes
from app.core.roster import (
    MAX_COUNT,
    MAX_SIZE,
    MIN_COUNT,
    MIN_SIZE,
    Roster,
    Unit,
    new_roster,
    roster_name_problem,
    unit_from_entry,
)

if TYPE_CHECKING:  # the heavy modules load in the commands that use them
    from app.core.validation import Report
    from app.rules.ruleset import Ruleset


def register(sub: Any) -> None:
    roster = sub.add_parser("roster", help="create, edit, show, import and export rosters")
    rsub = roster.add_subparsers(dest="roster_command", metavar="ACTION", required=True)

    p = rsub.add_parser("new", help="create a roster in the store")
    p.add_argument("--ruleset", required=True)
    p.add_argument("--army", required=True, help="army list id (see `castra armies RULESET`)")
    p.add_argument("--name", required=True)
    p.add_argument("--side", help="side name (default: the army list's side)")
    p.add_argument("--scale", help="figure scale, one the ruleset offers (e.g. 1:10)")
    p.add_argument(
        "--standard",
        action="store_true",
        help="start from the list's ready army: the source's own where it gives one, else "
        "Castra's (castra armies RULESET names them)",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_new)

    p = rsub.add_parser("add", help="add units of an army-list entry to a roster")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.add_argument("entry", metavar="ENTRY", help="army-list entry id")
    p.add_argument("--count", type=number("--count", MIN_COUNT, MAX_COUNT), default=1)
    p.add_argument(
        "--size",
        type=number("--size", MIN_SIZE, MAX_SIZE),
        help="figures or bases (default from the list)",
    )
    p.add_argument("--grade")
    p.add_argument("--command", dest="command_id", help="command id or name")
    p.add_argument("--name")
    roster_edit.allow_invalid(p)
    p.set_defaults(func=cmd_add)

    p = rsub.add_parser("show", help="units, totals at scale and validation of a roster")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_show)

    p = rsub.add_parser("list", help="the rosters in the store")
    p.add_argument("--json", action="store_true")
    p.add_argument("--deleted", action="store_true", help="include deleted rosters")
    p.set_defaults(func=cmd_list)

    p = rsub.add_parser("history", help="every recorded change of a roster: what, when, who")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_history)

    p = rsub.add_parser("export", help="write a roster file (JSON)")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.add_argument("-o", "--output", help="file to write (default: standard output)")
    p.set_defaults(func=cmd_export)

    p = rsub.add_parser("import", help="read a roster file into the store")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--name", help="store it under this name")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_import)

    roster_edit.register(rsub)

    p = sub.add_parser("validate", help="validate a roster file (exit 1 when it has errors)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_validate)


# ---------------------------------------------------------------------------- helpers


def _ruleset(ruleset_id: str) -> Ruleset:
    try:
        return registry().get(ruleset_id)
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None


def load_stored(st: Any, key: str) -> tuple[int, Roster]:
    """The id and the roster of the stored roster ``key`` names."""
    from app.usecases.roster import load_roster

    rid = find_stored(st, key)
    return rid, load_roster(st, roster_id=rid)


def _read(path: str) -> Roster:
    from app.core.rosterfile import RosterFileError, read_file

    try:
        return read_file(Path(path), registry())
    except RosterFileError as exc:
        raise CliError(str(exc)) from None


def _unique(st: Any, roster: Roster) -> Roster:
    """``roster`` under a name no other stored roster has ("Trebia (2)" when "Trebia" is
    taken), so a name always finds one roster."""
    from dataclasses import replace

    from app.usecases.roster import unique_name

    name = unique_name(st, name=roster.name)
    return roster if name == roster.name else replace(roster, name=name)


def _taken(wanted: str, roster: Roster) -> str:
    return "" if roster.name == wanted else f" ({wanted!r} is taken)"


def report_dict(rs: Ruleset, roster: Roster, report: Report) -> dict[str, Any]:
    """The documented JSON of ``castra validate`` and ``castra roster show --json``."""
    from app.core.totals import roster_totals

    totals = roster_totals(rs, roster)
    return {
        "valid": report.valid,
        "name": roster.name,
        "ruleset": roster.ruleset,
        "army": roster.army,
        "side": roster.side,
        "scale": roster.scale,
        "totals": {
            "units": totals.units,
            "figures": totals.figures,
            "bases": totals.bases,
            "men": totals.men,
            "excluded": totals.excluded,
        },
        "units": [
            {
                "id": t.unit.id,
                "name": t.unit.name,
                "entry": t.unit.entry,
                "count": t.unit.count,
                "size": t.unit.size,
                "figures": t.total.figures,
                "bases": t.total.bases,
                "men": t.total.men,
                "command": t.unit.command,
                "leader": t.unit.leader,
            }
            for t in totals.per_unit
        ],
        "messages": [m.as_dict() for m in report.messages],
    }


def excluded_note(excluded: int) -> str:
    """`` (excludes 2 units not in the current list)`` after totals that leave units out."""
    if not excluded:
        return ""
    return f" (excludes {excluded} unit{'' if excluded == 1 else 's'} not in the current list)"


def print_report(rs: Ruleset, roster: Roster, report: Report) -> None:
    from app.core.totals import roster_totals

    totals = roster_totals(rs, roster)
    scale = f" at {roster.scale}" if roster.scale else ""
    print(
        f"{roster.name} - {rs.meta.name}, {rs.army(roster.army).name}"
        if roster.army in rs.armies
        else f"{roster.name} - {rs.meta.name}, {roster.army}"
    )
    print(f"side {roster.side}{scale}\n")
    commands = {c.id: c.name for c in roster.commands}
    rows = [
        (
            t.unit.name,
            t.unit.entry,
            t.unit.count,
            t.unit.size,
            fmt(t.total.figures),
            fmt(t.total.bases),
            fmt(t.total.men),
            commands.get(t.unit.command or "", ""),
        )
        for t in totals.per_unit
    ]
    print(table(rows, ("unit", "entry", "count", "size", "figures", "bases", "men", "command")))
    print(
        f"\nTotal: {totals.units} units, {fmt(totals.figures)} figures, "
        f"{fmt(totals.bases)} bases, {fmt(totals.men)} men{scale}{excluded_note(totals.excluded)}"
    )
    if roster.leaders:
        print(
            "\nLeaders: "
            + "; ".join(f"{ld.name} ({ld.rank}, {ld.status.value})" for ld in roster.leaders)
        )
    print()
    if not report.messages:
        print("Valid: no messages.")
    for m in report.messages:
        print(f"{m.severity.value.upper():7} {m.subject}: {m.text}  [{m.rule}]")
    print("\nVALID" if report.valid else "\nINVALID")


# ---------------------------------------------------------------------------- commands


def cmd_new(args: argparse.Namespace) -> int:
    from app.usecases.roster import save_roster

    rs = _ruleset(args.ruleset)
    try:
        roster = new_roster(
            rs, args.army, name=args.name, side=args.side, scale=args.scale, standard=args.standard
        )
        if args.standard:  # where it comes from, as the samples say
            roster = replace(roster, notes=ready_notes(rs, args.army))
    except (KeyError, ValueError) as exc:
        raise CliError(str(exc.args[0])) from None
    st = store()
    roster = _unique(st, roster)
    rid = save_roster(st, roster=roster)
    if args.json:
        print_json({"id": rid, "name": roster.name})
    else:
        print(f"created roster {rid}: {roster.name}{_taken(args.name, roster)}")
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    """Read, change and write the roster in one transaction holding the write lock: two
    processes adding units at once both keep their units (issue 13)."""
    from app.core.edits import AddUnit
    from app.core.validation import validate
    from app.usecases.roster import update_roster

    st = store()
    rid = find_stored(st, args.roster)
    added: list[Unit] = []

    def change(roster: Roster) -> Roster:
        rs = _ruleset(roster.ruleset)
        command = None  # an id, or a name the roster gives one command (issue 25)
        if args.command_id is not None:
            command = roster_edit.command_id(roster, args.command_id)
        changes: dict[str, object] = {"count": args.count}
        for field, value in (
            ("size", args.size),
            ("grade", args.grade),
            ("command", command),
            ("name", args.name),
        ):
            if value is not None:
                changes[field] = value
        try:
            unit = unit_from_entry(rs, roster.army, args.entry, **changes)
        except KeyError as exc:
            entries = ", ".join(rs.army(roster.army).entries)
            raise CliError(f"{exc.args[0]} (entries: {entries})") from None
        except ValueError as exc:  # a value out of bounds (RosterValueError)
            raise CliError(str(exc)) from None
        roster_edit.check_unit_values(
            rs.entry(roster.army, args.entry), changes, allow_invalid=args.allow_invalid
        )
        try:
            changed = AddUnit(unit).apply(roster)
        except ValueError as exc:
            raise CliError(str(exc)) from None
        added.append(unit)
        return changed

    try:
        roster = update_roster(
            st, roster_id=rid, change=change, what=lambda: AddUnit(added[-1]).label
        )
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None
    unit = added[-1]
    print(f"added {unit.count} x {unit.name} ({unit.size}) to {roster.name}")
    for m in validate(_ruleset(roster.ruleset), roster).for_subject("unit", unit.id):
        print(f"{m.severity.value}: {m.text} [{m.rule}]")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from app.core.validation import validate

    st = store()
    _, roster = load_stored(st, args.roster)
    rs = _ruleset(roster.ruleset)
    report = validate(rs, roster)
    if args.json:
        print_json(report_dict(rs, roster, report))
    else:
        print_report(rs, roster, report)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from app.usecases.roster import list_rosters

    rosters = list_rosters(store(), include_deleted=args.deleted)
    if args.json:
        print_json(
            [
                {
                    "id": r.id,
                    "name": r.name,
                    "ruleset": r.ruleset,
                    "army": r.army,
                    "side": r.side,
                    "scale": r.scale,
                    "units": r.units,
                    "deleted": r.deleted,
                    "owner": r.owner,
                    "updated_by": r.updated_by,
                }
                for r in rosters
            ]
        )
        return 0
    rows = [
        (
            r.id,
            r.name,
            r.ruleset,
            r.army,
            r.side,
            r.scale or "-",
            r.units,
            "deleted" if r.deleted else "",
        )
        for r in rosters
    ]
    heads: tuple[str, ...] = ("id", "name", "ruleset", "army", "side", "scale", "units", "")
    if any(r.owner or r.updated_by for r in rosters):  # a club server: whose, and who last
        shown: list[tuple[object, ...]] = [
            (*row, r.owner or "-", r.updated_by or "-")
            for row, r in zip(rows, rosters, strict=True)
        ]
        heads = (*heads, "owner", "changed by")
        print(table(shown, heads))
        return 0
    print(table(rows, heads))
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    """A roster's history, oldest first: its version after each change, when, by whom (on a
    club server) and what."""
    from app.usecases.roster import roster_history

    st = store()
    rid = find_stored(st, args.roster, include_deleted=True)
    changes = roster_history(st, roster_id=rid)
    if args.json:
        print_json(
            [
                {
                    "version": c.version,
                    "at": c.made_at.isoformat(),
                    "by": c.made_by,
                    "what": c.what,
                }
                for c in changes
            ]
        )
        return 0
    if not changes:
        print(f"roster {rid}: no change recorded (made before Castra kept roster history)")
        return 0
    rows = [
        (c.version, f"{c.made_at:%Y-%m-%d %H:%M:%S}", c.made_by or "-", c.what) for c in changes
    ]
    print(table(rows, ("version", "when (UTC)", "by", "what")))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from app.core.rosterfile import dumps, export_file

    st = store()
    _, roster = load_stored(st, args.roster)
    if args.output:
        try:
            export_file(roster, Path(args.output))
        except OSError as exc:
            raise CliError(f"cannot write {args.output}: {exc.strerror or exc}") from None
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(dumps(roster))
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from app.core.validation import Severity, validate
    from app.usecases.roster import save_roster

    roster = _read(args.file)
    if args.name is not None:
        problem = roster_name_problem(args.name)
        if problem:
            raise CliError(problem)
        roster = replace(roster, name=args.name)
    st = store()
    wanted = roster.name
    roster = _unique(st, roster)
    rid = save_roster(st, roster=roster)
    report = validate(_ruleset(roster.ruleset), roster)
    if args.json:
        print_json({"id": rid, "name": roster.name, "valid": report.valid})
    else:
        errors = report.count(Severity.ERROR)
        state = "valid" if report.valid else f"{errors} error(s); see `castra roster show {rid}`"
        print(f"imported roster {rid}: {roster.name} ({state}){_taken(wanted, roster)}")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from app.core.validation import validate

    roster = _read(args.file)
    rs = _ruleset(roster.ruleset)
    report = validate(rs, roster)
    if args.json:
        print_json(report_dict(rs, roster, report))
    else:
        print_report(rs, roster, report)
    return 0 if report.valid else 1
