"""Quincunx data against the source text (Duke Seifried, 1999; seeds/000_084c64a871873e7e.txt).

Expected values below are transcribed independently from the source, so a slip in the TOML
(or here) fails a test.
"""

from __future__ import annotations

import dataclasses
import shutil
import time
from pathlib import Path

import pytest

from app.rules.errors import RulesetError
from app.rules.registry import BUILTIN_DIR
from app.rules.ruleset import Ruleset
from app.rules.scale import Scale
from app.rules.schema import Category, Strict
from app.rulesets import find_engine, load_ruleset
from app.rulesets.quincunx import SCHEMA
from app.rulesets.quincunx.checks import check
from app.rulesets.quincunx.schema import Tables, Troop, tables

ROOT = Path(__file__).resolve().parents[3]
FOLDER = BUILTIN_DIR / "quincunx"
SEED = ROOT.parent / "shared" / "seeds" / "000_084c64a871873e7e.txt"


def troop(rs: Ruleset, troop_id: str) -> Troop:
    tr = rs.troop(troop_id)
    assert isinstance(tr, Troop)
    return tr


# --------------------------------------------------------------------------- meta


def test_meta(rs: Ruleset) -> None:
    m = rs.meta
    assert (m.id, m.engine, m.short_name) == ("quincunx", "quincunx", "Quincunx")
    assert m.author == "Duke Seifried"
    assert m.year == 1999
    assert m.source_file == "000_084c64a871873e7e.txt"
    assert m.data_version == "1.6.0"
    assert m.counts == "figures"
    assert m.scales == ("1:10", "1:100")
    assert m.default_scale == "1:10"
    assert m.unit_of_measure == "inch"
    assert "25mm" in m.figure_scale
    assert rs.organisation.group_name == "battlegroup"
    assert rs.organisation.grades == ()
    engine = find_engine("quincunx")
    assert engine.name == "quincunx" and engine.builtin_folder == "quincunx"
    assert engine.schema is SCHEMA and rs.engine is engine


def test_turn_phases(rs: Ruleset) -> None:
    ids = [p.id for p in rs.turn.phases]
    assert ids == [
        "initiative",
        "rampage",
        "movement",
        "missilery",
        "pre_melee",
        "melee",
        "attrition",
        "rest",
    ]


def test_leaders_section(rs: Ruleset) -> None:
    ld = rs.leaders
    assert ld.generals is None  # a C-in-C is usual, not required
    assert ld.move == 12
    assert ld.command_range == 12
    assert ld.command_chain == 6
    assert ld.bonus_default == 1
    assert ld.bonus_great == 2
    assert set(ld.great_leaders) == {"Hannibal", "Scipio"}
    assert [(w.wounds, w.move) for w in ld.wound_effects] == [(1, 6), (2, 3), (3, None)]
    assert "kill" in ld.wound_effects[-1].effect.lower()


# --------------------------------------------------------------------------- movement


MOVEMENT = [
    ("battleline", 2, 6),
    ("formed_light_infantry", 3, 9),
    ("skirmishing_light_infantry", 4, 12),
    ("elephant_light_battlegroup", 3, 9),
    ("elephants", 4, 12),
    ("heavy_medium_cavalry", 4, 12),
    ("light_cavalry", 6, 18),
    ("commanders", 4, 12),
]


def test_movement_classes_complete(t: Tables) -> None:
    assert t.movement.inches_per_move_factor == 3
    assert list(t.movement.classes) == [row[0] for row in MOVEMENT]


@pytest.mark.parametrize(("cid", "mf", "inches"), MOVEMENT)
def test_movement_row(t: Tables, cid: str, mf: int, inches: int) -> None:
    mc = t.movement.classes[cid]
    assert (mc.move_factors, mc.inches) == (mf, inches)


def test_command_and_evasion(t: Tables) -> None:
    c = t.command
    assert (c.range_move_factors, c.range_inches, c.chain_move_factors, c.chain_inches) == (
        4,
        12,
        2,
        6,
    )
    e = t.evasion
    assert (e.evader_die, e.attacker_die, e.move_factors_per_point, e.ties) == (
        "d10",
        "d6",
        1,
        "fail",
    )
    assert e.rounds_without_moving_after == 1


def test_terrain(t: Tables) -> None:
    assert t.terrain.woods.missile_level_shift == -1
    assert t.terrain.woods.melee_column_shift == "wood_edge"
    assert t.terrain.streams.crossing_rounds == 3
    assert len(t.terrain.streams.steps) == 3
    assert t.terrain.streams.missile_level_shift == 1
    assert t.terrain.streams.melee_column_shift == "stream_far_shore"


# --------------------------------------------------------------------------- missiles


@pytest.mark.parametrize(
    ("weapon", "short", "long_min", "long_max"),
    [("bow", 12, 12.1, 24), ("sling", 12, 12.1, 24), ("javelin", 3, 3.1, 9)],
)
def test_missile_ranges(
    t: Tables, weapon: str, short: float, long_min: float, long_max: float
) -> None:
    r = t.missile_ranges.weapons[weapon]
    assert (r.short_max, r.long_min, r.long_max) == (short, long_min, long_max)


def test_missile_ranges_complete(t: Tables) -> None:
    assert set(t.missile_ranges.weapons) == {"bow", "sling", "javelin"}
    assert t.missile_ranges.arc_degrees == 90


MISSILE_BANDS = [
    (4, 6, None, "2d4", "2d6"),
    (7, 9, "2d4", "2d6", "2d8"),
    (10, 12, "2d6", "2d8", "2d10"),
    (13, None, "2d8", "2d10", "2d12"),
]


def test_missile_bands_complete(t: Tables) -> None:
    assert len(t.missile_dice.bands) == len(MISSILE_BANDS)
    assert t.missile_dice.casualty_divisor == 2
    assert t.missile_dice.dice_ladder == ("2d4", "2d6", "2d8", "2d10", "2d12")


@pytest.mark.parametrize(("index", "row"), list(enumerate(MISSILE_BANDS)))
def test_missile_band(t: Tables, index: int, row: tuple[object, ...]) -> None:
    b = t.missile_dice.bands[index]
    assert (b.min_firing, b.max_firing, b.cover, b.long, b.short) == row


