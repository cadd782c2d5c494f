"""When a Grown Slightly Bald unit shoots in its activation, through ``castra battle``: the
Spanish medium infantry shoot where they stand and may then neither shoot again (the odds
refused with the same line) nor move; the slingers move, shoot and may not move on; the
shot is a step of the battle (undo, redo and replay land on the same state), and the next
turn begins afresh.

Rome: A1, A2 legionaries (heavy infantry), A3 velites. Carthage: B1 Spanish (medium
infantry), B2 the elephant, B3 slingers (light infantry). Before play the units are set by
hand (moves to X Y, unchecked) in pairs 1.5 UW apart across the middle of the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_battle_cli import Battle, Cli
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path
from tests.cli.test_table_gsb import activations_of


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def test_gsb_shot_timing_through_the_cli(cli: Cli) -> None:
    a, b = cli.rosters("grown-slightly-bald")
    made = cli.json("battle", "new", a, b, "--seed", 7)
    battle = Battle(cli, int(made["id"]))
    for unit, x, y, facing in (
        ("A1", 6, 4.5, 0),
        ("B1", 6, 6, 180),
        ("A2", 12, 4.5, 0),
        ("B3", 12, 7, 180),
    ):
        battle("move", unit, x, y, "--facing", facing, "--force")  # placed by hand
    battle.next_to("Initiative")  # turn 2: the hand-set moves are not this turn's
    assert activations_of(battle, 1) == 2

    # the Spanish, activated, shoot once, and then move no more
    battle("act", "activate", "B1")
    assert "Spanish" in battle("shoot", "B1", "A1")
    assert "shot" in battle.unit("B1")["status"]["markers"]
    for refused in (
        battle.refused("shoot", "B1", "A1"),
        battle.refused("odds", "shoot", "B1", "A1"),
    ):
        assert "GSB, Shooting" in refused and "has already shot in this activation" in refused
        assert "medium infantry shoot after moving" in refused and refused.count("\n") == 1
    err = battle.refused("move", "B1", "--path", "forward 0.5")
    assert "GSB, Shooting" in err and "it moves no more this activation" in err

    # the slingers, activated, move 1 UW into range, shoot, and their move is over
    battle("act", "activate", "B3")
    battle("move", "B3", "--path", "forward 1")
    before = battle.state()
    assert "(0.0 UW" in battle("move", "B3", "--path", "turn 90")  # before the shot: free
    battle("undo")
    battle("shoot", "B3", "A2")
    after, steps = battle.state(), battle.steps()
    err = battle.refused("move", "B3", "--path", "turn 90")
    assert "GSB, Shooting" in err and "moved, then shot (light infantry shoot before or" in err
    assert battle("undo").startswith("undid: ")
    assert battle.state() == before
    battle("redo")
    assert battle.state() == after
    assert cli.json("battle", "replay", battle.id, "--step", steps) == after

    # the next turn starts afresh
    battle.next_to("Initiative")
    fresh = battle.state()
    assert all("shot" not in u["status"]["markers"] for u in fresh["units"])
