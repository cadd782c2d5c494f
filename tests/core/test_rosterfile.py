"""The roster file: JSON round trip, and all-or-nothing imports with precise errors."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.core.edits import AddLeader, AddUnit, UpdateLeader, UpdateUnit
from app.core.roster import (
    MAX_COUNT,
    MAX_LINE_BASES,
    MAX_NAME,
    MAX_NOTES,
    MAX_SIDE,
    MAX_SIZE,
    MAX_WOUNDS,
    MIN_BONUS,
    Leader,
    LeaderStatus,
    Roster,
    new_roster,
    unit_from_entry,
)
from app.core.rosterfile import (
    MAX_BYTES,
    RosterFileError,
    dumps,
    export_file,
    from_dict,
    loads,
    read_file,
    to_dict,
)
from app.core.validation import validate
from app.rules.registry import Registry


@pytest.fixture
def roster(registry: Registry) -> Roster:
    rs = registry.get("quincunx")
    r = new_roster(rs, "carthaginian", name="Hannibal at Cannae", scale="1:100", standard=True)
    r = UpdateUnit(r.units[0].id, {"notes": "Pikes, four deep", "count": 1}).apply(r)
    lid = r.leaders[1].id
    return UpdateLeader(lid, {"status": LeaderStatus.WOUNDED, "wounds": 1}).apply(r)


def test_round_trip_is_exact(registry: Registry, roster: Roster, tmp_path: Path) -> None:
    path = tmp_path / "cannae.castra.json"
    export_file(roster, path)
    back = read_file(path, registry)
    assert back == roster
    assert dumps(back) == path.read_text(encoding="utf-8")


def test_round_trip_of_lines_and_every_ruleset(registry: Registry) -> None:
    rs = registry.get("leg-vi-carthago")
    r = new_roster(rs, "roman", name="Legio")
    r = AddUnit(unit_from_entry(rs, "roman", "roman_legion", lines={"Triarii": 4})).apply(r)
    assert loads(dumps(r), registry) == r


def test_documented_fields(roster: Roster) -> None:
    d = to_dict(roster)
    assert d["format"] == "castra-roster" and d["version"] == 1
    for key in (
        "name",
        "ruleset",
        "army",
        "scale",
        "side",
        "units",
        "leaders",
        "commands",
        "ruleset_data_version",
    ):
        assert key in d
    assert set(d["units"][0]) >= {"entry", "name", "count", "size", "grade", "command", "leader"}
    assert set(d["leaders"][0]) >= {"id", "name", "rank", "status", "wounds"}
    assert set(d["commands"][0]) >= {"id", "name", "leader"}


def test_defaults_from_the_list(registry: Registry) -> None:
    r = from_dict(
        {
            "format": "castra-roster",
            "version": 1,
            "name": "min",
            "ruleset": "quincunx",
            "army": "roman",
            "scale": "1:10",
            "units": [{"entry": "equites"}],
        },
        registry,
    )
    (u,) = r.units
    assert (u.name, u.count, u.size) == ("Equites", 1, 15)
    assert r.side == "Rome"


def test_entry_no_longer_in_the_data_is_kept_and_flagged(
    registry: Registry, roster: Roster
) -> None:
    d = to_dict(roster)
    d["units"][0]["entry"] = "sacred_band"
    r = from_dict(d, registry)
    assert r.units[0].entry == "sacred_band" and len(r.units) == len(roster.units)
    codes = {m.code for m in validate(registry.get("quincunx"), r).messages}
    assert "entry.unknown" in codes


def bad(registry: Registry, obj: Any) -> list[tuple[str, str]]:
    with pytest.raises(RosterFileError) as info:
        from_dict(obj, registry)
    return info.value.problems


@pytest.mark.parametrize(
    ("mutate", "path", "words"),
    [
        (lambda d: d.update(format="battlescribe"), "format", "castra-roster"),
        (lambda d: d.update(version=99), "version", "newer"),
        (lambda d: d.update(ruleset="warhammer"), "ruleset", "unknown ruleset"),
        (lambda d: d.update(army="persian"), "army", "no army list"),
        (lambda d: d.update(scale="1:50"), "scale", ""),
        (lambda d: d.update(scale=None), "scale", "counts figures"),
        (lambda d: d["units"][2].update(count=0), "units[2].count", "greater than or equal"),
        (lambda d: d["units"][1].update(size="big"), "units[1].size", "integer"),
        (lambda d: d["units"][0].update(command="nowhere"), "units[0].command", "nowhere"),
        (lambda d: d["units"][0].update(leader="ghost"), "units[0].leader", "ghost"),
        (lambda d: d["units"][3].update(colour="red"), "units[3].colour", "Extra"),
        (lambda d: d["leaders"][0].update(status="sulking"), "leaders[0].status", "fit"),
        (lambda d: d["leaders"].append(dict(d["leaders"][0])), "leaders[", "twice"),
        (lambda d: d["commands"][0].update(leader="ghost"), "commands[0].leader", "ghost"),
        (lambda d: d["units"].append({"entry": "gone"}), "size", "must be given"),
    ],
)
def test_malformed_imports_name_the_problem(
    registry: Registry, roster: Roster, mutate: Any, path: str, words: str
) -> None:
    d = json.loads(dumps(roster))
    mutate(d)
    found = bad(registry, d)
    assert any(path in p and words in m for p, m in found), found


def test_not_json_and_not_an_object(registry: Registry) -> None:
    with pytest.raises(RosterFileError, match="not valid JSON"):
        loads(b'{"format": ', registry)
    with pytest.raises(RosterFileError, match="JSON object"):
        loads(b"[1, 2]", registry)
    with pytest.raises(RosterFileError, match="UTF-8"):
        loads(b"\xff\xfe\x00", registry)


def test_oversized_file_is_refused_unread(registry: Registry, tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (MAX_BYTES + 1))
    with pytest.raises(RosterFileError, match="at most"):
        read_file(path, registry)


def test_missing_file(registry: Registry, tmp_path: Path) -> None:
    with pytest.raises(RosterFileError, match="cannot read"):
        read_file(tmp_path / "nope.json", registry)


def test_nothing_in_a_file_runs_code(registry: Registry, roster: Roster) -> None:
    d = to_dict(roster)
    d["name"] = "__import__('os').system('touch /tmp/castra-pwned')"
    d["units"][0]["notes"] = "{{7*7}} ${HOME} `id`"
    r = from_dict(json.loads(json.dumps(d)), registry)
    assert r.name == d["name"] and r.units[0].notes == "{{7*7}} ${HOME} `id`"
    assert not Path("/tmp/castra-pwned").exists()


def test_export_is_atomic(roster: Roster, tmp_path: Path, monkeypatch: Any) -> None:
    path = tmp_path / "r.json"
    path.write_text("old", encoding="utf-8")

    def boom(self: Path, *a: object, **k: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(Path, "replace", boom)
    with pytest.raises(OSError):
        export_file(replace(roster, name="new"), path)
    assert path.read_text(encoding="utf-8") == "old"


def test_export_failure_leaves_no_temporary_file(roster: Roster, tmp_path: Path) -> None:
    """A folder as the target, or a missing folder: an OSError, and no stray ``.tmp``."""
    folder = tmp_path / "out"
    folder.mkdir()
    with pytest.raises(IsADirectoryError):
        export_file(roster, folder)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    with pytest.raises(FileNotFoundError):
        export_file(roster, tmp_path / "nodir" / "x.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


# ---------------------------------------------------------------------- strict types, bounds


@pytest.mark.parametrize(
    ("mutate", "path", "words"),
    [
        (lambda d: d.update(version="7"), "version", "valid integer"),
        (lambda d: d.update(version="1"), "version", "valid integer"),
        (lambda d: d.update(version=True), "version", "valid integer"),
        (lambda d: d.update(version=1.0), "version", "valid integer"),
        (lambda d: d["units"][0].update(count="3"), "units[0].count", "valid integer"),
        (lambda d: d["units"][0].update(size=16.0), "units[0].size", "valid integer"),
        (lambda d: d["units"][0].update(count=True), "units[0].count", "valid integer"),
        (lambda d: d["leaders"][0].update(exceptional="yes"), "leaders[0].exceptional", "bool"),
        (lambda d: d["leaders"][0].update(exceptional=1), "leaders[0].exceptional", "bool"),
        (lambda d: d["leaders"][0].update(wounds="1"), "leaders[0].wounds", "valid integer"),
        (lambda d: d["units"][0].update(notes=5), "units[0].notes", "valid string"),
    ],
)
def test_import_is_strict_about_json_types(
    registry: Registry, roster: Roster, mutate: Any, path: str, words: str
) -> None:
    """A number in a string is not a number, "yes" is not true: the file is refused."""
    d = json.loads(dumps(roster))
    mutate(d)
    found = bad(registry, d)
    assert any(p == path and words in m for p, m in found), found


def test_newer_version_is_refused_before_its_keys(registry: Registry, roster: Roster) -> None:
    d = json.loads(dumps(roster))
    d.update(version=2, colour="red")
    assert bad(registry, d) == [("version", "format version 2 is newer than this Castra reads (1)")]


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda d: d["units"][0].update(lines={"Triarii": -40}), "units[0].lines.Triarii"),
        (lambda d: d["units"][0].update(lines={"Triarii": 0}), "units[0].lines.Triarii"),
        (lambda d: d["units"][0].update(lines={"Triarii": MAX_LINE_BASES + 1}), "units[0].lines"),
        (lambda d: d["units"][0].update(lines={"": 4}), "units[0].lines"),
        (lambda d: d["units"][0].update(lines={"Triarii": "4"}), "units[0].lines.Triarii"),
        (lambda d: d["units"][0].update(size=0), "units[0].size"),
        (lambda d: d["units"][0].update(size=MAX_SIZE + 1), "units[0].size"),
        (lambda d: d["units"][0].update(count=MAX_COUNT + 1), "units[0].count"),
        (lambda d: d["units"][0].update(name="x" * (MAX_NAME + 1)), "units[0].name"),
        (lambda d: d.update(name=""), "name"),
    ],
)
def test_out_of_bounds_values_are_refused(registry: Registry, mutate: Any, path: str) -> None:
    rs = registry.get("leg-vi-carthago")
    r = new_roster(rs, "roman", name="Legio")
    r = AddUnit(unit_from_entry(rs, "roman", "roman_legion", lines={"Triarii": 4})).apply(r)
    d = json.loads(dumps(r))
    mutate(d)
    assert any(p.startswith(path) for p, _ in bad(registry, d))


def test_values_at_the_bounds_round_trip(registry: Registry) -> None:
    """What the core accepts, the file takes back: the bounds are one definition."""
    rs = registry.get("leg-vi-carthago")
    r = new_roster(rs, "roman", name="N" * MAX_NAME, side="S" * MAX_SIDE)
    legion = unit_from_entry(
        rs,
        "roman",
        "roman_legion",
        name="L" * MAX_NAME,
        count=MAX_COUNT,
        size=MAX_SIZE,
        lines={"Triarii": MAX_LINE_BASES},
        notes="n" * MAX_NOTES,
    )
    r = AddUnit(legion).apply(r)
    r = AddLeader(
        Leader(
            id="l1",
            name="Scipio",
            wounds=MAX_WOUNDS,
            fields={"bonus": MIN_BONUS},
            notes="n" * MAX_NOTES,
        )
    ).apply(r)
    assert loads(dumps(r), registry) == r
