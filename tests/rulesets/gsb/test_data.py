"""Grown Slightly Bald data (rulesets/grown-slightly-bald) checked against the source text
(seeds/002_75d8fed21d95c401.txt) and the decisions in RULES.md."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Literal

import pytest

from app.rules.errors import RulesetError
from app.rules.registry import BUILTIN_DIR
from app.rules.ruleset import Ruleset
from app.rules.schema import Category, TableSize
from app.rulesets import find_engine, load_ruleset
from app.rulesets.gsb.checks import check
from app.rulesets.gsb.mechanics import GSBMechanics
from app.rulesets.gsb.schema import Tables, Troop, tables

FOLDER = BUILTIN_DIR / "grown-slightly-bald"


def troop(rs: Ruleset, tid: str) -> Troop:
    tr = rs.troop(tid)
    assert isinstance(tr, Troop)
    return tr


# --------------------------------------------------------------------------- meta


def test_meta(rs: Ruleset) -> None:
    m = rs.meta
    assert (m.id, m.engine, m.counts, m.unit_of_measure) == (
        "grown-slightly-bald",
        "gsb",
        "bases",
        "unit_width",
    )
    assert m.source_file == "002_75d8fed21d95c401.txt"
    assert m.figure_scale == "15mm"
    assert m.table_size == "150 x 90 cm"
    # the same in numbers: "table for our 15mm game was 150cmx90cm"; a unit width is 8 cm
    assert m.table == TableSize(width=150, height=90, unit="cm")
    assert m.unit_width_mm == 80.0
    assert m.unit_of_measure_note is not None and "8 cm" in m.unit_of_measure_note
    assert m.scales == () and m.default_scale is None
    assert m.data_version == "1.0.0"
    assert m.author is None and m.author_note
    assert rs.men_per_figure("1:10") is None


def test_engine_registration(builtin_folder: Path) -> None:
    """The registry's line for this engine names its folder, models, check and mechanics."""
    engine = find_engine("gsb")
    assert engine.builtin_folder == builtin_folder.name
    assert engine.troop_model is Troop and engine.tables_model is Tables
    assert engine.check is check
    assert engine.mechanics is GSBMechanics


def test_turn(rs: Ruleset) -> None:
    assert [p.id for p in rs.turn.phases] == ["initiative", "first_player", "second_player"]


def test_leaders(rs: Ruleset) -> None:
    ld = rs.leaders
    assert ld.generals == 1
    assert ld.general_attached is True
    assert ld.bonus_default == 1
    assert "double six" in (ld.risk or "")


def test_check_clean(rs: Ruleset) -> None:
    assert check(rs) == []


def test_tables_accessor_rejects_other_engines(rs: Ruleset, builtin_folder: Path) -> None:
    other = load_ruleset(builtin_folder.parent / "mwan90")
    with pytest.raises(TypeError):
        tables(other)


# --------------------------------------------------------------------------- troops

TROOPS = {
    # id: (category, bases, hits per base, move UW, melee dice, pivot, disengage, shoots)
    "heavy_infantry": (Category.HEAVY_INFANTRY, 4, 4, 1, 4, "standard", "none", False),
    "medium_infantry": (Category.MEDIUM_INFANTRY, 4, 4, 2, 3, "standard", "none", True),
    "allied_infantry": (Category.MEDIUM_INFANTRY, 4, 4, 2, 3, "standard", "none", False),
    "light_infantry": (Category.LIGHT_INFANTRY, 4, 2, 2, 2, "unlimited", "any", True),
    "heavy_cavalry": (Category.HEAVY_CAVALRY, 4, 4, 3, 3, "standard", "from_infantry", False),
    "light_cavalry": (Category.LIGHT_CAVALRY, 4, 2, 4, 2, "unlimited", "any", True),
    "elephants": (Category.ELEPHANT, 1, 4, 2, "as_opponent", "elephant", "none", False),
}


def test_troop_ids(rs: Ruleset) -> None:
    assert set(rs.troops) == set(TROOPS)


