"""Grown Slightly Bald data (rulesets/grown-slightly-bald) checked against the source text
(seeds/002_75d8fed21d95c401.txt) and the decisions in its errata.toml."""

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
    assert m.data_version == "1.4.0"
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
    """Errata hit-numbers: the text gives no hit numbers; the author's "also
    count 5s" implies heavy infantry are hit only on 6; every other type on 5-6."""
    assert t.hit_numbers.rows[tid].hit_on == (6 if tid == "heavy_infantry" else 5)


def test_hit_numbers_flagged(t: Tables) -> None:
    assert t.hit_numbers.complete_in_source is False
    assert t.hit_numbers.by == "target"


def test_optional_hc_flank_rule(t: Tables) -> None:
    """Errata hc-flank-fives: the author's afterthought is an optional rule, off by default."""
    rule = t.optional_rules["hc_flank_rear_vs_hi"]
    assert rule.enabled is False
    assert (rule.attacker, rule.target, rule.hit_on) == ("heavy_cavalry", "heavy_infantry", 5)
    assert set(rule.situations) == {"flank", "rear"}


def test_optional_five_six_for_all(t: Tables) -> None:
    """Errata hit-numbers: the earlier reading, 5-6 against every type, stays as an option (off):
    any attacker, from any side, hits heavy infantry on 5 too."""
    rule = t.optional_rules["five_six_for_all"]
    assert rule.enabled is False
    assert (rule.attacker, rule.target, rule.hit_on) == (None, "heavy_infantry", 5)
    assert set(rule.situations) == {"front", "flank", "rear"}


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
    "shot-timing": "interpretation",
    "pivot-increments": "interpretation",
    "activation-turn": "interpretation",
    "campaign-recovery": "gap",
    "campaign-general-fate": "interpretation",
    "terrain-kinds": "gap",
    "shooting-arc": "gap",
    "engaged-moves": "interpretation",
    "turn-to-face": "gap",
    "carthage-swap": "interpretation",
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


