"""Historical battles are data: a club adds its own in the user data folder; a bad file is
refused with every problem named by file and key, and the others still load; a club's file
may not take a built-in battle's id. The battle's zones and name travel with the battle
state (stored and read back); its historical objectives are judged from the table."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from app import bundled
from app.core.battle.serialize import state_from_dict, state_to_dict
from app.core.scenario.build import scenario_rosters
from app.core.scenario.history import compare
from app.core.scenario.library import ScenarioError, load_library, read_scenario
from app.core.scenario.start import scenario_library, scenario_session
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry

TREBIA = (bundled.SCENARIOS_DIR / "trebia.toml").read_text(encoding="utf-8")


def club_file(folder: Path, text: str, name: str = "mine.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def problems(path: Path, registry: Registry | None = None) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        read_scenario(path, list(registry) if registry is not None else ())
    return [str(p) for p in info.value.problems]


def test_a_club_adds_its_own_battle(tmp_path: Path, registry: Registry) -> None:
    own = TREBIA.replace('id = "trebia"', 'id = "trebia-club"').replace(
        'name = "The Trebia"', 'name = "The Trebia (club)"'
    )
    club_file(tmp_path, own)
    lib = scenario_library(registry, tmp_path)
    assert not lib.failures
    sc = lib.find("trebia-club")
    assert not sc.builtin and sc.name == "The Trebia (club)"
    assert lib.find("The Trebia").id == "trebia" and lib.find("Trasimene").id == "trasimene"


def test_a_club_may_not_take_a_built_in_id(tmp_path: Path, registry: Registry) -> None:
    club_file(tmp_path, TREBIA)
    lib = scenario_library(registry, tmp_path)
    [(key, err)] = lib.failures.items()
    assert key.endswith("mine.toml") and "battle.id" in str(err) and "already" in str(err)
    assert "trebia" in lib.scenarios  # the built-in one still loads


def test_errors_name_the_file_and_the_key(tmp_path: Path, registry: Registry) -> None:
    bad = TREBIA.replace("men = 6000", 'men = "6000"')
    assert any(
        p.startswith("mine.toml: sides.rome.forces[0].men")
        for p in problems(club_file(tmp_path, bad))
    )
    bad = TREBIA.replace('post = "screen", command = "legions" },', 'post = "nowhere" },', 1)
    found = problems(club_file(tmp_path, bad))
    assert any("sides.rome.armies.quincunx.units[0].post" in p and "nowhere" in p for p in found)
    bad = TREBIA.replace('winner = "carthage"', 'winner = "gaul"')
    assert any("battle.winner" in p for p in problems(club_file(tmp_path, bad)))
    bad = TREBIA.replace("zone = [[0.0, 0.0], [1.0, 0.0], [1.0, 0.25], [0.0, 0.25]]\n", "")
    assert any("both sides give a deployment zone" in p for p in problems(club_file(tmp_path, bad)))
    bad = TREBIA.replace('entry = "hastati", count = 8', 'entry = "hoplites", count = 8')
    # the file's own shape is fine; the army list has no such entry
    assert read_scenario(club_file(tmp_path, bad)).id == "trebia"
    found = problems(club_file(tmp_path, bad), registry)
    assert any(".units[" in p and "'hoplites'" in p for p in found)
    bad = TREBIA.replace("[rulesets.d3-ancients]", '[rulesets.d3-ancients]\nscale = "1:10"')
    assert any(
        "rulesets.d3-ancients.scale" in p for p in problems(club_file(tmp_path, bad), registry)
    )
    bad = TREBIA.replace('name = "the elephants"', 'name = "\x1b[2Jthe elephants"')
    assert problems(club_file(tmp_path, bad))
    assert "not valid TOML" in problems(club_file(tmp_path, "[battle"))[0]


def test_a_bad_file_leaves_the_others(tmp_path: Path, registry: Registry) -> None:
    club_file(tmp_path, "x = 1", "broken.toml")
    lib = load_library(bundled.SCENARIOS_DIR, tmp_path, list(registry))
    assert "trebia" in lib.scenarios and len(lib.failures) == 1
    assert lib.failure_lines()[0].startswith("broken.toml")


def test_the_battle_keeps_its_zones_and_name_when_stored(registry: Registry) -> None:
    lib = scenario_library(registry)
    rs = registry.get("mwan90")
    session, _ = scenario_session(lib.find("trasimene"), rs, mechanics_for(rs), seed=1)
    state = session.state
    back = state_from_dict(state_to_dict(state))
    assert back == state and back.scenario == "trasimene" and back.zones is not None
    # the zones follow the table when it is resized (they are fractions of it)
    mech = session.mechanics
    big = replace(state, width=state.width * 2)
    assert mech.deployment_zones(big.view())[0][1][0] == pytest.approx(
        2 * mech.deployment_zones(state.view())[0][1][0]
    )
    # an ordinary battle's state is written as it always was
    plain = state_to_dict(replace(state, scenario=None, zones=None))
    assert "scenario" not in plain and "zones" not in plain


def test_the_historical_objectives_are_judged_on_the_table(registry: Registry) -> None:
    lib = scenario_library(registry)
    sc = lib.find("trebia")
    rs = registry.get("d3-ancients")
    mech = mechanics_for(rs)
    session, rosters = scenario_session(sc, rs, mech, seed=1)
    state = session.state
    before = compare(sc, rs, state, rosters, mech.lost_markers)
    assert [s.met for s in before.sides] == [False, False]
    assert not before.ended and "not over yet" in before.lines()[0]
    # two Roman units in the Carthaginian rear, and half the Roman army gone
    romans = [u for u in state.units if u.side == 0]
    moved = [
        replace(u, x=state.width / 2 + i * 13, y=state.height * 0.95)
        for i, u in enumerate(romans[:2])
    ]
    gone = [replace(u, status=replace(u.status, eliminated=True)) for u in romans[2:6]]
    rest = [u for u in state.units if u.id not in {x.id for x in (*moved, *gone)}]
    after = compare(
        sc, rs, replace(state, units=(*moved, *gone, *rest)), rosters, mech.lost_markers
    )
    rome, carthage = after.sides
    assert rome.met is True
    # each D3 unit stands for its share of its force: four of the foot's 6,000 of 40,000
    assert rome.men == pytest.approx(40000)
    assert rome.share_lost == pytest.approx(24000 / 40000)
    assert carthage.met is True and carthage.share_lost == 0
    assert scenario_rosters(sc, rs)[0].name == "The Trebia: Rome"
