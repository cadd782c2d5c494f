"""Leg VI Carthago data (rulesets/leg-vi-carthago) checked against the source text
(seeds/001_1ffb8d4b557d8999.txt) and the decisions in its errata.toml."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from app.rules.dice import AVD_FACES
from app.rules.errors import RulesetError
from app.rules.registry import BUILTIN_DIR
from app.rules.ruleset import Ruleset
from app.rules.schema import Category, Strict
from app.rulesets import find_engine, load_ruleset
from app.rulesets.leg_vi.checks import check
from app.rulesets.leg_vi.mechanics import LegVIMechanics
from app.rulesets.leg_vi.schema import Troop, tables, troops
from app.rulesets.leg_vi.tables_schema import Band, Tables

FOLDER = BUILTIN_DIR / "leg-vi-carthago"


def troop(rs: Ruleset, tid: str) -> Troop:
    tr = rs.troop(tid)
    assert isinstance(tr, Troop)
    return tr


def band_of(bands: tuple[Band, ...], value: int) -> str:
    found = [
        b.result
        for b in bands
        if (b.low is None or b.low <= value) and (b.high is None or value <= b.high)
    ]
    assert len(found) == 1, (value, found)
    return found[0]


# --------------------------------------------------------------------------- meta, turn


def test_meta(rs: Ruleset) -> None:
    m = rs.meta
    assert (m.id, m.engine, m.name, m.short_name) == (
        "leg-vi-carthago",
        "leg-vi",
        "Leg VI Carthago",
        "Leg VI",
    )
    assert m.source_file == "001_1ffb8d4b557d8999.txt"
    assert (m.figure_scale, m.unit_of_measure, m.counts) == ("6mm", "inch", "bases")
    assert m.scales == () and m.default_scale is None
    assert m.author is None and m.author_note
    assert m.data_version == "1.5.0"
    assert rs.men_per_figure("1:10") is None


def test_engine_registration(builtin_folder: Path) -> None:
    """The registry's line for this engine names its folder, models, check and mechanics."""
    engine = find_engine("leg-vi")
    assert engine.name == "leg-vi"
    assert engine.builtin_folder == "leg-vi-carthago" == builtin_folder.name
    assert engine.troop_model is Troop and engine.tables_model is Tables
    assert engine.check is check
    assert engine.mechanics is LegVIMechanics


def test_phases_in_order(rs: Ruleset, t: Tables) -> None:
    ids = [p.id for p in rs.turn.phases]
    assert ids == ["command", "skirmish", "manoeuvre", "charge", "combat", "after_combat", "rally"]
    assert [s.numeral for s in t.sequence.steps] == ["I", "II", "III", "IV", "V", "VI", "VII"]
    assert [s.phase for s in t.sequence.steps] == ids
    assert t.sequence.initiative_die == "d6"


def test_avd(t: Tables) -> None:
    assert t.avd.faces == (2, 3, 3, 4, 4, 5) == AVD_FACES


# --------------------------------------------------------------------------- leaders, organisation


def test_leaders(rs: Ruleset, t: Tables) -> None:
    ld = rs.leaders
    assert ld.generals == 1
    assert (ld.actions_general, ld.actions_commander, ld.actions_exceptional_bonus) == (2, 1, 1)
    assert ld.move == 12.0 and ld.command_range == 4.0
    assert [(w.wounds, w.actions_lost) for w in ld.wound_effects] == [(1, 1), (2, None)]
    assert "kill" in ld.wound_effects[1].effect.lower()
    assert ld.risk and "die of death" in ld.risk
    assert (t.command.actions_general, t.command.actions_commander) == (2, 1)


def test_organisation(rs: Ruleset) -> None:
    org = rs.organisation
    assert org.group_name == "command"
    assert org.grades == ("A", "B", "C", "D")
    assert set(org.grade_descriptions) == {"A", "B", "C", "D"}
    rules = {r.kind: r for r in org.command_rules}
    assert set(rules["infantry"].limited) == {
        Category.LIGHT_CAVALRY,
        Category.MEDIUM_CAVALRY,
        Category.HEAVY_CAVALRY,
    }
    assert rules["infantry"].max_units == 1
    assert set(rules["cavalry"].limited) == {Category.HEAVY_INFANTRY, Category.MEDIUM_INFANTRY}
    assert rules["cavalry"].max_units == 1
    assert all("Organising the Armies" in r.rule for r in org.command_rules)


# --------------------------------------------------------------------------- troops

TROOPS = {
    # id: (abbrev, category, shoots, order, march, dice count, fatigue_on, rough DPs, combat dice)
    "li": ("LI", Category.LIGHT_INFANTRY, True, "unformed", 8.0, 2, (), 0, 1),
    "mi": ("MI", Category.MEDIUM_INFANTRY, False, "formed", 8.0, 2, (6,), 1, 1),
    "hi": ("HI", Category.HEAVY_INFANTRY, False, "formed", 8.0, 2, (5, 6), 2, 1),
    "triarii": ("HI", Category.HEAVY_INFANTRY, False, "formed", 8.0, 2, (6,), 1, 1),
    "lc": ("LC", Category.LIGHT_CAVALRY, True, "unformed", 12.0, 3, (), None, 1),
    "mc": ("MC", Category.MEDIUM_CAVALRY, False, "formed", 12.0, 3, (6,), None, 1),
    "el": ("El", Category.ELEPHANT, False, "free", 8.0, 2, (), None, 2),
}


def test_troop_ids(rs: Ruleset) -> None:
    assert set(rs.troops) == set(TROOPS)
    assert set(troops(rs)) == set(TROOPS)