@pytest.mark.parametrize(
    ("mid", "value", "kind"),
    [
        ("shielded_battleline_infantry", -1, "target"),
        ("armoured_heavy_cavalry", -1, "target"),
        ("skirmisher", -1, "target"),
        ("flank", 1, "situation"),
        ("leader", 1, "leader"),
    ],
)
def test_missile_modifiers(t: Tables, mid: str, value: int, kind: str) -> None:
    mod = t.missile_modifiers.modifiers[mid]
    assert (mod.modifier, mod.kind) == (value, kind)


def test_pre_melee(t: Tables) -> None:
    p = t.pre_melee
    assert p.range_inches == 3
    assert {k: v.die for k, v in p.volley_dice.items()} == {"pila": "d12", "javelins": "d10"}
    assert p.loser_modifier == -1
    assert p.rounds_affected == 1
    assert p.no_volley == "loses"


# --------------------------------------------------------------------------- melee

MELEE = {
    "roman_velites": ("d8 d8 d6 d6 d6 d4 d4 d4", "either"),
    "roman_hastati": ("d10 d10 d8 d8 d6 d6 d4 d4", "formed"),
    "roman_principes": ("d12 d12 d10 d10 d8 d8 d6 d4", "formed"),
    "roman_triarii": ("d12 d12 d12 d10 d8 d6 d4 d4", "formed"),
    "roman_equites": ("d12 d12 d10 d10 d6 d4 d4 d4", "formed"),
    "allied_extraordinarii": ("d4 d4 d4 d4 d4 d4 d4 d4", "skirmish"),
    "allied_lights": ("d8 d8 d8 d6 d6 d4 d4 d4", "either"),
    "allied_hastati": ("d8 d8 d8 d6 d6 d4 d4 d4", "formed"),
    "allied_principes": ("d10 d10 d10 d8 d6 d6 d4 d4", "formed"),
    "allied_medium_cavalry": ("d10 d10 d8 d8 d6 d4 d4 d4", "formed"),
    "allied_spear_phalanx": ("d12 d12 d10 d10 d8 d6 d4 d4", "formed"),
    "celtic_swords": ("d12 d12 d10 d8 d6 d4 d4 d4", "formed"),
    "celtic_light_javelins": ("d8 d8 d8 d6 d4 d4 d4 d4", "either"),
    "celtic_heavy_cavalry": ("d12 d12 d10 d8 d6 d4 d4 d4", "formed"),
    "balearic_slingers": ("d4 d4 d4 d4 d4 d4 d4 d4", "skirmish"),
    "spanish_caetrati_scutari": ("d10 d10 d8 d8 d6 d6 d4 d4", "formed"),
    "spanish_medium_cavalry": ("d10 d10 d8 d8 d6 d4 d4 d4", "formed"),
    "pike_phalanx": ("d12 d12 d10 d10 d8 d8 d6 d4", "formed"),
    "lp_heavy_cavalry": ("d12 d12 d10 d10 d6 d4 d4 d4", "formed"),
    "carthaginian_elephants": ("d12 d12 d12 d10 d8 d6 d4 d4", "formed"),
    "numidian_light_cavalry": ("d8 d8 d8 d8 d8 d6 d4 d4", "skirmish"),
    "numidian_light_javelins": ("d6 d6 d6 d6 d6 d4 d4 d4", "skirmish"),
    "libyan_light_javelins": ("d6 d6 d6 d6 d6 d4 d4 d4", "skirmish"),
    "moroccan_archers": ("d4 d4 d4 d4 d4 d4 d4 d4", "skirmish"),
}

# track -> (initial_attack_bonus, initial_attack_extra_die, new_target_bonus)
MELEE_SPECIALS = {
    "allied_spear_phalanx": (1, None, ()),
    "celtic_swords": (1, None, ()),
    "celtic_light_javelins": (1, None, ()),
    "celtic_heavy_cavalry": (1, None, ()),
    "pike_phalanx": (0, "d6", ()),
    "carthaginian_elephants": (0, None, (2, 1, 0)),
}


def test_melee_matrix_complete(t: Tables) -> None:
    assert t.melee.rings == (0, 1, 2, 3, 4, 5, 6, 7)
    assert list(t.melee.tracks) == list(MELEE)


@pytest.mark.parametrize("track_id", list(MELEE))
def test_melee_track(t: Tables, track_id: str) -> None:
    dice, formation = MELEE[track_id]
    track = t.melee.tracks[track_id]
    assert track.dice == tuple(dice.split())
    assert track.formation == formation
    bonus, extra, new_target = MELEE_SPECIALS.get(track_id, (0, None, ()))
    assert track.initial_attack_bonus == bonus
    assert track.initial_attack_extra_die == extra
    assert track.new_target_bonus == new_target
    # errata "elephant-bonus-on-assault": the new-target bonus is the assaulting unit's
    assert track.new_target_bonus_on == "assault"


def test_every_track_is_used(rs: Ruleset, t: Tables) -> None:
    used = {troop(rs, tid).melee_track for tid in rs.troops}
    assert used == set(t.melee.tracks)


@pytest.mark.parametrize(
    ("mid", "value"), [("mounted", 1), ("enemy_flank", 2), ("downhill", 1), ("leader", 1)]
)
def test_melee_modifiers(t: Tables, mid: str, value: int) -> None:
    assert t.melee_modifiers.modifiers[mid].modifier == value


def test_melee_modifiers_complete(t: Tables) -> None:
    assert set(t.melee_modifiers.modifiers) == {"mounted", "enemy_flank", "downhill", "leader"}


COLUMN_SHIFTS = [
    ("skirmish_mode", 1, ()),
    ("peltast_volley_formed", 2, ()),
    ("peltast_volley_skirmish", 3, ("skirmish_mode", "peltast_volley_formed")),
    ("wood_edge", 1, ()),
    ("stream_far_shore", 2, ()),
    ("attrition_50", 1, ()),
    ("attrition_33", 2, ("attrition_50",)),
]


def test_column_shifts_complete(t: Tables) -> None:
    assert list(t.column_shifts.shifts) == [row[0] for row in COLUMN_SHIFTS]


