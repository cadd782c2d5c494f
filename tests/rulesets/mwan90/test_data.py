"""MWAN #90 Punic rules data (rulesets/mwan90) checked against the source text
(seeds/003_94007ec9d776d367.txt, truncated in its morale section) and its errata.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app.rules.errors import RulesetError
from app.rules.registry import BUILTIN_DIR
from app.rules.ruleset import Ruleset
from app.rules.schema import Category
from app.rulesets import find_engine, load_ruleset
from app.rulesets.mwan90.checks import check
from app.rulesets.mwan90.mechanics import MWAN90Mechanics
from app.rulesets.mwan90.schema import Tables, Troop, rout_threshold, tables
from tests.rules.test_prose_is_ours import RUN, SOURCE, shingle, words

FOLDER = BUILTIN_DIR / "mwan90"


def troop(rs: Ruleset, tid: str) -> Troop:
    tr = rs.troop(tid)
    assert isinstance(tr, Troop)
    return tr


# --------------------------------------------------------------------------- meta


def test_meta(rs: Ruleset) -> None:
    m = rs.meta
    assert (m.id, m.engine, m.counts, m.unit_of_measure) == ("mwan90", "mwan90", "figures", "inch")
    assert m.source_file == "003_94007ec9d776d367.txt"
    assert m.scales == ("1:10", "1:100") and m.default_scale == "1:10"
    assert m.year == 1997
    assert m.author is None and m.author_note
    assert m.data_version == "1.5.0"
    assert rs.men_per_figure("1:10") == 10 and rs.men_per_figure("1:100") == 100


def test_engine_registration(builtin_folder: Path) -> None:
    """The registry's line for this engine names its folder, models, check and mechanics."""
    engine = find_engine("mwan90")
    assert engine.builtin_folder == builtin_folder.name
    assert engine.troop_model is Troop and engine.tables_model is Tables
    assert engine.check is check
    assert engine.mechanics is MWAN90Mechanics


def test_turn_and_sequence(rs: Ruleset, t: Tables) -> None:
    ids = ["initiative", "movement", "missiles", "melee"]
    assert [p.id for p in rs.turn.phases] == ids
    assert [s.phase for s in t.sequence.steps] == ids


def test_no_leader_rules(rs: Ruleset) -> None:
    assert rs.leaders.generals is None
    assert rs.errata_for("leaders")[0].id == "no-leaders"


def test_check_clean(rs: Ruleset) -> None:
    assert check(rs) == []


def test_tables_accessor_rejects_other_engines(builtin_folder: Path) -> None:
    other = load_ruleset(builtin_folder.parent / "grown-slightly-bald")
    with pytest.raises(TypeError):
        tables(other)


# --------------------------------------------------------------------------- troops

TROOPS = {
    # id: (category, formed, ranks, dice per figure, move class, hit class, javelins, barbarian)
    "heavy_infantry": (
        Category.HEAVY_INFANTRY,
        "always",
        2,
        1,
        "heavy_infantry",
        "heavy",
        False,
        False,
    ),
    "heavy_infantry_javelin": (
        Category.HEAVY_INFANTRY,
        "always",
        2,
        1,
        "heavy_infantry",
        "heavy",
        True,
        False,
    ),
    "greek_heavy_infantry": (
        Category.HEAVY_INFANTRY,
        "always",
        3,
        1,
        "heavy_infantry",
        "heavy",
        False,
        False,
    ),
    "medium_infantry": (
        Category.MEDIUM_INFANTRY,
        "either",
        2,
        1,
        "formed_medium_infantry",
        "medium",
        False,
        False,
    ),
    "medium_infantry_javelin": (
        Category.MEDIUM_INFANTRY,
        "either",
        2,
        1,
        "formed_medium_infantry",
        "medium",
        True,
        False,
    ),
    "barbarian_medium_infantry": (
        Category.MEDIUM_INFANTRY,
        "either",
        2,
        1,
        "formed_medium_infantry",
        "medium",
        False,
        True,
    ),
    "skirmish_javelin": (
        Category.LIGHT_INFANTRY,
        "never",
        1,
        1,
        "skirmish_infantry",
        "skirmish",
        False,
        False,
    ),
    "skirmish_sling": (
        Category.LIGHT_INFANTRY,
        "never",
        1,
        1,
        "skirmish_infantry",
        "skirmish",
        False,
        False,
    ),
    "skirmish_bow": (
        Category.LIGHT_INFANTRY,
        "never",
        1,
        1,
        "skirmish_infantry",
        "skirmish",
        False,
        False,
    ),
    "light_cavalry": (
        Category.LIGHT_CAVALRY,
        "either",
        2,
        1,
        "light_cavalry",
        "light",
        False,
        False,
    ),
    "cavalry": (Category.MEDIUM_CAVALRY, "always", 2, 1, "cavalry_line", "medium", False, False),
    "elephants": (Category.ELEPHANT, "always", 1, 6, "elephants", "heavy", False, False),
}