@pytest.mark.parametrize("tid", sorted(TROOPS))
def test_troop_numbers(rs: Ruleset, tid: str) -> None:
    abbr, cat, shoots, order, march, ndice, fatigue_on, rough, cdice = TROOPS[tid]
    tr = troop(rs, tid)
    assert (tr.abbreviation, tr.category, tr.shoots, tr.order) == (abbr, cat, shoots, order)
    assert tr.march_move == march
    assert len(tr.move_dice) == ndice
    assert tr.move_dice[0].dice == "avd" and not tr.move_dice[0].optional
    assert all(d.dice == "d6" and d.optional for d in tr.move_dice[1:])
    assert tr.fatigue_on == fatigue_on
    assert tr.rough_terrain_dps == rough
    assert tr.combat_dice_per_base == cdice
    assert tr.light == (cat in (Category.LIGHT_INFANTRY, Category.LIGHT_CAVALRY))
    assert tr.shoots == tr.light  # only light troops shoot
    if tr.shoots:
        assert tr.weapons and all(w.long_range == 4.0 for w in tr.weapons)


@pytest.mark.parametrize(
    ("tid", "men", "low", "high"),
    [
        ("li", 175, 150, 200),
        ("mi", 350, 300, 400),
        ("hi", 550, 500, 600),
        ("triarii", 550, 500, 600),
        ("lc", 175, 150, 200),
        ("mc", 175, 150, 200),
        ("el", 10, 10, 10),
    ],
)
def test_basing(rs: Ruleset, tid: str, men: int, low: int, high: int) -> None:
    b = rs.troop(tid).basing
    assert (b.per, b.frontage_mm, b.depth_mm) == ("base", 20.0, 20.0)
    assert b.men_per_base == men == (low + high) // 2
    assert b.men_per_base_range == (low, high)
    assert b.figures_per_base is None


def test_troop_special_cases(rs: Ruleset) -> None:
    assert troop(rs, "lc").move_dice[2].condition
    assert troop(rs, "triarii").manoeuvres_as == "mi"
    assert troop(rs, "el").allowed_grades == ("C",)
    assert troop(rs, "el").takes_dps is False
    for tid in ("mi", "hi", "triarii"):
        assert troop(rs, tid).side_step_grades == ("A", "B")
    for tid in ("li", "lc", "mc", "el"):
        assert troop(rs, tid).side_step_grades == ()
    assert troop(rs, "li").charge_targets == ("light_infantry", "elephant")
    assert troop(rs, "lc").charge_targets == ("cavalry", "unformed")
    assert troop(rs, "mc").charge_responses == ("evade", "stand")
    assert troop(rs, "hi").charge_responses == ("stand",)
    assert troop(rs, "hi").combat_factors == ("hi_charge",)
    assert troop(rs, "el").combat_factors == ("elephant_charge",)
    assert set(troop(rs, "mc").combat_factors) == {"mi_mc_charge", "cavalry_vs_unformed_infantry"}


# --------------------------------------------------------------------------- DPs, elephants


@pytest.mark.parametrize(
    ("tid", "dps", "general", "within"),
    [
        ("friend_retiring", 1, None, 4.0),
        ("friend_routed", 2, None, 4.0),
        ("leader_lost", 1, 2, 4.0),
        ("elephant_burst", 2, None, None),
    ],
)
def test_morale_dps(
    t: Tables, tid: str, dps: int, general: int | None, within: float | None
) -> None:
    trig = t.morale_dps.triggers[tid]
    assert (trig.dps, trig.dps_general, trig.within) == (dps, general, within)


def test_morale_dp_rows(t: Tables) -> None:
    assert len(t.morale_dps.triggers) == 4


def test_dp_limits(t: Tables) -> None:
    lim = t.dp_limits
    assert (lim.fatigue_manoeuvre_cap, lim.shaken_at, lim.legion_extra_per_line) == (3, 5, 1)
    assert [(x.lines, x.shaken_at) for x in lim.legion_quincunx] == [(1, 5), (2, 6), (3, 7)]
    assert lim.shaken_casualty_per_dp == 1
    assert set(lim.shaken_casualty_from) == {"shooting", "combat", "morale"}


@pytest.mark.parametrize(
    ("roll", "result"),
    [
        (1, "destroyed"),
        (2, "destroyed"),
        (3, "rampage"),
        (4, "rampage"),
        (5, "rampage"),
        (6, "rampage"),
    ],
)
def test_elephant_critical(t: Tables, roll: int, result: str) -> None:
    ec = t.elephant_critical
    assert (ec.die, ec.critical_on, ec.automatic_on_casualty) == ("d6", (1, 2), True)
    assert band_of(ec.outcomes, roll) == result


@pytest.mark.parametrize(
    ("roll", "bearing"), [(1, 0), (2, 60), (3, 120), (4, 180), (5, 240), (6, 300)]
)
def test_rampage_directions(t: Tables, roll: int, bearing: int) -> None:
    by_roll = {d.roll: d.bearing_degrees for d in t.rampage.directions}
    assert by_roll[roll] == bearing


def test_rampage(t: Tables) -> None:
    r = t.rampage
    assert r.direction_die == "d6" and r.turn_towards_cause
    assert (r.burst_through_dps_formed, r.burst_through_dps_unformed, r.gap_within) == (2, 0, 1.0)
    assert r.move_dice == ("avd", "d6")
    s = t.stop_rampage
    assert (s.die, s.destroyed_on_at_least, s.bonus_per_turn_after_first) == ("d6", 5, 2)
    assert s.bonus_cumulative is True and s.new_rampage_phase == "manoeuvre"


