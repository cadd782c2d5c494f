"""The command line edits every part of a roster: units, leaders, commands, names, the bin;
and it refuses values outside the army list unless asked (``--allow-invalid``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main


@pytest.fixture(autouse=True)
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "castra.sqlite3"
    monkeypatch.setenv("CASTRA_DB", str(db))
    monkeypatch.setenv("CASTRA_HOME", str(tmp_path / "home"))
    return db


Cap = pytest.CaptureFixture[str]


def ok(capsys: Cap, *args: str) -> str:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, f"{args}: {err}"
    return out


def fails(capsys: Cap, *args: str) -> str:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 1, f"{args} should fail: {out}"
    assert "Traceback" not in err
    return err


def shown(capsys: Cap, roster: str) -> Any:
    return json.loads(ok(capsys, "roster", "show", roster, "--json"))


def new(capsys: Cap, ruleset: str, army: str, name: str) -> str:
    out = ok(capsys, "roster", "new", "--ruleset", ruleset, "--army", army, "--name", name)
    return out.split("created roster ")[1].split(":")[0]


def test_valid_d3_army_from_nothing(capsys: Cap) -> None:
    new(capsys, "d3-ancients", "roman", "Trebia")
    ok(capsys, "roster", "add", "Trebia", "legionaries", "--count", "3")
    ok(capsys, "roster", "add", "Trebia", "velites")
    ok(capsys, "roster", "add", "Trebia", "equites")
    ok(capsys, "roster", "add", "Trebia", "allied_cavalry")
    assert not shown(capsys, "Trebia")["valid"]  # no general yet: 0 general(s)
    ok(
        capsys,
        *("roster", "leader", "add", "Trebia", "Sempronius", "--rank", "general"),
        *("--quality", "poor", "--attach", "Equites (Roman cavalry)"),
    )
    data = shown(capsys, "Trebia")
    assert data["valid"], data["messages"]
    equites = next(u for u in data["units"] if u["entry"] == "equites")
    assert equites["leader"] is not None
    # D3 has no commands: refused, and said why
    assert "has no commands" in fails(capsys, "roster", "command", "add", "Trebia", "Left")
    # a Quincunx-only field is refused for a D3 leader
    assert "no bonus" in fails(
        capsys, "roster", "leader", "set", "Trebia", "Sempronius", "--bonus", "2"
    )


def test_valid_leg_vi_army_from_nothing(capsys: Cap) -> None:
    new(capsys, "leg-vi-carthago", "roman", "Cannae")
    ok(
        capsys,
        "roster",
        "command",
        "add",
        "Cannae",
        "Infantry",
        "--id",
        "inf",
        "--kind",
        "infantry",
    )
    ok(capsys, "roster", "command", "add", "Cannae", "Horse", "--id", "cav", "--kind", "cavalry")
    ok(capsys, "roster", "add", "Cannae", "roman_legion", "--grade", "B", "--command", "inf")
    ok(capsys, "roster", "add", "Cannae", "roman_legion", "--grade", "B", "--command", "inf")
    ok(capsys, "roster", "add", "Cannae", "velites", "--grade", "B", "--command", "cav")
    ok(capsys, "roster", "add", "Cannae", "roman_equites", "--grade", "C", "--command", "cav")
    ok(
        capsys,
        *("roster", "leader", "add", "Cannae", "Paullus", "--rank", "general"),
        *("--leads", "Infantry", "--exceptional", "yes"),
    )
    ok(
        capsys,
        *("roster", "leader", "add", "Cannae", "Varro", "--rank", "commander"),
        *("--leads", "cav"),
    )
    # understrength triarii in one legion: a line of 4 bases, counted as 2
    legion = next(u for u in shown(capsys, "Cannae")["units"] if u["entry"] == "roman_legion")
    ok(capsys, "roster", "set", "Cannae", legion["id"], "--lines", "Triarii=4")
    data = shown(capsys, "Cannae")
    assert data["valid"], data["messages"]
    exported = json.loads(ok(capsys, "roster", "export", "Cannae"))
    assert [u.get("lines") for u in exported["units"][:2]] == [{"Triarii": 4}, None]

    # two legions in the cavalry command break the Leg VI limit; moving one back mends it
    legions = [u["id"] for u in data["units"] if u["entry"] == "roman_legion"]
    for uid in legions:
        ok(capsys, "roster", "set", "Cannae", uid, "--command", "Horse")
    assert not shown(capsys, "Cannae")["valid"]
    ok(capsys, "roster", "set", "Cannae", legions[0], "--command", "inf")
    assert shown(capsys, "Cannae")["valid"]
    ok(capsys, "roster", "set", "Cannae", legions[1], "--command", "inf")
    # a command can be renamed, given no leader, removed (its units stay)
    ok(capsys, "roster", "command", "set", "Cannae", "cav", "--name", "Cavalry wing")
    ok(capsys, "roster", "command", "set", "Cannae", "Cavalry wing", "--leader", "none")
    out = ok(capsys, "roster", "command", "remove", "Cannae", "Cavalry wing")
    assert "2 unit line(s) stay" in out
    assert len(shown(capsys, "Cannae")["units"]) == 4


def test_valid_quincunx_army_from_nothing(capsys: Cap) -> None:
    new(capsys, "quincunx", "carthaginian", "Zama")
    first = {"id": "iberian_scutari", "name": "Iberian Scutari"}
    ok(capsys, "roster", "command", "add", "Zama", "Centre", "--id", "centre")
    ok(capsys, "roster", "add", "Zama", first["id"], "--command", "centre")
    ok(capsys, "roster", "add", "Zama", "celtic_swordsmen", "--command", "centre", "--count", "4")
    ok(
        capsys,
        "roster",
        "leader",
        "add",
        "Zama",
        "Hannibal",
        "--rank",
        "general",
        "--leads",
        "centre",
    )
    ok(capsys, "roster", "leader", "add", "Zama", "Mago", "--bonus", "1")
    ok(capsys, "roster", "leader", "set", "Zama", "Mago", "--attach", first["name"])
    data = shown(capsys, "Zama")
    assert data["valid"], [m["text"] for m in data["messages"]]
    assert data["units"][0]["leader"] is not None and data["units"][0]["command"] == "centre"
    ok(capsys, "roster", "leader", "set", "Zama", "Hannibal", "--bonus", "2", "--status", "wounded")
    ok(capsys, "roster", "leader", "remove", "Zama", "Mago")
    assert shown(capsys, "Zama")["units"][0]["leader"] is None


def test_values_outside_the_list_are_refused_unless_allowed(capsys: Cap) -> None:
    new(capsys, "leg-vi-carthago", "roman", "R")
    err = fails(capsys, "roster", "add", "R", "velites", "--size", "9")
    assert "size 9 is not allowed for Velites" in err and "2, 3, 4, 5, 6, 7, 8" in err
    err = fails(capsys, "roster", "add", "R", "velites", "--grade", "Z")
    assert "grade Z is not allowed" in err and "A, B" in err
    assert shown(capsys, "R")["units"] == []  # nothing was added
    ok(capsys, "roster", "add", "R", "velites", "--size", "9", "--allow-invalid")
    data = shown(capsys, "R")
    assert [u["size"] for u in data["units"]] == [9]
    assert any(m["code"] == "unit.size" for m in data["messages"])
    err = fails(capsys, "roster", "set", "R", "Velites", "--grade", "Z")
    assert "allowed: A, B" in err
    ok(capsys, "roster", "set", "R", "Velites", "--size", "4", "--count", "3", "--grade", "A")
    unit = shown(capsys, "R")["units"][0]
    assert (unit["size"], unit["count"]) == (4, 3)
    assert "out of range" in fails(capsys, "roster", "set", "R", "Velites", "--count", "0")
    assert "no unit 'Hoplites'" in fails(capsys, "roster", "set", "R", "Hoplites", "--count", "2")
    out = ok(capsys, "roster", "remove", "R", "Velites")
    assert "3 × Velites" in out
    assert shown(capsys, "R")["units"] == []


def test_names_stay_unique_and_the_bin(capsys: Cap, tmp_path: Path) -> None:
    first = new(capsys, "quincunx", "roman", "Trebia")
    second = new(capsys, "quincunx", "roman", "Trebia")
    names = [r["name"] for r in json.loads(ok(capsys, "roster", "list", "--json"))]
    assert sorted(names) == ["Trebia", "Trebia (2)"]
    path = tmp_path / "t.json"
    ok(capsys, "roster", "export", "Trebia", "-o", str(path))
    out = ok(capsys, "roster", "import", str(path))
    assert "Trebia (3)" in out and "'Trebia' is taken" in out
    out = ok(capsys, "roster", "rename", second, "Trebia")
    assert "Trebia (2)" in out  # its own name, kept: the other one has "Trebia"
    ok(capsys, "roster", "rename", second, "Lake Trasimene")
    ok(capsys, "roster", "delete", "Trebia")
    assert "deleted" in fails(capsys, "roster", "show", first)
    ok(capsys, "roster", "restore", first)
    assert shown(capsys, first)["name"] == "Trebia"


def test_add_takes_a_commands_name_and_a_leader_joins_one_unit(capsys: Cap) -> None:
    """Issue 25: ``roster add --command`` takes the command's name as ``roster set`` does
    (it took only an id); and a leader attached to a line of identical units is refused
    with the way out (split one off), where before the roster was left invalid."""
    new(capsys, "quincunx", "roman", "Cannae")
    ok(capsys, "roster", "command", "add", "Cannae", "Left wing")
    ok(capsys, "roster", "add", "Cannae", "hastati", "--count", "3", "--command", "left wing")
    data = shown(capsys, "Cannae")
    assert [u["command"] is not None for u in data["units"]] == [True]
    assert "Left wing" in ok(capsys, "roster", "show", "Cannae")
    err = fails(capsys, "roster", "add", "Cannae", "velites", "--command", "Right wing")
    assert "the roster has no command 'Right wing'" in err and "Left wing" in err
    ok(capsys, "roster", "leader", "add", "Cannae", "Varro", "--rank", "general")
    before = shown(capsys, "Cannae")
    err = fails(capsys, "roster", "set", "Cannae", "Hastati", "--leader", "Varro")
    assert "Varro stands with one unit, and Hastati is a line of 3 identical units" in err
    assert "split one off first" in err and err.count("\n") == 1
    err = fails(capsys, "roster", "leader", "set", "Cannae", "Varro", "--attach", "Hastati")
    assert "split one off first" in err
    assert shown(capsys, "Cannae") == before
