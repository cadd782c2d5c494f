"""The typed shape of a historical battle's file (``resources/scenarios/<id>.toml``, or a
club's own in the user data folder's ``scenarios/``), validated as ruleset files are
(:mod:`app.rules.validate`: unknown keys refused, strict types, bounded values), so a bad
file is refused with the key path of each problem.

A file holds one battle:

- ``[battle]``: where and when, the account and the outcome in Castra's words, the sources,
  which source Castra follows where they disagree (``notes``);
- ``[field]``: the terrain, pieces in fractions of the table (x of its width, y of its depth,
  side A's edge at y = 0), as the ready-made layouts are (:mod:`app.rules.layouts`);
- ``[rulesets.<id>]``: for each ruleset the battle is set for, its scale and what a figure,
  base or unit stands for;
- ``[sides.<id>]`` (two, the first at side A's edge): the commander, the forces the sources
  give (each number cited), the historical leaders and their fates, the historical losses,
  the posts of the battle order (areas in fractions of the table) and the historical
  objective; ``[sides.<id>.armies.<ruleset>]`` its army in that ruleset, each unit line
  saying which force it stands for and at which post it deploys.
"""

from __future__ import annotations

from typing import Annotated, Literal

from app.rules.record import Field, model_validator
from app.rules.schema import MAX_NOTES, MAX_TEXT, Category, Id, Strict, Text
from app.rules.table import TerrainKind

#: the most men a force may number (Cannae's Roman army is 86,000)
MAX_MEN = 1_000_000
#: most pieces, posts, forces, leaders and unit lines a file may hold
MAX_ITEMS = 200

Fraction01 = Annotated[float, Field(ge=0.0, le=1.0)]
Point = tuple[Fraction01, Fraction01]
#: a rectangle in fractions of the table: x0, y0, x1, y1
Rect = tuple[Fraction01, Fraction01, Fraction01, Fraction01]
Men = Annotated[int, Field(ge=0, le=MAX_MEN)]
Note = Annotated[str, Field(max_length=MAX_NOTES)]


def _rect_ok(rect: tuple[float, float, float, float], what: str) -> None:
    x0, y0, x1, y1 = rect
    if not (x0 < x1 and y0 < y1):
        raise ValueError(f"{what} must be x0, y0, x1, y1 with x0 < x1 and y0 < y1")


class Battle(Strict):
    """Where and when, who commanded, what happened (Castra's own words), and the sources."""

    id: Id
    name: Text
    date: Text
    #: the year BC, for ordering the battles
    year: int = Field(ge=1, le=1000)
    place: Text
    account: Text
    outcome: Text
    #: the side that won in history (a side id), or "draw"
    winner: Id
    sources: tuple[Text, ...] = Field(min_length=1, max_length=MAX_ITEMS)
    #: where the sources disagree, which one Castra follows and why; which numbers are its
    #: own reading of them
    notes: Note = ""
    #: why this battle's deployment zones replace the rulesets' (when the sides give zones)
    zones_note: Note = ""


class Piece(Strict):
    """A terrain piece of the field: an area's corners, or a river's, road's or stream's
    centre line, in fractions of the table; ``width_mm`` a line's width (None: the kind's
    default)."""

    kind: TerrainKind
    name: str = Field(default="", max_length=200)
    points: tuple[Point, ...] = Field(min_length=2, max_length=500)
    width_mm: float | None = Field(default=None, gt=0, le=10_000)


class FieldLayout(Strict):
    note: Text
    pieces: tuple[Piece, ...] = Field(default=(), max_length=MAX_ITEMS)


class RulesetSetting(Strict):
    """How the battle is set in one ruleset: the roster scale (rulesets that count figures),
    how many men a base stands for beyond the rules' own (``factor``: at Cannae each Leg VI
    base stands for twice its men), and in words what a figure, base or unit stands for."""

    scale: Literal["1:10", "1:100"] | None = None
    factor: int = Field(default=1, ge=1, le=100)
    represents: Text
    notes: Note = ""


class Force(Strict):
    """A body of troops as the sources give it: its men (or elephants) and where the number
    comes from (``reading``: Castra's own reading or arithmetic, not a figure a source gives;
    ``note`` says how)."""

    id: Id
    name: Text
    men: Men = 0
    elephants: int = Field(default=0, ge=0, le=1000)
    cite: Text
    reading: bool = False
    note: Note = ""

    @model_validator(mode="after")
    def _something(self) -> Force:
        if self.men == 0 and self.elephants == 0:
            raise ValueError("a force numbers some men or some elephants")
        return self


class HistoricalLeader(Strict):
    id: Id
    name: Text
    #: who he was and what he did in the battle
    notes: Text
    #: what became of him in this battle
    fate: Literal["fit", "wounded", "killed", "captured"] = "fit"
    fate_note: Note = ""