# --------------------------------------------------------------------------- command, control


@pytest.mark.parametrize(
    ("roll", "result"),
    [
        (0, "halt"),
        (1, "halt"),
        (2, "halt"),
        (3, "free"),
        (4, "free"),
        (5, "repeat"),
        (6, "repeat"),
        (7, "repeat"),
    ],
)
def test_control_results(t: Tables, roll: int, result: str) -> None:
    assert band_of(t.control_test.results, roll) == result


def test_control_test(t: Tables) -> None:
    ct = t.control_test
    assert (ct.radius, ct.conform_behind_within, ct.pursuit_continues_at_least) == (4.0, 4.0, 5)
    assert ct.dice["light_or_a_grade"].die == "avd" and ct.dice["others"].die == "d6"
    assert ct.modifiers["impetus"].value == 1
    lead = ct.modifiers["leader"]
    assert (lead.value, lead.either_sign, lead.optional_after_roll) == (1, True, True)


@pytest.mark.parametrize(
    ("aid", "move", "dps", "dice"),
    [("move", 12.0, None, None), ("steady", None, 1, None), ("inspire", None, None, 1)],
)
def test_command_actions(
    t: Tables, aid: str, move: float | None, dps: int | None, dice: int | None
) -> None:
    a = t.command.actions[aid]
    assert (a.cost, a.move, a.dps_removed, a.combat_dice) == (1, move, dps, dice)


def test_command(t: Tables) -> None:
    assert t.command.inspire_max_dice == 2
    assert set(t.command.not_same_turn) == {"steady", "inspire"}
    assert t.command.actions_exceptional_bonus == 1


@pytest.mark.parametrize(
    ("roll", "result"),
    [
        (1, "killed"),
        (2, "wounded"),
        (3, "wounded"),
        (4, "wounded"),
        (5, "flesh_wound"),
        (6, "flesh_wound"),
    ],
)
def test_die_of_death(t: Tables, roll: int, result: str) -> None:
    d = t.die_of_death
    assert (d.die, d.danger_roll, d.wounds_to_kill, d.actions_lost_per_wound) == ("d6", 1, 2, 1)
    assert (d.successor_actions, d.successor_delay_turns) == (1, 1)
    assert d.unattached_contacted == "captured"
    assert band_of(d.results, roll) == result


# --------------------------------------------------------------------------- movement


@pytest.mark.parametrize(
    ("cls", "march", "ndice"), [("infantry", 8.0, 2), ("elephant", 8.0, 2), ("cavalry", 12.0, 3)]
)
def test_move_classes(t: Tables, cls: str, march: float, ndice: int) -> None:
    c = t.movement.classes[cls]
    assert c.march_move == march
    assert [d.dice for d in c.dice] == ["avd", *["d6"] * (ndice - 1)]
    assert [d.optional for d in c.dice] == [False, *[True] * (ndice - 1)]
    assert all(d.inches_per_pip == 1.0 for d in c.dice)


def test_movement(t: Tables) -> None:
    m = t.movement
    assert (m.stop_from_enemy, m.march_beyond, m.may_halt_short_of, m.light_fall_back_keep) == (
        4.0,
        8.0,
        4.0,
        4.0,
    )
    assert m.bonus_per_die == 1.0
    assert set(m.bonus_moves) == {"rout", "retire"}
    assert set(m.maximum_dice_moves) == {"evade", "rout", "retire", "pursue"}
    assert m.straight_ahead_tolerance_degrees == 22.5


@pytest.mark.parametrize(
    ("rule", "dps", "on"), [("hi_line", 1, (5, 6)), ("formed_other", 1, (6,)), ("none", 0, ())]
)
def test_fatigue(t: Tables, rule: str, dps: int, on: tuple[int, ...]) -> None:
    r = t.fatigue.rules[rule]
    assert (r.dps, r.on_results) == (dps, on)


@pytest.mark.parametrize(
    ("row", "dps", "light"),
    [
        ("formed_hi", 2, 2),
        ("formed_mi", 1, 1),
        ("unformed_infantry", 0, 0),
        ("cavalry", None, 1),
        ("elephant", None, 0),
    ],
)
def test_rough_terrain(t: Tables, row: str, dps: int | None, light: int | None) -> None:
    r = t.rough_terrain.rows[row]
    assert (r.dps, r.light_cover_dps) == (dps, light)


@pytest.mark.parametrize(
    ("mid", "fraction", "distance", "dps"),
    [
        ("wheel", None, None, 1),
        ("change_formation", 0.5, None, 1),
        ("reform", 1.0, None, 0),
        ("about_face", 0.5, None, 1),
        ("passage_of_lines", None, None, 1),
        ("side_step", None, 2.0, 0),
        ("open_ranks", 1.0, None, 0),
    ],
)
def test_manoeuvres(
    t: Tables, mid: str, fraction: float | None, distance: float | None, dps: int
) -> None:
    m = t.manoeuvres.items[mid]
    assert (m.move_fraction, m.distance, m.dps) == (fraction, distance, dps)


def test_manoeuvre_rules(t: Tables) -> None:
    assert t.manoeuvres.dp_range == 8.0
    assert len(t.manoeuvres.items) == 7
    assert t.manoeuvres.items["wheel"].dps_for and "HI" in t.manoeuvres.items["wheel"].dps_for
    assert t.manoeuvres.items["about_face"].dps_for == "formed cavalry"


