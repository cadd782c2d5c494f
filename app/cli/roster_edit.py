"""``castra roster set|remove|rename|delete|restore`` and ``castra roster leader|command
add|set|remove``: every roster edit the window makes, from the command line.

Each command loads the roster, applies the same ``app.core.edits`` command the window sends,
and saves it in one transaction; a refused edit changes nothing. Values outside the army list
(a size or grade the entry does not allow) are refused with the allowed values named, unless
``--allow-invalid`` is given: then they are stored and validation flags them as errors.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from app.cli.common import CliError, LateParser, find_stored, registry, store
from app.core.capabilities import declared_fields, has_chance_cards, leader_fields, uses_commands
from app.core.edits import (
    AddCommand,
    AddLeader,
    AssignCommand,
    AttachLeader,
    Batch,
    RemoveCommand,
    RemoveLeader,
    RemoveUnits,
    UpdateCommand,
    UpdateLeader,
    UpdateUnit,
)
from app.core.roster import Command, Leader, LeaderStatus, Roster, Unit, new_id, unit_problems
from app.rules.leaderfields import FieldValue, LeaderField, unique_fields

if TYPE_CHECKING:  # the command line imports the schema only when a command needs it
    from app.rules.ruleset import Ruleset
    from app.rules.schema import ArmyEntry

NONE = "none"  # "--leader none": detach


def register(rsub: Any) -> None:
    """Add the edit commands to ``castra roster``'s subcommands."""
    p = rsub.add_parser("set", help="change a unit: size, grade, count, name, command, ...")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.add_argument("unit", metavar="UNIT", help="unit id or name")
    p.add_argument("--size", type=int, help="figures or bases")
    p.add_argument("--grade", help=f"a grade the entry allows ({NONE}: no grade)")
    p.add_argument("--count", type=int, help="identical units on the line")
    p.add_argument("--name")
    p.add_argument("--command", dest="command_id", help=f"command id or name ({NONE}: no command)")
    p.add_argument("--leader", help=f"leader id or name to attach ({NONE}: detach)")
    p.add_argument("--notes")
    p.add_argument(
        "--lines",
        metavar="LINE=BASES",
        action="append",
        help="a Leg VI legion's line, e.g. Triarii=4 for understrength triarii "
        f"(repeatable; {NONE}: the standard make-up)",
    )
    allow_invalid(p)
    p.set_defaults(func=cmd_set)

    p = rsub.add_parser("remove", help="remove a unit (a line of identical units) from a roster")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.add_argument("unit", metavar="UNIT", help="unit id or name")
    p.set_defaults(func=cmd_remove)

    p = rsub.add_parser("rename", help="give a roster a new name")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.add_argument("name", metavar="NAME")
    p.set_defaults(func=cmd_rename)

    p = rsub.add_parser("delete", help="move a roster to the bin (restore undoes it)")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.set_defaults(func=cmd_delete)

    p = rsub.add_parser("restore", help="take a roster out of the bin")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.set_defaults(func=cmd_restore)

    _leader_parsers(rsub)
    _command_parsers(rsub)


def allow_invalid(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--allow-invalid",
        action="store_true",
        help="store a size or grade the army list does not allow (validation flags it)",
    )


def _leader_parsers(rsub: Any) -> None:
    leader = rsub.add_parser("leader", help="add, change or remove a roster's leaders")
    lsub = leader.add_subparsers(
        dest="leader_command", metavar="ACTION", required=True, parser_class=LateParser
    )

    def fields(p: argparse.ArgumentParser, *, adding: bool) -> None:
        p.add_argument("--rank", choices=("general", "commander"))
        p.add_argument("--status", choices=[s.value for s in LeaderStatus])
        p.add_argument("--wounds", type=int)
        for field in _all_fields():
            _field_option(p, field)
        p.add_argument("--attach", metavar="UNIT", help=f"unit id or name ({NONE}: detach)")
        p.add_argument("--leads", metavar="COMMAND", help=f"command id or name ({NONE})")
        p.add_argument("--notes")
        if not adding:
            p.add_argument("--name")

    # the engines are asked for their leader fields only when a leader command is parsed
    p = lsub.add_parser("add", help="add a leader")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--id", dest="leader_id", help="an id of your own (default: a new one)")
    assert isinstance(p, LateParser)
    p.late = partial(fields, adding=True)
    p.set_defaults(func=cmd_leader_add)

    p = lsub.add_parser("set", help="change a leader")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.add_argument("leader", metavar="LEADER", help="leader id or name")
    assert isinstance(p, LateParser)
    p.late = partial(fields, adding=False)
    p.set_defaults(func=cmd_leader_set)

    p = lsub.add_parser("remove", help="remove a leader (detached from his unit and command)")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.add_argument("leader", metavar="LEADER", help="leader id or name")
    p.set_defaults(func=cmd_leader_remove)


