"""Leg VI Carthago's rules on the table through ``castra battle`` (issue 25, items 5 to 8): a
legion's frontage, the engaged bases read from where units touch, formed units' wheels and
side-steps, the legion moving only to its front, control and the initiative player's lead
in every phase."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.battle import BattleSession, NextPhase
from app.core.roster import Roster
from app.rules.registry import Registry
from tests.cli.test_battle_cli import Battle, Cli, lead_to
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path
from tests.table_setup import Place, roster_of, started, stored

INCH = 25.4


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def leg_vi_battle(
    registry: Registry,
    places: dict[str, Place],
    *,
    roman: list[str | tuple[str, dict[str, object]]] | None = None,
    carthaginian: list[str | tuple[str, dict[str, object]]] | None = None,
    phase: str = "manoeuvre",
    seed: int = 3,
) -> tuple[BattleSession, tuple[Roster, Roster]]:
    """Rome (A1 a legion, A2 velites, A3 Roman equites; or ``roman``) against Carthage (B1
    eight Gauls, B2 Libyan spearmen; or ``carthaginian``), each side's general detached
    beside its units where ``places`` puts ``A-gen`` and ``B-gen`` (else at the side's
    centre), on to ``phase`` of turn 1."""
    rs = registry.get("leg-vi-carthago")
    rosters = (
        roster_of(
            rs,
            "roman",
            roman or ["roman_legion", "velites", "roman_equites"],
            leaders=[("gen", "general", None)],
        ),
        roster_of(
            rs,
            "carthaginian",
            carthaginian or [("gauls", {"size": 8}), "libyan_spearmen"],
            leaders=[("gen", "general", None)],
        ),
    )
    leaders = {k: (v[0], v[1]) for k, v in places.items() if k.endswith("-gen")}
    units = {k: v for k, v in places.items() if not k.endswith("-gen")}
    session = started(rs, rosters, units, seed=seed, leaders_at=leaders)
    mech = session.mechanics
    while mech.phase_ids[session.state.phase] != phase:  # type: ignore[attr-defined]
        session.do(NextPhase())
    return session, rosters


def test_a_legion_stands_on_its_120mm_frontage(cli: Cli, registry: Registry) -> None:
    """Leg VI, Unit Organisation: "the bases should be spaced apart on a movement tray with
    a gap between each base so that the 4 bases in each line have a 120mm frontage -- the
    same as 6 bases rather than the actual 4"; "There should be a gap of up to 1 inch
    between lines" (errata 'legion-footprint'). Resolving combat: "Count all bases in
    direct contact with opponent plus up to one over-lapping on each flank if otherwise not
    engaged. Also count 1/2 bases of a second line of a Legion in quincunx." Eight Gauls
    (6.3" of front) centred on the legion's front have six bases against its 120mm and one
    over-lapping on each side: all eight fight (against an 80mm legion only six would); the
    legion its four hastati and half its principes."""
    legion_front = 20.0 + (3 * 20 / INCH + 2 * 1.0) / 2  # three 20mm lines, 1" apart
    gauls = legion_front + 20 / INCH / 2
    session, rosters = leg_vi_battle(
        registry,
        {"A1": (30.0, 20.0, 0.0), "B1": (30.0, gauls, 180.0)},
        phase="combat",
    )
    battle = Battle(cli, stored(session, rosters))
    a1 = battle.unit("A1")
    assert a1["width"] == pytest.approx(120 / INCH) and a1["depth"] == pytest.approx(
        3 * 20 / INCH + 2
    )
    assert battle.unit("B1")["width"] == pytest.approx(8 * 20 / INCH)
    assert cli.json("battle", "measure", battle.id, "A1", "B1")["distance"] == pytest.approx(
        0, abs=1e-6
    )
    out = battle("melee", "A1", "B1")
    head = out.splitlines()[0]
    assert "Attacker engaged bases: 6" in head and "Defender engaged bases: 8" in head, head
    # spearmen whose nearer end stands 0.3" beyond where an 80mm legion would end touch the
    # 120mm one front to front
    spearmen = session.state.unit("B2").width
    x = 30.0 + 80 / INCH / 2 + 0.3 + spearmen / 2
    session, rosters = leg_vi_battle(
        registry, {"A1": (30.0, 20.0, 0.0), "B2": (x, gauls, 180.0)}, phase="combat"
    )
    battle = Battle(cli, stored(session, rosters))
    measured = cli.json("battle", "measure", battle.id, "A1", "B2")
    assert measured["distance"] == pytest.approx(0, abs=1e-6)


def test_formed_units_wheel_and_a_legion_moves_to_its_front(cli: Cli, registry: Registry) -> None:
    """Leg VI, Manoeuvre: "Movement by formed units must be directly to the front with no
    more than 22 1/2 degrees variation off centre. To do otherwise, requires units to
    manoeuvre"; "Wheel: Inside edge remains stationary, measure distance moved by outside
    edge"; "Side-step/step-back: Up to 2" taking a full move. A-B Grade Infantry only."
    Roman Legions: "It may only move in the direction of facing." (errata
    'formed-units-wheel'). Far from the enemy, in the manoeuvre phase, each general beside
    his units (they are under control)."""
    session, rosters = leg_vi_battle(
        registry,
        {
            "A1": (20.0, 10.0, 0.0),
            "A-gen": (24.0, 8.0, 0.0),
            "B2": (50.0, 40.0, 180.0),  # B grade Libyan spearmen
            "B-gen": (50.0, 43.0, 0.0),
        },
    )
    battle = Battle(cli, stored(session, rosters))
    lead_to(battle, 1)
    err = battle.refused("move", "B2", "--path", "pivot 30 right")
    assert "Leg VI, Manoeuvre: Libyan spearmen (B2) is formed: it turns by wheeling" in err
    assert "not by a pivot about its centre" in err
    assert "(B2) moves: wheel 30 right" in battle("move", "B2", "--path", "wheel 30 right")
    battle("undo")
    assert "(B2) moves: right 2" in battle("move", "B2", "--path", "right 2")  # a side-step
    battle("undo")
    battle("undo")  # Rome again to move
    lead_to(battle, 0)
    err = battle.refused("move", "A1", "--path", "right 2")
    assert "Leg VI, Roman Legions: Roman legion (A1) is a legion: it moves only in the" in err
    assert "(A1) moves: wheel 30 right" in battle("move", "A1", "--path", "wheel 30 right")


def control_battle(registry: Registry) -> tuple[BattleSession, tuple[Roster, Roster]]:
    """Turn 1's command phase. Rome: the legion (A1) with its general 1.8" behind it, the
    velites (A2, light troops) 3" beside the legion, the equites (A3) alone far off.
    Carthage: the Libyan spearmen (B2) 2.6" from their general, the Gauls (B1) alone."""
    return leg_vi_battle(
        registry,
        {
            "A1": (20.0, 10.0, 0.0),
            "A-gen": (20.0, 6.0, 0.0),
            "A2": (27.0, 10.0, 0.0),
            "A3": (60.0, 10.0, 0.0),
            "B2": (50.0, 40.0, 180.0),
            "B-gen": (50.0, 43.0, 0.0),
            "B1": (10.0, 40.0, 180.0),
        },
        phase="command",
    )


def test_units_out_of_control_take_a_control_test_first(cli: Cli, registry: Registry) -> None:
    """Leg VI, Control: "Units within 4" of a detached leader, are considered to be under
    control and may move and act as the player wishes." "Units that are not under control
    at the end of the command phase (after all leader actions have been taken) must
    normally take a Control Test to determine their actions for the rest of the turn."
    "Light troops and elephants within 4" of a controlled unit ... are considered to be under
    control." Control Test: "1-2 = Halt and remain halted for the duration of the turn. May
    not charge. 3-4 = Act as player wishes." (errata 'control-on-the-table')"""
    session, rosters = control_battle(registry)
    battle = Battle(cli, stored(session, rosters))
    out = battle("next")  # the command phase ends
    assert "Not under control, to take a control test before acting (Leg VI, Control): " in out
    assert "Roman equites (A3)" in out and "Gauls (B1)" in out
    for uid, marked in (("A1", False), ("A2", False), ("A3", True), ("B1", True), ("B2", False)):
        assert ("out_of_control" in battle.unit(uid)["status"]["markers"]) == marked, uid
    battle.next_to("Manoeuvre")
    lead_to(battle, 0)
    err = battle.refused("move", "A3", "--path", "forward 4")
    assert "Leg VI, Control: Roman equites (A3) was not under control when the command " in err
    assert "it may not move before its control test" in err and err.count("\n") == 1
    assert "(A1) moves: forward 4" in battle("move", "A1", "--path", "forward 4")
    # the equites test and halt for the turn: still no move
    out = battle("act", "control_test", "A3", "--dice", "1")
    assert "score 1: Halt for the rest of the turn; may not charge" in out
    assert "Leg VI, Control" not in battle.refused("move", "A3", "--path", "forward 4")
    # the Gauls test and act as the player wishes, once Rome is done
    lead_to(battle, 1)
    out = battle("act", "control_test", "B1", "--dice", "3")
    assert "score 3: Act as the player wishes" in out
    assert "(B1) moves: forward 4" in battle("move", "B1", "--path", "forward 4")
    assert "(B2) moves: forward 4" in battle("move", "B2", "--path", "forward 4")


def test_the_player_with_initiative_acts_first_in_every_phase(cli: Cli, registry: Registry) -> None:
    """Leg VI, Playing the Game: "At the start of each turn, players dice for initiative
    with high roll deciding whether to take the initiative and move first or to move second.
    ... The player with initiative takes the first actions in all phases." (errata
    'initiative-first-in-every-phase'). The winner chooses to move second: the other side
    moves first in the manoeuvre phase, the winner once it is done, and not the first side
    again; in the charge phase the same order holds."""
    session, rosters = control_battle(registry)
    battle = Battle(cli, stored(session, rosters))
    state = battle.state()
    winner = state["initiative"]
    loser = 1 - winner
    names = ("Rome", "Carthage")
    err = battle.refused("act", "move_order", "--side", "ab"[loser], "--set", "choose=second")
    assert f"{names[winner]} won the initiative: only it chooses" in err
    out = battle("act", "move_order", "--side", "ab"[winner], "--set", "choose=second")
    assert f"{names[loser]} takes the first actions in every phase this turn" in out
    battle.next_to("Manoeuvre")
    mine = {0: "A1", 1: "B2"}
    err = battle.refused("move", mine[winner], "--path", "forward 2")
    assert f"Leg VI, Playing the Game: it is {names[loser]}'s move" in err
    battle("move", mine[loser], "--path", "forward 2")
    assert f"{names[loser]} is done in this phase" in battle("act", "done", "--side", "ab"[loser])
    battle("move", mine[winner], "--path", "forward 2")
    err = battle.refused("move", mine[loser], "--path", "forward 2")
    assert f"it is {names[winner]}'s move" in err
    assert "acts second: it is done when the phase ends" in battle.refused(
        "act", "done", "--side", "ab"[winner]
    )
    battle.next_to("Charge")
    err = battle.refused("act", "charge", mine[winner], mine[loser])
    assert f"Leg VI, Playing the Game: {names[loser]} acts first in this phase" in err
