"""A scripted Grown Slightly Bald battle on the table through ``castra battle``: the "hills
and woods" layout, a unit deployed in Rome's zone (1 foot, 3.81 UW deep) and one refused
outside it, Carthage's swap of two units as the armies are revealed, moves by paths and unit
names in each side's activations (each unit activated first), a shot refused out of range, a
legal charge (no ``--force``) that ends front to front, the legion refused leaving the
melee, and undo, redo and replay landing on the same state.

Rome: A1, A2 legionaries (heavy infantry, 1 UW a turn), A3 velites (light infantry). Carthage:
B1 Spanish (medium infantry), B2 the elephant (2 UW a turn), B3 slingers (light infantry).
The legion A2 and the elephant B2 stand in one file across the table, 6.9 UW apart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.cli.test_battle_cli import Battle, Cli
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path

ACTIVATIONS = ("First player's activations", "Second player's activations")
SIDES = ("Rome", "Carthage")


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def activations_of(battle: Battle, side: int) -> int:
    """``battle next`` until ``side`` plays (its activations, first or second player by
    the initiative of the turn), read from what ``battle next`` says; the turn."""
    state = battle.state()
    turn, phase, first = state["turn"], state["phase_name"], state["initiative"]
    for _ in range(8):
        if phase in ACTIVATIONS and (first if phase == ACTIVATIONS[0] else 1 - first) == side:
            return int(turn)
        said = battle("next")
        found = re.findall(r"^Turn (\d+): (.+)\.$", said, re.M)
        assert found, said
        turn, phase = int(found[-1][0]), found[-1][1]
        won = re.search(r"^(Rome|Carthage) has the initiative", said, re.M)
        if won:
            first = SIDES.index(won[1])
    raise AssertionError(f"side {side} never came to play")


def test_a_gsb_battle_on_the_table(cli: Cli) -> None:
    a, b = cli.rosters("grown-slightly-bald")
    made = cli.json("battle", "new", a, b, "--seed", 7, "--layout", "hills and woods")
    battle = Battle(cli, int(made["id"]))
    table = cli.json("battle", "table", battle.id)
    assert [p["kind"] for p in table["terrain"]] == ["hill", "woods", "hill", "woods"]
    state = battle.state()
    assert (state["turn"], state["phase_name"]) == (1, "Initiative")  # deploying is open

    # deployment: inside Rome's strip 1 foot deep, not beyond it
    a3 = battle.unit("A3", state)
    zone = 304.8 / 80  # 1 foot in unit widths
    out = battle("deploy", "Velites (light infantry)", 12.0, zone - a3["depth"] / 2, "--facing", 0)
    assert out.startswith("Velites (light infantry) (A3) deploys at (12, 3.56")
    err = battle.refused("deploy", "A3", 12.0, zone)
    assert "outside Rome's deployment zone" in err and err.count("\n") == 1
    # Carthage swaps two of its units, once; Rome may not
    b1, b3 = battle.unit("B1", state), battle.unit("B3", state)
    out = battle("act", "swap", "B1", "B3")
    assert "swap places (GSB, Deployment)" in out
    swapped = battle.state()
    assert (battle.unit("B1", swapped)["x"], battle.unit("B3", swapped)["x"]) == pytest.approx(
        (b3["x"], b1["x"])
    )
    assert "already swapped" in battle.refused("act", "swap", "B1", "B2")
    assert "only Carthage may swap" in battle.refused("act", "swap", "A1", "A2")

    # turn 1: out of range, the slingers cannot shoot at the velites (nor their odds)
    for action in ("shoot", "odds"):
        args = ("shoot", "B3", "A3") if action == "odds" else ("B3", "A3")
        err = battle.refused(action, *args)
        assert "GSB, Shooting" in err and "beyond the 1 UW range" in err
    # the elephant and the legion close in, each in its own side's activations
    activations_of(battle, 1)
    err = battle.refused("move", "A2", "--path", "forward 1")  # not Rome's turn to play
    assert "it is Carthage's move" in err
    # only a unit activated moves (GSB, Turn order): two activations free, a d10 after
    err = battle.refused("move", "Elephant", "--path", "forward 2")
    assert "GSB, Turn order: Elephant (B2) has not been activated" in err
    assert "activation 1 (Elephant) is free" in battle("act", "activate", "Elephant")
    assert "(2.0 UW" in battle("move", "Elephant", "--path", "forward 2")
    activations_of(battle, 0)
    battle("act", "activate", "A2")
    battle("move", "A2", "--path", "forward 1")
    err = battle.refused("move", "A2", "--path", "forward 1")  # its 1 UW is spent
    assert "would move 1.0 UW with 0.0 UW of its 1 UW left" in err
    activations_of(battle, 1)
    battle("act", "activate", "B2")
    battle("move", "B2", "--path", "forward 2")
    activations_of(battle, 0)
    battle("act", "activate", "A2")
    battle("move", "A2", "--path", "forward 1")
    # turn 3: the legion is within its move of the elephant; it charges, no force needed
    battle.next_to("Initiative")
    assert activations_of(battle, 0) == 3
    battle("act", "activate", "A2")
    before = battle.snapshot()
    out = battle("charge", "A2", "B2")
    assert "charges Elephant (B2): contact front to front" in out
    m = cli.json("battle", "measure", battle.id, "A2", "B2")
    assert m["distance"] == pytest.approx(0, abs=1e-6) and m["arc"] == "front"
    after = battle.state()
    # a legion may not leave a melee: only light troops, and heavy cavalry from infantry
    err = battle.refused("move", "A2", "--path", "about face; forward 1")
    assert "GSB, Disengaging" in err and "may not leave a melee" in err
    # undo, redo and replay give the same state
    assert battle("undo").startswith("undid: ")
    assert battle.state() == before[1]
    battle("redo")
    assert battle.state() == after
    steps = battle.steps()
    replayed = cli.json("battle", "replay", battle.id, "--step", steps)
    assert replayed == after