WEAPONS = {
    "skirmish_javelin": ("javelin", 9),
    "skirmish_sling": ("sling", 15),
    "skirmish_bow": ("bow", 15),
    "light_cavalry": ("javelin", 9),
}


def test_troop_ids(rs: Ruleset) -> None:
    assert set(rs.troops) == set(TROOPS)


@pytest.mark.parametrize("tid", sorted(TROOPS))
def test_troop(rs: Ruleset, tid: str) -> None:
    cat, formed, ranks, dpf, move_class, hit_class, jav, barb = TROOPS[tid]
    tr = troop(rs, tid)
    assert tr.category is cat
    assert (tr.formed, tr.ranks, tr.dice_per_figure) == (formed, ranks, dpf)
    assert (tr.move_class, tr.hit_class) == (move_class, hit_class)
    assert (tr.pre_melee_javelins, tr.barbarian) == (jav, barb)
    assert tr.disorders_cavalry is (tid == "elephants")
    assert tr.basing.per == "figure"
    if tid in WEAPONS:
        name, rng = WEAPONS[tid]
        assert tr.shoots
        assert [(w.name, w.long_range) for w in tr.weapons] == [(name, rng)]
    else:
        assert not tr.shoots and tr.weapons == ()


@pytest.mark.parametrize(
    ("tid", "threshold"),
    [
        ("heavy_infantry", 3),
        ("cavalry", 3),
        ("medium_infantry", 3),
        ("elephants", 1),
        ("skirmish_sling", None),
    ],
)
def test_rout_threshold(rs: Ruleset, t: Tables, tid: str, threshold: int | None) -> None:
    assert rout_threshold(t, troop(rs, tid)) == threshold


# --------------------------------------------------------------------------- tables


def test_initiative(t: Tables) -> None:
    i = t.initiative
    assert i.die == "d6"
    assert (i.first_turn_tie, i.later_tie) == ("reroll", "previous_loser_wins")
    assert i.winner_chooses_move_order


MOVES = {
    # class: (move, stated in source, max wheel, about face, forward only, wheel with move)
    "cavalry_line": (8, True, 90, False, False, True),
    "formed_medium_infantry": (8, True, 90, True, False, True),
    "light_cavalry": (8, False, 90, True, False, True),
    "heavy_infantry": (8, False, 45, False, True, False),
    "skirmish_infantry": (8, False, None, True, False, True),
    "elephants": (8, False, 90, False, False, True),
}


@pytest.mark.parametrize("cls", sorted(MOVES))
def test_movement(t: Tables, cls: str) -> None:
    move, stated, wheel, about, forward, with_move = MOVES[cls]
    row = t.movement.rows[cls]
    assert (row.move, row.move_stated, row.max_wheel_deg) == (move, stated, wheel)
    assert (row.about_face, row.forward_only, row.wheel_with_move) == (about, forward, with_move)