@pytest.mark.parametrize("tid", sorted(TROOPS))
def test_troop(rs: Ruleset, tid: str) -> None:
    cat, bases, hpb, move, dice, pivot, disengage, shoots = TROOPS[tid]
    tr = troop(rs, tid)
    assert tr.category is cat
    assert (tr.bases, tr.hits_per_base, tr.move, tr.melee_dice) == (bases, hpb, move, dice)
    assert (tr.pivot, tr.disengage, tr.shoots) == (pivot, disengage, shoots)
    assert tr.passes_through_friends is cat.light
    assert tr.basing.per == "base" and tr.basing.frontage_mm == 40
    assert tr.basing.men_per_base is None
    assert tr.description


def test_total_hits(rs: Ruleset) -> None:
    assert troop(rs, "heavy_infantry").total_hits == 16
    assert troop(rs, "light_infantry").total_hits == 8
    assert troop(rs, "elephants").total_hits == 4


# --------------------------------------------------------------------------- tables


def test_initiative(t: Tables) -> None:
    assert t.initiative.die == "d6"
    assert t.initiative.ties_to == "carthage"


def test_activation(t: Tables) -> None:
    a = t.activation
    assert (a.free, a.die, a.face_min, a.face_max, a.first_needed, a.step) == (2, "d10", 0, 9, 1, 1)
    assert a.once_per_turn and a.failure_passes_play


@pytest.mark.parametrize(
    ("n", "needed"),
    [(1, None), (2, None), (3, 1), (4, 2), (5, 3), (11, 9), (12, 10)],
)
def test_activation_ladder(t: Tables, n: int, needed: int | None) -> None:
    assert t.activation.needed(n) == needed


def test_activation_counts_from_one(t: Tables) -> None:
    with pytest.raises(ValueError):
        t.activation.needed(0)


@pytest.mark.parametrize(
    ("tid", "move"),
    [
        ("heavy_infantry", 1),
        ("medium_infantry", 2),
        ("allied_infantry", 2),
        ("light_infantry", 2),
        ("elephants", 2),
        ("heavy_cavalry", 3),
        ("light_cavalry", 4),
    ],
)
def test_movement(t: Tables, tid: str, move: int) -> None:
    assert t.movement.rows[tid].move == move


def test_movement_extras(t: Tables) -> None:
    assert t.movement.unit_width_cm_15mm == 8
    assert t.movement.flanked_may_turn_to_face is True
    assert set(t.movement.rows) == set(TROOPS)


@pytest.mark.parametrize(
    ("kind", "free_deg", "cost"),
    [("standard", 45, 1), ("unlimited", None, 0), ("elephant", 0, 1)],
)
def test_pivot(t: Tables, kind: str, free_deg: int | None, cost: int) -> None:
    row = t.pivot.kinds[kind]
    assert (row.free_deg, row.cost) == (free_deg, cost)


def test_disengage(t: Tables) -> None:
    d = t.disengage
    assert d.about_face_cost == 1 and d.no_shoot_or_melee_after
    assert set(d.blocked_when) == {"front_and_rear", "both_flanks"}
    assert {k: r.kind for k, r in d.rows.items()} == {
        "light_infantry": "any",
        "light_cavalry": "any",
        "heavy_cavalry": "from_infantry",
    }


def test_interpenetration(t: Tables) -> None:
    assert t.interpenetration.lights_pass_friends_if_room
    assert t.interpenetration.only_lights_pass_lights


@pytest.mark.parametrize("tid", sorted(TROOPS))
def test_hit_points(t: Tables, tid: str) -> None:
    _, bases, hpb, *_ = TROOPS[tid]
    row = t.hit_points.rows[tid]
    assert (row.bases, row.hits_per_base) == (bases, hpb)


def test_destroyed_unit_star(t: Tables) -> None:
    assert t.hit_points.destroyed_unit_stars == 1


@pytest.mark.parametrize(
    ("situation", "lose_on"),
    [("normal", 5), ("last_base", 4), ("fighting_elephants", 4)],
)
def test_morale(
    t: Tables, situation: Literal["normal", "last_base", "fighting_elephants"], lose_on: int
) -> None:
    assert t.morale.die == "d6"
    assert t.morale.rows[situation].lose_on == lose_on


def test_morale_no_chain(t: Tables) -> None:
    assert t.morale.chain is False