class Post(Strict):
    """A place in the battle order: an area of the table (fractions) its units stand in,
    in rows from its front edge back, the facing of the units there (degrees clockwise, 0
    towards side B's edge; None: towards the enemy's edge), the posts it stands ``behind``
    (its first row then begins behind their last rows, where that is farther back: a
    second line behind the first, whatever the depth of the units) and the troops a roster
    that names no posts puts there (``takes``, by kind; ``reserve``: anything no other post
    takes)."""

    id: Id
    name: Text
    area: Rect
    facing: float | None = Field(default=None, ge=-360, le=360)
    behind: tuple[Id, ...] = ()
    takes: tuple[Category, ...] = ()
    reserve: bool = False

    @model_validator(mode="after")
    def _area(self) -> Post:
        _rect_ok(self.area, "a post's area")
        return self


class Losses(Strict):
    """What the side lost in history: men killed and taken (``men``, None when no source
    gives a number), in words, and where it comes from."""

    men: Men | None = None
    text: Text
    cite: Text
    reading: bool = False


class Objective(Strict):
    """The side's historical objective, checked on the table at the end: ``reach`` (at
    least ``units`` of its units stand in ``area``), ``hold`` (no enemy unit stands in
    ``area``) or ``destroy`` (the enemy loses at least ``share`` of its men); ``met``: whether
    it was met in history."""

    text: Text
    kind: Literal["reach", "hold", "destroy"]
    area: Rect | None = None
    units: int = Field(default=1, ge=1, le=1000)
    share: float | None = Field(default=None, gt=0, le=1)
    met: bool

    @model_validator(mode="after")
    def _shape(self) -> Objective:
        if self.kind in ("reach", "hold"):
            if self.area is None:
                raise ValueError(f"a {self.kind} objective needs an area")
            _rect_ok(self.area, "the objective's area")
        if self.kind == "destroy" and self.share is None:
            raise ValueError("a destroy objective needs the share of the enemy's men")
        return self


class ArmyLeader(Strict):
    """A historical leader in one ruleset's army, with what that ruleset reads of him."""

    id: Id
    rank: Literal["general", "commander"] = "commander"
    bonus: int | None = Field(default=None, ge=-5, le=5)
    exceptional: bool = False
    quality: Literal["good", "average", "poor"] | None = None


class ArmyCommand(Strict):
    id: Id
    name: Text
    leader: Id | None = None
    kind: Literal["infantry", "cavalry", "mixed"] | None = None


class ArmyUnit(Strict):
    """A line of identical units: the army-list entry, how many, their size, and the
    ``force`` they stand for and the ``post`` they deploy at."""

    entry: Id
    count: int = Field(default=1, ge=1, le=1000)
    size: int | None = Field(default=None, ge=1, le=100_000)
    grade: str | None = Field(default=None, max_length=16)
    name: str | None = Field(default=None, min_length=1, max_length=200)
    command: Id | None = None
    leader: Id | None = None
    force: Id
    post: Id


class SideArmy(Strict):
    """A side's army in one ruleset: its army list and the units, leaders and commands."""

    army: Id
    leaders: tuple[ArmyLeader, ...] = Field(default=(), max_length=MAX_ITEMS)
    commands: tuple[ArmyCommand, ...] = Field(default=(), max_length=MAX_ITEMS)
    units: tuple[ArmyUnit, ...] = Field(min_length=1, max_length=MAX_ITEMS)
    notes: Note = ""
    #: why the army takes more of some entry than its list allows (the source's forces are
    #: larger than the list's model army); empty: it keeps within the list, and its roster
    #: validates without error
    beyond_lists: Note = ""


class BattleSide(Strict):
    name: Text
    commander: Text
    forces: tuple[Force, ...] = Field(min_length=1, max_length=MAX_ITEMS)
    leaders: tuple[HistoricalLeader, ...] = Field(default=(), max_length=MAX_ITEMS)
    losses: Losses
    posts: tuple[Post, ...] = Field(min_length=1, max_length=MAX_ITEMS)
    #: the side's deployment zone in place of the rulesets' (fractions of the table); both
    #: sides give one, or neither
    zone: tuple[Point, ...] | None = Field(default=None, min_length=3, max_length=500)
    objective: Objective | None = None
    armies: dict[Id, SideArmy] = Field(default_factory=dict)


class ScenarioFile(Strict):
    battle: Battle
    field: FieldLayout
    rulesets: dict[Id, RulesetSetting] = Field(default_factory=dict)
    sides: dict[Id, BattleSide] = Field(min_length=2, max_length=2)


__all__ = [
    "MAX_TEXT",
    "ArmyCommand",
    "ArmyLeader",
    "ArmyUnit",
    "Battle",
    "BattleSide",
    "FieldLayout",
    "Force",
    "HistoricalLeader",
    "Losses",
    "Objective",
    "Piece",
    "Post",
    "RulesetSetting",
    "ScenarioFile",
    "SideArmy",
]