@pytest.mark.parametrize(("sid", "columns", "replaces"), COLUMN_SHIFTS)
def test_column_shift(t: Tables, sid: str, columns: int, replaces: tuple[str, ...]) -> None:
    shift = t.column_shifts.shifts[sid]
    assert (shift.columns, shift.replaces) == (columns, replaces)


def test_melee_resolution(t: Tables) -> None:
    m = t.melee_resolution
    assert m.casualty_divisor == 2
    assert m.rings_per_round == 1
    assert (m.recoil_move_factors, m.recoil_inches, m.recoil_extra_rings) == (4, 12, 1)
    assert m.rest_removes_rings == 1
    assert m.optional_victory_ring_removal is False


def test_initiative(t: Tables) -> None:
    i = t.initiative
    assert (i.rounds_per_turn, i.die, i.die_after_melee_win) == (2, "d10", "d12")


# --------------------------------------------------------------------------- attrition

ATTRITION = [
    (50, (3, 6, 8, 9, 18), "attrition_50", False),
    (33, (2, 4, 5, 6, 12), "attrition_33", False),
    (25, (1, 3, 4, 5, 9), None, True),
]


def test_attrition_columns(t: Tables) -> None:
    a = t.attrition
    assert a.original_sizes == (6, 12, 16, 18, 36)
    assert [(x.size, x.column) for x in a.size_aliases] == [(15, 16)]
    assert len(a.rows) == len(ATTRITION)


@pytest.mark.parametrize(("index", "row"), list(enumerate(ATTRITION)))
def test_attrition_row(t: Tables, index: int, row: tuple[object, ...]) -> None:
    r = t.attrition.rows[index]
    assert (r.percent, r.remaining, r.column_shift, r.disintegrates) == row


def test_stragglers(t: Tables) -> None:
    s = t.stragglers
    assert (s.retire_move_factors, s.retire_inches, s.captured_by_enemy_above_percent) == (
        4,
        12,
        95,
    )


# --------------------------------------------------------------------------- elephants


def test_elephants(t: Tables) -> None:
    e = t.elephants
    assert (e.elements_per_unit, e.crew_per_element, e.elephant_hits) == (2, 3, 3)
    assert (e.casualty_points_per_element, e.casualty_points_per_unit) == (6, 12)
    assert e.hit_order == ("pikeman", "javelineer", "mahout", "elephant")
    assert e.spacing_mm == 60
    assert (e.missile_as_figures, e.missile_weapon) == (12, "javelin")
    assert set(e.escort_troops) == {"libyan_javelins", "numidian_javelins"}
    assert (e.escorts_between, e.escorts_each_side) == (2, 2)


RAMPAGE = {
    "1": "North",
    "2": "Northeast",
    "3": "East",
    "4": "Southeast",
    "5": "South",
    "6": "Southwest",
    "7": "West",
    "8": "Northwest",
}


@pytest.mark.parametrize(("face", "direction"), list(RAMPAGE.items()))
def test_rampage_direction(t: Tables, face: str, direction: str) -> None:
    assert t.rampage.directions[face] == direction


def test_rampage(t: Tables) -> None:
    r = t.rampage
    assert (r.direction_die, r.move_die, r.trample_die) == ("d8", "d6", "d12+2")
    assert len(r.directions) == 8


def test_elephants_and_horses(t: Tables) -> None:
    h = t.elephants_and_horses
    assert (h.keep_away_move_factors, h.keep_away_inches) == (2, 6)
    assert set(h.exempt_troops) == {"numidian_light_cavalry", "lp_heavy_cavalry"}


def test_leaders_table(t: Tables) -> None:
    ld = t.leaders
    assert (ld.attached_bonus, ld.great_leader_bonus) == (1, 2)
    assert set(ld.great_leaders) == {"Hannibal", "Scipio"}
    assert ld.risk_dice == "2d6"
    moves = [(m.wounds, m.move_factors, m.inches) for m in ld.moves]
    assert moves == [(0, 4, 12), (1, 2, 6), (2, 1, 3), (3, None, None)]


# --------------------------------------------------------------------------- troops

