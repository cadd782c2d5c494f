"""D3 Ancient Rules data (rulesets/d3-ancients) checked against the source text
(seeds/004_78eaa0b0c4f939d1.txt) and the decisions in its errata.toml."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from app.rules.errors import RulesetError
from app.rules.registry import BUILTIN_DIR
from app.rules.ruleset import Ruleset
from app.rules.schema import Category, Strict
from app.rulesets import find_engine, load_ruleset
from app.rulesets.d3.checks import check, parse_faces
from app.rulesets.d3.mechanics import D3Mechanics
from app.rulesets.d3.schema import QUALITIES, Quality, Tables, Troop, army_deck, deck_for, tables

FOLDER = BUILTIN_DIR / "d3-ancients"


def troop(rs: Ruleset, tid: str) -> Troop:
    tr = rs.troop(tid)
    assert isinstance(tr, Troop)
    return tr


# --------------------------------------------------------------------------- meta


def test_meta(rs: Ruleset) -> None:
    m = rs.meta
    assert (m.id, m.engine, m.counts, m.unit_of_measure) == ("d3-ancients", "d3", "bases", "inch")
    assert m.source_file == "004_78eaa0b0c4f939d1.txt"
    assert m.game_length == "15 turns"
    assert m.scales == () and m.default_scale is None
    assert m.data_version == "1.3.0"
    assert m.author is None and m.author_note


def test_engine_registration(builtin_folder: Path) -> None:
    """The registry's line for this engine names its folder, models, check and mechanics."""
    engine = find_engine("d3")
    assert engine.builtin_folder == "d3-ancients" == builtin_folder.name
    assert engine.troop_model is Troop and engine.tables_model is Tables
    assert engine.check is check
    assert engine.mechanics is D3Mechanics


def test_turn_phases_in_source_order(rs: Ruleset, t: Tables) -> None:
    ids = [p.id for p in rs.turn.phases]
    assert ids == ["chance_card", "movement", "shooting", "melee", "elimination"]
    assert list(t.sequence.steps) == ids
    assert t.sequence.turns == 15


def test_leaders(rs: Ruleset) -> None:
    ld = rs.leaders
    assert ld.generals == 1
    assert ld.general_attached is True
    assert set(ld.attach_to) == {"heavy_infantry", "heavy_cavalry"}


def test_tables_accessor_rejects_other_tables(rs: Ruleset) -> None:
    other = dataclasses.replace(rs, tables=Strict())
    with pytest.raises(TypeError):
        tables(other)
    problems = check(other)
    assert problems and problems[0].file == "tables.toml"


# --------------------------------------------------------------------------- troops

# id: category, move, road, combat hits, shoot hits, range, halved in combat, shot halved,
#     flank class
TROOPS: dict[
    str, tuple[Category, float, float, str | None, str | None, float | None, bool, str, str | None]
] = {
    "veteran_heavy_infantry": (
        Category.HEAVY_INFANTRY,
        6,
        3,
        "d3+1",
        None,
        None,
        True,
        "always",
        "heavy",
    ),
    "heavy_infantry": (Category.HEAVY_INFANTRY, 6, 3, "d3+1", None, None, True, "always", "heavy"),
    "warband": (Category.MEDIUM_INFANTRY, 9, 3, "d3+1", None, None, True, "never", "heavy"),
    "light_infantry": (
        Category.LIGHT_INFANTRY,
        9,
        3,
        "d3-1",
        "d3-1",
        12,
        False,
        "in_cover",
        "light",
    ),
    "veteran_light_cavalry": (
        Category.LIGHT_CAVALRY,
        12,
        3,
        "d3-1",
        "d3-1",
        12,
        False,
        "in_cover",
        "light",
    ),
    "light_cavalry": (
        Category.LIGHT_CAVALRY,
        12,
        3,
        "d3-1",
        "d3-1",
        12,
        False,
        "in_cover",
        "light",
    ),
    "heavy_cavalry": (Category.HEAVY_CAVALRY, 12, 3, "d3", None, None, False, "in_cover", "heavy"),
    "elephants": (Category.ELEPHANT, 9, 3, "d3", None, None, True, "always", "heavy"),
    "catapults": (Category.ARTILLERY, 0, 0, None, "d3-1", 24, False, "in_cover", None),
}


def test_troop_types_are_the_sources(rs: Ruleset) -> None:
    assert set(rs.troops) == set(TROOPS)


