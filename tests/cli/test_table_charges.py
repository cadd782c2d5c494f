"""A charge on the table passes exactly the checks of its ruleset's charge (issue 25, item 1):
``castra battle charge`` finds the path into contact and refuses, in one line naming the
rule, what the ruleset's own charge rules refuse, as the battle window's Charge does (the
same core function, :func:`~app.core.battle.plan_charge`, and the same check,
``check_charge``, on the stored path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.battle import BattleSession, CommandError, NextPhase, plan_charge
from app.core.roster import Roster
from app.rules.registry import Registry
from tests.cli.test_battle_cli import Battle, Cli, lead_to
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path
from tests.table_setup import roster_of, started, stored


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def d3_battle(
    registry: Registry, **more: tuple[float, float, float]
) -> tuple[BattleSession, tuple[Roster, Roster]]:
    """Rome (A1 velites, light infantry; A2 allied cavalry, light cavalry; A3 equites, heavy
    cavalry; A4 legionaries) against Carthage (B1 Spanish infantry, B2 elephants, B3 Gauls),
    each Roman unit 4" straight in front of its target, in Rome's first movement step."""
    rs = registry.get("d3-ancients")
    rosters = (
        roster_of(rs, "roman", ["velites", "allied_cavalry", "equites", "legionaries"]),
        roster_of(rs, "carthaginian", ["spanish_infantry", "elephants", "gauls"]),
    )
    places = {
        "B1": (10.0, 24.0, 180.0),
        "B2": (36.0, 24.0, 180.0),
        "B3": (62.0, 24.0, 180.0),
        "A1": (9.0, 17.0, 0.0),  # velites before the Spanish
        "A2": (62.0, 17.0, 0.0),  # allied (light) cavalry before the Gauls
        "A3": (36.0, 17.0, 0.0),  # equites before the elephants
        "A4": (10.0, 4.0, 0.0),
        **more,
    }
    session = started(rs, rosters, places, seed=5, initiative=0)
    session.do(NextPhase())  # the chance card, then Rome's movement
    assert session.state.sides[0].record["card"] == "no_event"
    return session, rosters


def test_d3_charges_refused_as_the_rules_say(cli: Cli, registry: Registry) -> None:
    """D3, Charges: "Light infantry and light cavalry can only charge into combat providing
    the enemy unit is already engaged in combat." "Cavalry cannot charge elephants." The
    command line refused none of these before (issue 25: the path was re-checked as a move
    alone)."""
    session, rosters = d3_battle(registry)
    battle = Battle(cli, stored(session, rosters))
    steps = battle.steps()
    err = battle.refused("charge", "A1", "B1")
    assert err.startswith("castra: Velites (A1) may not charge Spanish infantry (B1): D3, Charges:")
    assert "may charge only an enemy already in combat" in err and err.count("\n") == 1
    err = battle.refused("charge", "A2", "B3")
    assert "D3, Charges:" in err and "may charge only an enemy already in combat" in err
    err = battle.refused("charge", "A3", "B2")
    assert "D3, Charges:" in err and "may not charge elephants" in err
    assert battle.steps() == steps
    # forced, the umpire's charge goes ahead and the log says what was overridden
    out = battle("charge", "A3", "B2", "--force")
    assert "Forced past: D3, Charges:" in out and "may not charge elephants" in out


def test_d3_light_infantry_charge_an_enemy_already_in_combat(cli: Cli, registry: Registry) -> None:
    """D3, Charges: once the Spanish are engaged (the legionaries against their flank), the
    velites may charge them."""
    # B1 faces -y: its flank edge at x 16; the legionaries' front against it
    session, rosters = d3_battle(registry, A4=(17.5, 24.0, 270.0))
    battle = Battle(cli, stored(session, rosters))
    out = battle("charge", "A1", "B1")
    assert out.startswith("Velites (A1) charges Spanish infantry (B1): contact front to front.")
    assert "Forced" not in out


def test_leg_vi_who_may_charge_whom(cli: Cli, registry: Registry) -> None:
    """Leg VI, Charges: "Light infantry may only charge LI or elephants. Light cavalry may
    only charge cavalry or unformed opponents." Before, only ``battle act charge`` said so;
    the table's charge (command line and window) let velites charge Gauls and Numidian
    light horse charge a legion."""
    rs = registry.get("leg-vi-carthago")
    rosters = (
        roster_of(rs, "roman", ["velites", "roman_legion"], leaders=[("gen", "general", None)]),
        roster_of(
            rs, "carthaginian", ["gauls", "numidian_cavalry"], leaders=[("gen", "general", None)]
        ),
    )
    places = {
        "A1": (20.0, 20.0, 0.0),  # velites 3" in front of the Gauls
        "B1": (20.0, 24.0, 180.0),
        "A2": (50.0, 20.0, 0.0),  # the legion, the Numidians 3" in front of it
        "B2": (50.0, 24.5, 180.0),
    }
    # each general beside his units: they are under control (Leg VI, Control)
    generals = {"A-gen": (20.0, 18.0), "B-gen": (50.0, 27.0)}
    session = started(rs, rosters, places, seed=3, leaders_at=generals)
    mech = session.mechanics
    while mech.phase_ids[session.state.phase] != "charge":
        session.do(NextPhase())
    battle = Battle(cli, stored(session, rosters))
    steps = battle.steps()
    err = battle.refused("charge", "A1", "B1")
    assert "Leg VI, Charges: Velites may charge only light infantry, elephant" in err
    lead_to(battle, 1)  # Carthage acts once Rome, leading the phase, is done
    steps = battle.steps()
    err = battle.refused("charge", "B2", "A2")
    assert "Leg VI, Charges: Numidian" in err and "may charge only cavalry, unformed" in err
    assert battle.steps() == steps
    # the same refusal in the core's plan, whoever asks (the window calls the same function)
    command = plan_charge(session.state, mech, "A1", "B1")
    with pytest.raises(CommandError, match="may charge only light infantry"):
        session.do(command)
