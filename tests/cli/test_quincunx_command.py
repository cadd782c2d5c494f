"""Quincunx's command range on the table through ``castra battle`` (issue 25, item 4).

Quincunx, Commanders: "In order for units to move, they must be within four move factors
(12") of their commander or able to trace a line of command through affiliated units no
further apart than two move factors (6"). A unit not meeting this criteria is out of command
and can not move unless forced back through a melee. They may defend themselves, but may make
no aggressive act." "Each commander is assigned a 'Battlegroup'."

Rome: three maniples of hastati (A1-A3) and a unit of velites (A4) in one battlegroup led by
its commander, who starts with the central unit of it (errata "leaders-at-start"); A5, more
velites, belong to no battlegroup and answer to the consul (the general)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.battle import BattleSession, NextPhase
from app.core.edits import UpdateUnit
from app.core.roster import Roster
from app.rules.registry import Registry
from tests.cli.test_battle_cli import Battle, Cli
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path
from tests.table_setup import roster_of, started, stored


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def battle_in_rome_round(
    registry: Registry,
    places: dict[str, tuple[float, float, float]],
    leaders_at: dict[str, tuple[float, float]],
) -> tuple[BattleSession, tuple[Roster, Roster]]:
    rs = registry.get("quincunx")
    rosters = (
        roster_of(
            rs,
            "roman",
            ["hastati", "hastati", "hastati", "velites", "velites"],
            leaders=[("legate", "commander", "hastati"), ("consul", "general", None)],
        ),
        roster_of(rs, "carthaginian", ["celtic_swordsmen", "balearic_slingers"]),
    )
    # A4's velites join the legate's battlegroup too
    roman = rosters[0]
    command = next(c.id for c in roman.commands)
    roman = UpdateUnit(roman.units[3].id, {"command": command}).apply(roman)
    rosters = (roman, rosters[1])
    session = started(rs, rosters, places, seed=7, leaders_at=leaders_at)
    mech = session.mechanics
    while mech.side_to_move(session.state.view()) != 0:
        session.do(NextPhase())
    return session, rosters


def test_units_out_of_command_do_not_move_or_attack(cli: Cli, registry: Registry) -> None:
    """The maniples in a line about the legate (with A2) move; the velites of his
    battlegroup, 17.4" from him and 10" beyond the line's end, may not, nor shoot; once he
    joins them they may, and the maniples are linked to him through the nearest (11.6" from
    him, the others 0.3" apart). The velites of no battlegroup answer to
    the consul, 4" behind them (errata "command-range-on-the-table")."""
    session, rosters = battle_in_rome_round(
        registry,
        {
            "A1": (20.0, 8.0, 0.0),
            "A2": (25.0, 8.0, 0.0),
            "A3": (30.0, 8.0, 0.0),
            "A4": (44.0, 8.0, 0.0),
            "A5": (60.0, 8.0, 0.0),
            "B1": (25.0, 40.0, 180.0),
            "B2": (44.0, 14.0, 180.0),  # slingers in front of the far velites
        },
        {"A-consul": (60.0, 4.0)},
    )
    legate = next(ld for ld in session.state.leaders if ld.name.startswith("legate"))
    assert legate.attached_to == "A2" and legate.commands
    battle = Battle(cli, stored(session, rosters))
    for uid in ("A1", "A2", "A3", "A5"):
        assert f"({uid}) moves: forward 2" in battle("move", uid, "--path", "forward 2")
    err = battle.refused("move", "A4", "--path", "forward 2")
    assert 'Quincunx, Commanders: Velites (A4) is out of command: more than 4 MF (12")' in err
    assert "legate" in err and "no chain of its battlegroup's units 2 MF (6\")" in err
    assert "it cannot move" in err and err.count("\n") == 1
    err = battle.refused("shoot", "A4", "B2")
    assert "Quincunx, Commanders" in err and "no aggressive act" in err
    # the legate joins the velites: they move; A1, 21.6" from him, is linked through A2, A3
    battle("attach", "legate", "A4")
    assert "(A4) moves: forward 2" in battle("move", "A4", "--path", "forward 2")
    assert "(A1) moves: forward 1" in battle("move", "A1", "--path", "forward 1")
