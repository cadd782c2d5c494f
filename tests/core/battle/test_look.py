"""How units are told apart on the map, from the data (no Qt): each side's colour is its
army's, so Rome is red whichever side it takes; labels go from the full name down to the
entry's abbreviation and the id, told apart wherever the names are; each troop type has
its symbol."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from app.core.battle import BattleState, new_battle
from app.core.battle.look import (
    DEFAULT_COLOURS,
    abbreviate,
    battle_look,
    near,
    side_colours,
    split_name,
    unit_labels,
)
from app.core.ready import ready_armies, ready_roster
from app.rules.errors import RulesetError
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.rules.schema import Symbol
from app.rulesets import load_ruleset
from tests.builtin import ruleset_ids

RULESETS = ruleset_ids()


def ready_state(registry: Registry, ruleset: str, *, swap: bool = False) -> BattleState:
    rs = registry.get(ruleset)
    rosters = [ready_roster(rs, ra.army) for ra in ready_armies(rs)]
    if swap:
        rosters.reverse()
    return new_battle(rs, mechanics_for(rs), (rosters[0], rosters[1]))


def labels_of(state: BattleState, registry: Registry) -> dict[str, tuple[str, str, str]]:
    """Each unit's (short, code, id) by its name."""
    labels = unit_labels(state, registry.get(state.ruleset))
    return {state.unit(uid).name: (lb.short, lb.code, lb.id) for uid, lb in labels.items()}


def test_names_split_into_head_qualifiers_and_number() -> None:
    assert split_name("Hastati (right) 1") == ("Hastati", ("right",), "1")
    assert split_name("Allied (socii) infantry 2") == ("Allied infantry", ("socii",), "2")
    assert split_name("  Equites ") == ("Equites", (), "")
    assert abbreviate("Numidian light cavalry") == "NLC"
    assert abbreviate("Liby-Phoenician Phalanx") == "LPP"
    assert abbreviate("Balearics and Moors") == "BM"
    assert abbreviate("Hastati") == "Ha"
    assert abbreviate("Celtic Swordsmen", 2) == "CeSw"


def test_labels_from_the_army_lists(registry: Registry) -> None:
    q = labels_of(ready_state(registry, "quincunx"), registry)
    assert q["Hastati (right) 1"] == ("Hastati R1", "HaR1", "A17")
    assert q["Principes (left) 5"][:2] == ("Principes L5", "PrL5")
    assert q["Equites"][:2] == ("Equites", "Eq")
    # the data's abbreviation where it gives one (armies.toml: short = "CNob")
    assert q["Celtic Heavy Cavalry (armoured nobles)"][1] == "CNob"
    assert q["Celtic Heavy Cavalry (unarmoured)"][1] == "CHC"
    assert q["Liby-Phoenician Phalanx"][1] == "LPP"
    gsb = labels_of(ready_state(registry, "grown-slightly-bald"), registry)
    assert gsb["Legionaries (heavy infantry) 2"] == ("Legionaries 2", "Leg2", "A3")
    # a unit named by its roster, not after its entry: its own words
    d3 = labels_of(ready_state(registry, "d3-ancients"), registry)
    assert d3["Italian horse (Laelius)"][:2] == ("Italian horse", "IH")
    assert d3["Balearics and Moors"][1] == "BM"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_sides_labels_tell_its_units_apart(registry: Registry, ruleset: str) -> None:
    state = ready_state(registry, ruleset)
    labels = unit_labels(state, registry.get(ruleset))
    for side in (0, 1):
        units = [u for u in state.units if u.side == side]
        for tier in ("short", "code"):
            by_label: dict[str, set[str]] = {}
            for u in units:
                by_label.setdefault(getattr(labels[u.id], tier), set()).add(u.name)
            assert all(len(names) == 1 for names in by_label.values()), (tier, by_label)
        for u in units:
            lb = labels[u.id]
            assert lb.variants[0] == u.name and lb.variants[-1] == u.id
            assert len(lb.code) <= len(lb.short) <= len(lb.full)


