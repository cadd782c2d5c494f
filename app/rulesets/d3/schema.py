"""D3 Ancient Rules (a home-brew One-Hour Wargames variant for the Second Punic War).

Every unit is three 4 x 3 inch bases; hits come from one D3 with a modifier, attacks on
armoured targets are halved, a unit goes after more than 8 hits, and a deck of 15 chance
cards (one drawn per turn, shaped by army, commander and supply) gives the armies their
character. The per-troop numbers live on :class:`Troop`; every other number of the source
lives in :class:`Tables`. :func:`deck_for` builds one side's chance-card deck from the data.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from app.rules.dice import parse_dice
from app.rules.engines import EngineSchema
from app.rules.errors import Problem
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


# --------------------------------------------------------------------------- checks


def _check_troops(rs: Ruleset, t: Tables) -> list[Problem]:
    out: list[Problem] = []
    roads = [tt for tt in t.terrain.types.values() if tt.move_bonus > 0]
    for tid, troop in rs.troops.items():
        if not isinstance(troop, Troop):
            out.append(Problem("troops.toml", f"troops.{tid}", "not a D3 troop"))
            continue
        base = f"troops.{tid}"
        for i, terrain_id in enumerate(troop.may_enter):
            terrain = t.terrain.types.get(terrain_id)
            if terrain is None:
                out.append(
                    Problem(
                        "troops.toml", f"{base}.may_enter[{i}]", f"unknown terrain {terrain_id!r}"
                    )
                )
            elif terrain.entry != "listed":
                out.append(
                    Problem(
                        "troops.toml",
                        f"{base}.may_enter[{i}]",
                        f"terrain {terrain_id!r} has entry {terrain.entry!r}; only "
                        "restricted ('listed') terrain is named here",
                    )
                )
        if troop.flank_class is not None and troop.flank_class not in t.combat.flank_rear_bonus:
            out.append(
                Problem(
                    "troops.toml",
                    f"{base}.flank_class",
                    f"unknown flank class {troop.flank_class!r} (known: "
                    f"{', '.join(sorted(t.combat.flank_rear_bonus))})",
                )
            )
        if troop.combat_hits is not None and troop.flank_class is None:
            out.append(
                Problem(
                    "troops.toml", f"{base}.flank_class", "a troop that attacks needs a flank class"
                )
            )
        has_shot = troop.shoot_hits is not None
        if troop.shoots != has_shot or troop.shoots != bool(troop.weapons):
            out.append(
                Problem(
                    "troops.toml", f"{base}.shoots", "shoots, shoot_hits and weapons must agree"
                )
            )
        if troop.pivot_only and (troop.move != 0 or troop.road_bonus != 0 or troop.may_charge):
            out.append(
                Problem(
                    "troops.toml",
                    f"{base}.move",
                    "a pivot-only troop has move 0, road_bonus 0 and may not charge",
                )
            )
        if not troop.pivot_only and troop.move == 0:
            out.append(Problem("troops.toml", f"{base}.move", "a troop that moves needs a move"))
        if not troop.pivot_only and roads and all(troop.road_bonus != r.move_bonus for r in roads):
            out.append(
                Problem(
                    "troops.toml",
                    f"{base}.road_bonus",
                    f"road_bonus {troop.road_bonus} matches no terrain move_bonus",
                )
            )
    return out


def _check_deck(rs: Ruleset, t: Tables) -> list[Problem]:
    out: list[Problem] = []
    cc = t.chance_cards
    total = sum(card.count for card in cc.cards.values())
    if total != cc.deck_size:
        out.append(
            Problem(
                "tables.toml",
                "chance_cards.cards",
                f"the cards add up to {total}, not deck_size {cc.deck_size}",
            )
        )
    if cc.deck_size != t.sequence.turns * cc.draw_per_turn:
        out.append(
            Problem(
                "tables.toml",
                "chance_cards.deck_size",
                f"deck_size {cc.deck_size} is not one card per turn for {t.sequence.turns} turns",
            )
        )
    sides = {army.side for army in rs.armies.values()}
    for i, sub in enumerate(cc.substitutions):
        path = f"chance_cards.substitutions[{i}]"
        if cc.cards.get(sub.replace) is None or cc.cards[sub.replace].count == 0:
            out.append(
                Problem(
                    "tables.toml",
                    f"{path}.replace",
                    f"card {sub.replace!r} is not in the base deck",
                )
            )
        if sub.add not in cc.cards:
            out.append(Problem("tables.toml", f"{path}.add", f"unknown card {sub.add!r}"))
        if sub.condition == "army_side" and sub.value not in sides:
            out.append(
                Problem(
                    "tables.toml",
                    f"{path}.value",
                    f"no army list has side {sub.value!r} (sides: {', '.join(sorted(sides))})",
                )
            )
    for i, card_id in enumerate(t.commanders.cards_disabled_on_loss):
        if card_id not in cc.cards:
            out.append(
                Problem(
                    "tables.toml",
                    f"commanders.cards_disabled_on_loss[{i}]",
                    f"unknown card {card_id!r}",
                )
            )
    if out:
        return out
    for army_id, army in sorted(rs.armies.items()):
        for quality in QUALITIES:
            for supply in (False, True):
                try:
                    deck = deck_for(
                        t, side=army.side, commander_quality=quality, supply_problems=supply
                    )
                except ValueError as exc:
                    out.append(
                        Problem(
                            "tables.toml",
                            "chance_cards.substitutions",
                            f"army {army_id!r}, {quality} commander, supply "
                            f"problems {supply}: {exc}",
                        )
                    )
                    continue
                if sum(deck.values()) != cc.deck_size:
                    out.append(
                        Problem(
                            "tables.toml",
                            "chance_cards.substitutions",
                            f"army {army_id!r}: the deck is not {cc.deck_size}",
                        )
                    )
    return out


def _check_armies(rs: Ruleset, t: Tables) -> list[Problem]:
    out: list[Problem] = []
    for army_id, army in rs.armies.items():
        base = f"armies.{army_id}"
        for entry_id, entry in army.entries.items():
            if any(size != t.units.bases_per_unit for size in entry.sizes):
                out.append(
                    Problem(
                        "armies.toml",
                        f"{base}.entries.{entry_id}.sizes",
                        f"every D3 unit has {t.units.bases_per_unit} bases",
                    )
                )
        mins = sum(e.min for e in army.entries.values())
        if army.max_units is not None and mins > army.max_units:
            out.append(
                Problem(
                    "armies.toml",
                    f"{base}.entries",
                    f"the entry minimums add up to {mins}, over max_units {army.max_units}",
                )
            )
        maxes = [e.max for e in army.entries.values()]
        if army.min_units is not None and None not in maxes:
            top = sum(m for m in maxes if m is not None)
            if top < army.min_units:
                out.append(
                    Problem(
                        "armies.toml",
                        f"{base}.entries",
                        f"the entry maximums add up to {top}, under min_units {army.min_units}",
                    )
                )
        if rs.leaders.attach_to:
            hosts = [
                e
                for e in army.entries.values()
                if e.troop in rs.troops and rs.troops[e.troop].category in rs.leaders.attach_to
            ]
            if not hosts:
                out.append(
                    Problem(
                        "armies.toml",
                        f"{base}.entries",
                        "no entry can carry the commander (leaders.attach_to)",
                    )
                )
    return out


def check(rs: Ruleset) -> list[Problem]:
    """Cross-checks the D3 data cannot express alone, each naming file and key path."""
    if not isinstance(rs.tables, Tables):
        return [Problem("tables.toml", "", "not D3 tables")]
    t = rs.tables
    out: list[Problem] = []
    phases = tuple(p.id for p in rs.turn.phases)
    if t.sequence.steps != phases:
        out.append(
            Problem(
                "tables.toml",
                "sequence.steps",
                f"steps {t.sequence.steps} differ from the turn phases {phases}",
            )
        )
    if t.units.unit_width != t.units.base_width * t.units.bases_per_unit:
        out.append(
            Problem(
                "tables.toml", "units.unit_width", "unit_width is not bases_per_unit x base_width"
            )
        )
    faces = parse_faces(t.berserk.dice)
    rolls = sorted(row.roll for row in t.berserk.rows)
    if rolls != faces:
        out.append(
            Problem(
                "tables.toml",
                "berserk.rows",
                f"rows cover rolls {rolls}; {t.berserk.dice} gives {faces}",
            )
        )
    out += _check_troops(rs, t)
    out += _check_deck(rs, t)
    out += _check_armies(rs, t)
    return out


def parse_faces(dice: str) -> list[int]:
    """Every total one roll of ``dice`` can give, sorted (``d3`` -> [1, 2, 3])."""
    spec = parse_dice(dice)
    lo = spec.count * min(spec.faces) + spec.modifier
    hi = spec.count * max(spec.faces) + spec.modifier
    return list(range(lo, hi + 1))


SCHEMA = EngineSchema(
    engine="d3",
    troop_model=Troop,
    tables_model=Tables,
    builtin_folder="d3-ancients",
    check=check,
)
