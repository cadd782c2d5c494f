"""The printed documents at club quality: errata at 8 pt and in words, the roster sheet by
command with subtotals and its footer whole, long card titles shrunk or wrapped, and a
warning for names the bundled font cannot print."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pytest

from app.cli import main
from app.core.roster import Roster, new_roster, unit_from_entry
from app.export import render_refsheet, write_roster_sheet, write_unit_cards
from app.export.fonts import register_fonts, unprintable, unprintable_warning
from app.export.refsheet import LEVELS, castra_only, plays_at_table
from app.export.unit_cards import title_lines
from app.rules.registry import Registry
from tests.builtin import ruleset_ids
from tests.export.pdf import all_text, page_texts

IDENTIFIER = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b|\b[a-z_]+ ?= ?(?:true|false)\b")


def test_errata_never_under_8_pt() -> None:
    assert all(level.errata_pt >= 8 for level in LEVELS)


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_reference_sheet_errata_in_words(registry: Registry, ruleset: str) -> None:
    rs = registry.get(ruleset)
    data, pages, _ = render_refsheet(rs)
    assert pages <= 3  # two pages of tables, and the errata on their own page if they need it
    text = all_text(data)
    errata = text[text.index("Errata and interpretations") :]
    assert not IDENTIFIER.findall(errata), IDENTIFIER.findall(errata)
    for e in rs.errata:
        if castra_only(e.applies_to):  # Castra's own call as a player: named in a line
            assert "Castra's own call as a player is in the app" in " ".join(errata.split())
        elif plays_at_table(e.applies_to):
            assert " ".join(e.topic.split()) in errata, e.topic


def test_roster_sheet_grouped_by_battlegroup_with_subtotals(
    registry: Registry, tmp_path: Path
) -> None:
    rs = registry.get("quincunx")
    roster = new_roster(rs, "carthaginian", name="Cannae", standard=True)
    out = tmp_path / "sheet.pdf"
    write_roster_sheet(rs, roster, out)
    text = all_text(out)
    units = text[text.index("Units") : text.index("Battlegroup Kind")]
    assert units.count("Subtotal") == len(roster.commands)
    positions = [units.index(c.name) for c in roster.commands]
    assert positions == sorted(positions)  # battlegroups in the roster's order
    for command in roster.commands:
        block = units[units.index(command.name) :]
        first = roster.units_in(command.id)[0].name
        assert block.index(first) < block.index("Subtotal")
        # the subtotal of this battlegroup: its men
        men = sum(
            t.total.men or 0 for t in _totals(registry, roster) if t.unit.command == command.id
        )
        assert f"Subtotal {sum(u.count for u in roster.units_in(command.id))}" in block
        assert f"{men:,}" in block
    # the footer is whole: the source's last words are on the page
    assert rs.credit.split()[-1] in page_texts(out)[-1]
    assert "…" not in page_texts(out)[-1]


def _totals(registry: Registry, roster: Roster) -> list:  # type: ignore[type-arg]
    from app.core.totals import roster_totals

    return list(roster_totals(registry.get(roster.ruleset), roster).per_unit)


def test_long_card_titles_shrink_or_wrap(registry: Registry) -> None:
    register_fonts()
    width = 150.0
    _font, size, lines = title_lines("Velites", width)
    assert lines == ["Velites"] and size == 10
    long = "Light infantry (slingers, javelinmen and archers of the Balearic isles)"
    _font, size, lines = title_lines(long, width)
    assert len(lines) == 2 and " ".join(lines) == long and size >= 6
    rs = registry.get("quincunx")
    roster = new_roster(rs, "roman", name="Titles")
    unit = unit_from_entry(rs, "roman", "velites", name=long)
    buf = io.BytesIO()
    write_unit_cards(rs, replace(roster, units=(unit,)), buf, leaders=False)
    text = all_text(buf.getvalue())
    assert "javelinmen" in text and "Balearic isles)" in text and "…" not in text


def test_names_the_font_cannot_print_are_warned(
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert unprintable(["Hannibal — 12 × 3", "Ἀννίβας"]) == []  # DejaVu has Greek
    assert unprintable(["汉尼拔 🐘"]) == sorted("汉尼拔🐘")
    rs = registry.get("quincunx")
    roster = new_roster(rs, "roman", name="汉尼拔的军队")
    assert unprintable_warning(new_roster(rs, "roman", name="Plain")) is None
    warning = unprintable_warning(roster)
    assert warning is not None and "汉" in warning and "print blank" in warning
    # the command line says so too, and still writes the sheet
    monkeypatch.setenv("CASTRA_DB", str(tmp_path / "c.sqlite3"))
    monkeypatch.setenv("CASTRA_HOME", str(tmp_path / "home"))
    from app.core.rosterfile import export_file

    path = tmp_path / "r.json"
    export_file(roster, path)
    code = main(["print", "roster", str(path), "-o", str(tmp_path / "r.pdf")])
    _, err = capsys.readouterr()
    assert code == 0 and "castra: warning:" in err and "汉" in err
    assert (tmp_path / "r.pdf").exists()


def test_a_two_line_card_title_stays_clear_of_the_troop_line(registry: Registry) -> None:
    """GSB's ready Carthaginian army prints "Light infantry (slingers, javelinmen)" on two
    lines, and the second line's descenders ran into the troop line below it. Read back from
    the PDF: the gap between the title's last baseline and the troop line's baseline holds
    the title's descenders and the troop line's capitals."""
    from pypdf import PdfReader

    rs = registry.get("grown-slightly-bald")
    roster = new_roster(rs, "carthage", name="Titles", standard=True)
    long = next(u for u in roster.units if u.name == "Light infantry (slingers, javelinmen)")
    buf = io.BytesIO()
    write_unit_cards(rs, replace(roster, units=(long,)), buf, leaders=False)
    seen: dict[str, tuple[float, float]] = {}

    def visit(text: str, cm: object, tm: list[float], font: object, size: float) -> None:
        text = text.strip()
        if text:
            seen.setdefault(text, (tm[5], size * tm[3]))

    page = PdfReader(io.BytesIO(buf.getvalue())).pages[0]
    page.extract_text(visitor_text=visit)
    title = [(y, s) for t, (y, s) in seen.items() if t.startswith("javelinmen")]
    troop = [(y, s) for t, (y, s) in seen.items() if t.startswith("Light infantry ·")]
    assert title and troop, sorted(seen)
    (title_y, title_pt), (troop_y, troop_pt) = title[0], troop[0]
    assert title_y - troop_y >= 0.25 * title_pt + 0.73 * troop_pt