def test_movement_rules(t: Tables) -> None:
    assert set(t.movement.rows) == set(MOVES)
    assert t.movement.pinned_in_melee
    assert t.movement.skirmishers_pass_through == (Category.ELEPHANT,)


def test_missiles(t: Tables) -> None:
    m = t.missiles
    assert (m.dice_per_figure, m.hit_on) == (1, 6)
    assert m.simultaneous and m.clear_shot_required
    assert m.no_shooting_at_units_in_melee and m.split_vs_supported_cavalry
    assert m.ranges == {"bow": 15, "sling": 15, "javelin": 9}
    pm = m.pre_melee_javelins
    assert (pm.ranks, pm.dice_per_figure, pm.when) == (1, 1, "before_first_melee_round")


def test_melee(t: Tables) -> None:
    m = t.melee
    assert m.order == ("flank_rear", "regular")
    assert m.dice_per_figure == 1
    assert m.support_mi_ranks == 2
    assert m.overlap_figures_per_flank == 1
    assert m.skirmishers_count_only_vs_skirmishers
    assert m.disordered_attacked_tests_as_routed_into
    assert m.figures_lost_per_hit == 1
    assert m.split_vs_supported_cavalry and m.other_fights_on_if_one_routs
    assert (m.post_melee_bonus_move, m.bonus_move_may_charge) == (4, True)


def test_flank_rear_triples_the_attackers_dice(t: Tables) -> None:
    """Errata flank-rear-triple: against a heavy unit attacked in flank or rear
    the attacker's dice are tripled (the word-for-word reading is the melee option)."""
    fr = t.melee.flank_rear
    assert (fr.multiplier, fr.multiplied_side) == (3, "attacker")
    assert fr.only_if_attacked == ("heavy",)
    assert fr.attacked_disordered


def test_flank_rear_decision_quotes_the_source(rs: Ruleset) -> None:
    """Issue 8: the errata entry quotes the article's own words (every eight-word run of the
    quote is one of the source's, by its fingerprints) and names the option that keeps them."""
    e = rs.erratum("flank-rear-triple")
    quote = "triple the total number of dice tossed by the attacked if they are Heavy"
    assert quote in e.source_says
    w = words(quote)
    assert all(shingle(w[i : i + RUN]) in SOURCE for i in range(len(w) - RUN + 1))
    assert "whose dice are tripled' set to 'attacked'" in e.decision
    assert e.override is not None and "flank_tripled = attacked" in e.override
    assert "tables.melee.flank_rear.multiplied_side" in e.applies_to


@pytest.mark.parametrize(
    ("cls", "hit_on"), [("heavy", 6), ("medium", 5), ("light", 5), ("skirmish", 4)]
)
def test_hits(t: Tables, cls: str, hit_on: int) -> None:
    assert t.hits.rows[cls].hit_on == hit_on


def test_hits_rows(t: Tables) -> None:
    assert set(t.hits.rows) == {"heavy", "medium", "light", "skirmish"}


def test_dispersal(t: Tables) -> None:
    d = t.dispersal
    assert d.formed_move_full_distance and d.skirmishers_removed
    assert (d.shots_per_skirmisher, d.hit_on) == (1, 6)
    assert d.skirmishers_may_not_close_with_formed


def test_formations(t: Tables) -> None:
    sw, wedge = t.formations.shield_wall, t.formations.wedge
    assert (sw.min_units, sw.side_by_side, sw.while_immobile_counts_as) == (2, True, "heavy")
    assert wedge.needs_barbarian_support_behind
    assert wedge.counts_supporter_figures and wedge.no_flanks


