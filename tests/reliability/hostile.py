"""A bounded corpus of hostile files: each case is a name and the bytes (or the special file)
that stand in for a roster file or one file of a ruleset folder.

Kinds, as in issue 13: integers of thousands of digits, NaN and infinity where numbers
belong, deep nesting, control characters (ESC, BEL, NUL, DEL) in names, sides and notes,
strings where numbers belong, absurd counts and dice, and files that are not regular files
(a FIFO, a device, a folder). A campaign file format adds its own cases here later.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

BIG = "9" * 5000  # more digits than Python converts by default (4,300)

VALID_ROSTER: dict[str, Any] = {
    "format": "castra-roster",
    "version": 1,
    "name": "Hannibal at Cannae",
    "ruleset": "quincunx",
    "army": "carthaginian",
    "scale": "1:100",
    "side": "Carthage",
    "notes": "",
    "units": [{"id": "u-1", "entry": "elephants", "count": 2, "notes": "two\nlines"}],
    "leaders": [{"id": "hannibal", "name": "Hannibal", "rank": "general", "bonus": 2}],
    "commands": [],
}


def _roster(**changes: Any) -> bytes:
    data = json.loads(json.dumps(VALID_ROSTER))
    for key, value in changes.items():
        target = data
        *path, last = key.split("__")
        for part in path:
            target = target[int(part)] if part.isdigit() else target[part]
        target[int(last) if last.isdigit() else last] = value
    return json.dumps(data).encode()


def _raw_roster(replace: str, by: str) -> bytes:
    text = json.dumps(VALID_ROSTER)
    assert replace in text
    return text.replace(replace, by, 1).encode()


#: hostile roster files: name -> bytes (special files are made by :func:`make_special`)
ROSTER_CASES: dict[str, bytes] = {
    "count of 5,000 digits": _raw_roster('"count": 2', f'"count": {BIG}'),
    "size of 5,000 digits": _raw_roster('"count": 2', f'"size": -{BIG}'),
    "float of 5,000 digits": _raw_roster('"count": 2', f'"count": 1.{BIG}'),
    "count NaN": _raw_roster('"count": 2', '"count": NaN'),
    "count Infinity": _raw_roster('"count": 2', '"count": Infinity'),
    "count -Infinity": _raw_roster('"count": 2', '"count": -Infinity'),
    "count 1e999": _raw_roster('"count": 2', '"count": 1e999'),
    "count a string": _roster(units__0__count="2"),
    "count a float": _roster(units__0__count=2.5),
    "count true": _roster(units__0__count=True),
    "count a billion": _roster(units__0__count=10**9),
    "bonus 10**30": _roster(leaders__0__bonus=10**30),
    "nested 100,000 deep": b'{"format": "castra-roster", "notes": '
    + b"[" * 100_000
    + b"]" * 100_000
    + b"}",
    "nested 500 deep": b'{"format": "castra-roster", "version": 1, "name": '
    + b"[" * 500
    + b"]" * 500
    + b"}",
    "ESC in the name": _roster(name="Hannibal\x1b[2J"),
    "BEL in the side": _roster(side="Carthage\x07"),
    "NUL in a unit name": _roster(units__0__name="Elephants\x00"),
    "DEL in a leader name": _roster(leaders__0__name="Hanni\x7fbal"),
    "ESC in the notes": _roster(notes="a\x1b]0;title\x07"),
    "line break in the name": _roster(name="Hannibal\nat Cannae"),
    "C1 control in the side": _roster(side="Carthage\x9b31m"),
    "not UTF-8": b"\xff\xfe\x00{",
    "empty": b"",
    "a JSON array": b"[1, 2, 3]",
    "a JSON string": b'"castra-roster"',
    "truncated": json.dumps(VALID_ROSTER).encode()[:100],
    "unknown key": _roster(colour="red"),
    "version from the future": _roster(version=99),
    "version 5,000 digits": _raw_roster('"version": 1', f'"version": {BIG}'),
    "units an object": _roster(units={"a": 1}),
    "100,000 units": _roster(units=[{"entry": "elephants"}] * 100_000),
}


def make_special(kind: str, path: Path) -> Path:
    """A file that is not a regular file at ``path``: ``fifo``, ``zero`` (a link to
    /dev/zero), ``urandom`` or ``folder``. Returns ``path``."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind in ("zero", "urandom"):
        path.symlink_to(f"/dev/{kind}")
    elif kind == "folder":
        path.mkdir()
    else:
        raise ValueError(kind)
    return path


SPECIAL_KINDS = ("fifo", "zero", "urandom", "folder")


def _edit(file: str, old: str, new: str) -> tuple[str, Callable[[str], str]]:
    def change(text: str) -> str:
        assert old in text, f"{old!r} not in {file}"
        return text.replace(old, new, 1)

    return file, change


def _append(file: str, extra: str) -> tuple[str, Callable[[str], str]]:
    return file, lambda text: text + "\n" + extra + "\n"


#: hostile edits of a copy of the Quincunx folder: name -> (file, text -> new text)
RULESET_CASES: dict[str, tuple[str, Callable[[str], str]]] = {
    "frontage of 5,000 digits": _edit("troops.toml", "frontage_mm = 60", f"frontage_mm = {BIG}"),
    "frontage nan": _edit("troops.toml", "frontage_mm = 60", "frontage_mm = nan"),
    "frontage inf": _edit("troops.toml", "frontage_mm = 60", "frontage_mm = inf"),
    "frontage a string": _edit("troops.toml", "frontage_mm = 60", 'frontage_mm = "60"'),
    "frontage 1e300": _edit("troops.toml", "frontage_mm = 60", "frontage_mm = 1e300"),
    "die of 99,999,999 faces": _edit(
        "tables.toml", 'evader_die = "d10"', 'evader_die = "d99999999"'
    ),
    "a billion dice": _edit("tables.toml", 'evader_die = "d10"', 'evader_die = "1000000000d6"'),
    "standard count a billion": _edit("armies.toml", "count = 5", "count = 1000000000"),
    "standard count a string": _edit("armies.toml", "count = 5", 'count = "5"'),
    "count of 5,000 digits": _edit("armies.toml", "count = 5", f"count = {BIG}"),
    "hex of 5,000 digits": _edit("armies.toml", "count = 5", "count = 0x" + "f" * 5000),
    "nested 10,000 deep": _append("errata.toml", "deep = " + "[" * 10_000 + "]" * 10_000),
    "nested 40 deep": _append("errata.toml", "deep = " + "[" * 40 + "1" + "]" * 40),
    "inline tables 5,000 deep": _append("errata.toml", "t = " + "{a=" * 5000 + "1" + "}" * 5000),
    "ESC in a name": _edit("ruleset.toml", 'name = "Initiative"', 'name = "Init\\u001b[31miative"'),
    "BEL in a name": _edit("ruleset.toml", 'name = "Initiative"', 'name = "Init\\u0007iative"'),
    "NUL in a name": _edit("ruleset.toml", 'name = "Initiative"', 'name = "Init\\u0000iative"'),
    "DEL in a key": _append("errata.toml", '"k\\u007f" = 1'),
    "a date": _append("ruleset.toml", "[extra]\nwhen = 1979-05-27"),
    "not TOML": _edit("ruleset.toml", "[ruleset]", "[ruleset"),
    "not UTF-8": ("troops.toml", lambda text: "\udcff" + text),
}