# troop -> (category, track, formation, movement, movement_skirmish, light_class,
#           missile_target, volley, weapons)
SHB = ("shielded_battleline_infantry",)
AHC = ("armoured_heavy_cavalry",)
SK = ("skirmisher",)
BL = "battleline"
FLI = "formed_light_infantry"
SLI = "skirmishing_light_infantry"
HMC = "heavy_medium_cavalry"
TROOPS: dict[str, tuple[object, ...]] = {
    "roman_triarii": ("heavy_infantry", "roman_triarii", "formed", BL, None, None, SHB, None, ()),
    "roman_principes": (
        "heavy_infantry",
        "roman_principes",
        "formed",
        BL,
        None,
        None,
        SHB,
        "pila",
        (),
    ),
    "roman_hastati": ("heavy_infantry", "roman_hastati", "formed", BL, None, None, SHB, "pila", ()),
    "roman_velites": (
        "light_infantry",
        "roman_velites",
        "either",
        FLI,
        SLI,
        "peltast",
        SK,
        None,
        ("javelin",),
    ),
    "roman_equites": ("heavy_cavalry", "roman_equites", "formed", HMC, None, None, AHC, None, ()),
    "allied_cavalry": (
        "medium_cavalry",
        "allied_medium_cavalry",
        "formed",
        HMC,
        None,
        None,
        (),
        None,
        (),
    ),
    "extraordinarii": (
        "light_infantry",
        "allied_extraordinarii",
        "skirmish",
        SLI,
        None,
        "psiloi",
        SK,
        None,
        ("sling", "bow"),
    ),
    "allied_hastati": (
        "heavy_infantry",
        "allied_hastati",
        "formed",
        BL,
        None,
        None,
        SHB,
        "pila",
        (),
    ),
    "allied_principes": (
        "heavy_infantry",
        "allied_principes",
        "formed",
        BL,
        None,
        None,
        SHB,
        "pila",
        (),
    ),
    "allied_lights": (
        "light_infantry",
        "allied_lights",
        "either",
        FLI,
        SLI,
        "peltast",
        SK,
        None,
        ("javelin",),
    ),
    "allied_triarii": ("heavy_infantry", "roman_triarii", "formed", BL, None, None, SHB, None, ()),
    "hellenic_phalanx": (
        "heavy_infantry",
        "allied_spear_phalanx",
        "formed",
        BL,
        None,
        None,
        SHB,
        None,
        (),
    ),
    "carthaginian_phalanx": (
        "heavy_infantry",
        "pike_phalanx",
        "formed",
        BL,
        None,
        None,
        SHB,
        None,
        (),
    ),
    "liby_phoenician_phalanx": (
        "heavy_infantry",
        "pike_phalanx",
        "formed",
        BL,
        None,
        None,
        SHB,
        None,
        (),
    ),
    "iberian_scutari": (
        "heavy_infantry",
        "spanish_caetrati_scutari",
        "formed",
        BL,
        None,
        None,
        SHB,
        "javelins",
        (),
    ),
    "celt_iberian_scutari": (
        "heavy_infantry",
        "spanish_caetrati_scutari",
        "formed",
        BL,
        None,
        None,
        SHB,
        "javelins",
        (),
    ),
    "lusitanian_scutari": (
        "heavy_infantry",
        "spanish_caetrati_scutari",
        "formed",
        BL,
        None,
        None,
        (),
        "javelins",
        (),
    ),
    "iberian_caetrati": (
        "heavy_infantry",
        "spanish_caetrati_scutari",
        "formed",
        BL,
        None,
        None,
        (),
        "javelins",
        (),
    ),
    "celtic_swordsmen": (
        "heavy_infantry",
        "celtic_swords",
        "formed",
        BL,
        None,
        None,
        SHB,
        "javelins",
        (),
    ),
    "celtic_light_javelins": (
        "light_infantry",
        "celtic_light_javelins",
        "either",
        FLI,
        SLI,
        "peltast",
        SK,
        None,
        ("javelin",),
    ),
    "balearic_slingers": (
        "light_infantry",
        "balearic_slingers",
        "skirmish",
        SLI,
        None,
        "psiloi",
        SK,
        None,
        ("sling",),
    ),
    "libyan_javelins": (
        "light_infantry",
        "libyan_light_javelins",
        "skirmish",
        SLI,
        None,
        "psiloi",
        SK,
        None,
        ("javelin",),
    ),
    "numidian_javelins": (
        "light_infantry",
        "numidian_light_javelins",
        "skirmish",
        SLI,
        None,
        "psiloi",
        SK,
        None,
        ("javelin",),
    ),
    "moroccan_archers": (
        "light_infantry",
        "moroccan_archers",
        "skirmish",
        SLI,
        None,
        "psiloi",
        SK,
        None,
        ("bow",),
    ),
    "lp_heavy_cavalry": (
        "heavy_cavalry",
        "lp_heavy_cavalry",
        "formed",
        HMC,
        None,
        None,
        AHC,
        None,
        (),
    ),
    "celtic_noble_cavalry": (
        "heavy_cavalry",
        "celtic_heavy_cavalry",
        "formed",
        HMC,
        None,
        None,
        AHC,
        None,
        (),
    ),
    "celtic_heavy_cavalry": (
        "heavy_cavalry",
        "celtic_heavy_cavalry",
        "formed",
        HMC,
        None,
        None,
        (),
        None,
        (),
    ),
    "spanish_medium_cavalry": (
        "medium_cavalry",
        "spanish_medium_cavalry",
        "formed",
        HMC,
        None,
        None,
        (),
        None,
        (),
    ),
    "numidian_light_cavalry": (
        "light_cavalry",
        "numidian_light_cavalry",
        "skirmish",
        "light_cavalry",
        None,
        None,
        SK,
        None,
        ("javelin",),
    ),
    "elephants": (
        "elephant",
        "carthaginian_elephants",
        "formed",
        "elephants",
        None,
        None,
        (),
        None,
        ("javelin",),
    ),
}


def test_troops_complete(rs: Ruleset) -> None:
    assert set(rs.troops) == set(TROOPS)


@pytest.mark.parametrize("troop_id", list(TROOPS))
def test_troop(rs: Ruleset, t: Tables, troop_id: str) -> None:
    cat, track, formation, move, move_sk, light, target, volley, weapons = TROOPS[troop_id]
    tr = troop(rs, troop_id)
    assert tr.category == Category(str(cat))
    assert tr.melee_track == track
    assert tr.formation == formation
    assert tr.movement == move
    assert tr.movement_skirmish == move_sk
    assert tr.light_class == light
    assert tr.missile_target == target
    assert tr.volley == volley
    assert tuple(w.name for w in tr.weapons) == weapons
    assert tr.shoots == bool(weapons)
    assert tr.mounted == tr.category.mounted
    for w in tr.weapons:
        rng = t.missile_ranges.weapons[w.name]
        assert (w.short_range, w.long_range) == (rng.short_max, rng.long_max)
    assert tr.description and tr.special_rules


@pytest.mark.parametrize(
    ("troop_id", "ranks_formed", "ranks_skirmish"),
    [
        ("roman_hastati", (1, 2), ()),
        ("roman_triarii", (1, 2), ()),
        ("roman_velites", (3,), (1, 2)),
        ("celtic_light_javelins", (3,), (1, 2)),
        ("celtic_swordsmen", (2,), ()),
        ("iberian_caetrati", (2,), ()),
        ("carthaginian_phalanx", (4,), ()),
        ("hellenic_phalanx", (4,), ()),
        ("roman_equites", (3,), ()),
        ("numidian_light_cavalry", (), (1, 2)),
        ("balearic_slingers", (), (1, 2)),
    ],
)
def test_troop_ranks(
    rs: Ruleset, troop_id: str, ranks_formed: tuple[int, ...], ranks_skirmish: tuple[int, ...]
) -> None:
    tr = troop(rs, troop_id)
    assert (tr.ranks_formed, tr.ranks_skirmish) == (ranks_formed, ranks_skirmish)


