"""MWAN #90's turning rules on the table through ``castra battle`` (issue 25, item 3; errata
turning-costs).

MWAN #90, Movement 3: "Cavalry in line (& formed Medium Infantry) may wheel 90 degrees &
move 8" (or move then wheel). Light Cavalry (& formed Medium Infantry) may also about face
before or after movement. Heavy Infantry in line may only move forward or wheel 45
degrees."

A light cavalry about face used to cost 8.7" of its 8" (always refused), and a 90 degree
wheel 4.6" of a cavalry unit's 8". Rome: A1 equites (cavalry in line), A2 Numidian allies
(light cavalry), A3 triarii (heavy infantry in line), far from the enemy in the movement
phase, Rome moving first."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.battle import Act, BattleSession, NextPhase
from app.core.roster import Roster
from app.rules.registry import Registry
from tests.cli.test_battle_cli import Battle, Cli
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path
from tests.table_setup import roster_of, started, stored


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def mwan_battle(registry: Registry) -> tuple[BattleSession, tuple[Roster, Roster]]:
    rs = registry.get("mwan90")
    rosters = (
        roster_of(rs, "roman", ["equites", "numidian_allies", "triarii"]),
        roster_of(rs, "carthaginian", ["libyans"]),
    )
    places = {
        "A1": (15.0, 10.0, 0.0),
        "A2": (35.0, 10.0, 0.0),
        "A3": (55.0, 10.0, 0.0),
        "B1": (35.0, 44.0, 180.0),
    }
    session = started(rs, rosters, places, seed=2)
    while session.mechanics.ruleset.turn.phases[session.state.phase].id != "movement":
        session.do(NextPhase())
    if session.mechanics.side_to_move(session.state.view()) != 0:
        session.do(Act(action="end_move", side=1))
    return session, rosters


def test_turns_come_with_the_move_or_replace_it(cli: Cli, registry: Registry) -> None:
    session, rosters = mwan_battle(registry)
    battle = Battle(cli, stored(session, rosters))
    # light cavalry face about before or after their 8", at no cost of it
    out = battle("move", "A2", "--path", "about face; forward 8")
    assert 'moves: turn 180 right; forward 8 (8.0" = 0.0 + 8.0; 0.0" of its 8" left)' in out
    battle("undo")
    assert '(8.0" = 8.0 + 0.0;' in battle("move", "A2", "--path", "forward 8; about face")
    battle("undo")
    err = battle.refused("move", "A2", "--path", "forward 4; about face; forward 4")
    assert "MWAN #90, Movement: " in err and "not in the middle of it" in err
    # cavalry in line wheel 90 and move 8" (or move, then wheel); not about face
    out = battle("move", "A1", "--path", "wheel 90 right; forward 8")
    assert '(8.0" = 0.0 + 8.0; 0.0" of its 8" left)' in out
    battle("undo")
    assert '0.0" of its 8" left' in battle("move", "A1", "--path", "forward 8; wheel 90 left")
    battle("undo")
    err = battle.refused("move", "A1", "--path", "about face")
    assert "cavalry in line may not about face" in err
    # the wheel of one move and the next count together: 90 degrees in all
    battle("move", "A1", "--path", "wheel 60 right")
    err = battle.refused("move", "A1", "--path", "wheel 60 left; forward 2")
    assert "may wheel at most 90 degrees in a move (120 asked this turn)" in err
    # heavy infantry wheel 45 instead of moving: the wheel is the whole move
    out = battle("move", "A3", "--path", "wheel 45 left")
    assert '(8.0"; 0.0" of its 8" left)' in out
    err = battle.refused("move", "A3", "--path", "forward 1")
    assert 'would move 1.0" with 0.0" of its 8" left' in err
    battle("undo")
    battle("move", "A3", "--path", "forward 2")
    err = battle.refused("move", "A3", "--path", "wheel 20 left")
    assert "MWAN #90, movement:" in err and 'with 6.0" of its 8" left' in err
