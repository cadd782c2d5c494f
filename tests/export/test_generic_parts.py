"""A ruleset whose engine has no printed parts of its own prints the generic ones, made from
its data (``app.export.generic_parts``), where it used to stop with a raw
``ModuleNotFoundError``: the sheet gives the turn, each table with its numbers, the troop
types and the leaders; the cards the troop, its missiles and basing, a box per base and its
special rules. A printed-parts module that is there but fails to import still fails."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import app.export.rulesets
from app.core.ready import ready_armies, ready_roster
from app.core.roster import Leader, new_roster, unit_from_entry
from app.export import generic_parts, refsheet_document, unit_cards
from app.export.refsheet_document import render_refsheet
from app.export.rulesets import module_for
from app.export.unit_cards import write_unit_cards
from app.rules.registry import Registry
from app.rules.ruleset import Ruleset
from app.rulesets import load_registry
from tests.builtin import ruleset_ids
from tests.export.pdf import all_text
from tests.toy_ruleset import HIT_ON, RULESET, Toy
from tests.toy_ruleset import toy as toy  # the fixture


def _toy_ruleset(t: Toy) -> Ruleset:
    reg = load_registry(None, [t.data.parent])
    assert not reg.failures, reg.failure_lines()
    return reg.get(RULESET)


def test_a_ruleset_without_printed_parts_prints_its_data(toy: Toy, tmp_path: Path) -> None:
    rs = _toy_ruleset(toy)
    assert module_for(rs.engine) is None
    data, pages, _ = render_refsheet(rs, invariant=True)
    assert pages == 1
    text = all_text(data)
    for words in (
        "Toy Skirmish: a ruleset for tests quick reference",
        "1. Movement: Move each unit up to its move.",
        "Toy melee",
        f"Hit on {HIT_ON}",
        f"A d6 for each base; each {HIT_ON}+ takes one of the enemy's bases.",
        "Spearmen heavy infantry -",
        'Slingers light infantry Sling 12"',
        "Spearmen: Never flees (toy rule).",
        "One general a side, who does nothing but look fine.",
        "What hits",
    ):
        assert words in text, words

    roster = new_roster(rs, "red", name="Red")
    roster = replace(
        roster,
        units=(
            unit_from_entry(rs, "red", "spearmen", size=4),
            unit_from_entry(rs, "red", "slingers"),
        ),
        leaders=(Leader(id="g", name="Redbeard", rank="general"),),
    )
    out = tmp_path / "cards.pdf"
    write_unit_cards(rs, roster, out, invariant=True)
    cards = all_text(out.read_bytes())
    for words in (
        "Red spearmen",
        "Spearmen · heavy infantry",
        "Basing 40 x 20 mm",
        "Bases (tick one per base lost)",
        "Never flees (toy rule).",
        'Missiles Sling 12"',
        "Redbeard",
    ):
        assert words in cards, words


def test_printed_parts_that_fail_to_import_still_fail(
    toy: Toy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rs = _toy_ruleset(toy)
    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "toyfight.py").write_text("import castra_no_such_module\n")
    monkeypatch.setattr(
        app.export.rulesets, "__path__", [*app.export.rulesets.__path__, str(parts)]
    )
    with pytest.raises(ModuleNotFoundError, match="castra_no_such_module"):
        module_for(rs.engine)


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_the_generic_parts_print_every_rulesets_data(
    registry: Registry, ruleset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Made to fit any engine's tables: each built-in ruleset's, printed through them as if
    its engine had no printed parts, gives a sheet naming every table and troop type and
    cards for its ready army."""
    monkeypatch.setattr(refsheet_document, "_engine_story", lambda engine: generic_parts.story)
    monkeypatch.setattr(unit_cards, "_face_of", lambda engine: generic_parts.face)
    rs = registry.get(ruleset)
    data, pages, _ = render_refsheet(rs, invariant=True)
    text = all_text(data)
    assert pages >= 1 and "Troop types" in text
    for troop in rs.troops.values():
        assert troop.name in text, troop.name
    ready = ready_armies(rs)[0]
    out = tmp_path / "cards.pdf"
    write_unit_cards(rs, ready_roster(rs, ready.army), out, invariant=True)
    assert "(tick one per" in all_text(out.read_bytes())