@pytest.mark.parametrize("tid", sorted(TROOPS))
def test_troop_numbers(rs: Ruleset, tid: str) -> None:
    cat, move, road, hits, shot, rng, halved, shot_halved, flank = TROOPS[tid]
    tr = troop(rs, tid)
    assert tr.category == cat
    assert tr.move == move
    assert tr.road_bonus == road
    assert tr.combat_hits == hits
    assert tr.shoot_hits == shot
    assert tr.shoots is (shot is not None)
    assert tuple(w.long_range for w in tr.weapons) == (() if rng is None else (rng,))
    assert tr.halved_in_combat is halved
    assert tr.shot_halved == shot_halved
    assert tr.flank_class == flank
    assert tr.basing.per == "base"
    assert tr.basing.frontage_mm == pytest.approx(4 * 25.4)
    assert tr.basing.depth_mm == pytest.approx(3 * 25.4)


@pytest.mark.parametrize("tid", sorted(TROOPS))
def test_troop_flags(rs: Ruleset, tid: str) -> None:
    tr = troop(rs, tid)
    assert tr.passes_through_friends is (tid == "light_infantry")
    assert tr.may_leave_combat is (tr.category.mounted)
    assert tr.may_leave_combat is (
        tid in {"light_cavalry", "veteran_light_cavalry", "heavy_cavalry"}
    )
    woods = tid in {"light_infantry", "warband"}
    assert ("woods" in tr.may_enter) is woods
    assert ("broken_ground" in tr.may_enter) is tr.category.infantry
    assert tr.charges_only_engaged is (
        tid in {"light_infantry", "light_cavalry", "veteran_light_cavalry"}
    )
    assert tr.may_charge_elephants is (not tr.category.mounted)
    assert tr.may_charge is (tid != "catapults")
    assert tr.pivot_only is (tid == "catapults")
    assert tr.combat_ignores_halving is (tid == "elephants")
    assert tr.shoot_ignores_armour is (tid == "catapults")
    assert tr.halved_attacking_broken_ground is (tr.category == Category.HEAVY_INFANTRY)
    assert tr.veteran is tid.startswith("veteran_")


def test_veterans_match_their_base_types(rs: Ruleset) -> None:
    """Gap: the source gives veterans no numbers; we use HI and LC (erratum)."""
    skip = {"name", "description", "veteran", "special_rules"}
    for vet, base in (
        ("veteran_heavy_infantry", "heavy_infantry"),
        ("veteran_light_cavalry", "light_cavalry"),
    ):
        a = troop(rs, vet).model_dump(exclude=skip)
        b = troop(rs, base).model_dump(exclude=skip)
        assert a == b
    assert rs.erratum("veteran-types-no-numbers").kind == "gap"


# --------------------------------------------------------------------------- tables


def test_units_table(t: Tables) -> None:
    u = t.units
    assert (u.bases_per_unit, u.base_width, u.base_depth) == (3, 4, 3)
    assert (u.unit_width, u.unit_depth) == (12, 3)


def test_movement_rules(t: Tables) -> None:
    m = t.movement
    assert m.pivot_at_start and m.pivot_at_end
    assert m.moved_may_not_shoot and m.moved_may_not_fight_unless_charged
    assert m.passed_through_counts_as_moved


# id: entry, move bonus, defender modifier, cover, halves HI attacks
TERRAIN: dict[str, tuple[str, float, int, bool, bool]] = {
    "open": ("all", 0, 0, False, False),
    "woods": ("listed", 0, -1, True, False),
    "towns": ("all", 0, -1, True, True),
    "marsh": ("none", 0, 0, False, False),
    "lakes": ("none", 0, 0, False, False),
    "rivers": ("crossings", 0, 0, False, False),
    "river_crossings": ("all", 0, -1, False, False),
    "broken_ground": ("listed", 0, -1, False, True),
    "roads": ("all", 3, 0, False, False),
    "hills": ("all", 0, -1, False, False),
}


def test_terrain_types(t: Tables) -> None:
    assert set(t.terrain.types) == set(TERRAIN)


@pytest.mark.parametrize("tid", sorted(TERRAIN))
def test_terrain_row(t: Tables, tid: str) -> None:
    row = t.terrain.types[tid]
    assert (
        row.entry,
        row.move_bonus,
        row.defender_modifier,
        row.cover,
        row.halves_heavy_infantry_attacks,
    ) == TERRAIN[tid]


