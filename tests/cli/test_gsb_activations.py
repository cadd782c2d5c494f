"""Grown Slightly Bald's turn sequence through ``castra battle`` (issue 25, item 2; issue 23's
"GSB activations"): every move, shot, charge and melee held to the activation sequence, and
melee to the unit's front.

The text (GSB, Turn order): "Active player moves and/or fights, one unit at a time. Two units
activate for free, but from the third unit onwards player must roll 1 or better on a d10
(faces read 0-9, not 1-10) to activate, with the number needed increasing by 1 for such
subsequent successful activation. Units may only be activated once per turn. When an
activation roll is failed, play passes to the other player." (Melee) "Units fight to their
front, and only on their own turn." "Units which charge into melee and destroy their
opponents immediately may use any remaining movement to contact and fight a second melee."
(Movement) "Units attacked in flank can turn to face on their turn if not already engaged to
their front."

Rome: A1, A2 legionaries (heavy infantry), A3 velites (light infantry). Carthage: B1 Spanish
(medium infantry) front to front with A1; B2 Carthaginian foot (heavy infantry) against A2's
right flank. A unit is 1 UW wide and 0.5 UW deep."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.battle import BattleSession
from app.core.roster import Roster
from app.rules.registry import Registry
from tests.cli.test_battle_cli import Battle, Cli
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path
from tests.cli.test_table_gsb import activations_of
from tests.table_setup import roster_of, started, stored

ROME = 0


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def gsb_battle(
    registry: Registry, seed: int = 7, **more: tuple[float, float, float]
) -> tuple[BattleSession, tuple[Roster, Roster]]:
    rs = registry.get("grown-slightly-bald")
    rosters = (
        roster_of(rs, "rome", ["heavy_infantry", "heavy_infantry", "light_infantry"]),
        # B3-B5 stand where the battle deployed them, far off
        roster_of(
            rs,
            "carthage",
            ["medium_infantry", "heavy_infantry", "light_infantry", "heavy_cavalry", "elephants"],
        ),
    )
    places = {
        "A1": (6.0, 4.5, 0.0),
        "B1": (6.0, 5.0, 180.0),  # front to front with A1
        "A2": (10.0, 4.5, 0.0),
        "B2": (10.75, 4.5, 270.0),  # its front against A2's right flank
        "A3": (14.0, 3.0, 0.0),
        **more,
    }
    return started(rs, rosters, places, seed=seed), rosters


def test_only_the_unit_activated_acts_once_a_turn(cli: Cli, registry: Registry) -> None:
    session, rosters = gsb_battle(registry)
    battle = Battle(cli, stored(session, rosters))
    activations_of(battle, ROME)
    steps = battle.steps()
    # no unit moves or fights before it is activated; the enemy not in its own turn
    err = battle.refused("move", "A3", "--path", "forward 1")
    assert "GSB, Turn order: Velites (light infantry) (A3) has not been activated" in err
    assert err.count("\n") == 1
    err = battle.refused("melee", "A1", "B1")
    assert "(A1) has not been activated: activate it first" in err
    err = battle.refused("melee", "B1", "A1")
    assert "GSB, Turn order: it is Rome's turn to activate units" in err
    assert "may not fight in melee" in err
    assert battle.steps() == steps
    # its odds are still there to weigh before choosing which unit to activate
    assert cli.json("battle", "odds", battle.id, "melee", "A1", "B1")

    # the first activation is free: the legion fights, once
    assert "activation 1 (Legionaries (heavy infantry)) is free" in battle("act", "activate", "A1")
    assert "Melee: " in battle("melee", "A1", "B1")
    err = battle.refused("melee", "A1", "B1")
    assert "GSB, Melee: Legionaries (heavy infantry) (A1) has fought" in err
    assert "only a unit that destroyed its opponent fights a second melee" in err
    # another unit waits for its own activation
    err = battle.refused("move", "A3", "--path", "forward 1")
    assert "has not been activated" in err and "(A1) is the unit activated now" in err

    # the second (free) activation: the legion attacked in its flank fights only to its
    # front, so it turns to face first (errata turn-to-face), then fights
    battle("act", "activate", "A2")
    err = battle.refused("melee", "A2", "B2")
    assert "GSB, Melee: units fight to their front, and" in err
    assert "Libyan heavy infantry (B2) is not at Legionaries (heavy infantry) (A2)'s front" in err
    out = battle("move", "A2", "--path", "turn 90; forward 0.25")
    assert "(0.0 UW = 0.0 + 0.0;" in out  # turning to face costs nothing
    assert "Melee: " in battle("melee", "A2", "B2")
    # the first legion has acted: it neither moves nor is activated again this turn
    err = battle.refused("move", "A1", "--path", "about face")
    assert "(A1) has already acted this turn" in err
    assert "has already acted this turn" in battle.refused("act", "activate", "A1")

    # the third activation needs 1+ on the d10 read 0-9: a 0 fails and play passes
    out = battle("act", "activate", "A3", "--dice", "0")
    assert "rolled 0, needs 1+: fails" in out and "play passes to the other player" in out
    err = battle.refused("move", "A3", "--path", "forward 1")
    assert "Rome failed an activation roll and play has passed" in err

    # undo, redo and replay keep the sequence
    after = battle.state()
    battle("undo")
    assert "activated" not in battle.unit("A3")["status"]["markers"]
    battle("redo")
    assert battle.state() == after
    assert cli.json("battle", "replay", battle.id, "--step", battle.steps()) == after

    # the next turn, every unit may be activated again
    battle.next_to("Initiative")
    activations_of(battle, ROME)
    battle("act", "activate", "A3")
    assert "(A3) moves: forward 1" in battle("move", "A3", "--path", "forward 1")


def test_a_unit_that_destroys_its_opponent_fights_a_second_melee(
    cli: Cli, registry: Registry
) -> None:
    """GSB, Melee: "Units which charge into melee and destroy their opponents immediately
    may use any remaining movement to contact and fight a second melee": the legion destroys
    the Spanish (one base left, 4 hits on 6s), charges on into the Carthaginian foot behind
    them in the same activation and fights again; a third melee is refused."""
    session, rosters = gsb_battle(registry, B2=(6.0, 5.75, 180.0))  # behind the Spanish
    battle = Battle(cli, stored(session, rosters))
    battle("adjust", "B1", "strength", "1")
    activations_of(battle, ROME)
    battle("act", "activate", "A1")
    out = battle("melee", "A1", "B1", "--dice", "6,6,6,6")
    assert "may use the rest of its move to fight a second melee" in out
    assert battle.unit("B1")["status"]["eliminated"]
    assert "charges Libyan heavy infantry (B2)" in battle("charge", "A1", "B2")
    assert "Melee: " in battle("melee", "A1", "B2", "--dice", "1,1,1,1")
    err = battle.refused("melee", "A1", "B2")
    assert "GSB, Melee: Legionaries (heavy infantry) (A1) has fought its melee" in err


def test_pivots_are_free_only_up_to_45_degrees_before_each_increment(
    cli: Cli, registry: Registry
) -> None:
    """GSB, Movement: "Units move in unit-width increments ... May pivot up to 45 degrees
    before moving an increment. Pivots greater than 45 degrees use up a full unit width of
    movement" (errata pivot-increments: an increment is a whole unit width, and the pivots
    before one add up). Heavy infantry (1 UW) could turn 60 degrees for free in part-widths:
    30, half a width, 30, half a width; now the second pivot costs a unit width and the move
    is refused. Pivots made in an earlier move before the same increment count too."""
    session, rosters = gsb_battle(registry, B2=(16.0, 9.0, 180.0))  # no one touches A2
    battle = Battle(cli, stored(session, rosters))
    activations_of(battle, ROME)
    battle("act", "activate", "A2")
    err = battle.refused("move", "A2", "--path", "pivot 30; forward 0.5; pivot 30; forward 0.5")
    assert "Grown Slightly Bald, movement:" in err
    assert "would move 2.0 UW with 1.0 UW of its 1 UW left" in err
    assert "(0.0 UW" in battle("move", "A2", "--path", "pivot 30")
    err = battle.refused("move", "A2", "--path", "pivot 30; forward 0.25")
    assert "would move 1.2 UW with 1.0 UW" in err
    assert "(1.0 UW = 0.0 + 1.0;" in battle("move", "A2", "--path", "pivot 15; forward 1")
    # light troops pivot as they like, free
    battle("act", "activate", "A3")
    assert "(2.0 UW" in battle("move", "A3", "--path", "pivot 90; forward 1; pivot 90; forward 1")


def test_deployment_refusals_cite_the_rule(cli: Cli) -> None:
    """GSB, Deployment: "Players deploy their armies secretly, up to 1 foot in from their
    respective board edges": a unit deployed outside it is refused citing that rule (it
    cited "Castra, table")."""
    a, b = cli.rosters("grown-slightly-bald")
    battle = Battle.new(cli, a, b, seed=7)
    err = battle.refused("deploy", "A1", 9.0, 6.0)
    assert "GSB, Deployment: Legionaries (heavy infantry) (A1) would stand outside" in err
    battle.next_to("First player's activations")
    err = battle.refused("deploy", "A1", 9.0, 2.0)
    assert "GSB, Deployment: units are deployed only before play" in err