@pytest.mark.parametrize(
    ("troop_id", "per", "front", "depth", "per_base"),
    [
        ("roman_hastati", "base", 60, 40, 6),
        ("roman_principes", "base", 60, 40, 6),
        ("roman_triarii", "base", 60, 40, 6),
        ("allied_hastati", "base", 60, 40, 6),
        ("allied_principes", "base", 60, 40, 6),
        ("allied_triarii", "base", 60, 40, 6),
        ("roman_velites", "figure", 20, 20, 1),
        ("balearic_slingers", "figure", 20, 20, 1),
        ("celtic_swordsmen", "figure", 20, 20, 1),
        ("carthaginian_phalanx", "figure", 20, 20, 1),
        ("roman_equites", "figure", 25, 50, 1),
        ("numidian_light_cavalry", "figure", 25, 50, 1),
        ("elephants", "base", 40, 80, 6),
    ],
)
def test_basing(
    rs: Ruleset, troop_id: str, per: str, front: float, depth: float, per_base: int
) -> None:
    b = troop(rs, troop_id).basing
    assert (b.per, b.frontage_mm, b.depth_mm, b.figures_per_base) == (per, front, depth, per_base)


def test_woods_and_elephant_flags(rs: Ruleset) -> None:
    for tid in rs.troops:
        tr = troop(rs, tid)
        assert tr.enters_woods == tr.category.light, tid
    assert troop(rs, "elephants").mounted is False


# --------------------------------------------------------------------------- armies

# (army, entry) -> (troop, sizes, default_size, max, model count)
ENTRIES: dict[tuple[str, str], tuple[object, ...]] = {
    ("roman", "triarii"): ("roman_triarii", (6, 12), 12, 10, 5),
    ("roman", "principes"): ("roman_principes", (12,), 12, 10, 10),
    ("roman", "hastati"): ("roman_hastati", (12,), 12, 10, 10),
    ("roman", "velites"): ("roman_velites", (12,), 12, 10, 10),
    ("roman", "equites"): ("roman_equites", (15,), 15, 1, 1),
    ("roman", "allied_cavalry"): ("allied_cavalry", (15,), 15, 3, 3),
    ("roman", "extraordinarii"): ("extraordinarii", (12,), 12, 2, 2),
    ("roman", "allied_hastati"): ("allied_hastati", (12,), 12, 6, 0),
    ("roman", "allied_principes"): ("allied_principes", (12,), 12, 6, 0),
    ("roman", "allied_lights"): ("allied_lights", (12,), 12, 6, 0),
    ("roman", "allied_triarii"): ("allied_triarii", (12,), 12, 6, 0),
    ("roman", "hellenic_phalanx"): ("hellenic_phalanx", (36,), 36, None, 0),
    ("carthaginian", "carthaginian_phalanx"): ("carthaginian_phalanx", (36,), 36, 1, 1),
    ("carthaginian", "liby_phoenician_phalanx"): ("liby_phoenician_phalanx", (36,), 36, 1, 1),
    ("carthaginian", "iberian_scutari"): ("iberian_scutari", (16,), 16, 1, 1),
    ("carthaginian", "celt_iberian_scutari"): ("celt_iberian_scutari", (16,), 16, 1, 1),
    ("carthaginian", "lusitanian_scutari"): ("lusitanian_scutari", (16,), 16, 1, 1),
    ("carthaginian", "iberian_caetrati"): ("iberian_caetrati", (16,), 16, 1, 1),
    ("carthaginian", "celtic_swordsmen"): ("celtic_swordsmen", (16,), 16, 8, 8),
    ("carthaginian", "celtic_light_javelins"): ("celtic_light_javelins", (12,), 12, 4, 4),
    ("carthaginian", "balearic_slingers"): ("balearic_slingers", (12,), 12, 2, 2),
    ("carthaginian", "libyan_javelins"): ("libyan_javelins", (12,), 12, 2, 2),
    ("carthaginian", "numidian_javelins"): ("numidian_javelins", (12,), 12, 1, 1),
    ("carthaginian", "moroccan_archers"): ("moroccan_archers", (12, 16), 12, 1, 1),
    ("carthaginian", "lp_heavy_cavalry"): ("lp_heavy_cavalry", (16,), 16, 1, 1),
    ("carthaginian", "celtic_noble_cavalry"): ("celtic_noble_cavalry", (18,), 18, 1, 1),
    ("carthaginian", "celtic_heavy_cavalry"): ("celtic_heavy_cavalry", (18,), 18, 1, 1),
    ("carthaginian", "spanish_medium_cavalry"): ("spanish_medium_cavalry", (16,), 16, 1, 1),
    ("carthaginian", "numidian_light_cavalry"): ("numidian_light_cavalry", (16,), 16, 2, 2),
    ("carthaginian", "elephants"): ("elephants", (12,), 12, 2, 2),
}

# "Actual" column (men at 1:10) of the source's army tables, per entry at its model count.
ACTUAL_MEN = {
    ("roman", "triarii"): 600,
    ("roman", "principes"): 1200,
    ("roman", "hastati"): 1200,
    ("roman", "velites"): 1200,
    ("roman", "equites"): 150,
    ("roman", "allied_cavalry"): 450,
    ("roman", "extraordinarii"): 240,
    ("carthaginian", "carthaginian_phalanx"): 360,
    ("carthaginian", "liby_phoenician_phalanx"): 360,
    ("carthaginian", "iberian_scutari"): 160,
    ("carthaginian", "celt_iberian_scutari"): 160,
    ("carthaginian", "lusitanian_scutari"): 160,
    ("carthaginian", "iberian_caetrati"): 160,
    ("carthaginian", "celtic_swordsmen"): 1280,
    ("carthaginian", "celtic_light_javelins"): 480,
    ("carthaginian", "balearic_slingers"): 240,
    ("carthaginian", "libyan_javelins"): 240,
    ("carthaginian", "numidian_javelins"): 120,
    ("carthaginian", "moroccan_archers"): 120,
    ("carthaginian", "lp_heavy_cavalry"): 160,
    # the source's one row "Celtic Heavy Cavalry 2 X 18 = 360" is split in two entries
    ("carthaginian", "celtic_noble_cavalry"): 180,
    ("carthaginian", "celtic_heavy_cavalry"): 180,
    ("carthaginian", "spanish_medium_cavalry"): 160,
    ("carthaginian", "numidian_light_cavalry"): 320,
    ("carthaginian", "elephants"): 240,
}


def test_entries_complete(rs: Ruleset) -> None:
    got = {(a, e) for a, army in rs.armies.items() for e in army.entries}
    assert got == set(ENTRIES)