def test_charges(t: Tables) -> None:
    c = t.charges
    assert c.straight_ahead_only is True
    assert c.max_attackers_per_side == 1
    assert c.sides == ("front", "left_flank", "right_flank", "rear")


def test_shooting(t: Tables) -> None:
    s = t.shooting
    assert s.front_arc_only is True
    assert s.may_target_engaged is False
    assert s.halving_rounds == "up"


def test_combat(t: Tables) -> None:
    c = t.combat
    assert c.own_turn_only is True
    assert c.halving_rounds == "up"
    assert c.minimum_hits == 0
    assert c.order == (
        "dice",
        "flank_rear",
        "terrain",
        "halve_target",
        "halve_broken_ground",
        "floor",
    )
    assert c.may_face_flank_or_rear_unless_engaged_in_front is True
    assert c.facing_unit_may_not_attack is True


@pytest.mark.parametrize(("cls", "bonus"), [("light", 1), ("heavy", 2)])
def test_flank_rear_bonus(t: Tables, cls: str, bonus: int) -> None:
    assert t.combat.flank_rear_bonus[cls].bonus == bonus
    assert set(t.combat.flank_rear_bonus) == {"light", "heavy"}


def test_elimination(t: Tables) -> None:
    assert t.elimination.eliminated_above_hits == 8


@pytest.mark.parametrize(
    ("roll", "target", "within", "hits"),
    [(1, "nearest_friend", 12, "d3"), (2, "nearest_enemy", 12, "d3"), (3, "none", None, None)],
)
def test_berserk_rows(
    t: Tables, roll: int, target: str, within: float | None, hits: str | None
) -> None:
    assert t.berserk.dice == "d3"
    assert t.berserk.removed_after is True
    row = t.berserk.rows[roll - 1]
    assert (row.roll, row.target, row.within, row.hits) == (roll, target, within, hits)


def test_army_resolve(t: Tables) -> None:
    assert t.army_resolve.lost_more_than_percent == 70
    assert t.army_resolve.effect == "no_advance"


def test_commanders(t: Tables) -> None:
    c = t.commanders
    assert c.attach_at_start is True
    assert (c.combat_dice, c.combat_keep) == (2, "highest")
    assert set(c.cards_disabled_on_loss) == {"rally", "initiative", "all_out_attack"}


# --------------------------------------------------------------------------- chance cards

BASE_DECK = {"no_event": 5, "confusion": 3, "ammunition_shortage": 2, "initiative": 2, "rally": 3}


@pytest.mark.parametrize(("card", "count"), sorted(BASE_DECK.items()))
def test_base_deck_cards(t: Tables, card: str, count: int) -> None:
    assert t.chance_cards.cards[card].count == count


def test_base_deck(rs: Ruleset, t: Tables) -> None:
    cc = t.chance_cards
    assert (cc.deck_size, cc.draw_per_turn, cc.carry_over) == (15, 1, False)
    assert sum(c.count for c in cc.cards.values()) == 15
    assert deck_for(t, side=None) == BASE_DECK
    # All-out Attack: named by the commander rule, not in the deck (gap erratum)
    assert cc.cards["all_out_attack"].count == 0
    assert rs.erratum("all-out-attack-card").kind == "gap"


def test_card_effect_keys(t: Tables) -> None:
    keys = {cid: c.effect_key for cid, c in t.chance_cards.cards.items()}
    assert keys == {
        "no_event": "none",
        "confusion": "no_move_unless_commanded",
        "ammunition_shortage": "no_shooting",
        "initiative": "extra_activation",
        "rally": "halve_unit_hits",
        "all_out_attack": "undefined",
    }


@pytest.mark.parametrize(
    ("sid", "condition", "value", "replace", "add"),
    [
        ("roman_discipline", "army_side", "Rome", "initiative", "rally"),
        ("carthaginian_initiative", "army_side", "Carthage", "rally", "initiative"),
        ("good_commander", "commander_quality", "good", "no_event", "initiative"),
        ("poor_commander", "commander_quality", "poor", "initiative", "no_event"),
        ("supply_problems", "supply_problems", None, "no_event", "ammunition_shortage"),
    ],
)
def test_substitutions(
    t: Tables, sid: str, condition: str, value: str | None, replace: str, add: str
) -> None:
    subs = {s.id: s for s in t.chance_cards.substitutions}
    s = subs[sid]
    assert (s.condition, s.value, s.replace, s.add, s.count) == (condition, value, replace, add, 1)


