"""MWAN #90 Punic rules (untitled magazine article, 1997) -- troop and table models.

A figure-counting game: one die per figure, hits by the target's class, units routing at three
figures. The article breaks off in the middle of its morale section, so the morale-check table
is modelled as incomplete: the known parts are data, the missing rows are an empty list a user
may fill in a house-rules copy (``complete`` says whether the table may be relied on).

Troops name a movement class (``tables.movement.rows``) and a hit class (``tables.hits.rows``);
:func:`check` makes sure both exist, among other cross-checks.
"""

from __future__ import annotations

from typing import Annotated, Literal

from app.rules.decisions import UmpireDefault
from app.rules.record import Field, model_validator
from app.rules.ruleset import Ruleset
from app.rules.schema import Category, DiceExpr, Id, Strict, Text, TroopBase
from app.rules.table import TERRAIN_KINDS, TerrainKind

Order = Literal["always", "never", "either"]

# Every number is typed strictly (a string or a float where a whole number belongs is an
# error, never converted) and bounded, so that no house-rule value can make the odds, the
# cards or a battle run away (issue 13): the bounds are generous beside the article's d6s,
# two or three ranks, 6 dice an elephant and distances of a few inches.

#: a die roll's score needed to hit: on the d6 every table uses
HitOn = Annotated[int, Field(strict=True, ge=1, le=6)]
#: dice each figure throws (elephants 6)
DicePerFigure = Annotated[int, Field(strict=True, ge=1, le=12)]
#: ranks of figures that fight (two; Greek heavy infantry three)
Ranks = Annotated[int, Field(strict=True, ge=1, le=10)]
#: a distance on the table, in inches
Inches = Annotated[float, Field(strict=True, gt=0, le=200, allow_inf_nan=False)]
#: a modified morale score (the user's bands)
Score = Annotated[int, Field(strict=True, ge=-100, le=100)]
#: a figure count the tables name (rout thresholds, overlaps, supporting ranks)
Figures = Annotated[int, Field(strict=True, ge=0, le=100)]
Flag = Annotated[bool, Field(strict=True)]


# --------------------------------------------------------------------------- troops


class Troop(TroopBase):
    """An MWAN #90 troop type.

    ``formed``: whether the type is always formed, never (skirmish infantry) or may be either
    (acting as skirmishers). ``ranks``: ranks whose figures fight in melee. ``move_class`` and
    ``hit_class`` are keys of the movement and hit tables.
    """

    formed: Order
    ranks: Ranks
    dice_per_figure: DicePerFigure
    move_class: Id
    hit_class: Id
    pre_melee_javelins: Flag = False
    barbarian: Flag = False
    disorders_cavalry: Flag = False


# --------------------------------------------------------------------------- tables


class Step(Strict):
    phase: Id
    label: Text
    detail: Text


class Sequence(Strict):
    title: Text
    steps: tuple[Step, ...] = Field(min_length=1, max_length=20)
    note: str | None = None


class Initiative(Strict):
    """Each side tosses ``die``; the higher wins and chooses to move first or second.
    Ties: re-toss on the first turn, later the loser of the previous initiative wins."""

    title: Text
    die: DiceExpr
    first_turn_tie: Literal["reroll"]
    later_tie: Literal["previous_loser_wins"]
    winner_chooses_move_order: Flag
    note: str | None = None


class MoveClass(Strict):
    """``move`` in inches (``move_stated``: whether the article gives the distance for this
    class); ``max_wheel_deg`` None means free facing (skirmishers); ``wheel_with_move``: the
    wheel may be combined with the move (before or after it) rather than replace it."""

    label: Text
    move: Inches
    move_stated: Flag
    max_wheel_deg: int | None = Field(default=None, strict=True, ge=0, le=180)
    wheel_with_move: Flag
    about_face: Flag
    forward_only: Flag


