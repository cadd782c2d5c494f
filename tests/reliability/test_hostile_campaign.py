"""Hostile campaign files: every one refused in one line by ``castra campaign import``, exit
1, within seconds, nothing imported; special files are not read."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from tests.reliability.fuzzing import campaign_document
from tests.reliability.hostile import BIG, SPECIAL_KINDS, make_special


@pytest.fixture(autouse=True)
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "castra.sqlite3"
    monkeypatch.setenv("CASTRA_DB", str(db))
    monkeypatch.setenv("CASTRA_HOME", str(tmp_path / "home"))
    return db


def _doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(json.dumps(campaign_document()))
    return doc


def _set(path: str, value: Any) -> bytes:
    doc = _doc()
    target: Any = doc
    *parts, last = path.split(".")
    for part in parts:
        target = target[int(part)] if part.isdigit() else target[part]
    target[int(last) if last.isdigit() else last] = value
    return json.dumps(doc).encode()


def _raw(path: str, token: str) -> bytes:
    marker = "__HOSTILE__"
    return _set(path, marker).replace(f'"{marker}"'.encode(), token.encode())


CASES: dict[str, bytes] = {
    "wounds of 5,000 digits": _raw("start.sides.0.army.leaders.0.wounds", BIG),
    "size NaN": _raw("start.sides.0.army.units.0.size", "NaN"),
    "end Infinity": _raw("steps.1.result.sides.0.units.0.end", "Infinity"),
    "winner 1e999": _raw("steps.1.result.winner", "1e999"),
    "cursor a string": _set("cursor", "3"),
    "cursor past the steps": _set("cursor", 99),
    "ESC in a battle name": _set("steps.0.name", "Trebia\x1b[2J"),
    "BEL in a side name": _set("start.sides.1.name", "Carthage\x07"),
    "NUL in a note": _set("steps.1.result.notes.0", "fog\x00"),
    "DEL in the place": _set("steps.0.place", "Tre\x7fbia"),
    "nested 500 deep": _raw("start.notes", "[" * 500 + "]" * 500),
    "unknown step": _set("steps.2.kind", "massacre"),
    "apply before record": _set("steps.1.kind", "apply"),
    "an end above the start": _set("steps.1.result.sides.0.units.0.end", 9999),
    "a fate that is none": _set("steps.1.result.sides.0.leaders.0.fate", "eaten"),
    "a side unknown": _set("steps.0.participants.0.side", "gaul"),
    "one side only": _set("start.sides", []),
    "unknown key": _set("colour", "red"),
    "version from the future": _set("version", 2),
    "a roster file": json.dumps({"format": "castra-roster", "version": 1}).encode(),
    "not UTF-8": b"\xff\xfe\x00{",
    "empty": b"",
    "truncated": json.dumps(campaign_document()).encode()[:300],
    "10,000 steps": _set("steps", [{"kind": "apply", "battle": "b1"}] * 10_000),
}


def _refused(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    start = time.perf_counter()
    code = main(["campaign", "import", str(path)])
    out, err = capsys.readouterr()
    assert code == 1, (out, err[:300])
    assert err.startswith("castra: ") and err.count("\n") == 1 and "Traceback" not in err
    assert "\x1b" not in err and "\x07" not in err and "\x00" not in err
    assert time.perf_counter() - start < 10
    assert main(["campaign", "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []  # nothing imported
    return err


def test_the_valid_document_imports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(campaign_document()))
    assert main(["campaign", "import", str(path)]) == 0
    assert "campaign 1: Fuzz (4 steps)" in capsys.readouterr().out


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_campaign_file(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "campaign.json"
    path.write_bytes(CASES[case])
    assert "cannot import campaign" in _refused(capsys, path)


@pytest.mark.parametrize("kind", SPECIAL_KINDS)
def test_special_file_as_campaign(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_special(kind, tmp_path / "campaign.json")
    assert "not a regular file" in _refused(capsys, path)
