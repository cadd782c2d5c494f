"""A sixth ruleset as a contributor would add it (docs/reference/adding-a-ruleset.md), made in
a temporary folder: its engine package (``toyfight``: a schema, a mechanics with one melee
whose odds are exact, no printed parts) and its data folder (``toy-skirmish``: the five TOML
files). :func:`install` adds the package's folder to the registry of engines (the folders of
``app.rulesets``, one entry) and the data folder to the user's rulesets, and takes both away
again when the test ends; nothing is written outside the temporary folder."""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import app.rulesets
from app.cli import common
from app.rules import engine

ENGINE = "toyfight"
RULESET = "toy-skirmish"

#: the toy's melee: each base of the attacker rolls a d6, and each 4+ (the data's hit_on)
#: costs the defender one base
HIT_ON = 4

PACKAGE = {
    "__init__.py": '''
        """Toy Fight: a ruleset written to prove a sixth ruleset needs only its folder."""

        from app.rules.engine import Engine, EngineSchema
        from app.rules.leaderfields import LeaderField
        from app.rulesets.toyfight.schema import Tables, Troop

        SCHEMA = EngineSchema(troop_model=Troop, tables_model=Tables)
        #: a leader field of its own: the roster, the command line, the cards and the
        #: battle take it from this declaration alone
        VETERAN = LeaderField(
            "veteran",
            "Veteran",
            "yes/no",
            help="A veteran leader has seen many battles",
            cli_help="Toy Fight: a veteran leader (yes/no)",
            default=False,
        )
        ENGINE = Engine("toyfight", __name__, "toy-skirmish", leader_fields=(VETERAN,))
        ''',
    "schema.py": '''
        """Toy Fight's troop and tables models."""

        from app.rules.record import Field
        from app.rules.ruleset import Ruleset
        from app.rules.schema import Strict, Text, TroopBase


        class Troop(TroopBase):
            move: float = Field(gt=0, le=48)


        class Melee(Strict):
            title: Text
            hit_on: int = Field(ge=2, le=6)
            note: str = ""


        class Tables(Strict):
            melee: Melee


        def tables(rs: Ruleset) -> Tables:
            if not isinstance(rs.tables, Tables):
                raise TypeError(f"ruleset {rs.id!r} does not have Toy Fight tables")
            return rs.tables
        ''',
    "mechanics.py": '''
        """Toy Fight's mechanics: units move their troop's move; a melee rolls a d6 a base,
        each hit_on or more takes a base from the defender; a unit with none left is out."""

        from app.rules.actions import Action, Count, Throws
        from app.rules.mechanics import (
            Combatant,
            Effects,
            Mechanics,
            Outcome,
            Resolution,
            Situation,
            TurnView,
        )
        from app.rulesets.toyfight.schema import Troop, tables


        class ToyFightMechanics(Mechanics):
            engine = "toyfight"
            strength_unit = "bases"

            def move_allowance(self, unit: Combatant, view: TurnView | None = None) -> float:
                troop = self.ruleset.troop(unit.troop)
                assert isinstance(troop, Troop)
                return troop.move

            def declare(self) -> tuple[Action[None], ...]:
                return (
                    Action(
                        "melee",
                        "Melee",
                        "pair",
                        play=self._melee,
                        help="Each base rolls a d6; hits take bases from the enemy.",
                    ),
                )

            def _melee(self, sit: Situation, plan: None, throws: Throws) -> Resolution:
                a, d = sit.attacker, sit.defender
                need = tables(self.ruleset).melee.hit_on
                left = d.status.strength
                spec = f"{a.status.strength}d6"
                hits, faces = throws.throw(Count(spec, "melee", need=need, cap=left))
                gone = hits >= left
                return Resolution(
                    Outcome(
                        defender=Effects(casualties=hits, eliminated=gone),
                        result=f"{hits} hit" + ("" if hits == 1 else "s"),
                    ),
                    explanation=(f"{a.name} roll {faces}: {hits} hits on {need}+",),
                )
        ''',
}

