"""MWAN #90 Punic rules (untitled magazine article, 1997) -- troop and table models.

A figure-counting game: one die per figure, hits by the target's class, units routing at three
figures. The article breaks off in the middle of its morale section, so the morale-check table
is modelled as incomplete: the known parts are data, the missing rows are an empty list a user
may fill in a house-rules copy (``complete`` says whether the table may be relied on).

Troops name a movement class (``tables.movement.rows``) and a hit class (``tables.hits.rows``);
:func:`check` makes sure both exist, among other cross-checks.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from app.rules.ruleset import Ruleset
from app.rules.schema import Category, DiceExpr, Id, Strict, Text, TroopBase

Order = Literal["always", "never", "either"]


# --------------------------------------------------------------------------- troops


class Troop(TroopBase):
    """An MWAN #90 troop type.

    ``formed``: whether the type is always formed, never (skirmish infantry) or may be either
    (acting as skirmishers). ``ranks``: ranks whose figures fight in melee. ``move_class`` and
    ``hit_class`` are keys of the movement and hit tables.
    """

    formed: Order
    ranks: int = Field(ge=1)
    dice_per_figure: int = Field(ge=1)
    move_class: Id
    hit_class: Id
    pre_melee_javelins: bool = False
    barbarian: bool = False
    disorders_cavalry: bool = False


# --------------------------------------------------------------------------- tables


class Step(Strict):
    phase: Id
    label: Text
    detail: Text


class Sequence(Strict):
    title: Text
    steps: tuple[Step, ...] = Field(min_length=1)
    note: str | None = None


class Initiative(Strict):
    """Each side tosses ``die``; the higher wins and chooses to move first or second.
    Ties: re-toss on the first turn, later the loser of the previous initiative wins."""

    title: Text
    die: DiceExpr
    first_turn_tie: Literal["reroll"]
    later_tie: Literal["previous_loser_wins"]
    winner_chooses_move_order: bool
    note: str | None = None


class MoveClass(Strict):
    """``move`` in inches (``move_stated``: whether the article gives the distance for this
    class); ``max_wheel_deg`` None means free facing (skirmishers); ``wheel_with_move``: the
    wheel may be combined with the move (before or after it) rather than replace it."""

    label: Text
    move: float = Field(gt=0)
    move_stated: bool
    max_wheel_deg: int | None = Field(default=None, ge=0, le=180)
    wheel_with_move: bool
    about_face: bool
    forward_only: bool


class Movement(Strict):
    title: Text
    rows: dict[Id, MoveClass] = Field(min_length=1)
    pinned_in_melee: bool
    skirmishers_pass_through: tuple[Category, ...]
    note: str | None = None


class PreMeleeJavelins(Strict):
    ranks: int = Field(ge=1)
    dice_per_figure: int = Field(ge=1)
    when: Literal["before_first_melee_round"]


class Missiles(Strict):
    """``dice_per_figure`` dice of ``die`` per figure with a clear shot, hitting on
    ``hit_on`` or more whatever the target."""

    title: Text
    die: DiceExpr
    simultaneous: bool
    dice_per_figure: int = Field(ge=1)
    clear_shot_required: bool
    hit_on: int = Field(ge=1, le=6)
    ranges: dict[Id, float] = Field(min_length=1)
    no_shooting_at_units_in_melee: bool
    split_vs_supported_cavalry: bool
    pre_melee_javelins: PreMeleeJavelins
    note: str | None = None


class FlankRear(Strict):
    """Flank or rear attacks: the dice of ``multiplied_side`` are multiplied by
    ``multiplier`` when the attacked unit's hit class is one of ``only_if_attacked``.
    ``multiplied_side`` is the default of the melee option ``flank_tripled``: ``attacker``
    (Castra's reading, errata flank-rear-triple) or ``attacked`` (the text as written)."""

    multiplier: int = Field(ge=1)
    multiplied_side: Literal["attacked", "attacker"]
    only_if_attacked: tuple[Id, ...] = Field(min_length=1)
    attacked_disordered: bool


class Melee(Strict):
    """Melee dice are ``die``; the score needed is the target's row of :class:`Hits`."""

    title: Text
    die: DiceExpr
    order: tuple[Literal["flank_rear", "regular"], ...] = Field(min_length=1)
    dice_per_figure: int = Field(ge=1)
    support_mi_ranks: int = Field(ge=0)
    overlap_figures_per_flank: int = Field(ge=0)
    skirmishers_count_only_vs_skirmishers: bool
    flank_rear: FlankRear
    disordered_attacked_tests_as_routed_into: bool
    disorder_clears: Literal["out_of_contact", "never"]
    figures_lost_per_hit: int = Field(ge=1)
    split_vs_supported_cavalry: bool
    other_fights_on_if_one_routs: bool
    post_melee_bonus_move: float = Field(ge=0)
    bonus_move_may_charge: bool
    note: str | None = None


class HitRow(Strict):
    label: Text
    hit_on: int = Field(ge=1, le=6)


class Hits(Strict):
    """Melee score needed to hit, by the TARGET's class."""

    title: Text
    rows: dict[Id, HitRow] = Field(min_length=1)
    note: str | None = None


class Dispersal(Strict):
    """Formed troops meeting skirmishers move on through them; each skirmisher gets
    ``shots_per_skirmisher`` shots (hitting on ``hit_on``) as it is removed."""

    title: Text
    formed_move_full_distance: bool
    skirmishers_removed: bool
    shots_per_skirmisher: int = Field(ge=0)
    hit_on: int = Field(ge=1, le=6)
    skirmishers_may_not_close_with_formed: bool
    note: str | None = None


class ShieldWall(Strict):
    label: Text
    min_units: int = Field(ge=2)
    side_by_side: bool
    while_immobile_counts_as: Id


class Wedge(Strict):
    label: Text
    needs_barbarian_support_behind: bool
    counts_supporter_figures: bool
    no_flanks: bool


class Formations(Strict):
    title: Text
    shield_wall: ShieldWall
    wedge: Wedge
    note: str | None = None


class MoraleRow(Strict):
    """A user-supplied row of the truncated morale table: the situation the unit is in,
    the modified die band ``rolls`` (low, high inclusive) and the result."""

    unit_in: Text
    rolls: tuple[int, int]
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
    complete: bool
    unformed_check: bool
    rout_at_figures: int = Field(ge=0)
    rout_at_elephants: int = Field(ge=0)
    routed_removed: bool
    rout_path: Text
    check_within: float = Field(gt=0)
    who_checks: Literal["friendly_formed_units"]
    die: DiceExpr | None = None
    routing_elephants_modifier: int
    source_breaks_off_at: Text
    rows: tuple[MoraleRow, ...] = ()
    note: str | None = None


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
