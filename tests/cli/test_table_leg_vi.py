"""``castra battle`` on the table, Leg VI Carthago: a battle on the "hills and woods" table,
the legion and the Gauls deployed in their zones between the west hill and the wood, marched
by paths in the manoeuvre phase, a move coming within 4" of the formed Gauls refused naming
the rule, dice moves rolled and made on the table (their roll the allowance, halting 4" from
formed enemy), a charge from within 4" into contact without ``--force``; undo, redo and
replay exact."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_battle_cli import Battle, Cli, lead_to
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def gap(cli: Cli, battle: Battle, a: str, b: str) -> float:
    measured: dict[str, Any] = cli.json("battle", "measure", battle.id, a, b)
    return float(measured["distance"])


def dice_move_then_move(cli: Cli, battle: Battle, unit: str, foe: str) -> float:
    """Roll the unit's dice move and make it on the table by a path: in full, or halting 4"
    from the formed foe (the rule's own stop). The gap left."""
    out = battle("act", "dice_move", unit)
    assert "Dice move:" in out and "  roll move die" in out
    rolled = float(battle.unit(unit)["status"]["extra"]["rolled_move"])
    distance = round(min(rolled, gap(cli, battle, unit, foe) - 4), 3)
    out = battle("move", unit, "--path", f"forward {distance}")
    assert f'of its {rolled:g}" left' in out, out
    return gap(cli, battle, unit, foe)


def test_leg_vi_battle_on_the_table(cli: Cli) -> None:
    a, b = cli.rosters("leg-vi-carthago")
    made = cli.json("battle", "new", a, b, "--seed", 7, "--layout", "hills and woods")
    battle = Battle(cli, int(made["id"]))
    table = cli.json("battle", "table", battle.id)
    assert [p["kind"] for p in table["terrain"]] == ["hill", "woods", "hill", "woods"]
    # deployed in their zones, in the open ground between the west hill and the wood
    # (the legion 4.36" deep, its lines 1" apart: errata 'legion-footprint')
    out = battle("deploy", "Roman legion", "27", "9.8")
    assert out.startswith("Roman legion (A1) deploys at (27, 9.8)")
    battle("deploy", "Gauls", "27", "37.5", "--facing", "180")
    assert "outside" in battle.refused("deploy", "Gauls", "27", "30", "--facing", "180")
    # Hannibal rides with the Gauls, as Varro with the legion: both under control
    assert "Hannibal joins Gauls" in battle("attach", "Hannibal", "Gauls")
    battle.next_to("Manoeuvre")
    # march moves: 8" each for infantry beyond 8" of enemy, ending beyond 8" too; the side
    # with the initiative's lead moves first, the other once it is done
    lead_to(battle, 1)
    out = battle("move", "Gauls", "--path", "forward 8")
    assert 'Gauls (B1) moves: forward 8 (8.0"; 0.0" of its 8" left)' in out
    lead_to(battle, 0)
    battle("move", "Roman legion", "--path", "forward 7.5")
    assert gap(cli, battle, "A1", "B1") == pytest.approx(9.63, abs=0.01)
    battle.next_to("Manoeuvre")  # turn 2
    lead_to(battle, 0)
    # 6" more would come within 4" of the formed Gauls: refused, naming the rule
    before, steps = battle.state(), battle.steps()
    err = battle.refused("move", "Roman legion", "--path", "forward 6")
    assert 'may not move so: Leg VI, Movement: Roman legion (A1) would come 3.6"' in err
    assert 'from the formed enemy Gauls (B1): moves stop 4" from formed enemy' in err
    assert battle.state() == before and battle.steps() == steps
    # dice moves: each side rolls, and moves its roll or halts 4" from the enemy
    dice_move_then_move(cli, battle, "A1", "B1")
    lead_to(battle, 1)
    left = dice_move_then_move(cli, battle, "B1", "A1")
    assert left == pytest.approx(4, abs=0.01)  # two rolls of at least 3" close 5.6"
    battle.next_to("Charge")
    # the legion moved in the manoeuvre phase; in the charge phase it only charges
    err = battle.refused("move", "Roman legion", "--path", "forward 1")
    assert (
        "Leg VI, Playing the Game: Roman legion (A1): troops other than light move in the "
        "manoeuvre phase (III), not in the charge phase"
    ) in err
    # a charge from within 4", into contact, with no --force
    before = battle.state()
    out = battle("charge", "Roman legion", "Gauls")
    assert "Roman legion (A1) charges Gauls (B1): contact front to front." in out
    assert "Forced past" not in out and "Confirmed" not in out
    # the charge on the table is the ruleset's charge: the combat counts it (issue 25)
    assert "has charged Gauls (B1): the combat counts the charge (Leg VI, Charges)" in out
    assert "charging" in battle.unit("A1")["status"]["markers"]
    measured = cli.json("battle", "measure", battle.id, "A1", "B1")
    assert measured["distance"] == pytest.approx(0, abs=1e-6) and measured["los"]
    assert measured["arc"] == "front" and measured["target_arc"] == "front"
    # undo restores the state exactly, redo and replay land on the same state
    after = battle.state()
    battle("undo")
    assert battle.state() == before
    battle("redo")
    assert battle.state() == after
    replayed = cli.json("battle", "replay", battle.id, "--step", battle.steps())
    assert {k: v for k, v in replayed.items() if k != "phase_name"} == {
        k: v for k, v in after.items() if k != "phase_name"
    }
