"""A scripted MWAN #90 battle on the table through ``castra battle``: the "hills and woods"
layout, the units standing in their deployment zones, moves by paths in the movement phase
(refused in another phase, or past a 45-degree wheel for heavy infantry), skirmishers
through a wood at full speed where line cavalry would spend too much, a shot refused out of
range, a shot in range, a charge without ``--force`` that ends front to front, the charger
then pinned, a melee; undo, redo and replay land on the same states."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_battle_cli import Battle, Cli, _roster
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path

ROME = _roster(
    "Rome on the table",
    "mwan90",
    "roman",
    "Rome",
    [
        {"id": "u1", "entry": "hastati", "size": 12},
        {"id": "u2", "entry": "velites", "size": 8},
        {"id": "u3", "entry": "equites", "size": 12},
    ],
    scale="1:10",
)
CARTHAGE = _roster(
    "Carthage on the table",
    "mwan90",
    "carthaginian",
    "Carthage",
    [
        {"id": "u1", "entry": "gauls", "size": 12},
        {"id": "u2", "entry": "balearic_slingers", "size": 8},
        {"id": "u3", "entry": "numidians", "size": 8},
    ],
    scale="1:10",
)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def rosters(tmp_path: Path) -> tuple[Path, Path]:
    paths = []
    for side, data in (("a", ROME), ("b", CARTHAGE)):
        path = tmp_path / f"mwan-{side}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def front_gap(a: dict[str, Any], b: dict[str, Any]) -> float:
    """Between two units facing each other along the table: front edge to front edge."""
    return float(abs(b["y"] - a["y"]) - (a["depth"] + b["depth"]) / 2)


def rome_moves_first(battle: Battle) -> str:
    """MWAN #90, Turn sequence 2: the initiative winner chooses to move first or second;
    here Rome moves first whoever won."""
    won = battle.state()["initiative"]
    side, choice = ("a", "first") if won == 0 else ("b", "second")
    return battle("act", "move_order", "--side", side, "--set", f"choose={choice}")


def test_an_mwan90_battle_on_the_table(cli: Cli, tmp_path: Path) -> None:
    a, b = rosters(tmp_path)
    battle = Battle.new(cli, a, b, seed=7)
    battle("table", "--layout", "hills and woods")
    table = cli.json("battle", "table", battle.id)
    assert [(p["id"], p["kind"]) for p in table["terrain"]] == [
        ("T1", "hill"),
        ("T2", "woods"),
        ("T3", "hill"),
        ("T4", "woods"),
    ]
    state = battle.state()
    zone = table["height"] / 4
    for u in state["units"]:  # every unit stands in its side's zone
        near, far = u["y"] - u["depth"] / 2, u["y"] + u["depth"] / 2
        assert (far <= zone) if u["side"] == 0 else (near >= table["height"] - zone), u

    # turn 1: no move before the movement phase
    err = battle.refused("move", "A1", "--path", "forward 2")
    assert "MWAN #90, Turn sequence: Hastati (A1) may move only in the movement phase" in err
    assert battle("next") == "Turn 1: Movement.\n"
    assert "Carthage chooses to move second: Rome moves first this turn" in rome_moves_first(battle)
    # heavy infantry wheel at most 45 degrees
    err = battle.refused("move", "Hastati", "--path", "wheel 90 left")
    assert "MWAN #90, Movement: Hastati (A1): heavy infantry in line may wheel at most 45" in err
    # the equites would spend too much in the copse (woods at half speed for formed troops);
    # the velites run into it at full speed, once the horse has gone round
    err = battle.refused("move", "A3", "--path", "forward 8")
    assert 'MWAN #90, movement: Roman cavalry (equites) (A3) would move 9.9"' in err
    out = battle("move", "A3", "--path", "right 2; forward 6")
    assert '(A3) moves: right 2; forward 6 (8.0" = 2.0 + 6.0; 0.0" of its 8" left)' in out
    out = battle("move", "Velites", "--path", "right 1; forward 7")
    assert 'Velites (A2) moves: right 1; forward 7 (8.0" = 1.0 + 7.0; 0.0" of its 8" left)' in out
    assert "Terrain crossed: woods T4" in out
    battle("move", "A1", "--path", "forward 8")
    # Carthage moves once Rome's move is over; then Rome moves no more
    err = battle.refused("move", "B3", "--path", "left 2; forward 2")
    assert (
        "MWAN #90, Turn sequence: Rome moves first this turn: Numidian light cavalry (B3) may "
        "move once Rome's move is over (the end of move action)" in err
    )
    assert "Rome's move is over: Carthage moves" in battle("act", "end_move", "--side", "a")
    battle("move", "B3", "--path", "left 2; forward 2")
    err = battle.refused("move", "A2", "--path", "forward 1")
    assert "MWAN #90, Turn sequence: Rome's move is over this turn: Carthage moves now" in err
    assert battle("next") == "Turn 1: Missiles.\n"
    # the slingers are too far from the velites: the shot and its odds are refused
    err = battle.refused("shoot", "B2", "A2")
    assert (
        'MWAN #90, Missiles: Velites (A2) is 21.9" from Balearic slingers (B2), beyond the '
        "sling's 15\" range" in err
    )
    assert "beyond the sling's 15\" range" in cli.fails(
        "battle", "odds", battle.id, "shoot", "B2", "A2"
    )
    battle.next_to("Movement")

    # turn 2: the horse close to 7.7" apart; the Numidians' javelins reach 9"
    rome_moves_first(battle)
    battle("move", "A3", "--path", "forward 8")
    err = battle.refused("charge", "A3", "B3")
    assert '(8.0" used this turn)' in err
    battle("act", "end_move", "--side", "a")
    battle("move", "B3", "--path", "forward 2")
    state = battle.state()
    assert front_gap(battle.unit("A3", state), battle.unit("B3", state)) == pytest.approx(
        7.726, abs=1e-3
    )
    battle.next_to("Missiles")
    out = battle.undo_redo("shoot", "B3", "A3")
    assert '8 figure(s) shooting, javelin (9" range)' in out
    battle.next_to("Movement")

    # turn 3: a legal charge, without --force, ends front to front
    rome_moves_first(battle)
    before, steps = battle.state(), battle.steps()
    out = battle("charge", "A3", "B3")
    assert (
        "Roman cavalry (equites) (A3) charges Numidian light cavalry (B3): contact front "
        "to front." in out
    )
    after = battle.state()
    m = cli.json("battle", "measure", battle.id, "A3", "B3")
    assert m["distance"] == pytest.approx(0, abs=1e-6) and m["los"]
    a3, b3 = battle.unit("A3", after), battle.unit("B3", after)
    assert a3["x"] == pytest.approx(b3["x"]) and (b3["facing"] - a3["facing"]) % 360 == 180
    # in contact, it is pinned
    err = battle.refused("move", "A3", "--path", "back 1")
    assert (
        "MWAN #90, Movement: Roman cavalry (equites) (A3) is in contact with the enemy: "
        "pinned in melee" in err
    )
    assert battle.state() == after and battle.steps() == steps + 1
    # undo, redo and replay
    battle("undo")
    assert battle.state() == before
    battle("redo")
    assert battle.state() == after
    battle.next_to("Melee")
    snap = battle.snapshot()
    out = battle.undo_redo("melee", "A3", "B3")
    assert "Melee: Roman cavalry (equites) (A3) against Numidian light cavalry (B3)" in out
    battle("next")
    battle.check_replay(snap)
    replayed = cli.json("battle", "replay", battle.id, "--step", steps + 1)
    assert {k: v for k, v in replayed.items() if k != "phase_name"} == {
        k: v for k, v in after.items() if k != "phase_name"
    }
