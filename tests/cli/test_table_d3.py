"""A D3 Ancients battle on the table through ``castra battle``: the ready-made "hills and
woods" table, a unit deployed in its zone, moves by paths and unit names, moves the D3 rules
refuse naming the rule (cavalry into a wood, a pivot in the middle of a move, a charge out of
the movement step), a legal charge straight ahead into contact without ``--force``, and
undo, redo and replay landing on the same state."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_battle_cli import Battle, Cli
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path

EQUITES, NUMIDIANS = "Equites (Roman cavalry)", "Numidian veteran cavalry"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def test_a_d3_battle_on_the_table(cli: Cli) -> None:
    a, b = cli.rosters("d3-ancients")
    # a 72" x 44" table: the armies start close enough for a charge in Rome's first turn
    made = cli.json(
        "battle", "new", a, b, "--seed", 7, "--layout", "hills and woods", "--size", "72x44"
    )
    battle = Battle(cli, int(made["id"]))
    table = cli.json("battle", "table", battle.id)
    assert [p["kind"] for p in table["terrain"]] == ["hill", "woods", "hill", "woods"]
    state = battle.state()
    assert state["initiative"] == 1  # Carthage won the roll for the first turn
    equites, numidians = battle.unit("A5", state), battle.unit("B5", state)
    assert (equites["name"], numidians["name"]) == (EQUITES, NUMIDIANS)
    assert equites["x"] == pytest.approx(numidians["x"])  # face to face across the table

    # deployment: the Equites to the front of Rome's zone (a quarter of the table deep)
    front = table["height"] / 4 - equites["depth"] / 2
    out = battle("deploy", EQUITES, repr(equites["x"]), repr(front))
    assert out.startswith(f"{EQUITES} (A5) deploys at")
    assert "outside Rome's deployment zone" in battle.refused(
        "deploy", EQUITES, repr(equites["x"]), repr(front + 1)
    )

    # Carthage's movement step: the Numidian veterans ride 12" onto the East hill
    battle.next_to("Movement")
    out = battle("move", NUMIDIANS, "--path", "forward 12")
    assert out.startswith(f'{NUMIDIANS} (B5) moves: forward 12 (12.0"; 0.0" of its 12" left)')
    assert 'hill T3 "East hill" (hills: Defenders take 1 hit fewer.)' in out
    # cavalry may not enter the wood ahead of them; nobody pivots in the middle of a move
    err = battle.refused("move", "Numidian cavalry 1", "--path", "forward 9")
    assert err.startswith("castra: Numidian cavalry 1 (B3) may not move so: D3, Terrain:")
    assert 'cannot enter the woods T2 "Wood"' in err
    err = battle.refused(
        "move",
        "Balearic slingers and skirmishers 1",
        "--path",
        "forward 2; pivot 90 right; forward 2",
    )
    assert "D3, Movement: " in err and "pivot only at the start and end of its move" in err

    # Rome's turn: no charge in the chance-card step, then straight ahead in the movement step
    battle.next_to("Draw chance card")
    rome = battle.state()
    assert rome["initiative"] == 0 and rome["sides"][0]["record"]["card"] == "no_event"
    err = battle.refused("charge", EQUITES, NUMIDIANS)
    assert "D3, Movement: " in err and "movement step" in err
    battle.next_to("Movement")
    before = battle.state()
    out = battle("charge", EQUITES, NUMIDIANS)
    assert out.startswith(f"{EQUITES} (A5) charges {NUMIDIANS} (B5): contact front to front.")
    assert f"{EQUITES} (A5) moves: forward " in out and "Forced" not in out
    m = cli.json("battle", "measure", battle.id, EQUITES, NUMIDIANS)
    assert m["distance"] == pytest.approx(0, abs=1e-6) and m["los"]
    after = battle.state()
    a5 = battle.unit("A5", after)
    assert a5["x"] == pytest.approx(equites["x"]) and a5["facing"] == 0  # straight ahead
    assert {"charged", "moved"} <= set(a5["status"]["markers"])

    # undo restores the state exactly, redo and replay land on the same state
    battle("undo")
    assert battle.state() == before
    battle("redo")
    assert battle.state() == after
    replayed = cli.json("battle", "replay", battle.id, "--step", battle.steps())
    assert {k: v for k, v in replayed.items() if k != "phase_name"} == {
        k: v for k, v in after.items() if k != "phase_name"
    }
