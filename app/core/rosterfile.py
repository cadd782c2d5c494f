"""The roster file format (JSON): export, and all-or-nothing import with precise errors.

A file is plain JSON read with ``json.loads``: nothing in it can run code. Files over
:data:`MAX_BYTES` are refused before parsing. An entry the current ruleset data no longer has
is kept as it is (validation flags it); anything structurally wrong refuses the whole file
and names the key path.

The models are strict (pydantic strict mode): JSON's own types only, so ``"3"`` is not a count
and ``"yes"`` is not a boolean. The bounds of every value are those of ``app.core.roster``,
which the edits, the command line and the window keep to, so an exported roster always
imports again.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from app.core.capabilities import declared_fields
from app.core.leaderkeys import ROSTER_KEYS, flat, unflat
from app.core.roster import (
    MAX_BONUS,
    MAX_COMMANDS,
    MAX_COUNT,
    MAX_GRADE,
    MAX_ID,
    MAX_LEADER_FIELDS,
    MAX_LEADERS,
    MAX_LINE_BASES,
    MAX_LINES,
    MAX_NAME,
    MAX_NOTES,
    MAX_ROSTER_NOTES,
    MAX_SIDE,
    MAX_SIZE,
    MAX_UNITS,
    MAX_WOUNDS,
    MIN_BONUS,
    MIN_COUNT,
    MIN_LINE_BASES,
    MIN_SIZE,
    MIN_WOUNDS,
    Command,
    Leader,
    LeaderStatus,
    Roster,
    Unit,
    new_id,
)
from app.rules.errors import key_path
from app.rules.inputs import (
    InputError,
    control_problem,
    data_problems,
    decode_utf8,
    loads_json,
    read_regular_file,
    refuse_store_target,
)
from app.rules.leaderfields import FieldValues
from app.rules.registry import Registry
from app.rules.scale import Scale

FORMAT = "castra-roster"
VERSION = 1
MAX_BYTES = 2_000_000


class RosterFileError(ValueError):
    """A roster file that cannot be imported; ``problems`` holds ``(key path, message)``."""

    def __init__(self, source: str, problems: list[tuple[str, str]]) -> None:
        self.source = source
        self.problems = problems
        if len(problems) == 1:  # one problem: one line
            p, m = problems[0]
            super().__init__(f"{source}: cannot import roster: {p + ': ' if p else ''}{m}")
            return
        lines = "\n".join(f"  {p}: {m}" if p else f"  {m}" for p, m in problems[:20])
        super().__init__(f"{source}: cannot import roster:\n{lines}")


class _M(BaseModel):
    # strict: JSON has no tuples, dates or numeric strings, so strict loses nothing a file can
    # hold and refuses "3" for 3 and "yes" for true
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, strict=True)


def _one_line(value: str) -> str:
    problem = control_problem("the text", value)
    if problem:
        raise ValueError(problem)
    return value


def _multiline(value: str) -> str:
    problem = control_problem("the text", value, multiline=True)
    if problem:
        raise ValueError(problem)
    return value


#: a name, side or id: no control character at all (a line break included)
OneLine = Annotated[str, AfterValidator(_one_line)]
#: notes: tabs and line breaks allowed, no other control character
Notes = Annotated[str, AfterValidator(_multiline)]
Ident = Annotated[OneLine, Field(min_length=1, max_length=MAX_ID)]
LineBases = Annotated[int, Field(ge=MIN_LINE_BASES, le=MAX_LINE_BASES)]


class UnitIn(_M):
    id: Ident | None = None
    entry: Ident
    name: OneLine | None = Field(default=None, max_length=MAX_NAME)  # empty: the entry's name
    count: int = Field(default=1, ge=MIN_COUNT, le=MAX_COUNT)
    size: int | None = Field(default=None, ge=MIN_SIZE, le=MAX_SIZE)
    grade: OneLine | None = Field(default=None, max_length=MAX_GRADE)
    command: Ident | None = None
    leader: Ident | None = None
    notes: Notes = Field(default="", max_length=MAX_NOTES)
    lines: dict[Ident, LineBases] | None = Field(default=None, max_length=MAX_LINES)


class LeaderIn(_M):
    id: Ident
    name: OneLine = Field(min_length=1, max_length=MAX_NAME)
    rank: Literal["general", "commander"] = "commander"
    status: Literal["fit", "wounded", "killed", "captured"] = "fit"
    wounds: int = Field(default=0, ge=MIN_WOUNDS, le=MAX_WOUNDS)
    bonus: int | None = Field(default=None, ge=MIN_BONUS, le=MAX_BONUS)
    exceptional: bool = False
    quality: Literal["good", "average", "poor"] | None = None
    notes: Notes = Field(default="", max_length=MAX_NOTES)
    #: the fields an engine declares beyond the three above (written only when set)
    fields: dict[Ident, bool | int | OneLine] = Field(
        default_factory=dict, max_length=MAX_LEADER_FIELDS
    )

    def field_values(self) -> FieldValues:
        """The leader's fields: the three keys of their own and the others."""
        return unflat(self.model_dump(), ROSTER_KEYS, self.fields)