@pytest.mark.parametrize(
    ("army", "quality", "supply", "changes"),
    [
        ("roman", "average", False, {"initiative": 1, "rally": 4}),
        ("carthaginian", "average", False, {"initiative": 3, "rally": 2}),
        ("roman", "good", False, {"no_event": 4, "initiative": 2, "rally": 4}),
        ("roman", "poor", False, {"no_event": 6, "initiative": 0, "rally": 4}),
        (
            "carthaginian",
            "good",
            True,
            {"no_event": 3, "initiative": 4, "rally": 2, "ammunition_shortage": 3},
        ),
        (
            "carthaginian",
            "poor",
            True,
            {"no_event": 5, "initiative": 2, "rally": 2, "ammunition_shortage": 3},
        ),
    ],
)
def test_army_decks(
    rs: Ruleset, army: str, quality: Quality, supply: bool, changes: dict[str, int]
) -> None:
    expected = {k: v for k, v in {**BASE_DECK, **changes}.items() if v > 0}
    deck = army_deck(
        rs,
        army,
        commander_quality=quality,
        supply_problems=supply,
    )
    assert deck == expected
    assert sum(deck.values()) == 15


def test_every_deck_is_fifteen(rs: Ruleset) -> None:
    for army in rs.armies:
        for quality in QUALITIES:
            for supply in (False, True):
                deck = army_deck(rs, army, commander_quality=quality, supply_problems=supply)
                assert sum(deck.values()) == 15
                assert all(n > 0 for n in deck.values())


def test_sides_drive_army_swap(rs: Ruleset) -> None:
    assert rs.army("roman").side == "Rome"
    assert rs.army("carthaginian").side == "Carthage"


# --------------------------------------------------------------------------- armies

ENTRIES: dict[str, dict[str, tuple[str, int, int]]] = {
    "roman": {
        "legionaries": ("heavy_infantry", 2, 4),
        "triarii": ("veteran_heavy_infantry", 0, 2),
        "velites": ("light_infantry", 1, 2),
        "equites": ("heavy_cavalry", 0, 1),
        "allied_cavalry": ("light_cavalry", 0, 1),
    },
    "carthaginian": {
        "libyans": ("veteran_heavy_infantry", 0, 2),
        "spanish_infantry": ("heavy_infantry", 0, 2),
        "gauls": ("warband", 0, 3),
        "skirmishers": ("light_infantry", 1, 2),
        "numidians": ("light_cavalry", 0, 2),
        "numidian_veterans": ("veteran_light_cavalry", 0, 1),
        "heavy_cavalry": ("heavy_cavalry", 1, 2),
        "elephants": ("elephants", 0, 1),
    },
}


def test_army_lists(rs: Ruleset) -> None:
    assert set(rs.armies) == set(ENTRIES)
    for army_id, entries in ENTRIES.items():
        army = rs.army(army_id)
        assert (army.min_units, army.max_units) == (6, 8)
        assert army.units_rule and "6-8" in army.units_rule
        assert army.standard is not None and army.standard.origin == "castra"
        assert set(army.entries) == set(entries)


@pytest.mark.parametrize(
    ("army_id", "entry_id"),
    [(a, e) for a, entries in ENTRIES.items() for e in entries],
)
def test_army_entry(rs: Ruleset, army_id: str, entry_id: str) -> None:
    tid, lo, hi = ENTRIES[army_id][entry_id]
    entry = rs.entry(army_id, entry_id)
    assert entry is not None
    assert (entry.troop, entry.min, entry.max) == (tid, lo, hi)
    assert entry.sizes == (3,) and entry.default_size == 3


# --------------------------------------------------------------------------- errata

ERRATA = {
    "veteran-types-no-numbers": "gap",
    "veteran-hi-carries-commander": "interpretation",
    "warband-category": "interpretation",
    "flank-rear-light-heavy": "interpretation",
    "all-out-attack-card": "gap",
    "army-lists-not-in-source": "gap",
    "army-entry-limits": "interpretation",
    "ready-armies-built": "gap",
    "basing-men": "gap",
    "combat-halving-rounding": "gap",
    "combat-modifier-order": "gap",
    "pass-through-garbled": "errata",
    "berserk-within": "errata",
    "deck-per-side": "interpretation",
}


@pytest.mark.parametrize(("eid", "kind"), sorted(ERRATA.items()))
def test_errata(rs: Ruleset, eid: str, kind: str) -> None:
    e = rs.erratum(eid)
    assert e.kind == kind
    assert e.applies_to and e.override