def test_shooting(t: Tables) -> None:
    s = t.shooting
    assert (s.range, s.dice, s.hit_on) == (1, 2, 6)
    assert s.needs_line_of_sight and "centre" in s.measured_from
    assert {k: r.timing for k, r in s.rows.items()} == {
        "medium_infantry": "after_move",
        "light_infantry": "before_or_after_move",
        "light_cavalry": "before_during_or_after_move",
    }


@pytest.mark.parametrize(
    ("tid", "dice"),
    [
        ("heavy_infantry", 4),
        ("medium_infantry", 3),
        ("allied_infantry", 3),
        ("heavy_cavalry", 3),
        ("light_infantry", 2),
        ("light_cavalry", 2),
        ("elephants", "as_opponent"),
    ],
)
def test_melee_dice(t: Tables, tid: str, dice: int | str) -> None:
    assert t.melee.rows[tid].dice == dice


def test_melee_rules(t: Tables) -> None:
    m = t.melee
    assert m.front_only and m.own_turn_only
    assert m.flank_rear_extra_dice == 1
    assert m.flank_rear_extra_dice_by_troop == {"heavy_cavalry": 2}
    assert m.second_melee_after_destroying
    assert m.as_opponent_uses == "opponent_basic_dice"
    assert m.elephant_vs_elephant_dice == 3


@pytest.mark.parametrize("tid", sorted(TROOPS))
def test_hit_numbers_decision(t: Tables, tid: str) -> None:
    """RULES.md: the text gives no hit numbers; decision 5-6 for every type."""
    assert t.hit_numbers.rows[tid].hit_on == 5


def test_hit_numbers_flagged(t: Tables) -> None:
    assert t.hit_numbers.complete_in_source is False
    assert t.hit_numbers.by == "target"


def test_optional_hc_flank_rule(t: Tables) -> None:
    """RULES.md: the author's afterthought is an optional rule, off by default."""
    rule = t.optional_rules["hc_flank_rear_vs_hi"]
    assert rule.enabled is False
    assert (rule.attacker, rule.target, rule.hit_on) == ("heavy_cavalry", "heavy_infantry", 5)
    assert set(rule.situations) == {"flank", "rear"}


def test_elephants(t: Tables) -> None:
    e = t.elephants
    assert e.troop == "elephants"
    assert (e.terror_face, e.terror_rerolls) == (4, True)
    assert (e.rampage_radius, e.rampage_die, e.rampage_hit_on) == (1, "d6", 6)
    assert e.rampage_affects == "all_units"


@pytest.mark.parametrize("terrain", ["hills", "woods"])
def test_terrain(t: Tables, terrain: str) -> None:
    assert t.terrain.rows[terrain].max_dice == 2
    assert set(t.terrain.extras_added_after_cap) == {"flank", "general"}
    assert t.terrain.applies_to_attackers_into


def test_general(t: Tables) -> None:
    g = t.general
    assert (g.per_side, g.melee_bonus, g.bonus_kind) == (1, 1, "die")
    assert (g.death_test, g.dies_on) == ("2d6", (6, 6))
    assert g.test_when == "any_hit"
    assert g.once_per_melee and g.killed_with_unit and g.may_teleport and g.no_bonus_turn_moved
    assert g.dead_general_stars == 1


@pytest.mark.parametrize(("units", "stars"), [(11, 6), (12, 6), (10, 5), (1, 1), (7, 4)])
def test_victory(t: Tables, units: int, stars: int) -> None:
    assert t.victory.stars_percent_of_enemy_units == 50
    assert t.victory.stars_needed(units) == stars


def test_deployment(t: Tables) -> None:
    d = t.deployment
    assert d.screen and d.depth_feet == 1
    assert (d.swap_army, d.swap_units) == ("carthage", 2)


# --------------------------------------------------------------------------- armies

SAMPLE = {
    "rome": {"heavy_infantry": 4, "allied_infantry": 4, "light_infantry": 2, "heavy_cavalry": 2},
    "carthage": {
        "heavy_infantry": 2,
        "medium_infantry": 3,
        "light_infantry": 2,
        "elephants": 1,
        "heavy_cavalry": 2,
        "light_cavalry": 1,
    },
}


def test_army_ids(rs: Ruleset) -> None:
    assert set(rs.armies) == {"rome", "carthage"}


