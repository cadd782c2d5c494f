"""D3 Ancient Rules (a home-brew One-Hour Wargames variant for the Second Punic War).

Every unit is three 4 x 3 inch bases; hits come from one D3 with a modifier, attacks on
armoured targets are halved, a unit goes after more than 8 hits, and a deck of 15 chance
cards (one drawn per turn, shaped by army, commander and supply) gives the armies their
character. The per-troop numbers live on :class:`Troop`; every other number of the source
lives in :class:`Tables`. :func:`deck_for` builds one side's chance-card deck from the data.
"""

from __future__ import annotations

from typing import Literal

from app.rules.record import Field, model_validator
from app.rules.ruleset import Ruleset
from app.rules.schema import DiceExpr, Id, Strict, Text, TroopBase

Quality = Literal["good", "average", "poor"]
QUALITIES: tuple[Quality, ...] = ("good", "average", "poor")

# --------------------------------------------------------------------------- troops


class Troop(TroopBase):
    """One D3 troop type. Every field is required so that the data states it explicitly.

    ``may_enter`` lists the *restricted* terrain types (``entry = "listed"`` in
    ``tables.terrain``) this troop may enter; open terrain needs no listing and impassable
    terrain can never be listed. ``flank_class`` keys ``tables.combat.flank_rear_bonus``
    (``None``: the troop cannot attack, so it has no bonus).
    """

    veteran: bool
    move: float = Field(ge=0)
    pivot_only: bool
    road_bonus: float = Field(ge=0)
    passes_through_friends: bool
    may_leave_combat: bool
    may_enter: tuple[Id, ...]
    shoot_hits: DiceExpr | None = None
    shoot_ignores_armour: bool
    combat_hits: DiceExpr | None = None
    combat_ignores_halving: bool
    halved_in_combat: bool
    shot_halved: Literal["always", "in_cover", "never"]
    halved_attacking_broken_ground: bool
    flank_class: Id | None = None
    may_charge: bool
    charges_only_engaged: bool
    may_charge_elephants: bool


# --------------------------------------------------------------------------- tables


class UnitsTable(Strict):
    """D3, Unit Types: three 4 x 3 inch bases side by side make a 12 x 3 inch unit."""

    title: Text
    bases_per_unit: int = Field(ge=1)
    base_width: float = Field(gt=0)
    base_depth: float = Field(gt=0)
    unit_width: float = Field(gt=0)
    unit_depth: float = Field(gt=0)
    note: str | None = None


class SequenceTable(Strict):
    """D3, Sequence of play: each player in turn runs these steps; the game lasts ``turns``."""

    title: Text
    turns: int = Field(ge=1)
    steps: tuple[Id, ...] = Field(min_length=1)
    first_turn_dice: DiceExpr
    note: str | None = None


class MovementRules(Strict):
    """D3, Movement: rules common to every troop (the distances are on the troops)."""

    title: Text
    pivot_at_start: bool
    pivot_at_end: bool
    #: a pivot costs none of the move's distance (errata pivots-free)
    pivots_free: bool
    #: a wheel (turning while moving) is allowed; the text knows only pivots (errata
    #: turning-only-by-pivots)
    wheels: bool
    moved_may_not_shoot: bool
    moved_may_not_fight_unless_charged: bool
    passed_through_counts_as_moved: bool
    note: str | None = None


class TerrainType(Strict):
    """One kind of terrain. ``entry``: ``all`` (anyone), ``listed`` (only troops whose
    ``may_enter`` names it), ``crossings`` (only at bridges and fords), ``none``."""

    name: Text
    entry: Literal["all", "listed", "crossings", "none"]
    move_bonus: float = Field(default=0, ge=0)
    move_bonus_condition: str | None = None
    defender_modifier: int = 0
    cover: bool = False
    halves_heavy_infantry_attacks: bool = False
    effect: Text


class TerrainTable(Strict):
    title: Text
    types: dict[Id, TerrainType] = Field(min_length=1)
    note: str | None = None


class ChargeRules(Strict):
    """D3, Charges. Per-troop restrictions are on the troops (``charges_only_engaged``,
    ``may_charge_elephants``)."""

    title: Text
    straight_ahead_only: bool
    max_attackers_per_side: int = Field(ge=1)
    sides: tuple[Id, ...] = Field(min_length=1)
    note: str | None = None


class ShootingRules(Strict):
    title: Text
    front_arc_only: bool
    may_target_engaged: bool
    front_arc_degrees: float = Field(gt=0, lt=90)
    halving_rounds: Literal["up", "down"]
    note: str | None = None


class FlankBonus(Strict):
    label: Text
    bonus: int


CombatStep = Literal[
    "dice", "flank_rear", "terrain", "halve_target", "halve_broken_ground", "floor"
]


class CombatRules(Strict):
    """D3, Combat. ``order`` is the order the engine applies the steps (our decision: the
    source gives none); ``minimum_hits`` the floor after modifiers."""

    title: Text
    own_turn_only: bool
    halving_rounds: Literal["up", "down"]
    flank_rear_bonus: dict[Id, FlankBonus] = Field(min_length=1)
    order: tuple[CombatStep, ...] = Field(min_length=1)
    minimum_hits: int = Field(ge=0)
    may_face_flank_or_rear_unless_engaged_in_front: bool
    facing_unit_may_not_attack: bool
    note: str | None = None


class EliminationRules(Strict):
    title: Text
    eliminated_above_hits: int = Field(ge=0)
    note: str | None = None