class CommandIn(_M):
    id: Ident
    name: OneLine = Field(min_length=1, max_length=MAX_NAME)
    leader: Ident | None = None
    kind: Literal["infantry", "cavalry", "mixed"] | None = None


class RosterIn(_M):
    format: Literal["castra-roster"]
    version: int = Field(ge=1, le=VERSION)
    name: OneLine = Field(min_length=1, max_length=MAX_NAME)
    ruleset: Ident
    ruleset_data_version: OneLine | None = Field(default=None, max_length=MAX_ID)
    army: Ident
    #: the file's text ("1:10") read into a Scale: lax for this field only, since strict mode
    #: takes no text for an enum (a wrong value still names the scales)
    scale: Annotated[Scale, Field(strict=False)] | None = None
    side: OneLine | None = Field(default=None, max_length=MAX_SIDE)
    notes: Notes = Field(default="", max_length=MAX_ROSTER_NOTES)
    units: list[UnitIn] = Field(default_factory=list, max_length=MAX_UNITS)
    leaders: list[LeaderIn] = Field(default_factory=list, max_length=MAX_LEADERS)
    commands: list[CommandIn] = Field(default_factory=list, max_length=MAX_COMMANDS)


def to_dict(roster: Roster) -> dict[str, Any]:
    """The roster as the documented JSON object."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": roster.name,
        "ruleset": roster.ruleset,
        "ruleset_data_version": roster.data_version,
        "army": roster.army,
        "scale": roster.scale,
        "side": roster.side,
        "notes": roster.notes,
        "units": [
            {
                "id": u.id,
                "entry": u.entry,
                "name": u.name,
                "count": u.count,
                "size": u.size,
                "grade": u.grade,
                "command": u.command,
                "leader": u.leader,
                "notes": u.notes,
                **({"lines": dict(u.lines)} if u.lines else {}),
            }
            for u in roster.units
        ],
        "leaders": [
            {
                "id": ld.id,
                "name": ld.name,
                "rank": ld.rank,
                "status": ld.status.value,
                "wounds": ld.wounds,
                **flat(ld.fields, ROSTER_KEYS),
                "notes": ld.notes,
            }
            for ld in roster.leaders
        ],
        "commands": [
            {"id": c.id, "name": c.name, "leader": c.leader, "kind": c.kind}
            for c in roster.commands
        ],
    }


def dumps(roster: Roster) -> str:
    return json.dumps(to_dict(roster), indent=2, ensure_ascii=False) + "\n"


def export_file(roster: Roster, path: Path) -> None:
    """Write the roster file atomically (a partial file never replaces a good one). On any
    failure (no such folder, ``path`` a folder, a full disk) the temporary file is removed and
    the ``OSError`` raised."""
    refuse_store_target(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(dumps(roster), encoding="utf-8")
        tmp.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise


def read_file(path: Path, registry: Registry) -> Roster:
    """Import a roster file. Raises :class:`RosterFileError` and returns nothing on any
    problem; reads only a regular file, and at most :data:`MAX_BYTES` + 1 bytes of it."""
    source = str(path)
    try:
        raw = read_regular_file(path, MAX_BYTES, what="roster file")
    except InputError as exc:
        raise RosterFileError(source, [("", str(exc))]) from None
    return loads(raw, registry, source=source)


def loads(data: bytes | str, registry: Registry, *, source: str = "roster") -> Roster:
    """Read a roster from JSON text: numbers of thousands of digits, NaN and infinity, deep
    nesting and control characters are refused with the key path (:mod:`app.rules.inputs`)."""
    if len(data) > MAX_BYTES:
        raise RosterFileError(source, [("", f"more than {MAX_BYTES:,} bytes")])
    try:
        text = decode_utf8(data) if isinstance(data, bytes) else data
        obj = loads_json(text)
    except InputError as exc:
        raise RosterFileError(source, [("", str(exc))]) from None
    found = data_problems(obj)
    if found:
        raise RosterFileError(source, found)
    return from_dict(obj, registry, source=source)


def from_dict(obj: object, registry: Registry, *, source: str = "roster") -> Roster:
    if not isinstance(obj, Mapping):
        raise RosterFileError(source, [("", "the file must hold a JSON object")])
    if obj.get("format") != FORMAT:
        raise RosterFileError(
            source, [("format", f"expected {FORMAT!r}, found {obj.get('format')!r}")]
        )
    version = obj.get("version")
    # Before the models, so that a newer file's new keys are not reported one by one; only a
    # JSON integer is a version (the models refuse "7" and true).
    if type(version) is int and version > VERSION:
        raise RosterFileError(
            source,
            [("version", f"format version {version} is newer than this Castra reads ({VERSION})")],
        )
    try:
        doc = RosterIn.model_validate(obj)
    except ValidationError as exc:
        raise RosterFileError(
            source,
            [(key_path(e["loc"]), e["msg"].removeprefix("Value error, ")) for e in exc.errors()],
        ) from None
    return _build(doc, registry, source)


def _build(doc: RosterIn, registry: Registry, source: str) -> Roster:
    problems: list[tuple[str, str]] = []
    if doc.ruleset not in registry:
        problems.append(("ruleset", _unknown_ruleset(doc.ruleset, registry)))
        raise RosterFileError(source, problems)
    rs = registry.get(doc.ruleset)
    army = rs.armies.get(doc.army)
    if army is None:
        problems.append(
            (
                "army",
                f"ruleset {rs.id} has no army list {doc.army!r} "
                f"(it has: {', '.join(sorted(rs.armies))})",
            )
        )
        raise RosterFileError(source, problems)
    if rs.counts_figures:
        if doc.scale is None:
            problems.append(
                ("scale", f"{rs.name} counts figures: give {' or '.join(rs.meta.scales)}")
            )
        elif doc.scale not in rs.meta.scales:
            problems.append(("scale", f"{doc.scale} is not one of {', '.join(rs.meta.scales)}"))

    leader_ids = _unique([ld.id for ld in doc.leaders], "leaders", problems)
    command_ids = _unique([c.id for c in doc.commands], "commands", problems)
    _unique([u.id for u in doc.units], "units", problems)
    for i, c in enumerate(doc.commands):
        if c.leader is not None and c.leader not in leader_ids:
            problems.append((f"commands[{i}].leader", f"no leader with id {c.leader!r}"))
    units: list[Unit] = []
    declared = {f.name: f for f in declared_fields(rs)}
    for i, ld in enumerate(doc.leaders):
        # a field beyond the three keys of their own: one these rules read, in its bounds
        for name, value in ld.fields.items():
            field = declared.get(name)
            if name in ROSTER_KEYS:
                problems.append((f"leaders[{i}].fields.{name}", f"give {name} as its own key"))
            elif field is None:
                problems.append(
                    (f"leaders[{i}].fields.{name}", f"{rs.meta.short_name} leaders have no {name}")
                )
            elif (problem := field.problem(value)) is not None:
                problems.append((f"leaders[{i}].fields.{name}", problem))
    for i, u in enumerate(doc.units):
        if u.command is not None and u.command not in command_ids:
            problems.append((f"units[{i}].command", f"no command with id {u.command!r}"))
        if u.leader is not None and u.leader not in leader_ids:
            problems.append((f"units[{i}].leader", f"no leader with id {u.leader!r}"))
        entry = army.entries.get(u.entry)
        size = u.size
        if size is None:
            if entry is None:
                problems.append(
                    (
                        f"units[{i}].size",
                        f"entry {u.entry!r} is not in the current list, so the size must be given",
                    )
                )
                continue
            size = entry.default_size
        units.append(
            Unit(
                id=u.id or new_id("u"),
                entry=u.entry,
                name=u.name or (entry.name if entry is not None else u.entry),
                size=size,
                count=u.count,
                grade=u.grade
                if u.grade is not None
                else (entry.default_grade if entry is not None else None),
                command=u.command,
                leader=u.leader,
                notes=u.notes,
                lines=dict(u.lines) if u.lines else None,
            )
        )
    if problems:
        raise RosterFileError(source, problems)
    return Roster(
        name=doc.name,
        ruleset=rs.id,
        army=doc.army,
        side=doc.side or army.side,
        scale=doc.scale if rs.counts_figures else None,
        units=tuple(units),
        leaders=tuple(
            Leader(
                id=ld.id,
                name=ld.name,
                rank=ld.rank,
                status=LeaderStatus(ld.status),
                wounds=ld.wounds,
                notes=ld.notes,
                fields=ld.field_values(),
            )
            for ld in doc.leaders
        ),
        commands=tuple(
            Command(id=c.id, name=c.name, leader=c.leader, kind=c.kind) for c in doc.commands
        ),
        data_version=doc.ruleset_data_version,
        notes=doc.notes,
    )


def _unique(ids: Sequence[str | None], where: str, problems: list[tuple[str, str]]) -> set[str]:
    seen: set[str] = set()
    for i, ident in enumerate(ids):
        if ident is None:
            continue
        if ident in seen:
            problems.append((f"{where}[{i}].id", f"id {ident!r} is used twice"))
        seen.add(ident)
    return seen


def _unknown_ruleset(ruleset_id: str, registry: Registry) -> str:
    known = ", ".join(sorted(registry.rulesets)) or "none"
    for err in registry.failures.values():
        if err.ruleset == ruleset_id:
            return f"ruleset {ruleset_id!r} failed to load ({err.first}); loaded: {known}"
    return f"unknown ruleset {ruleset_id!r} (loaded: {known})"