def test_morale_known_parts(t: Tables) -> None:
    m = t.morale
    assert m.unformed_check is False
    assert (m.rout_at_figures, m.rout_at_elephants, m.routed_removed) == (3, 1, True)
    assert m.check_within == 6
    assert m.who_checks == "friendly_formed_units"
    assert m.routing_elephants_modifier == -3
    assert m.die == "d6"
    assert m.source_breaks_off_at == "Unit in:"


def test_morale_incomplete_and_uninvented(t: Tables) -> None:
    """Errata morale-table-truncated: the table is cut off; marked incomplete, no rows invented."""
    assert t.morale.complete is False
    assert t.morale.rows == ()
    assert "INCOMPLETE" in t.morale.title


# --------------------------------------------------------------------------- armies

ENTRIES = {
    # (army, entry): (troop, sizes, default, warning?)
    ("roman", "hastati"): ("heavy_infantry_javelin", (8, 10, 12, 14, 16), 12, False),
    ("roman", "principes"): ("heavy_infantry_javelin", (8, 10, 12, 14, 16), 12, False),
    ("roman", "triarii"): ("heavy_infantry", (6, 8, 10, 12), 6, False),
    ("roman", "socii"): ("heavy_infantry_javelin", (8, 10, 12, 14, 16), 12, False),
    ("roman", "velites"): ("skirmish_javelin", (4, 6, 8, 10, 12), 8, False),
    ("roman", "equites"): ("cavalry", (6, 8, 10, 12), 6, False),
    ("roman", "allied_cavalry"): ("cavalry", (6, 8, 10, 12), 8, False),
    ("roman", "numidian_allies"): ("light_cavalry", (6, 8, 10, 12), 8, True),
    ("carthaginian", "libyans"): ("heavy_infantry", (8, 10, 12, 14, 16), 12, False),
    ("carthaginian", "citizen_phalanx"): ("greek_heavy_infantry", (9, 12, 15, 18), 12, True),
    ("carthaginian", "spanish_infantry"): (
        "medium_infantry_javelin",
        (8, 10, 12, 14, 16),
        12,
        False,
    ),
    ("carthaginian", "gauls"): ("barbarian_medium_infantry", (8, 10, 12, 14, 16), 12, False),
    ("carthaginian", "balearic_slingers"): ("skirmish_sling", (4, 6, 8, 10, 12), 8, False),
    ("carthaginian", "javelinmen"): ("skirmish_javelin", (4, 6, 8, 10, 12), 8, False),
    ("carthaginian", "numidians"): ("light_cavalry", (6, 8, 10, 12), 8, False),
    ("carthaginian", "spanish_gallic_cavalry"): ("cavalry", (6, 8, 10, 12), 8, False),
    ("carthaginian", "elephants"): ("elephants", (2, 3, 4), 2, False),
}


def test_army_ids(rs: Ruleset) -> None:
    assert set(rs.armies) == {"roman", "carthaginian"}
    for army_id in rs.armies:
        assert set(rs.army(army_id).entries) == {e for a, e in ENTRIES if a == army_id}
        std = rs.army(army_id).standard
        assert std is not None and std.origin == "castra" and not std.leaders


@pytest.mark.parametrize(("army_id", "entry_id"), sorted(ENTRIES))
def test_army_entry(rs: Ruleset, t: Tables, army_id: str, entry_id: str) -> None:
    troop_id, sizes, default, warned = ENTRIES[(army_id, entry_id)]
    entry = rs.army(army_id).entries[entry_id]
    assert entry.troop == troop_id
    assert entry.sizes == sizes and entry.default_size == default
    assert (entry.min, entry.max) == (0, None)
    assert (entry.warning is not None) is warned
    limit = rout_threshold(t, troop(rs, troop_id))
    assert limit is None or min(entry.sizes) > limit


# --------------------------------------------------------------------------- errata

