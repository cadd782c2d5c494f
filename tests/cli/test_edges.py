"""The last bad-input edges of issue 22, each one line, exit 1, nothing changed: bytes that
are not UTF-8 in any argument; invisible and direction-changing characters in names,
markers and reasons; a battle's name; terrain off the table and a table too small for the
units; layouts Castra saves and must read back; a key given twice in a roster, campaign or
layout file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.cli.test_battle_cli import Battle, Cli
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def one_line(err: str) -> str:
    assert err.startswith("castra: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.fixture
def battle(cli: Cli) -> Battle:
    a, b = cli.rosters("d3-ancients")
    return Battle(cli, int(cli.json("battle", "new", a, b, "--seed", 7)["id"]))


def _not_utf8(text: str) -> str:
    """``text`` with a Latin-1 byte in it, as Python hands over such an argument."""
    return os.fsdecode(text.encode() + b"\xe9")


@pytest.mark.parametrize(
    "args",
    [
        ("battle", "adjust", "1", "A1", "marker", f"+{_not_utf8('shaken')}"),
        ("battle", "end", "1", "--winner", "a", "--reason", _not_utf8("caf")),
        ("battle", "terrain", "add", "woods", "1,1", "2,1", "2,2", "--name", _not_utf8("Silva")),
        ("roster", "new", "--ruleset", "quincunx", "--army", "roman", "--name", _not_utf8("R")),
        ("campaign", "new", "--ruleset", "leg-vi-carthago", "--name", _not_utf8("Italy")),
        ("--store", _not_utf8("/tmp/x"), "roster", "list"),
    ],
)
def test_an_argument_that_is_not_utf8_is_one_line(
    cli: Cli, battle: Battle, args: tuple[str, ...]
) -> None:
    before = battle.steps()
    err = one_line(cli.fails(*args))
    assert "not UTF-8 text (0xe9)" in err
    assert battle.steps() == before
    assert len(cli.json("roster", "list")) == 0


@pytest.mark.parametrize("char", ["\u202e", "\u200d", "\u200b", "\u2066", "\ufeff", "\u00ad"])
def test_invisible_and_direction_changing_characters_are_refused(
    cli: Cli, battle: Battle, char: str
) -> None:
    before = battle.steps()
    for args in (
        ("adjust", "A1", "marker", f"+sha{char}ken"),
        ("end", "--winner", "a", "--reason", f"they{char} ran"),
        ("terrain", "add", "woods", "1,1", "2,1", "2,2", "--name", f"Sil{char}va"),
    ):
        err = one_line(battle.refused(*args))
        assert f"invisible or direction-changing character (U+{ord(char):04X}" in err, err
    assert battle.steps() == before
    a, b = cli.rosters("d3-ancients")
    err = one_line(cli.fails("battle", "new", a, b, "--name", f"Can{char}nae"))
    assert "the battle name holds an invisible" in err
    err = one_line(
        cli.fails("roster", "new", "--ruleset", "quincunx", "--army", "roman", "--name", f"R{char}")
    )
    assert "invisible or direction-changing" in err


@pytest.mark.parametrize(
    ("name", "words"),
    [("Can\x1bnae", "control character (U+001B"), ("", "cannot be empty"), ("x" * 201, "201")],
)
def test_a_battle_name_is_plain_text(cli: Cli, name: str, words: str) -> None:
    a, b = cli.rosters("d3-ancients")
    err = one_line(cli.fails("battle", "new", a, b, "--name", name))
    assert "the battle name" in err and words in err
    assert cli.json("battle", "list") == []


def test_a_name_already_stored_is_printed_escaped(cli: Cli, battle: Battle) -> None:
    """Names stored before this check print with the character shown as an escape."""
    from app.rules.inputs import escape_controls

    assert escape_controls("Ro\u202eme\x1b") == "Ro\\u202eme\\x1b"


def test_terrain_lies_on_the_table_and_units_fit_it(cli: Cli, battle: Battle) -> None:
    before = battle.steps()
    err = one_line(battle.refused("terrain", "add", "woods", "1000,1", "1002,1", "1001,3"))
    assert "point 1 (1000,1) of terrain T1 is off the 72 by 48 table" in err
    battle("table", "--size", "100x48")
    battle("terrain", "add", "woods", "80,10", "90,10", "90,20")
    err = one_line(battle.refused("table", "--size", "72x48"))
    assert "terrain T1 would be off a 72 by 48 table" in err
    assert battle.steps() == before + 2
    a, b = cli.rosters("d3-ancients")
    err = one_line(cli.fails("battle", "new", a, b, "--size", "1x1"))
    assert "do not fit on a 1 by 1 table" in err
    assert len(cli.json("battle", "list")) == 1


def test_a_saved_layout_reads_back(cli: Cli, battle: Battle, tmp_path: Path) -> None:
    """What ``table --save`` writes, the loader reads: a river too wide for a layout file is
    refused at saving, not written for every later command to warn about."""
    battle("terrain", "add", "river", "0,24", "72,24", "--width", "500")
    err = one_line(battle.refused("table", "--save", "Flood"))
    assert "width_mm" in err
    assert not (tmp_path / "home" / "tables").exists() or not list(
        (tmp_path / "home" / "tables").iterdir()
    )
    battle("undo")
    battle("terrain", "add", "woods", "0,0", "72,0", "72,48")  # corner to corner
    battle("table", "--save", "Edge")
    code, _, err = cli.run("battle", "table", battle.id, "--layout", "edge")
    assert code == 0 and err == "", err


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        (
            "roster",
            '{"format": "castra-roster", "format": "castra-roster", "version": 1}',
        ),
        ("campaign", '{"name": "a", "name": "b"}'),
    ],
)
def test_a_key_given_twice_is_refused(cli: Cli, tmp_path: Path, kind: str, text: str) -> None:
    path = tmp_path / "twice.json"
    path.write_text(text, encoding="utf-8")
    err = one_line(cli.fails(kind, "import", path))
    assert "is given twice" in err and '"' in err


def test_a_key_given_twice_in_a_saved_roster_names_it(cli: Cli, tmp_path: Path) -> None:
    cli.ok("roster", "new", "--ruleset", "quincunx", "--army", "roman", "--name", "R")
    path = tmp_path / "r.json"
    cli.ok("roster", "export", "1", "-o", path)
    text = path.read_text(encoding="utf-8").replace('"name": "R"', '"name": "R", "name": "S"', 1)
    path.write_text(text, encoding="utf-8")
    err = one_line(cli.fails("roster", "import", path))
    assert 'the key "name" is given twice' in err
    assert len(cli.json("roster", "list")) == 1


def test_a_key_given_twice_in_a_layout_file_is_a_warning_naming_it(
    cli: Cli, battle: Battle, tmp_path: Path
) -> None:
    folder = tmp_path / "home" / "tables"
    folder.mkdir(parents=True)
    doc = json.dumps({"format": "castra-table-layout", "version": 1, "name": "A", "pieces": []})
    (folder / "twice.json").write_text(doc.replace('"name": "A"', '"name": "A", "name": "B"'))
    code, _, err = cli.run("battle", "table", battle.id)
    assert code == 0 and "twice.json" in err and 'the key "name" is given twice' in err