def _all_fields() -> list[LeaderField]:
    """The leader fields every engine declares, each name once, by name: ``--NAME`` of
    ``castra roster leader add|set`` (refused for a roster whose rules do not read it)."""
    from app.rulesets import engines

    found = unique_fields(f for engine in engines() for f in engine.leader_fields)
    return sorted(found, key=lambda f: f.name)


def _field_option(p: argparse.ArgumentParser, field: LeaderField) -> None:
    """``--NAME`` for a leader field: a number (or none: by the rules), yes/no, or one of
    its words (or none: unset)."""
    option = "--" + field.name.replace("_", "-")
    if field.kind == "number":
        p.add_argument(option, dest=field.name, help=field.cli_help)
    elif field.kind == "yes/no":
        p.add_argument(option, dest=field.name, choices=("yes", "no"), help=field.cli_help)
    else:
        choices = (*(str(c) for c in field.choices), NONE)
        p.add_argument(option, dest=field.name, choices=choices, help=field.cli_help)


def _command_parsers(rsub: Any) -> None:
    command = rsub.add_parser("command", help="add, change or remove commands (battlegroups)")
    csub = command.add_subparsers(dest="command_action", metavar="ACTION", required=True)

    def fields(p: argparse.ArgumentParser) -> None:
        p.add_argument("--leader", help=f"leader id or name who leads it ({NONE}: nobody)")
        p.add_argument(
            "--kind",
            choices=("infantry", "cavalry", "mixed", NONE),
            help=f"Leg VI command limits ({NONE}: from its units)",
        )

    p = csub.add_parser("add", help="add a command")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--id", dest="command_id", help="an id of your own (default: a new one)")
    fields(p)
    p.set_defaults(func=cmd_command_add)

    p = csub.add_parser("set", help="change a command")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.add_argument("command", metavar="COMMAND", help="command id or name")
    p.add_argument("--name")
    fields(p)
    p.set_defaults(func=cmd_command_set)

    p = csub.add_parser("remove", help="remove a command (its units stay, without a command)")
    p.add_argument("roster", metavar="ROSTER", help="roster id or name")
    p.add_argument("command", metavar="COMMAND", help="command id or name")
    p.set_defaults(func=cmd_command_remove)


# ---------------------------------------------------------------------------- look-ups


def _pick(kind: str, key: str, items: Sequence[tuple[str, str]]) -> str:
    """The id of the item ``key`` names: an exact id, else a name (case-insensitive)."""
    for ident, _ in items:
        if ident == key:
            return ident
    folded = key.strip().casefold()
    matches = [(i, n) for i, n in items if n.casefold() == folded]
    if len(matches) == 1:
        return matches[0][0]
    if matches:
        ids = ", ".join(f"{i} ({n!r})" for i, n in matches)
        raise CliError(f"{len(matches)} {kind}s are named {key!r}: {ids}; use the id")
    known = ", ".join(f"{i} ({n!r})" for i, n in items[:20]) or "none"
    more = f", and {len(items) - 20} more" if len(items) > 20 else ""
    raise CliError(f"the roster has no {kind} {key!r} ({kind}s: {known}{more})")


def unit_id(roster: Roster, key: str) -> str:
    return _pick("unit", key, [(u.id, u.name) for u in roster.units])


def leader_id(roster: Roster, key: str) -> str:
    return _pick("leader", key, [(ld.id, ld.name) for ld in roster.leaders])


def command_id(roster: Roster, key: str) -> str:
    return _pick("command", key, [(c.id, c.name) for c in roster.commands])


