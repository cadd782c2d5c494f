"""Issue 13 item 4: MWAN #90's own tables and troop types are typed and bounded as strictly
as roster files. A house-rules copy with a hostile value of each kind (a string or a float
where a whole number belongs, a non-finite or huge distance, a count of a billion, a die of
99,999,999 faces) is refused at load, the loader naming the file, the key path and the
problem; and no value the schema accepts makes a roll or the odds run away."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from app.cli import main
from app.rules.dice import SeededDice
from app.rules.errors import RulesetError
from app.rules.mechanics import Situation
from app.rules.registry import BUILTIN_DIR
from app.rules.ruleset import Ruleset
from app.rulesets import load_ruleset
from app.rulesets.mwan90.mechanics import MWAN90Mechanics
from tests.rules.mechanics_harness import combatant

FOLDER = BUILTIN_DIR / "mwan90"
HEAVY = 'move_class = "heavy_infantry"\nhit_class = "heavy"\nspecial_rules'
ELEPHANT_DICE = "ranks = 1\ndice_per_figure = 6"

#: case -> (file, old text, new text, key path the loader names, words of the problem)
HOSTILE: dict[str, tuple[str, str, str, str, str]] = {
    "a string for a number": (
        "troops.toml",
        ELEPHANT_DICE,
        'ranks = 1\ndice_per_figure = "6"',
        "troops.elephants.dice_per_figure",
        "integer",
    ),
    "a float for a whole number": (
        "troops.toml",
        ELEPHANT_DICE,
        "ranks = 1\ndice_per_figure = 6.0",
        "troops.elephants.dice_per_figure",
        "integer",
    ),
    "a billion dice an elephant": (
        "troops.toml",
        ELEPHANT_DICE,
        "ranks = 1\ndice_per_figure = 1000000000",
        "troops.elephants.dice_per_figure",
        "less than or equal",
    ),
    "a billion ranks": (
        "troops.toml",
        "ranks = 3",
        "ranks = 1000000000",
        "troops.greek_heavy_infantry.ranks",
        "less than or equal",
    ),
    "a string for a flag": (
        "troops.toml",
        "barbarian = true",
        'barbarian = "yes"',
        "troops.barbarian_medium_infantry.barbarian",
        "boolean",
    ),
    "an infinite move": (
        "tables.toml",
        'label = "Cavalry in line"\nmove = 8',
        'label = "Cavalry in line"\nmove = inf',
        "movement.rows.cavalry_line.move",
        "finite",
    ),
    "a range that is not a number": (
        "tables.toml",
        "bow = 15",
        "bow = nan",
        "missiles.ranges.bow",
        "finite",
    ),
    "a range of a million inches": (
        "tables.toml",
        "bow = 15",
        "bow = 1000000",
        "missiles.ranges.bow",
        "less than or equal",
    ),
    "a million-fold flank attack": (
        "tables.toml",
        "multiplier = 3",
        "multiplier = 1000000",
        "melee.flank_rear.multiplier",
        "less than or equal",
    ),
    "a negative rout threshold": (
        "tables.toml",
        "rout_at_figures = 3",
        "rout_at_figures = -1",
        "morale.rout_at_figures",
        "greater than or equal",
    ),
    "a huge morale modifier": (
        "tables.toml",
        "routing_elephants_modifier = -3",
        "routing_elephants_modifier = -99999999999999999999",
        "morale.routing_elephants_modifier",
        "",
    ),
    "a melee die of 99,999,999 faces": (
        "tables.toml",
        'title = "Melee"\ndie = "d6"',
        'title = "Melee"\ndie = "d99999999"',
        "melee.die",
        "a die of 99,999,999 faces",
    ),
    "two dice read as one melee die": (
        "tables.toml",
        'title = "Melee"\ndie = "d6"',
        'title = "Melee"\ndie = "2d6+1"',
        "tables.melee.die",
        "one plain die",
    ),
    "an initiative of 99,999,999 dice": (
        "tables.toml",
        'title = "Initiative"\ndie = "d6"',
        'title = "Initiative"\ndie = "99999999d6"',
        "initiative.die",
        "99,999,999 dice",
    ),
    "a morale die with no sides": (
        "tables.toml",
        'die = "d6"\nrouting_elephants_modifier',
        'die = "d1"\nrouting_elephants_modifier',
        "morale.die",
        "a die of 1 face",
    ),
    "a hit number the die cannot roll": (
        "tables.toml",
        'title = "Melee"\ndie = "d6"',
        'title = "Melee"\ndie = "d4"',
        "tables.hits.rows.heavy.hit_on",
        "more than the melee die can roll",
    ),
}


def house(tmp_path: Path, edits: list[tuple[str, str, str]]) -> Path:
    folder = tmp_path / "mwan90-house"
    shutil.copytree(FOLDER, folder)
    for file, old, new in [("ruleset.toml", 'id = "mwan90"', 'id = "mwan90-house"'), *edits]:
        path = folder / file
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} must occur once in {file}"
        path.write_text(text.replace(old, new), encoding="utf-8")
    return folder


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_value_refused_at_load(tmp_path: Path, case: str) -> None:
    file, old, new, key, words = HOSTILE[case]
    with pytest.raises(RulesetError) as info:
        load_ruleset(house(tmp_path, [(file, old, new)]), builtin=False)
    found = [p for p in info.value.problems if p.file == file and p.path == key]
    assert found, info.value.problems
    assert words in found[0].message


def test_largest_accepted_values_still_load(tmp_path: Path) -> None:
    """The bounds are generous: the largest accepted values load and play."""
    folder = house(
        tmp_path,
        [
            ("troops.toml", ELEPHANT_DICE, "ranks = 10\ndice_per_figure = 12"),
            ("tables.toml", "multiplier = 3", "multiplier = 10"),
            (
                "tables.toml",
                'label = "Cavalry in line"\nmove = 8',
                'label = "Cavalry in line"\nmove = 200',
            ),
        ],
    )
    mech = MWAN90Mechanics(load_ruleset(folder, builtin=False))
    ele = combatant(mech, "elephants", 4)
    hi = combatant(mech, "heavy_infantry", 16, side=1)
    odds = mech.odds("melee", Situation(actor=ele, target=hi, options={"attack": "rear"}))
    assert sum(odds.values()) == 1


@pytest.mark.parametrize("option", ["a_support", "d_wedge_support"])
def test_absurd_options_are_refused_not_rolled(rs: Ruleset, option: str) -> None:
    """Options without a natural limit (supporting figures) cannot make a side throw a
    billion dice: the melee is refused in one line, for the roll and for the odds alike."""
    mech = MWAN90Mechanics(rs)
    gauls = combatant(mech, "barbarian_medium_infantry", 12, side=1, formation="wedge")
    sit = Situation(
        actor=combatant(mech, "heavy_infantry", 12),
        target=gauls,
        options={option: 1_000_000_000, "d_formation": "wedge"},
    )
    start = time.perf_counter()
    for call in (
        lambda: mech.odds("melee", sit),
        lambda: mech.resolve("melee", sit, SeededDice(1)),
    ):
        with pytest.raises(ValueError, match="more than Castra throws"):
            call()
    assert time.perf_counter() - start < 1


def test_absurd_option_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "odds",
            "mwan90",
            "--attacker",
            "hastati",
            "--defender",
            "libyans",
            "--set",
            "a_support=999999999999",
        ]
    )
    err = capsys.readouterr().err.strip()
    # the command line's bound on a --set number refuses it before the mechanics see it
    assert code == 1 and "\n" not in err and "out of range" in err