class Movement(Strict):
    title: Text
    rows: dict[Id, MoveClass] = Field(min_length=1, max_length=50)
    pinned_in_melee: Flag
    skirmishers_pass_through: tuple[Category, ...]
    note: str | None = None


class PreMeleeJavelins(Strict):
    ranks: Ranks
    dice_per_figure: DicePerFigure
    when: Literal["before_first_melee_round"]


class Missiles(Strict):
    """``dice_per_figure`` dice of ``die`` per figure with a clear shot, hitting on
    ``hit_on`` or more whatever the target. On the table (errata "missile-arc" and
    "clear-shot"): a target within the weapon's range base edge to base edge, in sight, and
    for a formed shooter in its front arc of ``arc_degrees`` (lines drawn half of it outward
    from its front corners; None: all round); ``unformed_all_round``: skirmishers and other
    unformed troops shoot all round."""

    title: Text
    die: DiceExpr
    simultaneous: Flag
    dice_per_figure: DicePerFigure
    clear_shot_required: Flag
    hit_on: HitOn
    ranges: dict[Id, Inches] = Field(min_length=1, max_length=50)
    no_shooting_at_units_in_melee: Flag
    split_vs_supported_cavalry: Flag
    pre_melee_javelins: PreMeleeJavelins
    arc_degrees: int | None = Field(default=None, strict=True, ge=1, le=179)
    unformed_all_round: Flag = True
    note: str | None = None


class FlankRear(Strict):
    """Flank or rear attacks: the dice of ``multiplied_side`` are multiplied by
    ``multiplier`` when the attacked unit's hit class is one of ``only_if_attacked``.
    ``multiplied_side`` is the default of the melee option ``flank_tripled``: ``attacker``
    (Castra's reading, errata flank-rear-triple) or ``attacked`` (the text as written)."""

    multiplier: int = Field(strict=True, ge=1, le=10)
    multiplied_side: Literal["attacked", "attacker"]
    only_if_attacked: tuple[Id, ...] = Field(min_length=1, max_length=50)
    attacked_disordered: Flag


class Melee(Strict):
    """Melee dice are ``die``; the score needed is the target's row of :class:`Hits`."""

    title: Text
    die: DiceExpr
    order: tuple[Literal["flank_rear", "regular"], ...] = Field(min_length=1, max_length=10)
    dice_per_figure: DicePerFigure
    support_mi_ranks: int = Field(strict=True, ge=0, le=10)
    overlap_figures_per_flank: int = Field(strict=True, ge=0, le=10)
    skirmishers_count_only_vs_skirmishers: Flag
    flank_rear: FlankRear
    disordered_attacked_tests_as_routed_into: Flag
    disorder_clears: Literal["out_of_contact", "never"]
    figures_lost_per_hit: int = Field(strict=True, ge=1, le=10)
    split_vs_supported_cavalry: Flag
    other_fights_on_if_one_routs: Flag
    post_melee_bonus_move: float = Field(strict=True, ge=0, le=200, allow_inf_nan=False)
    bonus_move_may_charge: Flag
    note: str | None = None


class HitRow(Strict):
    label: Text
    hit_on: HitOn


class Hits(Strict):
    """Melee score needed to hit, by the TARGET's class."""

    title: Text
    rows: dict[Id, HitRow] = Field(min_length=1, max_length=50)
    note: str | None = None


class Dispersal(Strict):
    """Formed troops meeting skirmishers move on through them; each skirmisher gets
    ``shots_per_skirmisher`` shots (hitting on ``hit_on``) as it is removed."""

    title: Text
    formed_move_full_distance: Flag
    skirmishers_removed: Flag
    shots_per_skirmisher: int = Field(strict=True, ge=0, le=12)
    hit_on: HitOn
    skirmishers_may_not_close_with_formed: Flag
    note: str | None = None


class ShieldWall(Strict):
    label: Text
    min_units: int = Field(strict=True, ge=2, le=20)
    side_by_side: Flag
    while_immobile_counts_as: Id


