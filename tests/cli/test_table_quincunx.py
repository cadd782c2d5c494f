"""A scripted Quincunx battle on the table through ``castra battle``: the "hills and woods"
layout, both sides deployed in their zones, moves by paths in each side's own round (move
and counter-move), refusals naming Quincunx's rules (the movement matrix in move factors,
woods closed to formed peltasts, the other side's round), a charge without ``--force`` that
ends front to front, the melee, and undo, redo and replay reproducing the state exactly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_battle_cli import Battle, Cli
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def mover(state: dict[str, Any]) -> int:
    """The side moving in this round (the record the initiative and the rest phase keep)."""
    return 0 if state["sides"][0]["record"]["moving"] else 1


def test_quincunx_battle_on_the_table(cli: Cli) -> None:
    a, b = cli.rosters("quincunx")
    made = cli.json("battle", "new", a, b, "--seed", 7, "--layout", "hills and woods")
    battle = Battle(cli, int(made["id"]))
    table = cli.json("battle", "table", battle.id)
    assert [p["kind"] for p in table["terrain"]] == ["hill", "woods", "hill", "woods"]
    # deployed in the zones (12" from each edge), the maniple facing the warband, the
    # velites behind the copse (T4), the slingers behind the wood (T2)
    for uid, x, y, facing in (
        ("A1", 27, 11, 0),
        ("A2", 39, 10.5, 0),
        ("B1", 27, 37, 180),
        ("B2", 39, 37, 180),
    ):
        assert " deploys at " in battle("deploy", uid, x, y, "--facing", facing)
    assert "outside Rome's deployment zone" in battle.refused("deploy", "A2", 39, 20)
    m = cli.json("battle", "measure", battle.id, "A2", "B2")
    assert not m["los"] and set(m["blocked_by"]) == {"T2", "T4"}

    battle.next_to("Movement")
    state = battle.state()
    assert mover(state) == 1  # seed 7: Carthage wins the initiative and moves first
    # Rome's units wait for their round; the warband may go 2 MF, not more
    err = battle.refused("move", "A1", "--path", "forward 1")
    assert "it is Carthage's move" in err
    err = battle.refused("move", "B1", "--path", "forward 7")
    assert 'Quincunx, Movement Matrix: Celtic Swordsmen (B1) would move 7.0" (2.33 MF)' in err
    assert "of its 2 MF" in err
    out = battle("move", "B1", "--path", "forward 6")
    assert out.startswith('Celtic Swordsmen (B1) moves: forward 6 (6.0"; 0.0" of its 6" left)')
    # the counter-move: Rome's round
    battle.next_to("Movement")
    assert mover(battle.state()) == 0
    assert "it is Rome's move" in battle.refused("move", "B1", "--path", "forward 1")
    battle("move", "A1", "--path", "forward 6")
    # formed velites may not go into the copse; in skirmish order they may
    err = battle.refused("move", "A2", "--path", "forward 4")
    assert "Quincunx, Woods" in err and "formed peltasts only on a road" in err
    assert "skirmish" in battle("act", "formation", "A2", "--set", "to=skirmish")
    out = battle("move", "A2", "--path", "forward 6")
    assert "Terrain crossed: woods T4" in out and 'forward 6 (6.0"' in out  # woods do not slow

    # turn 2: the first mover closes to 6.4", the second to 5.4"; turn 3's first charges
    closing = {0: "A1", 1: "B1"}
    for distance in ("6", "1"):
        battle.next_to("Movement")
        side = mover(battle.state())
        battle("move", closing[side], "--path", f"forward {distance}")
    battle.next_to("Movement")
    state = battle.state()
    side = mover(state)
    charger, target = closing[side], closing[1 - side]
    assert state["turn"] == 3 and state["round"] == 1
    before = battle.state()
    out = battle("charge", charger, target)
    assert "contact front to front" in out and "BEYOND" not in out
    m = cli.json("battle", "measure", battle.id, charger, target)
    assert m["distance"] == pytest.approx(0, abs=1e-6) and m["los"]
    assert m["arc"] == "front" and m["target_arc"] == "front"
    after = battle.state()
    mine, theirs = battle.unit(charger, after), battle.unit(target, after)
    assert mine["x"] == pytest.approx(theirs["x"])
    assert (mine["facing"] - theirs["facing"]) % 360 == pytest.approx(180)
    # undo restores the state exactly, redo and replay land on the same state
    battle("undo")
    assert battle.state() == before
    battle("redo")
    assert battle.state() == after
    replayed = cli.json("battle", "replay", battle.id, "--step", battle.steps())
    assert {k: v for k, v in replayed.items() if k != "phase_name"} == {
        k: v for k, v in after.items() if k != "phase_name"
    }
    # the melee follows in its phase
    battle.next_to("Melee")
    out = battle.undo_redo("melee", charger, target)
    assert "melee die" in out or "casts" in out