@pytest.mark.parametrize(
    ("army_id", "entry_id"),
    [(a, e) for a, entries in SAMPLE.items() for e in entries],
)
def test_army_entry(rs: Ruleset, army_id: str, entry_id: str) -> None:
    entry = rs.army(army_id).entries[entry_id]
    size = 1 if entry_id == "elephants" else 4
    assert entry.troop == entry_id
    assert entry.sizes == (size,) and entry.default_size == size
    assert entry.min == 0 and entry.max == SAMPLE[army_id][entry_id]


@pytest.mark.parametrize("army_id", sorted(SAMPLE))
def test_standard_army(rs: Ruleset, army_id: str) -> None:
    army = rs.army(army_id)
    assert set(army.entries) == set(SAMPLE[army_id])
    std = army.standard
    assert std is not None
    counts: dict[str, int] = {}
    for unit in std.units:
        counts[unit.entry] = counts.get(unit.entry, 0) + unit.count
    assert counts == SAMPLE[army_id]
    assert [ld.rank for ld in std.leaders] == ["general"]
    led = [u for u in std.units if u.leader is not None]
    assert len(led) == 1 and led[0].count == 1
    expected = "heavy_infantry" if army_id == "rome" else "heavy_cavalry"
    assert led[0].entry == expected


def test_unit_totals(rs: Ruleset, t: Tables) -> None:
    """Rome fields 12 units, Carthage 11: 6 stars win against either (the reported 6-4)."""
    totals = {a: sum(SAMPLE[a].values()) for a in SAMPLE}
    assert totals == {"rome": 12, "carthage": 11}
    assert t.victory.stars_needed(totals["rome"]) == 6
    assert t.victory.stars_needed(totals["carthage"]) == 6


# --------------------------------------------------------------------------- errata

ERRATA = {
    "hit-numbers": "gap",
    "hc-flank-fives": "interpretation",
    "allied-infantry-move": "gap",
    "allied-infantry-profile": "interpretation",
    "general-bonus": "interpretation",
    "general-death-test": "interpretation",
    "general-teleport": "gap",
    "standard-general": "interpretation",
    "elephant-dice": "interpretation",
    "elephant-terror": "interpretation",
    "elephant-rampage": "interpretation",
    "morale-last-base": "interpretation",
    "victory-rounding": "interpretation",
    "army-limits": "interpretation",
    "basing": "gap",
    "mi-shooting-timing": "gap",
    "activation-turn": "interpretation",
    "campaign-recovery": "gap",
    "campaign-general-fate": "interpretation",
}


def test_errata_ids(rs: Ruleset) -> None:
    assert {e.id for e in rs.errata} == set(ERRATA)


@pytest.mark.parametrize(("eid", "kind"), sorted(ERRATA.items()))
def test_erratum(rs: Ruleset, eid: str, kind: str) -> None:
    e = rs.erratum(eid)
    assert e.kind == kind
    assert e.applies_to and e.source_says and e.decision and e.override


def test_errata_reach_the_data(rs: Ruleset) -> None:
    assert rs.errata_for("tables.hit_numbers")[0].id == "hit-numbers"
    assert {e.id for e in rs.errata_for("troops.allied_infantry")} >= {
        "allied-infantry-move",
        "allied-infantry-profile",
    }


# --------------------------------------------------------------------------- broken copies

Edit = tuple[str, str, str]  # file, old text, new text


def _broken(tmp_path: Path, edits: list[Edit]) -> RulesetError:
    folder = tmp_path / "gsb-broken"
    shutil.copytree(FOLDER, folder)
    for file, old, new in edits:
        path = folder / file
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} must occur once in {file}"
        path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(folder)
    return info.value