DATA = {
    "ruleset.toml": """
        [ruleset]
        id = "toy-skirmish"
        engine = "toyfight"
        name = "Toy Skirmish: a ruleset for tests"
        short_name = "Toy Skirmish"
        author_note = "written for Castra's tests"
        source_file = "none"
        data_version = "1.0.0"
        figure_scale = "any figures on 40 mm bases"
        unit_of_measure = "inch"
        counts = "bases"
        table = { width = 48, height = 36, unit = "inch" }

        [turn]
        summary = "Each side moves, then every unit in contact fights."

        [[turn.phases]]
        id = "movement"
        name = "Movement"
        summary = "Move each unit up to its move."

        [[turn.phases]]
        id = "melee"
        name = "Melee"
        summary = "Units in contact fight: a d6 a base, hits take bases."

        [leaders]
        summary = "One general a side, who does nothing but look fine."
        generals = 1
        """,
    "troops.toml": """
        [troops.spearmen]
        name = "Spearmen"
        category = "heavy_infantry"
        description = "Close-order foot."
        move = 4
        special_rules = ["Never flees (toy rule)."]
        basing = { per = "base", frontage_mm = 40, depth_mm = 20 }

        [troops.slingers]
        name = "Slingers"
        category = "light_infantry"
        move = 6
        shoots = true
        weapons = [{ name = "Sling", long_range = 12 }]
        basing = { per = "base", frontage_mm = 40, depth_mm = 20 }
        """,
    "tables.toml": f"""
        [melee]
        title = "Toy melee"
        hit_on = {HIT_ON}
        note = "A d6 for each base; each {HIT_ON}+ takes one of the enemy's bases."
        """,
    "armies.toml": """
        [armies.red]
        name = "Red"
        side = "Red"
        colour = "#a83232"

        [armies.red.entries.spearmen]
        name = "Red spearmen"
        troop = "spearmen"
        sizes = [2, 3, 4]
        default_size = 3
        max = 4

        [armies.red.entries.slingers]
        name = "Red slingers"
        troop = "slingers"
        sizes = [2]
        default_size = 2
        max = 2

        [armies.blue]
        name = "Blue"
        side = "Blue"
        colour = "#3250a8"

        [armies.blue.entries.spearmen]
        name = "Blue spearmen"
        troop = "spearmen"
        sizes = [2, 3, 4]
        default_size = 3
        max = 4
        """,
    "errata.toml": """
        [[errata]]
        id = "toy-hit-on"
        topic = "What hits"
        kind = "interpretation"
        source_says = "The toy has no source."
        decision = "A d6 a base hits on the melee table's number to hit."
        applies_to = ["tables.melee.hit_on"]
        """,
}


@dataclass(frozen=True)
class Toy:
    engines: Path  # the folder added to the registry of engines
    package: Path  # engines / "toyfight"
    data: Path  # the ruleset folder, in the user's rulesets folder
    home: Path  # CASTRA_HOME


def _write(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")


def _forget() -> None:
    for name in [m for m in sys.modules if m.split(".")[:3] == ["app", "rulesets", ENGINE]]:
        del sys.modules[name]
    for name in [m for m in sys.modules if m == f"app.export.rulesets.{ENGINE}"]:
        del sys.modules[name]
    engine._schema.cache_clear()
    engine._mechanics.cache_clear()


def install(root: Path, monkeypatch: pytest.MonkeyPatch) -> Toy:
    """Write the toy under ``root`` and make Castra see it: the one registry entry is the
    engines folder on ``app.rulesets.__path__`` (undone by ``monkeypatch``); the data sits
    in ``$CASTRA_HOME/rulesets``. The command line's registry starts afresh."""
    engines, home = root / "engines", root / "home"
    toy = Toy(engines, engines / ENGINE, home / "rulesets" / RULESET, home)
    _write(toy.package, PACKAGE)
    _write(toy.data, DATA)
    monkeypatch.setenv("CASTRA_HOME", str(home))
    monkeypatch.setattr(app.rulesets, "__path__", [*app.rulesets.__path__, str(engines)])
    monkeypatch.setattr(common, "_registry", None)
    importlib.invalidate_caches()
    _forget()
    return toy


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Toy]:
    """:func:`install`, then the toy's modules forgotten again."""
    yield install(tmp_path, monkeypatch)
    _forget()