@pytest.mark.parametrize(
    ("grade", "near", "far"), [("A", 1, 2), ("B", 1, 1), ("C", 0, 1), ("D", 0, 1)]
)
def test_redress(t: Tables, grade: str, near: int, far: int) -> None:
    assert t.redress.enemy_distance == 4.0
    rows = [r for r in t.redress.rows.values() if grade in r.grades]
    assert len(rows) == 1
    assert (rows[0].removed, rows[0].removed + rows[0].extra_beyond_enemy) == (near, far)


def test_rally(t: Tables) -> None:
    assert (t.rally.halted_beyond, t.rally.dps_after, t.rally.leader_steady_removes) == (8.0, 4, 1)


# --------------------------------------------------------------------------- shooting, charges


def test_shooting(t: Tables) -> None:
    s = t.shooting
    assert (s.range, s.die, s.dice_per_base, s.min_dice, s.hit_on, s.dps_per_hit) == (
        4.0,
        "d6",
        1,
        1,
        (6,),
        1,
    )
    assert len(s.halve_against) == 4
    assert (s.halve_rounding, s.halving_cumulative) == ("up", False)
    assert (s.modifiers["shooter_dp"].dice, s.modifiers["shooter_dp"].per) == (-1, "dp")
    assert s.modifiers["elephant_target"].dice == 1
    assert len(s.skirmish_options) == 5


def test_charges(t: Tables) -> None:
    c = t.charges
    assert c.range == 4.0
    assert c.restrictions["light_infantry"].targets == ("light_infantry", "elephant")
    assert c.restrictions["light_cavalry"].targets == ("cavalry", "unformed")
    assert c.restrictions["others"].targets == ("any",)
    assert len(c.barred) == 4
    assert c.responses["light"].responses == ("evade", "stand")
    assert c.responses["medium_cavalry"].responses == ("evade", "stand")
    assert c.responses["others"].responses == ("stand",)
    fh = c.free_hack
    assert (fh.die, fh.dice_per_engaged_base, fh.casualty_on_at_least) == ("d6", 1, 4)
    assert c.halt_on_vacated_grades == ("A", "B")
    assert c.elephant_open_ranks_pass_on == (1, 2, 3)
    assert c.elephant_open_ranks_contact_on == (4, 5, 6)
    assert c.light_charged_by_elephant_dps == 1


# --------------------------------------------------------------------------- combat


def test_combat_dice(t: Tables) -> None:
    d = t.combat_dice
    assert (d.die, d.per_base, d.per_elephant, d.max_base_dice) == ("d6", 1, 2, 10)
    assert (d.overlap_per_flank, d.legion_second_line_fraction, d.min_dice) == (1, 0.5, 1)


FACTORS = {
    "a_grade": (2, "unit", None),
    "b_grade": (1, "unit", None),
    "d_grade": (-1, "unit", None),
    "inspire": (1, "action", 2),
    "supported": (1, "unit", None),
    "mi_mc_charge": (1, "unit", None),
    "hi_charge": (2, "unit", None),
    "elephant_charge": (3, "unit", None),
    "cavalry_vs_unformed_infantry": (2, "unit", None),
    "per_dp": (-1, "dp", -4),
    "shaken": (-5, "unit", None),
}


def test_combat_factor_ids(t: Tables) -> None:
    assert list(t.combat_factors.factors) == list(FACTORS)


@pytest.mark.parametrize("fid", list(FACTORS))
def test_combat_factor(t: Tables, fid: str) -> None:
    f = t.combat_factors.factors[fid]
    assert (f.dice, f.per, f.limit) == FACTORS[fid]


@pytest.mark.parametrize(
    ("fid", "garbled"),
    [("d_grade", "1 D Grade"), ("per_dp", "1 Each DP (maximum -4)"), ("shaken", "5 Shaken")],
)
def test_minus_signs_restored(rs: Ruleset, t: Tables, fid: str, garbled: str) -> None:
    f = t.combat_factors.factors[fid]
    assert f.dice < 0
    assert f.source_text == garbled
    er = rs.erratum("combat-minus-signs")
    assert er.kind == "interpretation"
    assert f"tables.combat_factors.factors.{fid}" in er.applies_to


def test_mc_charge_exceptions(t: Tables) -> None:
    assert len(t.combat_factors.factors["mi_mc_charge"].exceptions) == 2


def test_hit_numbers(t: Tables) -> None:
    h = t.hit_numbers
    assert (h.die, h.hard_hit_on, h.normal_hit_on, h.leader_automatic_hits) == (
        "d6",
        (6,),
        (5, 6),
        1,
    )
    assert set(h.hard_situations) == {
        "unformed_or_column",
        "enemy_ground",
        "charged_flank_rear",
        "countercharged",
    }


def test_support_and_multiple(t: Tables) -> None:
    s = t.support
    assert (s.max_gap, s.min_fraction_of_stands, s.legion_third_line_supports) == (1.0, 0.5, True)
    m = t.multiple_combat
    assert (m.grade_from, m.dps_from, m.other_factors_from) == (
        "average_round_up",
        "most_dps",
        "most_engaged_bases",
    )
    assert m.supporting_dps_ignored


BANDS = {
    # id: (min_diff, max_diff, dps, casualties, rout_if, number of situations)
    "victory": (4, None, 0, 0, (), 4),
    "success": (1, 3, 1, 0, (), 5),
    "inconclusive": (0, 0, 1, 0, (), 3),
    "set_back": (-3, -1, 2, 0, ("shaken",), 5),
    "defeat": (None, -4, 2, 1, ("shaken", "unformed"), 3),
}