def _optional(value: str | None, look_up: Any) -> tuple[bool, str | None]:
    """(given, id) for an option that may be ``none``."""
    if value is None:
        return False, None
    if value.strip().casefold() == NONE:
        return True, None
    return True, look_up(value)


# ---------------------------------------------------------------------------- values


def check_unit_values(
    entry: ArmyEntry | None, changes: Mapping[str, object], *, allow_invalid: bool
) -> None:
    """Refuse a size or grade the army-list entry does not allow, naming the allowed values
    (unless ``allow_invalid``: validation then flags the unit)."""
    if entry is None or allow_invalid:
        return
    size = changes.get("size")
    if size is not None and size not in entry.sizes:
        allowed = ", ".join(str(s) for s in entry.sizes)
        raise CliError(
            f"size {size} is not allowed for {entry.name} (allowed: {allowed}); "
            "--allow-invalid stores it anyway, flagged by validation"
        )
    if "grade" in changes:
        grade = changes["grade"]
        if grade is not None and grade not in entry.grades:
            allowed = ", ".join(entry.grades) if entry.grades else "none: it has no grades"
            raise CliError(
                f"grade {grade} is not allowed for {entry.name} (allowed: {allowed}); "
                "--allow-invalid stores it anyway, flagged by validation"
            )


def _parse_lines(values: list[str]) -> dict[str, int] | None:
    if any(v.strip().casefold() == NONE for v in values):
        return None
    out: dict[str, int] = {}
    for v in values:
        name, sep, bases = v.partition("=")
        if not sep or not name.strip() or not bases.strip().isdigit():
            raise CliError(f"--lines {v!r}: give LINE=BASES, e.g. Triarii=4")
        out[name.strip()] = int(bases)
    return out


def _field_value(field: LeaderField, text: str) -> FieldValue | None:
    """A leader field's value as typed after ``--NAME`` (``none``: unset)."""
    if field.kind == "yes/no":
        return text == "yes"
    if text.strip().casefold() == NONE:
        return None
    if field.kind == "choice":
        return text
    try:
        return int(text)
    except ValueError:
        example = f" such as {field.cli_example}" if field.cli_example else ""
        option = "--" + field.name.replace("_", "-")
        raise CliError(f"{option} {text!r}: give a whole number{example}") from None


# ---------------------------------------------------------------------------- running edits


def _ruleset(roster: Roster) -> Ruleset:
    try:
        return registry().get(roster.ruleset)
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None


class _Unchanged(Exception):
    """``make`` found nothing to change: the transaction writes nothing."""


def _edit(roster_key: str, make: Any) -> int:
    """Build ROSTER's edit with ``make(ruleset, roster)`` (an edit or None for no change),
    apply and write it in one transaction holding the write lock (a writer elsewhere waits,
    and nothing it wrote is lost); print what was done and the validation of the result."""
    from app.core.validation import validate
    from app.usecases.roster import update_roster

    st = store()
    rid = find_stored(st, roster_key)
    done: list[tuple[Any, Roster]] = []

    def change(roster: Roster) -> Roster:
        edit = make(_ruleset(roster), roster)
        if edit is None:
            done.append((None, roster))
            raise _Unchanged
        try:
            changed: Roster = edit.apply(roster)
        except (KeyError, ValueError) as exc:
            raise CliError(str(exc.args[0]) if isinstance(exc, KeyError) else str(exc)) from None
        done.append((edit, roster))
        return changed

    try:
        changed = update_roster(
            st, roster_id=rid, change=change, what=lambda: getattr(done[-1][0], "label", None)
        )
    except _Unchanged:
        print(f"{done[-1][1].name}: nothing to change")
        return 0
    edit, roster = done[-1]
    rs = _ruleset(changed)
    print(f"{roster.name}: {edit.label}")
    report = validate(rs, changed)
    errors = [m for m in report.messages if m.severity.value == "error"]
    for m in errors[:10]:
        print(f"error: {m.subject}: {m.text} [{m.rule}]")
    if len(errors) > 10:
        print(f"... and {len(errors) - 10} more errors (see `castra roster show {rid}`)")
    print("valid" if report.valid else f"{len(errors)} error(s)")
    return 0


