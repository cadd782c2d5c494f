"""Quick-reference sheets: one or two pages, every table's numbers read from the data, source
and author on every page, fonts embedded, byte-stable in invariant mode."""

from __future__ import annotations

import io

import pytest

from app.export import render_refsheet, write_refsheet
from app.export.common import MIN_TABLE_PT, styles
from app.export.refsheet import LEVELS, castra_only, first_sentence, plays_at_table
from app.rules.registry import Registry
from app.rules.ruleset import Ruleset
from app.rulesets.d3 import schema as d3
from app.rulesets.gsb import schema as gsb
from app.rulesets.leg_vi import schema as leg_vi
from app.rulesets.mwan90 import schema as mwan90
from app.rulesets.quincunx import schema as quincunx
from tests.builtin import ruleset_ids
from tests.export.pdf import font_file_kinds, fonts, page_texts

RULESETS = ruleset_ids()


_SHEETS: dict[tuple[str, str], tuple[bytes, int, int]] = {}


def _sheet(rs: Ruleset, page_size: str) -> tuple[bytes, int, int]:
    """Each sheet is rendered once per test session."""
    key = (rs.id, page_size)
    if key not in _SHEETS:
        _SHEETS[key] = render_refsheet(rs, page_size=page_size, invariant=True)
    return _SHEETS[key]


def sheet_text(rs: Ruleset, page_size: str = "a4") -> str:
    return " ".join(page_texts(_sheet(rs, page_size)[0]))


@pytest.mark.parametrize("page_size", ["a4", "letter"])
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_one_or_two_pages_naming_source_author_and_castra(
    registry: Registry, ruleset_id: str, page_size: str
) -> None:
    rs = registry.get(ruleset_id)
    data, pages, _ = _sheet(rs, page_size)
    texts = page_texts(data)
    assert len(texts) == pages
    if pages == 3:  # the tables on two pages, every decision in full on a page of its own
        assert texts[2].lstrip().startswith(f"{rs.meta.short_name}: quick reference")
        assert "Errata and interpretations" in texts[2]
        assert "Errata and interpretations" not in " ".join(texts[:2])
    else:
        assert 1 <= pages <= 2
    who = rs.meta.author or rs.meta.author_note
    assert who
    for text in texts:
        assert rs.meta.short_name in text
        assert " ".join(who.split()) in text
        assert "Castra" in text


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_turn_sequence_leaders_and_errata_are_printed(registry: Registry, ruleset_id: str) -> None:
    rs = registry.get(ruleset_id)
    text = sheet_text(rs)
    assert "Turn sequence" in text or "Sequence" in text
    for phase in rs.turn.phases:
        assert phase.name.split()[0] in text
    assert "Errata and interpretations" in text
    for e in rs.errata:
        if castra_only(e.applies_to):  # Castra's own call as a player: named in a line
            assert "Castra's own call as a player is in the app" in " ".join(text.split())
        elif plays_at_table(e.applies_to):
            assert " ".join(e.topic.split()) in text, e.topic
            assert " ".join(first_sentence(e.decision).split())[:40] in text, e.id


def test_quincunx_melee_matrix_and_attrition_from_the_data(registry: Registry) -> None:
    rs = registry.get("quincunx")
    t = quincunx.tables(rs)
    text = sheet_text(rs)
    for track in t.melee.tracks.values():
        assert f"{' '.join(track.name.split())} {' '.join(track.dice)}" in text, track.name
    hastati = t.melee.tracks["roman_hastati"]
    assert hastati.dice[2] == "d8"  # a matrix cell: Roman Hastati at 2 rings
    for row in t.attrition.rows:
        assert f"{row.percent}% {' '.join(str(n) for n in row.remaining)}" in text
    for band in t.missile_dice.bands:
        assert f"{band.label} {band.cover or 'no fire'} {band.long} {band.short}" in text
    for cls in t.movement.classes.values():
        assert f"{cls.name} {cls.move_factors} {cls.inches:g}" in text
    for roll, direction in t.rampage.directions.items():
        assert f"{roll} {direction}" in text


