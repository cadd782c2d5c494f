"""MWAN #90's printed reference sheet (app/export/rulesets/mwan90.py) states the rules as
Castra plays them, with the errata that decide them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app.export import render_refsheet
from app.export.refsheet import first_sentence
from app.rules.ruleset import Ruleset
from app.rulesets import load_ruleset
from tests.export.pdf import page_texts


def sheet_text(rs: Ruleset) -> str:
    data, pages, _ = render_refsheet(rs, invariant=True)
    assert 1 <= pages <= 2
    return " ".join(page_texts(data))


@pytest.fixture(scope="module")
def text(rs: Ruleset) -> str:
    return sheet_text(rs)


def test_flank_rear_as_castra_plays_it(rs: Ruleset, text: str) -> None:
    """Errata flank-rear-triple: the melee facts say the attacker's dice are tripled against
    a heavy unit, name the other reading as an option, and the errata print the decision."""
    assert "against a heavy unit, the attacker's dice x3" in text
    assert "(option: its own dice instead)" in text
    assert "its dice x3" not in text
    decision = " ".join(first_sentence(rs.erratum("flank-rear-triple").decision).split())
    assert decision in text


def test_flank_rear_as_written_in_a_copy(builtin_folder: Path, tmp_path: Path) -> None:
    """A copy that makes the word-for-word reading its default prints that reading."""
    folder = tmp_path / "mwan90-literal"
    shutil.copytree(builtin_folder, folder)
    for name, old, new in (
        ("ruleset.toml", 'id = "mwan90"', 'id = "mwan90-literal"'),
        ("tables.toml", 'multiplied_side = "attacker"', 'multiplied_side = "attacked"'),
    ):
        path = folder / name
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    text = sheet_text(load_ruleset(folder, builtin=False))
    assert "a heavy unit attacked rolls its own dice x3 (as written)" in text
    assert "(option: the attacker's dice instead)" in text