@pytest.mark.parametrize(("army", "entry"), list(ENTRIES))
def test_entry(rs: Ruleset, army: str, entry: str) -> None:
    troop_id, sizes, default, maximum, _model = ENTRIES[(army, entry)]
    e = rs.army(army).entries[entry]
    assert (e.troop, e.sizes, e.default_size, e.min, e.max) == (
        troop_id,
        sizes,
        default,
        0,
        maximum,
    )
    assert e.source


@pytest.mark.parametrize(("army", "entry"), list(ACTUAL_MEN))
def test_entry_actual_men(rs: Ruleset, army: str, entry: str) -> None:
    model = ENTRIES[(army, entry)][4]
    assert isinstance(model, int)
    e = rs.army(army).entries[entry]
    assert e.default_size * model * Scale("1:10").men_per_figure == ACTUAL_MEN[(army, entry)]


def _model_men(rs: Ruleset, army: str, scale: str) -> int:
    total = 0
    for (a, entry), spec in ENTRIES.items():
        if a == army:
            model = spec[4]
            assert isinstance(model, int)
            total += rs.army(army).entries[entry].default_size * model
    return total * Scale.parse(scale).men_per_figure


def _standard_men(rs: Ruleset, army: str, scale: str) -> int:
    a = rs.army(army)
    assert a.standard is not None
    figures = sum((u.size or a.entries[u.entry].default_size) * u.count for u in a.standard.units)
    return figures * Scale.parse(scale).men_per_figure


def test_roman_totals(rs: Ruleset) -> None:
    assert _model_men(rs, "roman", "1:10") == 5040
    assert _model_men(rs, "roman", "1:100") == 50400 > 50000
    assert _standard_men(rs, "roman", "1:10") == 5040
    assert _standard_men(rs, "roman", "1:100") == 50400


def test_carthaginian_totals(rs: Ruleset) -> None:
    assert _model_men(rs, "carthaginian", "1:10") == 5080
    assert _model_men(rs, "carthaginian", "1:100") == 50800 > 50000
    assert _standard_men(rs, "carthaginian", "1:10") == 5080
    assert _standard_men(rs, "carthaginian", "1:100") == 50800


def test_six_allied_cohorts(rs: Ruleset) -> None:
    roman = rs.army("roman")
    group = roman.groups["allied_cohort"]
    assert set(group.entries) == {"allied_hastati", "allied_principes", "allied_lights"}
    figures = sum(roman.entries[e].default_size for e in group.entries) * 6
    assert figures == 216
    assert figures * Scale("1:10").men_per_figure == 2160
    assert figures * Scale("1:100").men_per_figure == 21600
    assert all(roman.entries[e].max == 6 for e in group.entries)


def test_allied_triarii_warning(rs: Ruleset) -> None:
    e = rs.army("roman").entries["allied_triarii"]
    assert e.warning and "unlikely" in e.warning.lower()


@pytest.mark.parametrize("army", ["roman", "carthaginian"])
def test_standard_army_respects_list(rs: Ruleset, army: str) -> None:
    a = rs.army(army)
    assert a.standard is not None
    counts: dict[str, int] = {}
    for u in a.standard.units:
        counts[u.entry] = counts.get(u.entry, 0) + u.count
        assert u.command is not None
    for entry, n in counts.items():
        model = ENTRIES[(army, entry)][4]
        assert n == model, entry
    modelled = {e for (ar, e), spec in ENTRIES.items() if ar == army and spec[4]}
    assert set(counts) == modelled
    commands = [c.id for c in a.standard.commands]
    assert all(c.leader for c in a.standard.commands)
    assert len({c.leader for c in a.standard.commands}) == len(commands)
    assert {u.command for u in a.standard.units} == set(commands)


def test_roman_standard(rs: Ruleset) -> None:
    std = rs.army("roman").standard
    assert std is not None
    assert [c.id for c in std.commands] == [
        "reserve_triarii",
        "right_wing_cavalry",
        "left_wing_cavalry",
        "right_wing_legion",
        "left_wing_legion",
    ]
    leaders = {ld.id: ld for ld in std.leaders}
    assert (leaders["scipio"].rank, leaders["scipio"].bonus) == ("general", 2)
    others = [ld for ld in std.leaders if ld.id != "scipio"]
    assert len(others) == 4 and all(ld.rank == "commander" and ld.bonus == 1 for ld in others)
    per_command: dict[str, dict[str, int]] = {}
    for u in std.units:
        assert u.command is not None
        per_command.setdefault(u.command, {})[u.entry] = u.count
    assert per_command == {
        "reserve_triarii": {"triarii": 5},
        "right_wing_cavalry": {"equites": 1, "extraordinarii": 1},
        "left_wing_cavalry": {"allied_cavalry": 3, "extraordinarii": 1},
        "right_wing_legion": {"velites": 5, "hastati": 5, "principes": 5},
        "left_wing_legion": {"velites": 5, "hastati": 5, "principes": 5},
    }


def test_carthaginian_standard(rs: Ruleset) -> None:
    std = rs.army("carthaginian").standard
    assert std is not None
    assert len(std.commands) == 7
    leaders = {ld.id: ld for ld in std.leaders}
    assert (leaders["hannibal"].rank, leaders["hannibal"].bonus) == ("general", 2)
    others = [ld for ld in std.leaders if ld.id != "hannibal"]
    assert len(others) == 6 and all(ld.rank == "commander" and ld.bonus == 1 for ld in others)
    assert {c.id: c.leader for c in std.commands}["elephant_lights"] == "hannibal"
    per_command: dict[str, dict[str, int]] = {}
    for u in std.units:
        assert u.command is not None
        per_command.setdefault(u.command, {})[u.entry] = u.count
    assert per_command["right_wing_cavalry"] == {
        "celtic_noble_cavalry": 1,
        "celtic_heavy_cavalry": 1,
        "spanish_medium_cavalry": 1,
    }
    assert per_command["left_wing_cavalry"] == {"numidian_light_cavalry": 2, "lp_heavy_cavalry": 1}
    assert per_command["elephant_lights"]["elephants"] == 2
    assert per_command["elephant_lights"]["libyan_javelins"] == 2
    for wing, phalanx in (
        ("right_wing_infantry", "carthaginian_phalanx"),
        ("left_wing_infantry", "liby_phoenician_phalanx"),
    ):
        assert per_command[wing][phalanx] == 1
        assert per_command[wing]["celtic_swordsmen"] == 4