def test_leg_vi_combat_factors_and_results(registry: Registry) -> None:
    rs = registry.get("leg-vi-carthago")
    t = leg_vi.tables(rs)
    text = sheet_text(rs, "letter")
    assert "A grade +2" in text and "D grade -1" in text and "Shaken -5" in text
    for factor in t.combat_factors.factors.values():
        assert f"{factor.dice:+d}" in text
    for band in t.combat_results.bands.values():
        assert band.name in text
    for result in t.die_of_death.results:
        assert result.label in text
    for step in t.sequence.steps:
        assert f"{step.numeral}. {step.name}" in text
    assert f"Faces {', '.join(str(f) for f in t.avd.faces)}" in text


def test_gsb_troop_table_and_activation(registry: Registry) -> None:
    rs = registry.get("grown-slightly-bald")
    t = gsb.tables(rs)
    text = sheet_text(rs)
    hp = t.hit_points.rows["heavy_infantry"]
    row = (
        f"{hp.label} {t.movement.rows['heavy_infantry'].move} UW {hp.bases} x "
        f"{hp.hits_per_base} {t.melee.rows['heavy_infantry'].dice} "
        f"{t.hit_numbers.rows['heavy_infantry'].hit_on}+"
    )
    assert row in text
    assert "1: free 2: free 3: 1+ 4: 2+" in text
    assert f"{t.victory.stars_needed(11)}" in text


def test_mwan90_morale_marked_incomplete(registry: Registry) -> None:
    rs = registry.get("mwan90")
    t = mwan90.tables(rs)
    text = sheet_text(rs)
    assert "INCOMPLETE IN SOURCE" in text
    assert f'"{t.morale.source_breaks_off_at}"' in text
    for row in t.hits.rows.values():
        assert row.label in text
    for weapon, rng in t.missiles.ranges.items():
        assert f'{weapon.title()} {rng:g}"' in text


def test_d3_chance_cards_and_decks(registry: Registry) -> None:
    rs = registry.get("d3-ancients")
    t = d3.tables(rs)
    text = sheet_text(rs)
    for card in t.chance_cards.cards.values():
        assert f"{card.name} {card.count}" in text
    # the deck table: a column per side (sorted) and commander quality, a row per card
    decks = [
        d3.deck_for(t, side=side, commander_quality=quality)
        for side in ("Carthage", "Rome")
        for quality in d3.QUALITIES
    ]
    for cid, card in t.chance_cards.cards.items():
        if card.count:
            assert f"{card.name} " + " ".join(str(d.get(cid, 0)) for d in decks) in text
    assert decks[4]["rally"] == 4 and decks[0]["initiative"] == 4
    for sub in t.chance_cards.substitutions:
        assert sub.summary in text


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_fonts_embedded(registry: Registry, ruleset_id: str) -> None:
    data = _sheet(registry.get(ruleset_id), "a4")[0]
    found = fonts(data)
    assert found and all(found.values()), found
    assert all("DejaVu" in name for name in found)
    assert font_file_kinds(data) == {"/FontFile2"}


def test_invariant_output_is_byte_identical(registry: Registry) -> None:
    rs = registry.get("leg-vi-carthago")
    a, b = io.BytesIO(), io.BytesIO()
    write_refsheet(rs, a, page_size="letter", invariant=True)
    write_refsheet(rs, b, page_size="letter", invariant=True)
    assert a.getvalue() == b.getvalue()


def test_tables_never_below_8_pt() -> None:
    for detail in LEVELS:
        st = styles(detail.body_pt)
        for style in (st.cell, st.cell_bold, st.cell_head, st.cell_center):
            assert style.fontSize >= MIN_TABLE_PT


def test_first_sentence() -> None:
    assert first_sentence("Stop 4 in. from enemy. Then halt.") == "Stop 4 in. from enemy."
    assert first_sentence("One D6 each, re-roll ties.") == "One D6 each, re-roll ties."
