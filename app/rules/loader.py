"""Read a ruleset folder into a typed :class:`~app.rules.ruleset.Ruleset`, failing with every
problem named by file and key path.

Reading is TOML only: nothing in a ruleset folder is executed (a ruleset's code lives in
``app.rulesets``; a folder only names the engine it uses).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from app.rules.cache import read_cache, write_cache
from app.rules.construct import CacheMismatch, construct, dump
from app.rules.engine import EngineLookup
from app.rules.errors import Problem, RulesetError, key_path
from app.rules.fingerprint import folder_fingerprint
from app.rules.folder import FILES, MAX_FILE_BYTES
from app.rules.inputs import InputError, data_problems, decode_utf8, loads_toml, read_regular_file
from app.rules.record import Record
from app.rules.ruleset import Ruleset
from app.rules.schema import ArmiesFile, ErrataFile, RulesetFile, Strict, TroopBase

M = TypeVar("M", bound=Record)


def _read_toml(folder: Path, name: str, problems: list[Problem]) -> dict[str, Any] | None:
    """The file's TOML as plain data, or None with its problems recorded: only a regular file
    of at most :data:`MAX_FILE_BYTES` is read, and extreme numbers, deep nesting, control
    characters and dates are refused with their key path (:mod:`app.rules.inputs`)."""
    path = folder / name
    if not path.exists() and not path.is_symlink():
        problems.append(Problem(name, "", "file is missing"))
        return None
    try:
        data = loads_toml(decode_utf8(read_regular_file(path, MAX_FILE_BYTES)))
    except InputError as exc:
        problems.append(Problem(name, "", str(exc)))
        return None
    found = data_problems(data)
    if found:
        problems.extend(Problem(name, where, message) for where, message in found)
        return None
    return data


def _validate(
    model: type[M], data: Mapping[str, Any], file: str, problems: list[Problem]
) -> M | None:
    """Validate in pydantic's strict JSON mode: a string is never taken for a number ("12"
    for 12) nor a number for a string, as roster files are read; TOML's arrays and strings
    are JSON's, so strict loses nothing a ruleset can hold. Pydantic is imported here, only
    when files are validated (:mod:`app.rules.validate`)."""
    from pydantic import ValidationError

    from app.rules.validate import validate_json

    try:
        return validate_json(model, data)
    except ValidationError as exc:
        for err in exc.errors():
            problems.append(
                Problem(file, key_path(err["loc"]), err["msg"].removeprefix("Value error, "))
            )
        return None


_TROOPS_FILES: dict[type[TroopBase], type[Strict]] = {}


def _troops_model(troop_model: type[TroopBase]) -> type[Strict]:
    """``[troops.<id>]`` tables of the engine's own troop model (a record class made once
    per troop model, when the engine is known at load time)."""
    made = _TROOPS_FILES.get(troop_model)
    if made is None:
        made = type(
            "TroopsFile",
            (Strict,),
            {"__annotations__": {"troops": dict[str, troop_model]}},  # type: ignore[valid-type]
        )
        _TROOPS_FILES[troop_model] = made
    return made


def _troops(file: Strict) -> Mapping[str, TroopBase]:
    troops: Mapping[str, TroopBase] = file.troops  # type: ignore[attr-defined]
    return troops


def _resolve(raw: Mapping[str, Mapping[str, Any]], dotted: str) -> bool:
    """Whether ``tables.melee.roman_velites`` names something in the raw data."""
    head, _, rest = dotted.partition(".")
    file = {
        "ruleset": "ruleset.toml",
        "turn": "ruleset.toml",
        "leaders": "ruleset.toml",
        "organisation": "ruleset.toml",
        "campaign": "ruleset.toml",
        "troops": "troops.toml",
        "tables": "tables.toml",
        "armies": "armies.toml",
    }.get(head)
    if file is None or file not in raw:
        return False
    # tables.toml holds the engine's tables at its top level; the other files nest under
    # their own head key ([troops.x], [armies.y], [ruleset], [turn], ...).
    node: Any = raw[file] if head == "tables" else raw[file].get(head)
    for part in rest.split(".") if rest else ():
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return node is not None


def _cross_check(rs: Ruleset, problems: list[Problem]) -> None:
    for army_id, army in rs.armies.items():
        for entry_id, entry in army.entries.items():
            base = f"armies.{army_id}.entries.{entry_id}"
            if entry.troop not in rs.troops:
                problems.append(
                    Problem("armies.toml", f"{base}.troop", f"unknown troop type {entry.troop!r}")
                )
            for i, line in enumerate(entry.lines):
                if line.troop not in rs.troops:
                    problems.append(
                        Problem(
                            "armies.toml",
                            f"{base}.lines[{i}].troop",
                            f"unknown troop type {line.troop!r}",
                        )
                    )
            grades = rs.organisation.grades
            for grade in entry.grades:
                if grade not in grades:
                    problems.append(
                        Problem(
                            "armies.toml",
                            f"{base}.grades",
                            f"grade {grade!r} is not one of the ruleset's grades {grades}",
                        )
                    )
    for tid, template in rs.templates.items():
        for i, side in enumerate(template.sides):
            if side.army not in rs.armies:
                problems.append(
                    Problem(
                        "armies.toml",
                        f"templates.{tid}.sides[{i}].army",
                        f"unknown army list {side.army!r}",
                    )
                )
    for i, erratum in enumerate(rs.errata):
        for ref in erratum.applies_to:
            if not _resolve(rs.raw, ref):
                problems.append(
                    Problem("errata.toml", f"errata[{i}].applies_to", f"{ref!r} names nothing")
                )


def load_ruleset(
    folder: Path,
    find_engine: EngineLookup,
    *,
    builtin: bool = True,
    cache_dir: Path | None = None,
) -> Ruleset:
    """Load and validate one ruleset folder, whose ``ruleset.toml`` names its engine among
    those ``find_engine`` knows (:func:`app.rulesets.find_engine`). Raises
    :class:`RulesetError` listing every problem (file, key path, message). With ``cache_dir``
    the parsed TOML is taken from (and kept in) :mod:`app.rules.cache` while the files are
    unchanged; it is validated all the same."""
    folder = Path(folder)
    name = folder.name
    problems: list[Problem] = []
    fingerprint = folder_fingerprint(folder) if cache_dir is not None else None
    cached = read_cache(cache_dir, fingerprint, FILES) if cache_dir and fingerprint else None
    if cached is not None and cached.get("validated"):
        try:
            return _rebuild(cached, folder, builtin, find_engine)
        except (CacheMismatch, KeyError, TypeError, LookupError, ImportError):
            cached = None  # validate the files instead
    raw: dict[str, dict[str, Any]] = {}
    if cached is not None:
        raw = cached["files"]
    else:
        for file in FILES:
            data = _read_toml(folder, file, problems)
            if data is not None:
                raw[file] = data
    if "ruleset.toml" not in raw:
        raise RulesetError(name, problems)

    head = _validate(RulesetFile, raw["ruleset.toml"], "ruleset.toml", problems)
    # Army lists and errata do not depend on the engine: check them even when the head is bad,
    # so one load reports every problem it can.
    armies = errata = None
    if "armies.toml" in raw:
        armies = _validate(ArmiesFile, raw["armies.toml"], "armies.toml", problems)
    if "errata.toml" in raw:
        errata = _validate(ErrataFile, raw["errata.toml"], "errata.toml", problems)
    if head is None:
        raise RulesetError(name, problems)
    name = head.ruleset.id
    try:
        engine = find_engine(head.ruleset.engine)
        schema = engine.schema
    except (LookupError, ImportError) as exc:
        problems.append(Problem("ruleset.toml", "ruleset.engine", str(exc)))
        raise RulesetError(name, problems) from None

    troops = tables = None
    if "troops.toml" in raw:
        troops = _validate(
            _troops_model(schema.troop_model), raw["troops.toml"], "troops.toml", problems
        )
    if "tables.toml" in raw:
        tables = _validate(schema.tables_model, raw["tables.toml"], "tables.toml", problems)
    if problems or troops is None or tables is None or armies is None or errata is None:
        raise RulesetError(name, problems)

    rs = Ruleset(
        meta=head.ruleset,
        turn=head.turn,
        leaders=head.leaders,
        organisation=head.organisation,
        campaign=head.campaign,
        troops=_troops(troops),
        tables=tables,
        engine=engine,
        armies=armies.armies,
        errata=errata.errata,
        folder=folder,
        builtin=builtin,
        templates=armies.templates,
        raw=raw,
    )
    _cross_check(rs, problems)
    if schema.check is not None:
        problems.extend(schema.check(rs))
    if problems:
        raise RulesetError(name, problems)
    if cache_dir is not None and fingerprint is not None:
        parts = {"head": head, "troops": troops, "tables": tables, "armies": armies}
        validated: dict[str, Any] | None = {k: dump(v) for k, v in parts.items()}
        validated["errata"] = dump(errata)  # type: ignore[index]
        try:
            rebuilt = _rebuild({"files": raw, "validated": validated}, folder, builtin, find_engine)
            if rebuilt != rs:
                validated = None
        except (CacheMismatch, KeyError, TypeError, LookupError, ImportError):
            validated = None
        write_cache(cache_dir, fingerprint, raw, validated)
    return rs


def _rebuild(
    cached: Mapping[str, Any], folder: Path, builtin: bool, find_engine: EngineLookup
) -> Ruleset:
    """The ruleset from a cache's validated dumps, without validating again
    (:mod:`app.rules.construct`)."""
    v = cached["validated"]
    head = construct(RulesetFile, v["head"])
    engine = find_engine(head.ruleset.engine)
    schema = engine.schema
    troops = construct(_troops_model(schema.troop_model), v["troops"])
    armies = construct(ArmiesFile, v["armies"])
    return Ruleset(
        meta=head.ruleset,
        turn=head.turn,
        leaders=head.leaders,
        organisation=head.organisation,
        campaign=head.campaign,
        troops=_troops(troops),
        tables=construct(schema.tables_model, v["tables"]),
        engine=engine,
        armies=armies.armies,
        errata=construct(ErrataFile, v["errata"]).errata,
        folder=folder,
        builtin=builtin,
        templates=armies.templates,
        raw=cached["files"],
    )