ERRATA = {
    "morale-table-truncated": "gap",
    "morale-die": "interpretation",
    "initiative-die": "gap",
    "figure-scale": "interpretation",
    "basing": "gap",
    "move-distances": "gap",
    "manoeuvre-gaps": "gap",
    "flank-rear-triple": "interpretation",
    "cavalry-hit-class": "interpretation",
    "formed-or-not": "interpretation",
    "casualties": "interpretation",
    "melee-ranks": "interpretation",
    "light-cavalry-javelins": "interpretation",
    "pre-melee-javelins": "interpretation",
    "disorder": "gap",
    "dispersal": "interpretation",
    "no-leaders": "gap",
    "roman-troop-classes": "interpretation",
    "carthaginian-troop-classes": "interpretation",
    "unit-sizes": "interpretation",
    "army-limits": "interpretation",
    "ready-armies-built": "gap",
    "campaign-recovery": "gap",
    "campaign-leaders": "gap",
    "clear-shot": "interpretation",
    "missile-arc": "gap",
    "terrain-movement": "gap",
    "terrain-sight": "gap",
    "terrain-cover": "interpretation",
    "move-order": "interpretation",
    "bonus-move": "gap",
    "charge-contact": "interpretation",
    "clear-shot-figures": "gap",
    "turning-costs": "interpretation",
    "umpire-default": "gap",
}


def test_errata_ids(rs: Ruleset) -> None:
    assert {e.id for e in rs.errata} == set(ERRATA)


@pytest.mark.parametrize(("eid", "kind"), sorted(ERRATA.items()))
def test_erratum(rs: Ruleset, eid: str, kind: str) -> None:
    e = rs.erratum(eid)
    assert e.kind == kind
    assert e.applies_to and e.source_says and e.decision


def test_morale_gap_says_how_to_fill_it(rs: Ruleset) -> None:
    e = rs.erratum("morale-table-truncated")
    assert "tables.morale.rows" in e.applies_to
    assert e.override is not None
    assert "rows = []" in e.override and "complete = true" in e.override


def test_stated_moves_carry_no_gap(rs: Ruleset, t: Tables) -> None:
    flagged = {a for e in rs.errata for a in e.applies_to}
    for cls, row in t.movement.rows.items():
        assert (f"tables.movement.rows.{cls}.move" in flagged) is (not row.move_stated)


# --------------------------------------------------------------------------- copies

Edit = tuple[str, str, str]  # file, old text, new text

USER_ROWS = (
    'rows = [{ unit_in = "situation A", rolls = [1, 3], result = "result A", '
    'outcome = "routs" }, { unit_in = "situation A", rolls = [4, 6], result = "result B", '
    'outcome = "holds" }]'
)


def _copy(tmp_path: Path, edits: list[Edit]) -> Path:
    folder = tmp_path / "mwan90-copy"
    shutil.copytree(FOLDER, folder)
    for file, old, new in edits:
        path = folder / file
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} must occur once in {file}"
        path.write_text(text.replace(old, new), encoding="utf-8")
    return folder


def _broken(tmp_path: Path, edits: list[Edit]) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        load_ruleset(_copy(tmp_path, edits))
    return info.value


def test_user_can_fill_the_morale_table(tmp_path: Path) -> None:
    folder = _copy(
        tmp_path,
        [
            ("ruleset.toml", 'id = "mwan90"', 'id = "mwan90-house"'),
            ("tables.toml", "rows = []", USER_ROWS),
            ("tables.toml", "complete = false", "complete = true"),
        ],
    )
    rs = load_ruleset(folder, builtin=False)
    m = tables(rs).morale
    assert m.complete is True
    assert [(r.rolls, r.outcome) for r in m.rows] == [((1, 3), "routs"), ((4, 6), "holds")]