@pytest.mark.parametrize("bid", list(BANDS))
def test_result_band(t: Tables, bid: str) -> None:
    b = t.combat_results.bands[bid]
    lo, hi, dps, cas, rout, nmoves = BANDS[bid]
    assert (b.min_diff, b.max_diff, b.dps, b.casualties, b.rout_if) == (lo, hi, dps, cas, rout)
    assert len(b.moves) == nmoves


@pytest.mark.parametrize(
    ("diff", "bid"),
    [
        (9, "victory"),
        (4, "victory"),
        (3, "success"),
        (1, "success"),
        (0, "inconclusive"),
        (-1, "set_back"),
        (-3, "set_back"),
        (-4, "defeat"),
        (-9, "defeat"),
    ],
)
def test_result_band_of_difference(t: Tables, diff: int, bid: str) -> None:
    found = [
        k
        for k, b in t.combat_results.bands.items()
        if (b.min_diff is None or b.min_diff <= diff) and (b.max_diff is None or diff <= b.max_diff)
    ]
    assert found == [bid]


@pytest.mark.parametrize(
    ("bid", "index", "moves", "choice"),
    [
        ("victory", 0, ("halt", "pursue"), True),
        ("victory", 3, ("pursue",), False),
        ("success", 0, ("halt",), False),
        ("success", 1, ("retire",), False),
        ("success", 2, ("pass_through",), False),
        ("success", 4, ("follow_up", "pursue"), False),
        ("inconclusive", 0, ("retire",), False),
        ("inconclusive", 1, ("pass_through",), False),
        ("inconclusive", 2, ("halt",), False),
        ("set_back", 0, ("halt",), False),
        ("set_back", 1, ("retire",), False),
        ("set_back", 2, ("retire",), False),
        ("set_back", 3, (), False),
        ("set_back", 4, ("fall_back",), False),
        ("defeat", 0, (), False),
        ("defeat", 1, ("retire_behind_triarii",), False),
        ("defeat", 2, ("retire",), False),
    ],
)
def test_result_moves(
    t: Tables, bid: str, index: int, moves: tuple[str, ...], choice: bool
) -> None:
    rm = t.combat_results.bands[bid].moves[index]
    assert (rm.moves, rm.choice) == (moves, choice)


def test_result_extras(t: Tables) -> None:
    bands = t.combat_results.bands
    assert bands["success"].moves[2].extra_dps_inflicted == 1
    assert bands["inconclusive"].moves[1].extra_dps_inflicted == 1
    assert bands["set_back"].moves[3].elephant_critical
    assert bands["defeat"].moves[0].elephant_critical


@pytest.mark.parametrize(
    ("mid", "distance", "full", "formed", "dps_removed", "blocked"),
    [
        ("halt", None, False, True, 0, None),
        ("fall_back", 1.0, False, True, 0, 1),
        ("follow_up", None, False, True, 0, None),
        ("relieve_ranks", None, False, True, 1, None),
        ("pass_through", 4.0, False, True, 0, None),
        ("retire", None, True, False, 0, 1),
        ("retire_behind_triarii", None, False, True, 0, None),
        ("rout", None, True, False, 0, None),
        ("pursue", None, True, False, 0, None),
    ],
)
def test_after_combat_moves(
    t: Tables,
    mid: str,
    distance: float | None,
    full: bool,
    formed: bool,
    dps_removed: int,
    blocked: int | None,
) -> None:
    m = t.after_combat_moves.moves[mid]
    assert (m.distance, m.full_move, m.formed, m.dps_removed, m.blocked_casualties) == (
        distance,
        full,
        formed,
        dps_removed,
        blocked,
    )


def test_rout_surrender(t: Tables) -> None:
    assert t.after_combat_moves.moves["rout"].surrender_within == 4.0
    assert len(t.after_combat_moves.moves) == 9


# --------------------------------------------------------------------------- legion, units


def test_unit_sizes_and_legion(t: Tables) -> None:
    u = t.unit_sizes
    assert (
        u.min_bases,
        u.max_bases,
        u.elephant_bases,
        u.legion_bases,
        u.understrength_per_base,
    ) == (2, 8, 1, 10, 2)
    lg = t.legion
    assert [(ln.name, ln.troop, ln.bases, ln.alternative_bases) for ln in lg.lines] == [
        ("Hastati", "mi", 4, None),
        ("Principes", "mi", 4, None),
        ("Triarii", "triarii", 2, 4),
    ]
    assert (lg.line_gap_max, lg.line_frontage_mm, lg.line_frontage_as_bases) == (1.0, 120.0, 6)
    assert lg.quincunx_moves_as == "mi"


def test_formations(t: Tables) -> None:
    assert set(t.formations.items) == {"line", "quincunx", "column", "unformed"}
    assert set(t.formations.unformed_causes) == {
        "shaken",
        "routing",
        "pursuing",
        "evading",
        "retiring",
    }


# --------------------------------------------------------------------------- armies

