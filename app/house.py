"""A club's own tables for what a source leaves out, kept once in the user data folder and
given to every new battle of the ruleset (each battle keeps its own copy, so a stored battle
replays as it was fought whatever the file says later).

Only MWAN #90's morale results are such a table: the article breaks off at "Unit in:" and
Castra invents nothing (errata morale-table-truncated). The file,
``<user data folder>/house/<ruleset>-morale.toml``, holds the die and the rows in the form a
copied ruleset's ``[morale]`` takes::

    die = "d6"
    rows = [
        { unit_in = "rout path", rolls = [-2, 2], result = "joins the rout", outcome = "routs" },
        { unit_in = "rout path", rolls = [3, 6], result = "steady", outcome = "holds" },
    ]

``castra morale-table RULESET FILE`` checks a file and saves it there."""

from __future__ import annotations

import json
import os
import tempfile
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.paths import data_dir
from app.rulesets import find_engine

#: the largest file read
MAX_BYTES = 200_000


class HouseError(ValueError):
    """A house table that cannot be read or used; one line naming what is wrong."""


def morale_file(ruleset_id: str) -> Path:
    return data_dir() / "house" / f"{ruleset_id}-morale.toml"


def read_table(path: Path) -> dict[str, Any]:
    """A morale table file read (TOML: ``die`` and ``rows``); HouseError naming the file."""
    try:
        if not path.is_file():
            raise HouseError(f"{path}: not a file")
        if path.stat().st_size > MAX_BYTES:
            raise HouseError(f"{path}: larger than {MAX_BYTES:,} bytes")
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except HouseError:
        raise
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise HouseError(f"{path}: {exc}") from None
    unknown = sorted(set(data) - {"die", "rows"})
    if unknown:
        raise HouseError(f"{path}: unknown key {', '.join(unknown)} (keys: die, rows)")
    if not isinstance(data.get("die"), str) or not isinstance(data.get("rows"), list):
        raise HouseError(f'{path}: needs die = "d6" (a die) and rows = [...]')
    return {"die": data["die"], "rows": data["rows"]}


def takes_morale(engine: str) -> bool:
    """Whether the rulesets of ``engine`` take a club's morale table (their source leaves
    the results out: :attr:`~app.rules.mechanics.Mechanics.house_morale_key`)."""
    return find_engine(engine).mechanics.house_morale_key is not None


def checked(table: Mapping[str, Any], engine: str) -> str:
    """The table as a battle keeps it (JSON), read and checked as ``engine``'s morale check
    reads it (HouseError saying what is wrong)."""
    text = json.dumps({"die": table["die"], "rows": table["rows"]}, sort_keys=True)
    problem = find_engine(engine).mechanics.house_morale_problem(text)
    if problem is not None:
        raise HouseError(problem)
    return text


def save_morale(ruleset_id: str, engine: str, source: Path) -> Path:
    """Check ``source`` and keep it as the club's morale table for ``ruleset_id`` (of
    ``engine``), written whole or not at all."""
    checked(read_table(source), engine)
    target = morale_file(ruleset_id)
    target.parent.mkdir(parents=True, exist_ok=True)
    text = source.read_text(encoding="utf-8")
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".morale-", suffix=".toml")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def house_records(ruleset_id: str, engine: str) -> dict[str, str]:
    """What a new battle of the ruleset keeps in each side's record from the club's tables:
    the morale table as JSON, when one is saved and reads well (HouseError otherwise, so a
    battle is not begun on a table that cannot be used)."""
    key = find_engine(engine).mechanics.house_morale_key
    if key is None:
        return {}
    path = morale_file(ruleset_id)
    if not path.exists():
        return {}
    return {key: checked(read_table(path), engine)}


def with_house(
    ruleset_id: str, engine: str, records: tuple[Mapping[str, Any], Mapping[str, Any]]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``records`` (each side's, for a new battle) with the club's tables added."""
    house = house_records(ruleset_id, engine)
    return ({**records[0], **house}, {**records[1], **house})