def cmd_set(args: argparse.Namespace) -> int:
    def make(rs: Ruleset, roster: Roster) -> Any:
        unit: Unit = roster.unit(unit_id(roster, args.unit))
        changes: dict[str, object] = {}
        for name in ("size", "count", "name", "notes"):
            value = getattr(args, name)
            if value is not None:
                changes[name] = value
        if args.grade is not None:
            changes["grade"] = None if args.grade.strip().casefold() == NONE else args.grade
        given, cid = _optional(args.command_id, lambda k: command_id(roster, k))
        if given:
            changes["command"] = cid
        if args.lines:
            changes["lines"] = _parse_lines(args.lines)
        problems = unit_problems(replace(unit, **changes), changes.keys())  # type: ignore[arg-type]
        if problems:  # bounds first: a count of 0 is wrong whatever the list says
            raise CliError("; ".join(problems))
        entry = rs.entry(roster.army, unit.entry) if roster.army in rs.armies else None
        check_unit_values(entry, changes, allow_invalid=args.allow_invalid)
        edits: list[Any] = []
        if changes:
            fields = ", ".join(sorted(changes))
            edits.append(UpdateUnit(unit.id, changes, f"Set {fields} of {unit.name}"))
        given, lid = _optional(args.leader, lambda k: leader_id(roster, k))
        if given:
            if lid is not None:
                edits.append(AttachLeader(lid, unit.id))
            elif unit.leader is not None:
                edits.append(AttachLeader(unit.leader, None))
        if not edits:
            return None
        what = ", ".join(sorted(changes) + (["leader"] if given else []))
        return Batch(tuple(edits), f"set {what} of {unit.name}")

    return _edit(args.roster, make)


def cmd_remove(args: argparse.Namespace) -> int:
    def make(rs: Ruleset, roster: Roster) -> Any:
        unit = roster.unit(unit_id(roster, args.unit))
        what = f"{unit.count} × {unit.name}" if unit.count > 1 else unit.name
        return Batch((RemoveUnits((unit.id,)),), f"removed {what}")

    return _edit(args.roster, make)


def cmd_rename(args: argparse.Namespace) -> int:
    from app.core.roster import roster_name_problem
    from app.usecases.roster import rename_roster, unique_name

    problem = roster_name_problem(args.name)
    if problem:
        raise CliError(problem)
    st = store()
    rid = find_stored(st, args.roster)
    name = unique_name(st, name=args.name.strip(), exclude_id=rid)
    rename_roster(st, roster_id=rid, name=name)
    taken = "" if name == args.name.strip() else f" ({args.name.strip()!r} is taken)"
    print(f"renamed roster {rid} to {name}{taken}")
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    from app.usecases.roster import delete_roster

    st = store()
    rid = find_stored(st, args.roster)
    delete_roster(st, roster_id=rid)
    print(f"moved roster {rid} to the bin (`castra roster restore {rid}` brings it back)")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from app.usecases.roster import restore_roster

    st = store()
    rid = find_stored(st, args.roster, include_deleted=True)
    restore_roster(st, roster_id=rid)
    print(f"restored roster {rid}")
    return 0


# ---------------------------------------------------------------------------- leaders


def _leader_changes(rs: Ruleset, args: argparse.Namespace, *, rename: bool) -> dict[str, object]:
    """The leader fields given, refusing those the ruleset's rules do not read."""
    fields = leader_fields(rs)
    changes: dict[str, object] = {}
    given = {f.name: f for f in _all_fields() if getattr(args, f.name, None) is not None}
    for name in ("rank", "wounds", "notes"):
        value = getattr(args, name)
        if value is not None:
            changes[name] = value
    if rename and args.name is not None:
        changes["name"] = args.name
    if args.status is not None:
        changes["status"] = LeaderStatus(args.status)
    for name in given:
        if name not in fields:
            raise CliError(f"{rs.meta.short_name} leaders have no {name}")
    for name, field in given.items():
        changes[name] = _field_value(field, getattr(args, name))
    return changes


def _placement(roster: Roster, lid: str, args: argparse.Namespace) -> list[Any]:
    edits: list[Any] = []
    given, uid = _optional(args.attach, lambda k: unit_id(roster, k))
    if given:
        edits.append(AttachLeader(lid, uid))
    given, cid = _optional(args.leads, lambda k: command_id(roster, k))
    if given:
        edits.append(AssignCommand(lid, cid))
    return edits