def test_qualifiers_grow_until_the_names_are_told_apart(registry: Registry) -> None:
    state = ready_state(registry, "d3-ancients")
    names = {"A2": "Velites (right) 1", "A3": "Velites (rear) 1", "A4": "Velites (left) 1"}
    state = replace(
        state,
        units=tuple(replace(u, name=names.get(u.id, u.name)) for u in state.units),
    )
    labels = unit_labels(state, registry.get("d3-ancients"))
    assert labels["A2"].code == "VeRi1" and labels["A3"].code == "VeRe1"
    assert labels["A4"].code == "VeL1"  # no clash: the initial is enough
    assert labels["A2"].short == "Velites Ri1"
    # two units of the same name share their labels (the table tells them apart)
    same = replace(state, units=tuple(replace(u, name="Celts") for u in state.units))
    shared = unit_labels(same, registry.get("d3-ancients"))
    assert {shared[u.id].code for u in same.units if u.side == 1} == {"Ce"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_colours_come_from_the_army_whatever_its_side(registry: Registry, ruleset: str) -> None:
    look = battle_look(ready_state(registry, ruleset), registry.get(ruleset))
    swapped = battle_look(ready_state(registry, ruleset, swap=True), registry.get(ruleset))
    assert [s.name for s in look.sides] == ["Rome", "Carthage"]
    assert [s.name for s in swapped.sides] == ["Carthage", "Rome"]
    rome, carthage = look.sides[0].colour, look.sides[1].colour
    assert (swapped.sides[1].colour, swapped.sides[0].colour) == (rome, carthage)
    rs = registry.get(ruleset)
    assert [rs.army(s.army).colour for s in ready_state(registry, ruleset).sides] == [
        rome,
        carthage,
    ]
    assert not near(rome, carthage)


def test_a_colour_shared_or_missing_falls_back() -> None:
    red = "#a83232"
    assert side_colours((red, "#5b3b8c")) == (red, "#5b3b8c")
    a, b = side_colours((red, red))  # Rome against Rome
    assert a == red and not near(a, b)
    assert side_colours((None, None)) == DEFAULT_COLOURS
    a, b = side_colours((None, "#a83331"))  # B has side A's default: A takes another
    assert b == "#a83331" and not near(a, b)


def test_symbols_come_from_the_troop_types(registry: Registry) -> None:
    state = ready_state(registry, "quincunx")
    look = battle_look(state, registry.get("quincunx"))
    by_name = {state.unit(uid).name: s for uid, s in look.symbols.items()}
    assert by_name["Hastati (right) 1"] == Symbol.HEAVY_INFANTRY
    assert by_name["Velites (right) 1"] == Symbol.LIGHT_INFANTRY  # formed light infantry
    assert by_name["Balearic Slingers (right)"] == Symbol.SKIRMISHERS  # symbol in troops.toml
    assert by_name["Numidian Light Cavalry 1"] == Symbol.LIGHT_CAVALRY
    assert by_name["Spanish Medium Cavalry"] == Symbol.MEDIUM_CAVALRY
    assert by_name["Carthaginian Elephants 1"] == Symbol.ELEPHANTS
    assert look.symbols_used()[0] == Symbol.HEAVY_INFANTRY
    # data an old battle names and the data no longer has: no symbol, no error
    old = replace(state, units=(replace(state.units[0], troop="gone"), *state.units[1:]))
    assert battle_look(old, registry.get("quincunx")).symbols[state.units[0].id] is None


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('colour = "#a83232"', 'colour = "red"', "colour"),
        ('short = "CNob"', 'short = "Celtic nobles"', "short"),
        ('short = "CNob"', 'short = "C N"', "short"),
    ],
)
def test_bad_colour_or_short_names_the_key(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    import shutil

    from app.rules.registry import BUILTIN_DIR

    folder = tmp_path / "q"
    shutil.copytree(BUILTIN_DIR / "quincunx", folder)
    armies = folder / "armies.toml"
    text = armies.read_text(encoding="utf-8")
    assert old in text
    armies.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(folder)
    assert any("armies.toml" in str(p) and message in str(p) for p in info.value.problems)


def test_a_troop_symbol_outside_the_list_is_refused(tmp_path: Path) -> None:
    import shutil

    from app.rules.registry import BUILTIN_DIR

    folder = tmp_path / "q"
    shutil.copytree(BUILTIN_DIR / "quincunx", folder)
    troops = folder / "troops.toml"
    text = troops.read_text(encoding="utf-8")
    troops.write_text(text.replace('symbol = "skirmishers"', 'symbol = "hoplite"', 1))
    with pytest.raises(RulesetError) as info:
        load_ruleset(folder)
    assert any("troops.toml" in str(p) and "symbol" in str(p) for p in info.value.problems)