BROKEN: dict[str, tuple[list[Edit], str, str]] = {
    "move differs from table": (
        [("tables.toml", 'label = "Light cavalry"\nmove = 4', 'label = "Light cavalry"\nmove = 3')],
        "troops.toml",
        "troops.light_cavalry.move",
    ),
    "melee dice differ": (
        [
            (
                "tables.toml",
                'label = "Heavy infantry"\ndice = 4',
                'label = "Heavy infantry"\ndice = 5',
            )
        ],
        "troops.toml",
        "troops.heavy_infantry.melee_dice",
    ),
    "hit points differ": (
        [
            (
                "tables.toml",
                'label = "Light infantry"\nbases = 4\nhits_per_base = 2',
                'label = "Light infantry"\nbases = 4\nhits_per_base = 4',
            )
        ],
        "troops.toml",
        "troops.light_infantry.hits_per_base",
    ),
    "melee row missing": (
        [
            (
                "tables.toml",
                '[melee.rows.elephants]\nlabel = "Elephants: as many as the opponent"\n'
                'dice = "as_opponent"\n',
                "",
            )
        ],
        "tables.toml",
        "tables.melee.rows",
    ),
    "row for no troop": (
        [
            (
                "tables.toml",
                "[terrain]",
                '[hit_numbers.rows.camels]\nlabel = "Camels"\nhit_on = 5\n\n[terrain]',
            )
        ],
        "tables.toml",
        "tables.hit_numbers.rows.camels",
    ),
    "unknown pivot kind": (
        [("troops.toml", 'pivot = "elephant"', 'pivot = "elephantine"')],
        "troops.toml",
        "troops.elephants.pivot",
    ),
    "shooter without shooting row": (
        [
            (
                "troops.toml",
                'pivot = "standard"\nspecial_rules = ["The text gives no move',
                'pivot = "standard"\nshoots = true\nspecial_rules = ["The text gives no move',
            )
        ],
        "tables.toml",
        "tables.shooting.rows",
    ),
    "disengage differs": (
        [("troops.toml", 'disengage = "from_infantry"', 'disengage = "any"')],
        "troops.toml",
        "troops.heavy_cavalry.disengage",
    ),
    "unknown tie army": (
        [("tables.toml", 'ties_to = "carthage"', 'ties_to = "carthago"')],
        "tables.toml",
        "tables.initiative.ties_to",
    ),
    "unknown optional-rule troop": (
        [("tables.toml", 'attacker = "heavy_cavalry"', 'attacker = "knights"')],
        "tables.toml",
        "tables.optional_rules.hc_flank_rear_vs_hi.attacker",
    ),
    "unknown flank-bonus troop": (
        [("tables.toml", "{ heavy_cavalry = 2 }", "{ cataphracts = 2 }")],
        "tables.toml",
        "tables.melee.flank_rear_extra_dice_by_troop.cataphracts",
    ),
    "elephant unit of 2 bases": (
        [("armies.toml", "sizes = [1]\ndefault_size = 1", "sizes = [2]\ndefault_size = 2")],
        "armies.toml",
        "armies.carthage.entries.elephants.sizes",
    ),
    "hit number out of range": (
        [("tables.toml", 'label = "Elephants"\nhit_on = 5', 'label = "Elephants"\nhit_on = 7')],
        "tables.toml",
        "hit_numbers.rows.elephants.hit_on",
    ),
    "bad dice expression": (
        [("tables.toml", 'death_test = "2d6"', 'death_test = "two dice"')],
        "tables.toml",
        "general.death_test",
    ),
    "unit width missing": (
        [("ruleset.toml", "unit_width_mm = 80.0\n", "")],
        "ruleset.toml",
        "ruleset",
    ),
    "table in yards": (
        [("ruleset.toml", 'unit = "cm" }', 'unit = "yd" }')],
        "ruleset.toml",
        "ruleset.table.unit",
    ),
    "erratum names nothing": (
        [
            (
                "errata.toml",
                '"tables.hit_numbers.complete_in_source"',
                '"tables.hit_numbers.is_complete"',
            )
        ],
        "errata.toml",
        "errata[0].applies_to",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_copy_is_refused(tmp_path: Path, case: str) -> None:
    edits, file, path = BROKEN[case]
    err = _broken(tmp_path, edits)
    assert any(p.file == file and p.path == path for p in err.problems), err.problems


def test_unbroken_copy_loads(tmp_path: Path, builtin_folder: Path) -> None:
    folder = tmp_path / "gsb-copy"
    shutil.copytree(builtin_folder, folder)
    assert load_ruleset(folder, builtin=False).id == "grown-slightly-bald"


def test_dice_are_d6(t: Tables) -> None:
    """Melee and shooting dice are d6: the text's hit scores (6s, 5-6, 4s) read on a d6."""
    assert (t.melee.die, t.shooting.die) == ("d6", "d6")