ROMAN = {
    # id: (troop, sizes, default size, min, max, grades, default grade)
    "roman_legion": ("mi", (10,), 10, 1, 4, ("A", "B", "C", "D"), "B"),
    "allied_legion": ("mi", (10,), 10, 0, 4, ("A", "B", "C", "D"), "C"),
    "velites": ("li", tuple(range(2, 9)), 6, 0, 8, ("A", "B"), "B"),
    "roman_equites": ("mc", tuple(range(2, 9)), 2, 0, 4, ("A", "B", "C", "D"), "C"),
    "allied_cavalry": ("mc", tuple(range(2, 9)), 4, 0, 4, ("A", "B", "C", "D"), "C"),
    "allied_spearmen": ("hi", tuple(range(2, 9)), 4, 0, 2, ("A", "B", "C", "D"), "C"),
    "cretan_archers": ("li", tuple(range(2, 9)), 2, 0, 2, ("C", "D"), "C"),
}
CARTHAGINIAN = {
    "citizen_spearmen": ("hi", tuple(range(2, 9)), 4, 0, 2, ("A", "B", "C", "D"), "C"),
    "libyan_spearmen": ("hi", tuple(range(2, 9)), 6, 0, 4, ("A", "B", "C", "D"), "B"),
    "spanish_scutarii": ("mi", tuple(range(2, 9)), 6, 0, 6, ("A", "B", "C", "D"), "C"),
    "spanish_caetrati": ("li", tuple(range(2, 9)), 4, 0, 4, ("A", "B"), "B"),
    "gauls": ("mi", tuple(range(2, 9)), 8, 0, 8, ("A", "B", "C", "D"), "C"),
    "gallic_cavalry": ("mc", tuple(range(2, 9)), 4, 0, 4, ("A", "B", "C", "D"), "C"),
    "spanish_cavalry": ("mc", tuple(range(2, 9)), 4, 0, 4, ("A", "B", "C", "D"), "B"),
    "numidian_cavalry": ("lc", tuple(range(2, 9)), 4, 0, 6, ("A", "B", "C", "D"), "B"),
    "balearic_slingers": ("li", tuple(range(2, 9)), 4, 0, 4, ("C", "D"), "C"),
    "elephants": ("el", (1,), 1, 0, 8, ("C",), "C"),
}
ENTRIES = [("roman", k, v) for k, v in ROMAN.items()] + [
    ("carthaginian", k, v) for k, v in CARTHAGINIAN.items()
]


def test_army_ids(rs: Ruleset) -> None:
    assert set(rs.armies) == {"roman", "carthaginian"}
    assert list(rs.army("roman").entries) == list(ROMAN)
    assert list(rs.army("carthaginian").entries) == list(CARTHAGINIAN)
    # the source gives no army to start from: the ready armies are Castra's
    assert all(a.standard is not None and a.standard.origin == "castra" for a in rs.armies.values())


@pytest.mark.parametrize(("army", "eid", "want"), ENTRIES, ids=[e[1] for e in ENTRIES])
def test_army_entry(
    rs: Ruleset,
    army: str,
    eid: str,
    want: tuple[str, tuple[int, ...], int, int, int, tuple[str, ...], str],
) -> None:
    e = rs.entry(army, eid)
    assert e is not None
    got = (e.troop, e.sizes, e.default_size, e.min, e.max, e.grades, e.default_grade)
    assert got == want
    assert e.source and e.source.startswith("Leg VI")


@pytest.mark.parametrize("eid", ["roman_legion", "allied_legion"])
def test_legion_entry_lines(rs: Ruleset, eid: str) -> None:
    e = rs.entry("roman", eid)
    assert e is not None
    assert [(ln.troop, ln.bases, ln.alternative_bases) for ln in e.lines] == [
        ("mi", 4, None),
        ("mi", 4, None),
        ("triarii", 2, 4),
    ]
    assert sum(ln.bases for ln in e.lines) == 10


def test_legion_men(rs: Ruleset) -> None:
    e = rs.entry("roman", "roman_legion")
    assert e is not None
    men = sum(ln.bases * (rs.troop(ln.troop).basing.men_per_base or 0) for ln in e.lines)
    assert men == 4 * 350 + 4 * 350 + 2 * 550 == 3900


# --------------------------------------------------------------------------- errata


@pytest.mark.parametrize(
    ("eid", "kind"),
    [
        ("combat-minus-signs", "interpretation"),
        ("elephant-abbreviation", "errata"),
        ("men-per-base-midpoint", "interpretation"),
        ("figures-per-base", "gap"),
        ("rampage-diagram", "gap"),
        ("army-lists-built", "gap"),
        ("entry-limits", "interpretation"),
        ("entry-grades", "interpretation"),
        ("ready-armies-built", "gap"),
        ("initiative-die", "gap"),
        ("stop-rampage-bonus", "interpretation"),
        ("hi-follow-up-not-pursuit", "interpretation"),
        ("mc-charging-hi-frontally", "interpretation"),
        ("average-die", "gap"),
        ("command-kind-unset", "interpretation"),
    ],
)
def test_errata_present(rs: Ruleset, eid: str, kind: str) -> None:
    er = rs.erratum(eid)
    assert er.kind == kind
    assert er.applies_to and er.override and er.source_says and er.decision


def test_issue_8_errata_quote_the_source(rs: Ruleset) -> None:
    """The three Leg VI decisions of issue 8 quote the source's own words (seeds/001_...)."""
    pursuit = rs.erratum("hi-follow-up-not-pursuit").source_says
    assert "+2 HI charge, receive charge, or follow-up" in pursuit
    assert "+1 MI or MC charge, pursue or follow-up" in pursuit
    frontal = rs.erratum("mc-charging-hi-frontally").source_says
    assert "except MC against elephants or if charging HI frontally" in frontal
    avd = rs.erratum("average-die")
    assert "Roll 1 AvD for light troops and A Grade" in avd.source_says
    assert "2, 3, 3, 4, 4, 5" in avd.decision
    assert rs.errata_for("tables.avd") and rs.errata_for("tables.combat_factors.factors.hi_charge")
    commands = rs.erratum("command-kind-unset").source_says
    assert "up to one unit of heavy or medium infantry" in commands