def cmd_leader_add(args: argparse.Namespace) -> int:
    def make(rs: Ruleset, roster: Roster) -> Any:
        changes = _leader_changes(rs, args, rename=False)
        lid = args.leader_id or new_id("l")
        if any(ld.id == lid for ld in roster.leaders):
            raise CliError(f"the roster already has a leader with id {lid!r}")
        declared = declared_fields(rs)
        own = {f.name: changes.pop(f.name) for f in declared if f.name in changes}
        leader = Leader(id=lid, name=args.name, fields=own, **changes)  # type: ignore[arg-type]
        edits = [AddLeader(leader, declared), *_placement(roster, lid, args)]
        return Batch(tuple(edits), f"added {leader.rank} {leader.name} ({lid})")

    return _edit(args.roster, make)


def cmd_leader_set(args: argparse.Namespace) -> int:
    def make(rs: Ruleset, roster: Roster) -> Any:
        leader = roster.leader(leader_id(roster, args.leader))
        changes = _leader_changes(rs, args, rename=True)
        edits: list[Any] = []
        if changes:
            edits.append(UpdateLeader(leader.id, changes, fields=declared_fields(rs)))
        edits.extend(_placement(roster, leader.id, args))
        what = ", ".join(sorted(changes) + (["placement"] if len(edits) > bool(changes) else []))
        return Batch(tuple(edits), f"set {what} of {leader.name}") if edits else None

    return _edit(args.roster, make)


def cmd_leader_remove(args: argparse.Namespace) -> int:
    def make(rs: Ruleset, roster: Roster) -> Any:
        leader = roster.leader(leader_id(roster, args.leader))
        return Batch((RemoveLeader(leader.id),), f"removed {leader.name}")

    return _edit(args.roster, make)


# ---------------------------------------------------------------------------- commands


def _command_changes(roster: Roster, args: argparse.Namespace) -> dict[str, object]:
    changes: dict[str, object] = {}
    if getattr(args, "name", None) is not None and args.func is cmd_command_set:
        changes["name"] = args.name
    if args.kind is not None:
        changes["kind"] = None if args.kind == NONE else args.kind
    return changes


def _leads(roster: Roster, cid: str, args: argparse.Namespace) -> list[Any]:
    given, lid = _optional(args.leader, lambda k: leader_id(roster, k))
    if not given:
        return []
    if lid is None:
        return [UpdateCommand(cid, {"leader": None})]
    return [AssignCommand(lid, cid)]


def cmd_command_add(args: argparse.Namespace) -> int:
    def make(rs: Ruleset, roster: Roster) -> Any:
        if not uses_commands(rs):
            chance = " (its leader goes with a unit)" if has_chance_cards(rs) else ""
            raise CliError(f"{rs.meta.short_name} has no commands{chance}")
        cid = args.command_id or new_id("c")
        if any(c.id == cid for c in roster.commands):
            raise CliError(f"the roster already has a command with id {cid!r}")
        kind = None if args.kind in (None, NONE) else args.kind
        command = Command(id=cid, name=args.name, kind=kind)
        edits = [AddCommand(command), *_leads(roster, cid, args)]
        return Batch(tuple(edits), f"added {rs.organisation.group_name} {args.name} ({cid})")

    return _edit(args.roster, make)


def cmd_command_set(args: argparse.Namespace) -> int:
    def make(rs: Ruleset, roster: Roster) -> Any:
        command = roster.command(command_id(roster, args.command))
        changes = _command_changes(roster, args)
        edits: list[Any] = []
        if changes:
            edits.append(UpdateCommand(command.id, changes))
        edits.extend(_leads(roster, command.id, args))
        what = ", ".join(sorted(changes) + (["leader"] if len(edits) > bool(changes) else []))
        return Batch(tuple(edits), f"set {what} of {command.name}") if edits else None

    return _edit(args.roster, make)


def cmd_command_remove(args: argparse.Namespace) -> int:
    def make(rs: Ruleset, roster: Roster) -> Any:
        command = roster.command(command_id(roster, args.command))
        n = len(roster.units_in(command.id))
        kept = f"; its {n} unit line(s) stay, without a command" if n else ""
        return Batch((RemoveCommand(command.id),), f"removed {command.name}{kept}")

    return _edit(args.roster, make)