class BerserkRow(Strict):
    roll: int = Field(ge=1)
    target: Literal["nearest_friend", "nearest_enemy", "none"]
    within: float | None = Field(default=None, gt=0)
    hits: DiceExpr | None = None
    summary: Text

    @model_validator(mode="after")
    def _target(self) -> BerserkRow:
        if self.target == "none" and (self.within is not None or self.hits is not None):
            raise ValueError("a row with no target has no range and no hits")
        if self.target != "none" and (self.within is None or self.hits is None):
            raise ValueError("a row with a target needs `within` and `hits`")
        return self


class BerserkTable(Strict):
    title: Text
    dice: DiceExpr
    rows: tuple[BerserkRow, ...] = Field(min_length=1)
    removed_after: bool
    note: str | None = None


class ArmyResolve(Strict):
    title: Text
    lost_more_than_percent: int = Field(ge=0, le=100)
    effect: Literal["no_advance"]
    loses_battle: bool
    note: str | None = None


class CommanderRules(Strict):
    """D3, Commanders: the attach categories are ``leaders.attach_to`` in ruleset.toml."""

    title: Text
    attach_at_start: bool
    combat_dice: int = Field(ge=1)
    combat_keep: Literal["highest"]
    cards_disabled_on_loss: tuple[Id, ...]
    note: str | None = None


CardEffect = Literal[
    "none",
    "no_move_unless_commanded",
    "no_shooting",
    "extra_activation",
    "halve_unit_hits",
    "undefined",
]


class ChanceCard(Strict):
    name: Text
    count: int = Field(ge=0)
    effect_key: CardEffect
    effect: Text


class CardSubstitution(Strict):
    """Swap ``count`` cards ``replace`` for ``add`` when ``condition`` holds: the army's side
    is ``value`` (``army_side``), its commander's quality is ``value``
    (``commander_quality``), or it has supply problems (``supply_problems``, no value)."""

    id: Id
    condition: Literal["army_side", "commander_quality", "supply_problems"]
    value: str | None = None
    replace: Id
    add: Id
    count: int = Field(default=1, ge=1)
    summary: Text

    @model_validator(mode="after")
    def _value(self) -> CardSubstitution:
        if self.condition == "supply_problems" and self.value is not None:
            raise ValueError("a supply_problems substitution takes no value")
        if self.condition == "army_side" and not self.value:
            raise ValueError("an army_side substitution needs the side as value")
        if self.condition == "commander_quality" and self.value not in QUALITIES:
            raise ValueError(f"commander_quality value must be one of {QUALITIES}")
        if self.replace == self.add:
            raise ValueError("a substitution must replace a card with a different one")
        return self


class ChanceCards(Strict):
    title: Text
    deck_size: int = Field(ge=1)
    draw_per_turn: int = Field(ge=1)
    carry_over: bool
    cards: dict[Id, ChanceCard] = Field(min_length=1)
    substitutions: tuple[CardSubstitution, ...] = ()
    note: str | None = None


class Tables(Strict):
    """Every table of the D3 Ancient Rules."""

    units: UnitsTable
    sequence: SequenceTable
    movement: MovementRules
    terrain: TerrainTable
    charges: ChargeRules
    shooting: ShootingRules
    combat: CombatRules
    elimination: EliminationRules
    berserk: BerserkTable
    army_resolve: ArmyResolve
    commanders: CommanderRules
    chance_cards: ChanceCards


def tables(rs: Ruleset) -> Tables:
    """The D3 tables of ``rs``; ``TypeError`` if ``rs`` is not a D3 ruleset."""
    if not isinstance(rs.tables, Tables):
        raise TypeError(f"ruleset {rs.id!r} does not have D3 tables")
    return rs.tables


# --------------------------------------------------------------------------- chance cards


def deck_for(
    t: Tables,
    *,
    side: str | None,
    commander_quality: Quality | None = "average",
    supply_problems: bool = False,
) -> dict[str, int]:
    """One side's chance-card deck (card id -> count), D3 Chance Cards: the base deck with
    the army, commander and supply substitutions applied in the order the data lists them.
    Cards with no copies left are omitted. Raises ``ValueError`` if a substitution would take
    a card the deck no longer holds."""
    deck = {cid: card.count for cid, card in t.chance_cards.cards.items()}
    for sub in t.chance_cards.substitutions:
        applies = (
            (sub.condition == "army_side" and sub.value == side)
            or (sub.condition == "commander_quality" and sub.value == commander_quality)
            or (sub.condition == "supply_problems" and supply_problems)
        )
        if not applies:
            continue
        if deck.get(sub.replace, 0) < sub.count:
            raise ValueError(
                f"substitution {sub.id!r} needs {sub.count} {sub.replace!r} card(s); "
                f"the deck holds {deck.get(sub.replace, 0)}"
            )
        if sub.add not in deck:
            raise ValueError(f"substitution {sub.id!r} adds unknown card {sub.add!r}")
        deck[sub.replace] -= sub.count
        deck[sub.add] += sub.count
    return {cid: n for cid, n in deck.items() if n > 0}


def army_deck(
    rs: Ruleset,
    army_id: str,
    *,
    commander_quality: Quality | None = "average",
    supply_problems: bool = False,
) -> dict[str, int]:
    """:func:`deck_for` the side of army list ``army_id``."""
    return deck_for(
        tables(rs),
        side=rs.army(army_id).side,
        commander_quality=commander_quality,
        supply_problems=supply_problems,
    )