# --------------------------------------------------------------------------- errata

REQUIRED_ERRATA = [
    "velites-figures",
    "moroccan-archers-size",
    "elephant-unit-size",
    "scale-totals",
    "army-list-limits",
    "allied-cohort",
    "allied-triarii",
    "basing",
    "leader-wound-move",
    "carthaginian-commanders",
    "roman-battlegroups",
    "carthaginian-battlegroups",
    "celtic-cavalry-armour",
    "pre-melee-volley",
    "elephant-bonus-on-assault",
    "ready-army-leaders",
]


@pytest.mark.parametrize("erratum_id", REQUIRED_ERRATA)
def test_required_errata(rs: Ruleset, erratum_id: str) -> None:
    e = rs.erratum(erratum_id)
    assert e.applies_to
    assert e.source_says and e.decision


def test_errata_reach_the_data(rs: Ruleset) -> None:
    assert rs.errata_for("armies.roman.entries.velites")
    assert rs.errata_for("armies.carthaginian.entries.elephants")
    assert rs.errata_for("troops.allied_triarii")
    assert rs.errata_for("armies.carthaginian.entries.moroccan_archers")


# --------------------------------------------------------------------------- check()


def test_check_is_clean(rs: Ruleset) -> None:
    assert check(rs) == []


def test_tables_accessor_rejects_other_tables(rs: Ruleset) -> None:
    class Other(Strict):
        x: int = 0

    with pytest.raises(TypeError):
        tables(dataclasses.replace(rs, tables=Other()))