#: Issue 13: hostile house-rule values, one of each kind, each refused at load with the file,
#: the key path and what is wrong (a string, float or bool where a number belongs; a huge
#: count; a die of millions of faces; a number that would make the odds or a sheet run on).
HOSTILE: dict[str, tuple[Edit, str, str, str | tuple[str, ...]]] = {
    "string for a number": (
        (
            "troops.toml",
            "bases = 4\nhits_per_base = 4\nmove = 1",
            'bases = "4"\nhits_per_base = 4\nmove = 1',
        ),
        "troops.toml",
        "troops.heavy_infantry.bases",
        "valid integer",
    ),
    "float for a whole number": (
        (
            "tables.toml",
            'label = "Heavy infantry"\nmove = 1',
            'label = "Heavy infantry"\nmove = 1.5',
        ),
        "tables.toml",
        "movement.rows.heavy_infantry.move",
        "valid integer",
    ),
    "string for a yes or no": (
        ("tables.toml", "chain = false", 'chain = "no"'),
        "tables.toml",
        "morale.chain",
        "valid boolean",
    ),
    "a billion hit points a base": (
        (
            "tables.toml",
            'label = "Heavy infantry"\nbases = 4\nhits_per_base = 4',
            'label = "Heavy infantry"\nbases = 4\nhits_per_base = 1000000000',
        ),
        "tables.toml",
        "hit_points.rows.heavy_infantry.hits_per_base",
        "less than or equal to 8",
    ),
    "a unit of too many hit points": (
        (
            "troops.toml",
            "bases = 4\nhits_per_base = 4\nmove = 1",
            "bases = 16\nhits_per_base = 8\nmove = 1",
        ),
        "troops.toml",
        "troops.heavy_infantry.hits_per_base",
        "128 hit points",
    ),
    "a billion melee dice": (
        (
            "tables.toml",
            'label = "Heavy infantry"\ndice = 4',
            'label = "Heavy infantry"\ndice = 1000000000',
        ),
        "tables.toml",
        "melee.rows.heavy_infantry.dice",
        "0 to 12",
    ),
    "negative melee dice": (
        ("troops.toml", "move = 1\nmelee_dice = 4", "move = 1\nmelee_dice = -4"),
        "troops.toml",
        "troops.heavy_infantry.melee_dice",
        "0 to 12",
    ),
    # the common dice check (app/rules/schema.py's DiceExpr) may refuse a die of millions of
    # faces before GSB's own; both name the same bound: "a die has 2 to 100 faces" (GSB) or
    # "a die of 99,999,999 faces; dice have 2 to 100" (common)
    "a die of 99,999,999 faces": (
        ("tables.toml", 'die = "d6"\nchain = false', 'die = "d99999999"\nchain = false'),
        "tables.toml",
        "morale.die",
        "2 to 100",
    ),
    "a die of 101 faces": (
        ("tables.toml", 'die = "d6"\nchain = false', 'die = "d101"\nchain = false'),
        "tables.toml",
        "morale.die",
        "2 to 100",
    ),
    # ... and 99,999,999 dice: GSB says "the death test rolls 1 to 4 dice", the common check
    # "99,999,999 dice; a data expression has 1 to 100"
    "99,999,999 dice for the death test": (
        ("tables.toml", 'death_test = "2d6"', 'death_test = "99999999d6"'),
        "tables.toml",
        "general.death_test",
        ("the death test rolls 1 to 4 dice", "99,999,999 dice; a data expression has 1 to 100"),
    ),
    "five dice for the death test": (
        ("tables.toml", 'death_test = "2d6"', 'death_test = "5d6"'),
        "tables.toml",
        "general.death_test",
        "the death test rolls 1 to 4 dice",
    ),
    "a death test of d21s": (
        (
            "tables.toml",
            'death_test = "2d6"\ndies_on = [6, 6]',
            'death_test = "2d21"\ndies_on = [6, 6]',
        ),
        "tables.toml",
        "general.death_test",
        "its dice have 2 to 20 faces",
    ),
    "a melee die that is not one plain die": (
        ("tables.toml", 'die = "d6"\nfront_only', 'die = "2d6+1"\nfront_only'),
        "tables.toml",
        "melee.die",
        "one plain die",
    ),
    "a death test a die short": (
        ("tables.toml", "dies_on = [6, 6]", "dies_on = [6]"),
        "tables.toml",
        "general.dies_on",
        "one face (1-6) for each of the 2 dice",
    ),
    "a range of nan": (
        ("tables.toml", "range = 1\n", "range = nan\n"),
        "tables.toml",
        "shooting.range",
        "finite number",
    ),
    "a rampage radius across the world": (
        ("tables.toml", "rampage_radius = 1", "rampage_radius = 1e300"),
        "tables.toml",
        "elephants.rampage_radius",
        "less than or equal to 24",
    ),
    "an activation ladder that never rises": (
        ("tables.toml", "step = 1\n", "step = 0\n"),
        "tables.toml",
        "activation.step",
        "greater than or equal to 1",
    ),
    "an activation die read 0-99": (
        ("tables.toml", "face_max = 9", "face_max = 99"),
        "tables.toml",
        "activation.face_max",
        "10 faces: 0-9",
    ),
    "a first score far off the die": (
        ("tables.toml", "first_needed = 1", "first_needed = -1000000"),
        "tables.toml",
        "activation.first_needed",
        "greater than or equal to 0",
    ),
    "a million stars for a unit": (
        ("tables.toml", "destroyed_unit_stars = 1", "destroyed_unit_stars = 1000000"),
        "tables.toml",
        "hit_points.destroyed_unit_stars",
        "less than or equal to 10",
    ),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_value_is_refused(tmp_path: Path, case: str) -> None:
    edit, file, path, words = HOSTILE[case]
    err = _broken(tmp_path, [edit])
    found = [p for p in err.problems if p.file == file and p.path == path]
    assert found, err.problems
    message = found[0].message
    assert "\n" not in message, message
    if isinstance(words, str):
        assert words in message, message
    else:  # whichever check speaks first, its whole wording
        assert any(w in message for w in words), message


def test_values_at_the_bounds_load(tmp_path: Path) -> None:
    """The bounds leave room for house rules: units of 16 bases of 4, ten dice, a d100
    activation die read 0-99."""
    folder = tmp_path / "gsb-big"
    shutil.copytree(FOLDER, folder)
    edits = [
        (
            "troops.toml",
            "bases = 4\nhits_per_base = 4\nmove = 1",
            "bases = 16\nhits_per_base = 4\nmove = 1",
        ),
        (
            "tables.toml",
            'label = "Heavy infantry"\nbases = 4\nhits_per_base = 4',
            'label = "Heavy infantry"\nbases = 16\nhits_per_base = 4',
        ),
        (
            "armies.toml",
            'troop = "heavy_infantry"\nsizes = [4]\ndefault_size = 4\nmin = 0\nmax = 4',
            'troop = "heavy_infantry"\nsizes = [16]\ndefault_size = 16\nmin = 0\nmax = 4',
        ),
        (
            "armies.toml",
            'troop = "heavy_infantry"\nsizes = [4]\ndefault_size = 4\nmin = 0\nmax = 2',
            'troop = "heavy_infantry"\nsizes = [16]\ndefault_size = 16\nmin = 0\nmax = 2',
        ),
        ("troops.toml", "move = 1\nmelee_dice = 4", "move = 1\nmelee_dice = 10"),
        (
            "tables.toml",
            'label = "Heavy infantry"\ndice = 4',
            'label = "Heavy infantry"\ndice = 10',
        ),
        (
            "tables.toml",
            'die = "d10"\nface_min = 0\nface_max = 9',
            'die = "d100"\nface_min = 0\nface_max = 99',
        ),
    ]
    for file, old, new in edits:
        path = folder / file
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, (file, old)
        path.write_text(text.replace(old, new), encoding="utf-8")
    big = load_ruleset(folder, builtin=False)
    assert troop(big, "heavy_infantry").total_hits == 64
    mech = GSBMechanics(big)
    status = mech.initial_status("heavy_infantry", 16, None)
    assert mech.status_problem("heavy_infantry", status) is None
    too_big = mech.initial_status("heavy_infantry", 17, None)
    assert "68 hit points, more than the 64" in (
        mech.status_problem("heavy_infantry", too_big) or ""
    )


def test_unbroken_copy_loads(tmp_path: Path, builtin_folder: Path) -> None:
    folder = tmp_path / "gsb-copy"
    shutil.copytree(builtin_folder, folder)
    assert load_ruleset(folder, builtin=False).id == "grown-slightly-bald"


def test_dice_are_d6(t: Tables) -> None:
    """Melee and shooting dice are d6: the text's hit scores (6s, 5-6, 4s) read on a d6."""
    assert (t.melee.die, t.shooting.die) == ("d6", "d6")