def test_charge_factors_say_what_earns_them(t: Tables) -> None:
    """Leg VI, combat factors: MI/MC '+1 charge, pursue or follow-up', HI '+2 charge, receive
    charge, or follow-up', elephants '+3 charge, pursue, follow-up'."""
    f = t.combat_factors.factors
    assert f["mi_mc_charge"].when == ("charge", "pursue", "follow_up")
    assert f["hi_charge"].when == ("charge", "receive_charge", "follow_up")
    assert f["elephant_charge"].when == ("charge", "pursue", "follow_up")


def test_errata_targets(rs: Ruleset) -> None:
    assert rs.errata_for("tables.rampage.directions")
    assert rs.errata_for("troops.el.abbreviation")
    assert rs.errata_for("armies.carthaginian")
    assert "EI" in rs.erratum("elephant-abbreviation").source_says
    assert troop(rs, "el").abbreviation == "El"


# --------------------------------------------------------------------------- access, checks


def test_accessors_refuse_other_tables(rs: Ruleset) -> None:
    class Other(Strict):
        x: int = 1

    other = dataclasses.replace(rs, tables=Other())
    with pytest.raises(TypeError):
        tables(other)
    assert check(other)[0].file == "tables.toml"


def test_check_clean(rs: Ruleset) -> None:
    assert check(rs) == []