def _broken(tmp_path: Path, file: str, old: str, new: str) -> RulesetError:
    folder = tmp_path / "quincunx"
    shutil.copytree(FOLDER, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(folder)
    return info.value


BREAKS: list[tuple[str, str, str, str, str]] = [
    (
        "tables.toml",
        'dice = ["d10", "d10", "d8", "d8", "d6", "d6", "d4", "d4"]\nformation = "formed"\n\n'
        "[melee.tracks.roman_principes]",
        'dice = ["d10", "d10", "d8", "d8", "d6", "d6", "d4"]\nformation = "formed"\n\n'
        "[melee.tracks.roman_principes]",
        "tables.toml",
        "melee.tracks.roman_hastati.dice",
    ),
    (
        "troops.toml",
        'melee_track = "roman_velites"',
        'melee_track = "roman_skirmishers"',
        "troops.toml",
        "troops.roman_velites.melee_track",
    ),
    (
        "troops.toml",
        'movement = "light_cavalry"',
        'movement = "horse_archers"',
        "troops.toml",
        "troops.numidian_light_cavalry.movement",
    ),
    (
        "tables.toml",
        "move_factors = 6\ninches = 18",
        "move_factors = 6\ninches = 12",
        "tables.toml",
        "movement.classes.light_cavalry.inches",
    ),
    (
        "tables.toml",
        "remaining = [2, 4, 5, 6, 12]",
        "remaining = [2, 4, 5, 6]",
        "tables.toml",
        "attrition.rows[1].remaining",
    ),
    (
        "tables.toml",
        'exempt_troops = ["numidian_light_cavalry", "lp_heavy_cavalry"]',
        'exempt_troops = ["numidian_light_cavalry", "carthaginian_heavy_cavalry"]',
        "tables.toml",
        "elephants_and_horses.exempt_troops[1]",
    ),
    (
        "tables.toml",
        'cover = "2d6"\nlong = "2d8"',
        'cover = "2d6"\nlong = "2d7"',
        "tables.toml",
        "missile_dice.bands[2].long",
    ),
    (
        "tables.toml",
        'replaces = ["attrition_50"]',
        'replaces = ["attrition_fifty"]',
        "tables.toml",
        "column_shifts.shifts.attrition_33.replaces",
    ),
    (
        "troops.toml",
        'volley = "javelins"',
        'volley = "soliferrum"',
        "troops.toml",
        "troops.iberian_scutari.volley",
    ),
]


@pytest.mark.parametrize(("file", "old", "new", "p_file", "p_path"), BREAKS)
def test_check_finds_broken_copy(
    tmp_path: Path, file: str, old: str, new: str, p_file: str, p_path: str
) -> None:
    err = _broken(tmp_path, file, old, new)
    assert any(p.file == p_file and p.path == p_path for p in err.problems), err.problems


def test_check_finds_wrong_weapon_range(tmp_path: Path) -> None:
    err = _broken(
        tmp_path,
        "troops.toml",
        '{ name = "bow", short_range = 12, long_range = 24 },\n]\nspecial_rules = [\n'
        '    "Psiloi: always',
        '{ name = "bow", short_range = 12, long_range = 30 },\n]\nspecial_rules = [\n'
        '    "Psiloi: always',
    )
    assert any(
        p.file == "troops.toml" and p.path.startswith("troops.extraordinarii.weapons")
        for p in err.problems
    ), err.problems


def test_broken_errata_reference(tmp_path: Path) -> None:
    err = _broken(
        tmp_path,
        "errata.toml",
        'applies_to = ["armies.roman.entries.velites"]',
        'applies_to = ["armies.roman.entries.leveslites"]',
    )
    assert any(p.file == "errata.toml" for p in err.problems)


# --------------------------------------------------------------------------- with app.core


@pytest.mark.parametrize(
    ("army", "scale", "figures", "bases", "men"),
    [
        # bases: triarii, principes and hastati maniples are 2 century bases each
        # (5 x 2, 10 x 2, 10 x 2); every other figure is based singly.
        ("roman", "1:10", 504, 10 + 20 + 20 + 120 + 15 + 45 + 24, 5040),
        ("roman", "1:100", 504, 10 + 20 + 20 + 120 + 15 + 45 + 24, 50400),
        # elephants: 2 units x 2 element bases
        ("carthaginian", "1:10", 508, 484 + 4, 5080),
        ("carthaginian", "1:100", 508, 484 + 4, 50800),
    ],
)
def test_standard_roster_totals_and_validation(
    rs: Ruleset, army: str, scale: str, figures: int, bases: int, men: int
) -> None:
    from app.core.roster import new_roster
    from app.core.totals import roster_totals
    from app.core.validation import validate

    roster = new_roster(rs, army, name="standard", scale=scale, standard=True)
    totals = roster_totals(rs, roster)
    assert (totals.figures, totals.bases, totals.men) == (figures, bases, men)
    report = validate(rs, roster)
    assert report.valid, [m.text for m in report.messages]


# --------------------------------------------------------------------------- bounds (issue 13)

#: (file, text in the data, hostile replacement, key path reported, words of the problem)
HOSTILE: list[tuple[str, str, str, str, str]] = [
    # a string, a float or a boolean where a whole number belongs: refused, never converted
    (
        "tables.toml",
        "move_factors = 2\n",
        'move_factors = "2"\n',
        "movement.classes.battleline.move_factors",
        "integer",
    ),
    (
        "tables.toml",
        "rings_per_round = 1",
        "rings_per_round = 1.0",
        "melee_resolution.rings_per_round",
        "integer",
    ),
    (
        "tables.toml",
        "rounds_affected = 1",
        "rounds_affected = true",
        "pre_melee.rounds_affected",
        "integer",
    ),
    (
        "tables.toml",
        "recoil_inches = 12",
        'recoil_inches = "12"',
        "melee_resolution.recoil_inches",
        "number",
    ),
    # numbers out of range, infinite or not a number
    (
        "tables.toml",
        "loser_modifier = -1",
        "loser_modifier = -1000000000",
        "pre_melee.loser_modifier",
        "greater than or equal",
    ),
    (
        "tables.toml",
        "missile_as_figures = 12",
        "missile_as_figures = 99999999",
        "elephants.missile_as_figures",
        "less than or equal",
    ),
    (
        "tables.toml",
        "inches_per_move_factor = 3",
        "inches_per_move_factor = inf",
        "movement.inches_per_move_factor",
        "not a finite number",
    ),
    (
        "tables.toml",
        "recoil_inches = 12",
        "recoil_inches = nan",
        "melee_resolution.recoil_inches",
        "not a finite number",
    ),
    (
        "tables.toml",
        "remaining = [2, 4, 5, 6, 12]",
        "remaining = [2, 4, 5, 6, 1000000000000]",
        "attrition.rows[1].remaining[4]",
        "less than or equal",
    ),
    (
        "tables.toml",
        "captured_by_enemy_above_percent = 95",
        "captured_by_enemy_above_percent = 950",
        "stragglers.captured_by_enemy_above_percent",
        "less than or equal",
    ),
    (
        "troops.toml",
        "ranks_formed = [4]",
        "ranks_formed = [400000]",
        "troops.hellenic_phalanx.ranks_formed[0]",
        "less than or equal",
    ),
    # dice: a die of 99,999,999 faces, too many dice, pluses, a pair that is not a pair
    (
        "tables.toml",
        'evader_die = "d10"',
        'evader_die = "d99999999"',
        "evasion.evader_die",
        "a die of 99,999,999 faces",
    ),
    (
        "tables.toml",
        'evader_die = "d10"',
        'evader_die = "d100"',
        "evasion.evader_die",
        "2 to 20 sides",
    ),
    (
        "tables.toml",
        'evader_die = "d10"',
        'evader_die = "d' + "9" * 5000 + '"',
        "evasion.evader_die",
        "at most 40 characters",
    ),
    (
        "tables.toml",
        'initial_attack_extra_die = "d6"',
        'initial_attack_extra_die = "40d6"',
        "melee.tracks.pike_phalanx.initial_attack_extra_die",
        "expected one die",
    ),
    (
        "tables.toml",
        'trample_die = "d12+2"',
        'trample_die = "d12+20000"',
        "rampage.trample_die",
        "modifier +20,000",
    ),
    (
        "tables.toml",
        'trample_die = "d12+2"',
        'trample_die = "d12+50"',
        "rampage.trample_die",
        "at most 20",
    ),
    (
        "tables.toml",
        '"2d10", "2d12"]',
        '"2d10", "3d12"]',
        "missile_dice.dice_ladder[4]",
        "expected a pair of dice",
    ),
    (
        "tables.toml",
        'risk_dice = "2d6"',
        'risk_dice = "2d6+1"',
        "leaders.risk_dice",
        "without a plus or minus",
    ),
    (
        "tables.toml",
        'move_die = "d6"',
        'move_die = "1000d6"',
        "rampage.move_die",
        "1,000 dice",
    ),
    (
        "tables.toml",
        'direction_die = "d8"',
        'direction_die = "d8+1"',
        "rampage.direction_die",
        "without a plus or minus",
    ),
    (
        "tables.toml",
        'dice = ["d4", "d4", "d4", "d4", "d4", "d4", "d4", "d4"]',
        'dice = ["d4", "d4", "d4", "d4", "d4", "d4", "d4", "d1"]',
        "melee.tracks.allied_extraordinarii.dice[7]",
        "a die of 1 face;",
    ),
]


@pytest.mark.parametrize(("file", "old", "new", "path", "words"), HOSTILE)
def test_hostile_house_rule_values_are_refused_at_load(
    tmp_path: Path, file: str, old: str, new: str, path: str, words: str
) -> None:
    """Issue 13: a house-rules copy with a hostile value is refused at load, quickly, with
    the file, the key path and the problem; nothing is converted or enumerated."""
    t0 = time.perf_counter()
    err = _broken(tmp_path, file, old, new)
    assert time.perf_counter() - t0 < 5
    found = [p for p in err.problems if p.file == file and p.path == path]
    assert found, err.problems
    assert words in found[0].message, found[0]
    assert len(str(found[0])) < 300  # one line, even for a value of thousands of digits


def test_the_bounds_admit_the_source() -> None:
    """Every die and number of the source loads (d4-d12, 2d4-2d12, d12+2, modifiers -1..+2)."""
    t = load_ruleset(FOLDER).tables
    assert isinstance(t, Tables)
    assert t.rampage.trample_die == "d12+2" and t.leaders.risk_dice == "2d6"
