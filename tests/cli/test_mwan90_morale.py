"""MWAN #90's morale check at the table (issue 25, item 9; errata morale-table-truncated).

MWAN #90, Morale 3: "Friendly formed units that are within 6" of the rout path must check
morale: Subtract 3 from the die if the routing unit is elephants. Unit in:" -- and the
article stops: the results table is lost. Castra invents nothing. When a check comes up the
players give its result (passes, disordered, falls back, routs), which is recorded as a step
and applied; a club may save its own table once (``castra morale-table``), and every later
battle keeps a copy and rolls its checks on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_battle_cli import Battle, Cli
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path

CLUB_TABLE = """die = "d6"
rows = [
  { unit_in = "rout path", rolls = [-2, 2], result = "joins the rout", outcome = "routs" },
  { unit_in = "rout path", rolls = [3, 4], result = "shaken", outcome = "disordered" },
  { unit_in = "rout path", rolls = [5, 6], result = "steady", outcome = "holds" },
  { unit_in = "beside it", rolls = [-2, 6], result = "steady", outcome = "holds" },
]
"""


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def test_the_players_give_a_checks_result(cli: Cli) -> None:
    a, b = cli.rosters("mwan90")
    battle = Battle.new(cli, a, b, seed=3)
    steps = battle.steps()
    err = battle.refused("act", "morale_check", "A1")
    assert "the results table is incomplete in the source" in err
    assert "Or give the players' result (the check's result option: passes" in err
    assert battle.steps() == steps
    out = battle("act", "morale_check", "A1", "--set", "result=disordered")
    assert "checks morale: disordered (the players' call; the article's table is lost)" in out
    assert "disordered" in battle.unit("A1")["status"]["markers"]
    out = battle("act", "morale_check", "A1", "--set", "result=falls back")
    assert "falls back: the players move it (the article gives no distance)" in out
    out = battle("act", "morale_check", "A1", "--set", "result=routs")
    a1 = battle.unit("A1")
    assert a1["status"]["eliminated"] and "routed" in a1["status"]["markers"]
    after = battle.state()
    battle("undo")
    assert not battle.unit("A1")["status"]["eliminated"]
    battle("redo")
    assert battle.state() == after
    assert cli.json("battle", "replay", battle.id, "--step", battle.steps()) == after


def test_a_clubs_own_table_for_every_later_battle(cli: Cli, tmp_path: Path) -> None:
    a, b = cli.rosters("mwan90")
    before = Battle.new(cli, a, b, seed=3)  # begun before the club had a table
    bad = tmp_path / "bad.toml"
    bad.write_text(CLUB_TABLE.replace("[-2, 2]", "[-2, 1]"), encoding="utf-8")
    err = cli.fails("morale-table", "mwan90", bad)
    assert "do not cover a score of 2" in err and err.count("\n") == 1
    assert "no morale table saved for mwan90" in cli.ok("morale-table", "mwan90")
    good = tmp_path / "club.toml"
    good.write_text(CLUB_TABLE, encoding="utf-8")
    assert "saved: " in cli.ok("morale-table", "mwan90", good)
    shown = cli.ok("morale-table", "mwan90")
    assert "rout path: 3 to 4: shaken (disordered)" in shown
    assert "gives its own morale results" in cli.fails("morale-table", "quincunx", good)
    # a new battle keeps a copy and rolls on it: a 4 is "shaken"
    battle = Battle.new(cli, a, b, seed=3)
    assert "house_morale" in battle.state()["sides"][0]["record"]
    out = battle("act", "morale_check", "A1", "--dice", "4")
    assert "checks morale (rout path): rolled" in out and "= 4: shaken (your club's table)" in out
    assert "disordered" in battle.unit("A1")["status"]["markers"]
    out = battle("act", "morale_check", "A1", "--set", "situation=2", "--dice", "1")
    assert "(beside it)" in out and "steady" in out
    # the players may still call it themselves
    assert "the players' call" in battle("act", "morale_check", "A1", "--set", "result=passes")
    # the battle begun before keeps none: the players give its results
    assert "incomplete in the source" in before.refused("act", "morale_check", "A1")
    # forgetting the table changes no battle already begun (each keeps its copy)
    assert cli.ok("morale-table", "mwan90", "--clear").startswith("forgotten")
    kept = battle.state()
    assert cli.json("battle", "replay", battle.id, "--step", battle.steps()) == kept
    assert "(your club's table)" in battle("act", "morale_check", "A1", "--dice", "6")
