"""Issue 23: the umpire's leader action on the command line, ``castra battle leader BATTLE
LEADER wounded|killed|captured|escaped|fit [--wounds N]``: a step like any other (undo, redo,
the log), the leader named by id or by name, refusals in one line."""

from __future__ import annotations

from typing import Any

from tests.cli.test_battle_cli import Battle, Cli
from tests.cli.test_battle_cli import cli as cli  # the CLI in-process
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path


def _leader(state: dict[str, Any], name: str) -> dict[str, Any]:
    return next(ld for ld in state["leaders"] if ld["name"] == name)


def test_the_umpire_sets_a_leaders_fate_as_a_step(cli: Cli) -> None:
    a, b = cli.rosters("leg-vi-carthago")
    battle = Battle.new(cli, a, b, seed=3)
    start = battle.steps()
    said = battle("leader", "Varro", "wounded")
    assert "By hand: Varro is wounded (1 wound)." in said
    varro = _leader(battle.state(), "Varro")
    assert (varro["status"], varro["wounds"]) == ("wounded", 1)
    # Leg VI: "A previously wounded leader is killed if wounded a second time"
    said = battle("leader", "A-varro", "wounded")
    assert "the wound that kills (second wound)" in said
    assert _leader(battle.state(), "Varro")["status"] == "killed"
    battle("undo")
    assert _leader(battle.state(), "Varro")["status"] == "wounded"
    battle("redo")
    assert _leader(battle.state(), "Varro")["status"] == "killed"
    assert battle.steps() == start + 2
    log = cli.ok("battle", "log", battle.id)
    assert "By hand: Varro is wounded" in log


def test_captured_escaped_and_fit_again(cli: Cli) -> None:
    a, b = cli.rosters("leg-vi-carthago")
    battle = Battle.new(cli, a, b, seed=3)
    assert _leader(battle.state(), "Hannibal")["attached_to"] is None  # Leg VI: detached
    battle("attach", "Hannibal", "Gauls")  # by names
    assert _leader(battle.state(), "Hannibal")["attached_to"] is not None
    battle("leader", "hannibal", "captured")
    assert _leader(battle.state(), "Hannibal")["status"] == "captured"
    battle("leader", "Hannibal", "escaped")
    back = _leader(battle.state(), "Hannibal")
    assert (back["status"], back["attached_to"]) == ("fit", None)  # he got away, alone
    battle("leader", "Hannibal", "wounded", "--wounds", "1")
    battle("leader", "Hannibal", "fit", "--wounds", "0")
    back = _leader(battle.state(), "Hannibal")
    assert (back["status"], back["wounds"]) == ("fit", 0)


def test_refusals_are_one_line(cli: Cli) -> None:
    a, b = cli.rosters("leg-vi-carthago")
    battle = Battle.new(cli, a, b, seed=3)
    steps = battle.steps()
    err = battle.refused("leader", "Caesar", "killed")
    assert "no leader 'Caesar' in this battle" in err and err.count("\n") == 1
    err = battle.refused("leader", "Varro", "wounded", "--wounds", "10" * 20)
    assert "--wounds" in err and err.count("\n") == 1
    err = battle.refused("leader", "Var\x1bro", "killed")
    assert err.count("\n") == 1
    cli.usage_error("battle", "leader", battle.id, "Varro", "beheaded")
    assert battle.steps() == steps
