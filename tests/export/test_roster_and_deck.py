"""The roster sheet (units, sizes at scale, totals, commands, leaders, validation) and the D3
chance-card deck (substitutions applied, one card per card, 15 cards)."""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest

from app.core.roster import Roster
from app.core.totals import roster_totals
from app.core.validation import validate
from app.export import card_grid, write_roster_sheet
from app.export.rulesets.d3 import (
    NoChanceCardsError,
    build_deck,
    resolve_army,
    write_chance_cards,
)
from app.rules.registry import Registry
from app.rulesets.d3 import schema as d3
from tests.export.pdf import fonts, page_texts


def roster_pdf(registry: Registry, roster: Roster, page_size: str = "a4") -> bytes:
    buf = io.BytesIO()
    write_roster_sheet(
        registry.get(roster.ruleset), roster, buf, page_size=page_size, invariant=True
    )
    return buf.getvalue()


@pytest.mark.parametrize("page_size", ["a4", "letter"])
def test_roster_sheet_units_totals_and_validation(
    registry: Registry, quincunx_roster: Roster, page_size: str
) -> None:
    rs = registry.get("quincunx")
    data = roster_pdf(registry, quincunx_roster, page_size)
    text = " ".join(page_texts(data))
    totals = roster_totals(rs, quincunx_roster)
    assert totals.men == 50_400  # the model legion at 1:100 ("over 50,000")
    summary = f"{totals.units} units · {totals.figures} figures · {totals.bases} bases"
    assert f"{summary} · 50,400 men at 1:100" in text
    for ut in totals.per_unit:
        assert ut.unit.name in text
        assert f"{ut.total.men:,}" in text
    for command in quincunx_roster.commands:
        assert command.name in text
    for leader in quincunx_roster.leaders:
        assert leader.name in text
    assert "VALID" in text and "0 error(s)" in text
    assert "Quincunx" in text and "Duke Seifried" in text and "Castra" in text
    assert all(fonts(data).values())


def test_roster_sheet_lists_validation_messages(registry: Registry, leg_vi_roster: Roster) -> None:
    rs = registry.get("leg-vi-carthago")
    bad = leg_vi_roster.with_units([*leg_vi_roster.units, *leg_vi_roster.units[1:2]])
    report = validate(rs, bad)
    text = " ".join(page_texts(roster_pdf(registry, bad)))
    if report.valid:
        assert "VALID" in text
    else:
        assert "INVALID" in text
    for m in report.messages:
        assert " ".join(m.text.split())[:30] in text
    lone = validate(rs, leg_vi_roster.with_units(leg_vi_roster.units[:1]))
    assert lone is not None


def test_roster_sheet_invalid_roster(registry: Registry, leg_vi_roster: Roster) -> None:
    from dataclasses import replace

    no_general = replace(leg_vi_roster, leaders=(), commands=())
    report = validate(registry.get("leg-vi-carthago"), no_general)
    assert not report.valid
    text = " ".join(page_texts(roster_pdf(registry, no_general)))
    assert "INVALID" in text and "error" in text
    for m in report.messages:
        assert m.rule in text


def test_roster_sheet_is_byte_stable(registry: Registry, gsb_roster: Roster) -> None:
    assert roster_pdf(registry, gsb_roster) == roster_pdf(registry, gsb_roster)


# --------------------------------------------------------------------------- chance cards


def deck_pdf(registry: Registry, side: str, **kw: object) -> bytes:
    buf = io.BytesIO()
    write_chance_cards(registry.get("d3-ancients"), buf, side=side, invariant=True, **kw)  # type: ignore[arg-type]
    return buf.getvalue()


def titles(text: str, names: list[str]) -> Counter[str]:
    """How many cards carry each title ("CHANCE CARD <n> of 15 <name>")."""
    counts = Counter(
        {n: len(re.findall(rf"CHANCE CARD \d+ of 15 {re.escape(n)}\b", text)) for n in names}
    )
    return +counts


@pytest.mark.parametrize(
    ("side", "commander", "supply", "expected"),
    [
        # base deck 5 No Event, 3 Confusion, 2 Ammunition Shortage, 2 Initiative, 3 Rally
        (
            "Rome",
            "average",
            False,
            {"no_event": 5, "confusion": 3, "ammunition_shortage": 2, "initiative": 1, "rally": 4},
        ),
        (
            "roman",
            "good",
            True,
            {"no_event": 3, "confusion": 3, "ammunition_shortage": 3, "initiative": 2, "rally": 4},
        ),
        (
            "carthage",
            "poor",
            False,
            {"no_event": 6, "confusion": 3, "ammunition_shortage": 2, "initiative": 2, "rally": 2},
        ),
        (
            "carthaginian",
            "good",
            True,
            {"no_event": 3, "confusion": 3, "ammunition_shortage": 3, "initiative": 4, "rally": 2},
        ),
    ],
)
def test_deck_after_substitutions(
    registry: Registry, side: str, commander: str, supply: bool, expected: dict[str, int]
) -> None:
    rs = registry.get("d3-ancients")
    deck = build_deck(
        rs,
        resolve_army(rs, side),
        commander=commander,  # type: ignore[arg-type]
        supply_problems=supply,
    )
    assert deck.cards == expected and deck.size == 15
    data = deck_pdf(registry, side, commander=commander, supply_problems=supply)
    texts = page_texts(data)
    assert len(texts) == card_grid("a4").pages_for(15) == 2
    assert [t.count("CHANCE CARD") for t in texts] == [9, 6]
    text = " ".join(texts)
    t = d3.tables(rs)
    names = [c.name for c in t.chance_cards.cards.values()]
    assert titles(text, names) == {t.chance_cards.cards[cid].name: n for cid, n in expected.items()}
    assert text.count(f"{deck.conditions} D3 Ancients · Castra") == 15
    assert "of 15" in text and "D3 Ancients" in text and all(fonts(data).values())


def test_disabled_cards_say_so(registry: Registry) -> None:
    """Rally and Initiative do nothing once the commander's unit is gone (D3, Commanders)."""
    text = " ".join(page_texts(deck_pdf(registry, "Carthage", commander="poor")))
    deck = build_deck(registry.get("d3-ancients"), "carthaginian", commander="poor")
    note = "No effect once your commander's unit has been eliminated."
    assert text.count(note) == deck.cards["rally"] + deck.cards["initiative"]


def test_sides_and_errors(registry: Registry) -> None:
    rs = registry.get("d3-ancients")
    assert resolve_army(rs, "Rome") == "roman"
    assert resolve_army(rs, "CARTHAGINIAN") == "carthaginian"
    with pytest.raises(ValueError, match="no army or side 'gauls'"):
        resolve_army(rs, "gauls")
    with pytest.raises(NoChanceCardsError, match="no chance cards"):
        resolve_army(registry.get("quincunx"), "roman")


def test_deck_is_byte_stable(registry: Registry) -> None:
    assert deck_pdf(registry, "Rome") == deck_pdf(registry, "Rome")
