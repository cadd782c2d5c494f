"""Issue 13, item 4, for D3 Ancients: a copied folder with one hostile house-rule value of
each kind is refused at load, naming the file, the key path and what is wrong; nothing of it
reaches ``castra odds``, cards or a battle."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app.rules.loader import RulesetError
from app.rulesets import load_ruleset

FOLDER = Path(__file__).resolve().parents[3] / "rulesets" / "d3-ancients"

#: (file, text replaced, replacement, key path, words of the problem)
HOSTILE = [
    ("tables.toml", "turns = 15", "turns = 1000000000", "chance_cards.deck_size",
     "not one card per turn for 1000000000 turns"),
    ("tables.toml", "eliminated_above_hits = 8", "eliminated_above_hits = nan",
     "elimination.eliminated_above_hits", "not a finite number"),
    ("tables.toml", "combat_dice = 2", 'combat_dice = "2"', "commanders.combat_dice",
     "valid integer"),
    ("tables.toml", "front_arc_degrees = 45.0", "front_arc_degrees = 1e300",
     "shooting.front_arc_degrees", "less than 90"),
    ("tables.toml", "lost_more_than_percent = 70", "lost_more_than_percent = -5",
     "army_resolve.lost_more_than_percent", "greater than or equal to 0"),
    ("troops.toml", "move = 6", "move = inf", "move", "not a finite number"),
    ("troops.toml", 'combat_hits = "d3+1"', 'combat_hits = "d99999999"', "combat_hits",
     "a die of 99,999,999 faces"),
    ("troops.toml", "road_bonus = 3", "road_bonus = 1e12", "road_bonus",
     "matches no terrain move_bonus"),
    ("tables.toml", "bases_per_unit = 3", "bases_per_unit = 1000000000", "units.unit_width",
     "unit_width is not bases_per_unit x base_width"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("file", "old", "new", "path", "words"), HOSTILE, ids=[h[2].replace(" ", "") for h in HOSTILE]
)
def test_hostile_house_rule_values_are_refused(
    tmp_path: Path, file: str, old: str, new: str, path: str, words: str
) -> None:
    folder = tmp_path / "d3-hostile"
    shutil.copytree(FOLDER, folder)
    target = folder / file
    text = target.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {file}"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(folder)
    found = [p for p in info.value.problems if p.file == file and p.path.endswith(path)]
    assert found, info.value.problems
    assert any(words in p.message for p in found), found
