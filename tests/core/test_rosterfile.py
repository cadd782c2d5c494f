"""The roster file: JSON round trip, and all-or-nothing imports with precise errors."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.core.edits import UpdateLeader, UpdateUnit
from app.core.roster import LeaderStatus, Roster, new_roster
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
    from app.core.edits import AddUnit
    from app.core.roster import unit_from_entry

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