BROKEN: dict[str, tuple[list[Edit], str, str]] = {
    "complete without rows": (
        [("tables.toml", "complete = false", "complete = true")],
        "tables.toml",
        "tables.morale.rows",
    ),
    "rows without a die": (
        [
            ("tables.toml", "rows = []", USER_ROWS),
            ("tables.toml", 'die = "d6"\nrouting', "routing"),
        ],
        "tables.toml",
        "tables.morale.die",
    ),
    "inverted band": (
        [
            (
                "tables.toml",
                "rows = []",
                'rows = [{ unit_in = "x", rolls = [5, 2], result = "y", outcome = "other" }]',
            )
        ],
        "tables.toml",
        "morale.rows[0]",
    ),
    "unknown move class": (
        [("troops.toml", 'move_class = "elephants"', 'move_class = "pachyderms"')],
        "troops.toml",
        "troops.elephants.move_class",
    ),
    "unknown hit class": (
        [
            (
                "troops.toml",
                'move_class = "cavalry_line"\nhit_class = "medium"',
                'move_class = "cavalry_line"\nhit_class = "armoured"',
            )
        ],
        "troops.toml",
        "troops.cavalry.hit_class",
    ),
    "weapon range differs": (
        [
            (
                "troops.toml",
                'weapons = [{ name = "sling", long_range = 15 }]',
                'weapons = [{ name = "sling", long_range = 12 }]',
            )
        ],
        "troops.toml",
        "troops.skirmish_sling.weapons[0].long_range",
    ),
    "unknown weapon": (
        [
            (
                "troops.toml",
                'weapons = [{ name = "bow", long_range = 15 }]',
                'weapons = [{ name = "crossbow", long_range = 15 }]',
            )
        ],
        "troops.toml",
        "troops.skirmish_bow.weapons[0].name",
    ),
    "sequence out of order": (
        [("tables.toml", 'phase = "missiles"', 'phase = "shooting"')],
        "tables.toml",
        "tables.sequence.steps",
    ),
    "flank class unknown": (
        [("tables.toml", 'only_if_attacked = ["heavy"]', 'only_if_attacked = ["armoured"]')],
        "tables.toml",
        "tables.melee.flank_rear.only_if_attacked[0]",
    ),
    "elephant unit routs at once": (
        [("armies.toml", "sizes = [2, 3, 4]", "sizes = [1, 2, 3, 4]")],
        "armies.toml",
        "armies.carthaginian.entries.elephants.sizes",
    ),
    "formed unit of 3 figures": (
        [
            (
                "armies.toml",
                'sizes = [6, 8, 10, 12]\ndefault_size = 6\nnote = "Third',
                'sizes = [3, 6, 8, 10, 12]\ndefault_size = 6\nnote = "Third',
            )
        ],
        "armies.toml",
        "armies.roman.entries.triarii.sizes",
    ),
    "hit number out of range": (
        [("tables.toml", 'label = "Skirmish"\nhit_on = 4', 'label = "Skirmish"\nhit_on = 0')],
        "tables.toml",
        "hits.rows.skirmish.hit_on",
    ),
    "erratum names nothing": (
        [("errata.toml", '"tables.morale.complete", ', '"tables.morale.finished", ')],
        "errata.toml",
        "errata[0].applies_to",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_copy_is_refused(tmp_path: Path, case: str) -> None:
    edits, file, path = BROKEN[case]
    err = _broken(tmp_path, edits)
    assert any(p.file == file and p.path == path for p in err.problems), err.problems


def test_skirmishers_may_be_small(tmp_path: Path) -> None:
    """Unformed troops never rout at 3 figures, so a 2-figure skirmish unit is allowed."""
    folder = _copy(
        tmp_path,
        [
            (
                "armies.toml",
                'troop = "skirmish_sling"\nsizes = [4,',
                'troop = "skirmish_sling"\nsizes = [2, 4,',
            )
        ],
    )
    assert load_ruleset(folder).army("carthaginian").entries["balearic_slingers"].sizes[0] == 2


def test_dice_are_d6(t: Tables) -> None:
    """Missile and melee dice are d6: every score in the article (6, 5-6, 4-6) is a d6's."""
    assert (t.missiles.die, t.melee.die) == ("d6", "d6")