def _broken(tmp_path: Path, file: str, old: str, new: str) -> RulesetError:
    folder = tmp_path / "leg-vi-broken"
    shutil.copytree(FOLDER, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {file}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(folder)
    return info.value


BREAKS = [
    ("troops.toml", 'fatigue = "hi_line"', 'fatigue = "marching"', "troops.hi.fatigue"),
    ("troops.toml", "fatigue_on = [5, 6]", "fatigue_on = [6]", "troops.hi.fatigue_on"),
    (
        "troops.toml",
        "rough_terrain_dps = 2",
        "rough_terrain_dps = 1",
        "troops.hi.rough_terrain_dps",
    ),
    (
        "troops.toml",
        'charge_targets = ["light_infantry", "elephant"]',
        'charge_targets = ["any"]',
        "troops.li.charge_targets",
    ),
    (
        "troops.toml",
        'combat_factors = ["hi_charge"]',
        'combat_factors = ["pike"]',
        "troops.hi.combat_factors[0]",
    ),
    (
        "troops.toml",
        "combat_dice_per_base = 2",
        "combat_dice_per_base = 1",
        "troops.el.combat_dice_per_base",
    ),
    ("troops.toml", "march_move = 12.0", "march_move = 10.0", "troops.lc.march_move"),
    (
        "tables.toml",
        "min_diff = 1\nmax_diff = 3",
        "min_diff = 0\nmax_diff = 3",
        "tables.combat_results.bands",
    ),
    (
        "tables.toml",
        'moves = ["retire_behind_triarii"]',
        'moves = ["flee"]',
        "tables.combat_results.bands.defeat.moves[1].moves[0]",
    ),
    (
        "tables.toml",
        'low = 3\nhigh = 4\nresult = "free"',
        'low = 4\nhigh = 4\nresult = "free"',
        "tables.control_test.results",
    ),
    ("tables.toml", "roll = 6\n", "roll = 5\n", "tables.rampage.directions"),
    (
        "tables.toml",
        'low = 5\nhigh = 6\nresult = "flesh_wound"',
        'low = 5\nhigh = 5\nresult = "flesh_wound"',
        "tables.die_of_death.results",
    ),
    (
        "tables.toml",
        "lines = 3\nshaken_at = 7",
        "lines = 3\nshaken_at = 8",
        "tables.dp_limits.legion_quincunx[2].shaken_at",
    ),
    (
        "tables.toml",
        'numeral = "VII"\nphase = "rally"',
        'numeral = "VII"\nphase = "charge"',
        "tables.sequence.steps",
    ),
    ("tables.toml", "actions_general = 2", "actions_general = 3", "tables.command.actions_general"),
    ("tables.toml", "faces = [2, 3, 3, 4, 4, 5]", "faces = [1, 2, 3, 4, 5, 6]", "tables.avd.faces"),
    ("armies.toml", 'troop = "triarii"', 'troop = "hi"', "armies.roman.entries.roman_legion.lines"),
    (
        "armies.toml",
        'grades = ["C"]',
        'grades = ["B", "C"]',
        "armies.carthaginian.entries.elephants.grades",
    ),
    (
        "armies.toml",
        "sizes = [2, 3, 4, 5, 6, 7, 8]\ndefault_size = 6\nmin = 0\nmax = 8",
        "sizes = [2, 3, 4, 5, 6, 7, 8, 9]\ndefault_size = 6\nmin = 0\nmax = 8",
        "armies.roman.entries.velites.sizes",
    ),
    ("armies.toml", "sizes = [1]", "sizes = [1, 2]", "armies.carthaginian.entries.elephants.sizes"),
]


@pytest.mark.parametrize(("file", "old", "new", "path"), BREAKS, ids=[b[3] for b in BREAKS])
def test_check_finds_broken_copy(tmp_path: Path, file: str, old: str, new: str, path: str) -> None:
    err = _broken(tmp_path, file, old, new)
    assert any(p.file == file and p.path == path for p in err.problems), err.problems


#: issue 13: one hostile house-rule value of each kind, refused at load with the file, the key
#: path and what is wrong (file, text replaced, replacement, key path, words of the problem)
HOSTILE = [
    ("tables.toml", "max_base_dice = 10", 'max_base_dice = "10"', "combat_dice.max_base_dice",
     "valid integer"),
    ("tables.toml", "\nper_base = 1", "\nper_base = true", "combat_dice.per_base",
     "valid integer"),
    ("tables.toml", "max_base_dice = 10", "max_base_dice = 1000000000",
     "combat_dice.max_base_dice", "less than or equal to 100"),
    ("tables.toml", 'outcome_die = "d6"', 'outcome_die = "d99999999"',
     "elephant_critical.outcome_die", "a die of 99,999,999 faces"),
    ("tables.toml", 'title = "Shooting (light troops only)"\nrange = 4.0\ndie = "d6"',
     'title = "Shooting (light troops only)"\nrange = 4.0\ndie = "2d6"', "shooting.die",
     "not a die like d6"),
    ("tables.toml", 'title = "Risk to leaders: die of death"\ndie = "d6"',
     'title = "Risk to leaders: die of death"\ndie = "d6+1"', "die_of_death.die",
     "not one die"),
    ("tables.toml", 'move_dice = ["avd", "d6"]', 'move_dice = ["avd", "d6", "d6", "d6"]',
     "rampage.move_dice", "at most 3"),
    ("tables.toml", "march_beyond = 8.0", "march_beyond = nan", "movement.march_beyond",
     "not a finite number"),
    ("tables.toml", "march_beyond = 8.0", "march_beyond = inf", "movement.march_beyond",
     "not a finite number"),
    ("tables.toml", "dps_per_hit = 1", "dps_per_hit = -1", "shooting.dps_per_hit",
     "greater than or equal to 0"),
    ("tables.toml", 'low = 5\nhigh = 6\nresult = "flesh_wound"',
     'low = 5\nhigh = 99999\nresult = "flesh_wound"', "die_of_death.results[2].high",
     "less than or equal to 100"),
    ("troops.toml", "march_move = 12.0", "march_move = 1e12", "troops.lc.march_move",
     "less than or equal to 1000"),
    ("troops.toml", "combat_dice_per_base = 1", 'combat_dice_per_base = "1"',
     "troops.li.combat_dice_per_base", "valid integer"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("file", "old", "new", "path", "words"),
    HOSTILE,
    ids=[f"{h[3]}={h[2].split()[-1]}" for h in HOSTILE],
)
def test_hostile_house_rule_values_are_refused(
    tmp_path: Path, file: str, old: str, new: str, path: str, words: str
) -> None:
    err = _broken(tmp_path, file, old, new)
    found = [p for p in err.problems if p.file == file and p.path.endswith(path)]
    assert found, err.problems
    assert any(words in p.message for p in found), found


@pytest.mark.parametrize(
    ("old", "new", "path"),
    [
        ('direction_die = "d6"', 'direction_die = "d8"', "tables.rampage.directions"),
        (
            'title = "Risk to leaders: die of death"\ndie = "d6"',
            'title = "Risk to leaders: die of death"\ndie = "d10"',
            "tables.die_of_death.results",
        ),
        ('outcome_die = "d6"', 'outcome_die = "d8"', "tables.elephant_critical.outcomes"),
    ],
)
def test_a_bigger_die_needs_bands_for_its_faces(
    tmp_path: Path, old: str, new: str, path: str
) -> None:
    """A house rule may roll a bigger die, but then every face must read in its table (the
    control test's bands are open at both ends, so any die reads there)."""
    err = _broken(tmp_path, "tables.toml", old, new)
    assert any(p.file == "tables.toml" and p.path == path for p in err.problems), err.problems


def test_a_copy_may_give_hi_the_bonus_for_a_pursuit(tmp_path: Path) -> None:
    """Errata 'hi-follow-up-not-pursuit' overridden in data: "pursue" added to the HI
    factor's ``when`` gives heavy infantry the +2 for a pursuit into contact again."""
    from app.rules.mechanics import Combatant, Situation
    from app.rulesets.leg_vi.combat_rules import combat_dice

    folder = tmp_path / "leg-vi-house"
    shutil.copytree(FOLDER, folder)
    path = folder / "tables.toml"
    text = path.read_text(encoding="utf-8")
    old = 'when = ["charge", "receive_charge", "follow_up"]'
    assert old in text
    path.write_text(text.replace(old, 'when = ["charge", "receive_charge", "follow_up", "pursue"]'))
    for rs, bonus in ((load_ruleset(FOLDER), 0), (load_ruleset(folder), 2)):
        mech = LegVIMechanics(rs)
        hi = Combatant("a", "HI", "hi", 0, mech.initial_status("hi", 4, "C"))
        mi = Combatant("d", "MI", "mi", 1, mech.initial_status("mi", 4, "C"))
        dice = []
        for opts in ({"charge": "none"}, {"charge": "none", "pursued": "attacker"}):
            sa, _ = mech._melee_sides(Situation(actor=hi, target=mi, options=opts))
            dice.append(combat_dice(mech.t, sa)[0])
        assert dice[1] == dice[0] + bonus


def test_schema_rejects_unknown_table_key(tmp_path: Path) -> None:
    err = _broken(tmp_path, "tables.toml", "max_base_dice = 10", "max_dice = 10")
    paths = {(p.file, p.path) for p in err.problems}
    assert ("tables.toml", "combat_dice.max_dice") in paths
    assert ("tables.toml", "combat_dice.max_base_dice") in paths


def test_errata_path_must_exist(tmp_path: Path) -> None:
    err = _broken(
        tmp_path, "errata.toml", '"tables.rampage.directions"', '"tables.rampage.diagram"'
    )
    assert any(
        p.file == "errata.toml" and "tables.rampage.diagram" in p.message for p in err.problems
    )
