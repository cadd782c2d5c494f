"""``castra battle`` on the table, for every ruleset: a battle set up on a ready-made table,
a unit deployed, moved along a path, a charge into contact, measuring, terrain placed and
removed, the layout saved and reused; units by name; undo, redo and replay exact; every bad
value one line, exit 1, nothing changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.builtin import ruleset_ids
from tests.cli.test_battle_cli import Battle, Cli
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


RULESETS = ruleset_ids()


def new_battle(cli: Cli, ruleset: str, *extra: str) -> Battle:
    a, b = cli.rosters(ruleset)
    made = cli.json("battle", "new", a, b, "--seed", 7, *extra)
    return Battle(cli, int(made["id"]))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_battle_on_the_table(cli: Cli, ruleset: str) -> None:
    battle = new_battle(cli, ruleset, "--layout", "hills and woods")
    table = cli.json("battle", "table", battle.id)
    assert [p["kind"] for p in table["terrain"]] == ["hill", "woods", "hill", "woods"]
    assert table["layouts"][:3] == ["open plain", "river crossing", "hills and woods"]
    state = battle.state()
    a1 = battle.unit("A1", state)
    # deploy A1 in the back corner of its zone, by name where its name is its own
    x, y = a1["width"] / 2 + 0.01, a1["depth"] / 2 + 0.01
    out = battle("deploy", "A1", repr(x), repr(y), "--facing", "0")
    assert out.startswith(f"{a1['name']} (A1) deploys at")
    assert "outside" in battle.refused("deploy", "A1", repr(x), repr(table["height"] / 2))
    # a path: forward and a wheel; refused with a rule, or done; forced, it is done
    path = "forward 0.5; wheel 10 right"
    code, out, err = cli.run("battle", "move", battle.id, "A1", "--path", path)
    if code:
        assert err.startswith("castra: ") and ("may not move" in err or "must confirm" in err)
        out = battle("move", "A1", "--path", path, "--force")
    assert "forward 0.5; wheel 10 right" in out
    # a charge into contact (forced past whatever the allowance and the phase say)
    before = battle.state()
    out = battle("charge", "A2", "B2", "--force")
    assert "charges" in out and "contact" in out
    m = cli.json("battle", "measure", battle.id, "A2", "B2")
    assert m["distance"] == pytest.approx(0, abs=1e-6) and m["los"]
    # undo restores the state exactly, redo and replay land on the same state
    after = battle.state()
    battle("undo")
    assert battle.state() == before
    battle("redo")
    assert battle.state() == after
    steps = battle.steps()
    replayed = cli.json("battle", "replay", battle.id, "--step", steps)
    assert {k: v for k, v in replayed.items() if k != "phase_name"} == {
        k: v for k, v in after.items() if k != "phase_name"
    }


def test_terrain_size_layouts_and_names(cli: Cli, tmp_path: Path) -> None:
    battle = new_battle(cli, "d3-ancients")
    assert battle("table").startswith('table 72" by 48"; 0 terrain pieces')
    out = battle("terrain", "add", "woods", "30,18", "42,18", "42,26", "30,26", "--name", "Silva")
    assert out == 'Terrain placed: woods T1 "Silva" (4 points).\n'
    battle("terrain", "add", "road", "0,30", "72,30")
    assert battle("table", "--size", "80x50") == 'The table is now 80" by 50".\n'
    saved = battle("table", "--save", "My wood")
    assert "saved layout 'My wood' (2 pieces)" in saved
    assert "--replace" in battle.refused("table", "--save", "My wood")
    battle("table", "--save", "My wood", "--replace")
    stored = json.loads((tmp_path / "home" / "tables" / "my-wood.json").read_text())
    assert stored["pieces"][0]["points"][0] == [30 / 80, 18 / 50]
    battle("terrain", "remove", "T2")
    battle("table", "--layout", "open plain")
    assert cli.json("battle", "table", battle.id)["terrain"] == []
    battle("table", "--layout", "my wood")
    assert [p["id"] for p in cli.json("battle", "table", battle.id)["terrain"]] == ["T1", "T2"]
    # a bad file in the folder is a warning, not a failure
    (tmp_path / "home" / "tables" / "bad.json").write_text("{", encoding="utf-8")
    code, out, err = cli.run("battle", "table", battle.id)
    assert code == 0 and "My wood" in out and "bad.json" in err
    # a unit by its name; an ambiguous name listing the ids
    state = battle.state()
    names = [u["name"] for u in state["units"]]
    unique = next(n for n in names if names.count(n) == 1)
    uid = next(u["id"] for u in state["units"] if u["name"] == unique)
    assert f"({uid})" in cli.ok("battle", "measure", battle.id, unique, "B1")
    # odds take names too (the name found, whatever the rules then say of the matchup)
    code, out, err = cli.run("battle", "odds", battle.id, "melee", unique, "B1")
    assert "no unit" not in err and (code == 0 or err.startswith(f"castra: {unique}"))
    twice = next(n for n in names if names.count(n) > 1)
    err = battle.refused("measure", twice, "B1")
    assert "is ambiguous" in err and "give an id" in err


BAD = [
    (("move", "A1", "--path", "forward nan"), "cannot read the leg"),
    (("move", "A1", "--path", "forward 1e308"), "out of range"),
    (("move", "A1", "--path", "; ".join(["forward 1"] * 60)), "at most 50 legs"),
    (("move", "A1", "1", "2", "--path", "forward 1"), "not both"),
    (("move", "A1", "5"), "a move needs X Y"),
    (("move", "Nobody", "--path", "forward 1"), "no unit 'Nobody'"),
    (("move", "A1\x1b", "--path", "forward 1"), "control character"),
    (("charge", "A1", "A2"), "is a friend"),
    (("deploy", "A1", "nan", "3"), "finite"),
    (("deploy", "A1", "1e99", "3"), "out of range"),
    (("terrain", "add", "woods", "0,0", "10,10", "10,0", "0,5"), "crosses itself"),
    (("terrain", "add", "woods", "0,0", "nan,1", "1,0"), "finite"),
    (("terrain", "add", "woods", "0,0", "1e9,1", "1,0"), "out of range"),
    (("terrain", "add", "woods", "0,0", "1;1", "1,0"), "must be X,Y"),
    (("terrain", "add", "woods", *[f"{i % 7},{i % 5}" for i in range(600)]), "at most 500"),
    (("terrain", "add", "river", "0,0", "9,9", "--width", "nan"), "finite"),
    (("terrain", "add", "woods", "1,1", "2,1", "2,2", "--name", "a\x07b"), "control character"),
    (("terrain", "remove", "T9"), "no terrain piece 'T9'"),
    (("table", "--size", "72x0"), "more than 0"),
    (("table", "--size", "infx48"), "finite"),
    (("table", "--size", "1e99x48"), "out of range"),
    (("table", "--size", "seventy"), "WIDTHxDEPTH"),
    (("table", "--size", "10x10"), "would be off"),
    (("table", "--layout", "nowhere"), "no table layout 'nowhere'"),
    (("table", "--save", "x\x1by"), "control character"),
    (("measure", "A1", "A1"), "two different units"),
]


@pytest.mark.parametrize(("args", "words"), BAD)
def test_bad_values_are_one_line_and_change_nothing(
    cli: Cli, args: tuple[str, ...], words: str
) -> None:
    battle = new_battle(cli, "d3-ancients")
    before, steps = battle.state(), battle.steps()
    err = battle.refused(*args)
    assert words in err and err.count("\n") == 1, err
    assert battle.state() == before and battle.steps() == steps