class Wedge(Strict):
    label: Text
    needs_barbarian_support_behind: Flag
    counts_supporter_figures: Flag
    no_flanks: Flag


class Formations(Strict):
    title: Text
    shield_wall: ShieldWall
    wedge: Wedge
    note: str | None = None


class MoraleRow(Strict):
    """A user-supplied row of the truncated morale table: the situation the unit is in,
    the modified die band ``rolls`` (low, high inclusive) and the result."""

    unit_in: Text
    rolls: tuple[Score, Score]
    result: Text
    outcome: Literal["holds", "disordered", "routs", "other"]

    @model_validator(mode="after")
    def _band(self) -> MoraleRow:
        if self.rolls[0] > self.rolls[1]:
            raise ValueError(f"rolls {self.rolls}: the low score is above the high one")
        return self


class Morale(Strict):
    """Rout and the morale check of friends near a rout path.

    ``complete`` is False for the built-in data: the article stops at "Unit in:" and the rows
    are lost. ``rows`` holds the user's own rows (none built in)."""

    title: Text
    complete: Flag
    unformed_check: Flag
    rout_at_figures: Figures
    rout_at_elephants: Figures
    routed_removed: Flag
    rout_path: Text
    check_within: Inches
    who_checks: Literal["friendly_formed_units"]
    die: DiceExpr | None = None
    routing_elephants_modifier: Score
    source_breaks_off_at: Text
    rows: tuple[MoraleRow, ...] = Field(default=(), max_length=200)
    note: str | None = None


class TerrainRow(Strict):
    """What one of Castra's terrain kinds is under MWAN #90 (the article names no terrain:
    errata "terrain-movement", "terrain-sight", "terrain-cover"). ``passable``: True, False
    or "confirm" (the umpire decides); ``cost_factor``: inches of move spent per inch
    crossed (2 = half speed); ``unformed_cost_factor``: the same for skirmishers and other
    unformed troops (None: as formed troops)."""

    label: Text
    passable: Annotated[bool, Field(strict=True)] | Literal["confirm"]
    cost_factor: float = Field(strict=True, ge=1, le=10, allow_inf_nan=False)
    unformed_cost_factor: float | None = Field(
        default=None, strict=True, ge=1, le=10, allow_inf_nan=False
    )
    blocks_sight: Flag
    cover: Flag
    note: Text


class Terrain(Strict):
    """Every terrain kind of the table (:data:`~app.rules.table.TERRAIN_KINDS`) as
    MWAN #90 plays it; the loader refuses a kind left out."""

    title: Text
    kinds: dict[TerrainKind, TerrainRow]
    note: str | None = None

    @model_validator(mode="after")
    def _every_kind(self) -> Terrain:
        missing = [k for k in TERRAIN_KINDS if k not in self.kinds]
        if missing:
            raise ValueError(f"kinds: no row for {', '.join(missing)}")
        return self


class Tables(Strict):
    """Every table of the MWAN #90 rules."""

    sequence: Sequence
    initiative: Initiative
    movement: Movement
    missiles: Missiles
    melee: Melee
    hits: Hits
    dispersal: Dispersal
    formations: Formations
    morale: Morale
    terrain: Terrain
    #: the umpire's call on the result where Castra plays a side (errata umpire-default)
    umpire: UmpireDefault | None = None


# --------------------------------------------------------------------------- access


def tables(rs: Ruleset) -> Tables:
    """The ruleset's tables, typed; TypeError if it is not an MWAN #90 ruleset."""
    if not isinstance(rs.tables, Tables):
        raise TypeError(f"ruleset {rs.id!r} does not have MWAN #90 tables")
    return rs.tables


def rout_threshold(t: Tables, troop: Troop) -> int | None:
    """Figures at which a unit of ``troop`` routs; None for troops that are never formed."""
    if troop.formed == "never":
        return None
    if troop.category is Category.ELEPHANT:
        return t.morale.rout_at_elephants
    return t.morale.rout_at_figures