def test_errata_reach_the_data(rs: Ruleset) -> None:
    assert rs.errata_for("tables.chance_cards.cards.all_out_attack")
    assert rs.errata_for("troops.veteran_light_cavalry")
    assert rs.errata_for("tables.combat.flank_rear_bonus.heavy")


def test_parse_faces() -> None:
    assert parse_faces("d3") == [1, 2, 3]
    assert parse_faces("d3-1") == [0, 1, 2]


# --------------------------------------------------------------------------- check()

Edit = tuple[str, str, str]


def _broken(tmp_path: Path, edits: list[Edit]) -> RulesetError:
    folder = tmp_path / "d3-broken"
    shutil.copytree(FOLDER, folder)
    for file, old, new in edits:
        path = folder / file
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {file}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(folder)
    return info.value


CASES: dict[str, tuple[list[Edit], str, str]] = {
    "deck_not_fifteen": (
        [("tables.toml", 'name = "No Event"\ncount = 5', 'name = "No Event"\ncount = 4')],
        "tables.toml",
        "chance_cards.cards",
    ),
    "substitution_unknown_card": (
        [
            (
                "tables.toml",
                'value = "Rome"\nreplace = "initiative"',
                'value = "Rome"\nreplace = "triarii"',
            )
        ],
        "tables.toml",
        "chance_cards.substitutions[0].replace",
    ),
    "substitution_unknown_side": (
        [("tables.toml", 'value = "Rome"', 'value = "Roma"')],
        "tables.toml",
        "chance_cards.substitutions[0].value",
    ),
    "deck_runs_out": (
        [
            ("tables.toml", 'name = "Initiative"\ncount = 2', 'name = "Initiative"\ncount = 1'),
            ("tables.toml", 'name = "No Event"\ncount = 5', 'name = "No Event"\ncount = 6'),
        ],
        "tables.toml",
        "chance_cards.substitutions",
    ),
    "disabled_card_unknown": (
        [("tables.toml", '"all_out_attack"]', '"all_out_atack"]')],
        "tables.toml",
        "commanders.cards_disabled_on_loss[2]",
    ),
    "flank_class_unknown": (
        [
            (
                "troops.toml",
                'flank_class = "heavy"\nmay_charge = true\ncharges_only_engaged = '
                "false\nmay_charge_elephants = true\n"
                'special_rules = ["Hits on it are halved in combat',
                'flank_class = "medium"\nmay_charge = true\ncharges_only_engaged = '
                "false\nmay_charge_elephants = true\n"
                'special_rules = ["Hits on it are halved in combat',
            )
        ],
        "troops.toml",
        "troops.warband.flank_class",
    ),
    "may_enter_impassable": (
        [
            (
                "troops.toml",
                'may_enter = ["woods", "broken_ground"]\nshoots = true',
                'may_enter = ["marsh", "broken_ground"]\nshoots = true',
            )
        ],
        "troops.toml",
        "troops.light_infantry.may_enter[0]",
    ),
    "berserk_row_missing": (
        [("tables.toml", 'roll = 3\ntarget = "none"', 'roll = 4\ntarget = "none"')],
        "tables.toml",
        "berserk.rows",
    ),
    "sequence_out_of_order": (
        [("tables.toml", '"movement", "shooting"', '"shooting", "movement"')],
        "tables.toml",
        "sequence.steps",
    ),
    "entry_size_not_three": (
        [
            (
                "armies.toml",
                'troop = "light_infantry"\nsizes = [3]',
                'troop = "light_infantry"\nsizes = [3, 4]',
            )
        ],
        "armies.toml",
        "armies.roman.entries.velites.sizes",
    ),
    "no_commander_host": (
        [
            (
                "ruleset.toml",
                'attach_to = ["heavy_infantry", "heavy_cavalry"]',
                'attach_to = ["artillery"]',
            )
        ],
        "armies.toml",
        "armies.roman.entries",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_check_finds_broken_copy(tmp_path: Path, case: str) -> None:
    edits, file, path = CASES[case]
    err = _broken(tmp_path, edits)
    assert any(p.file == file and p.path == path for p in err.problems), err.problems


def test_unbroken_copy_loads(tmp_path: Path, builtin_folder: Path) -> None:
    folder = tmp_path / "d3-copy"
    shutil.copytree(builtin_folder, folder)
    assert check(load_ruleset(folder)) == []


def test_check_clean(rs: Ruleset) -> None:
    assert check(rs) == []
