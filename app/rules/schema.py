"""Typed schema of a ruleset folder, common to every engine.

A ruleset folder (``rulesets/<id>/``) holds five TOML files, each validated against its own
model so that an error names the file it came from:

- ``ruleset.toml``: :class:`RulesetFile` (metadata, basing, turn sequence, leaders, organisation)
- ``troops.toml``: ``[troops.<id>]`` tables, one per troop type (engine's troop model)
- ``tables.toml``: the engine's tables (movement, melee, missiles, ...; engine's tables model)
- ``armies.toml``: ``[armies.<id>]`` army lists (:class:`ArmyList`)
- ``errata.toml``: ``[[errata]]`` notes (:class:`Erratum`)

Numbers and limits live in the data; conditions live in Python (the validation module and the
ruleset's mechanics module).
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Literal

from app.rules.leaderfields import FieldValues
from app.rules.record import AfterValidator, Field, Record, model_validator
from app.rules.scale import Scale

# Bounds of ruleset data. A house-rules copy is data a user typed: a die of 99,999,999 faces
# or a standard army of a billion units would load and then make the cards or the odds run for
# minutes. The roster bounds are those of ``app.core.roster`` (a test checks they agree), so
# a standard army always makes a roster that can be saved and exported.
#: figures or bases of one unit (``app.core.roster.MAX_SIZE``)
MAX_UNIT_SIZE = 100_000
#: identical units of one standard-army line (``app.core.roster.MAX_COUNT``)
MAX_UNIT_COUNT = 1000
#: units of an army list, or of one of its entries (``app.core.roster.MAX_UNITS``)
MAX_UNITS = 5000
#: bases of one line of a multi-line unit (``app.core.roster.MAX_LINE_BASES``)
MAX_LINE_BASES = 100
#: a leader's bonus (``app.core.roster.MIN_BONUS``/``MAX_BONUS``)
MIN_BONUS, MAX_BONUS = -5, 5
#: a length in millimetres (a base, a unit width) or a distance in the ruleset's unit
MAX_LENGTH = 10_000.0
#: prose in a ruleset file (a description, an erratum)
MAX_TEXT = 20_000
#: notes a ruleset file gives a roster or a leader (``app.core.roster.MAX_NOTES``)
MAX_NOTES = 10_000
#: dice in a data expression: how many, how many faces, the modifier
MAX_DICE, MAX_FACES, MAX_DICE_MODIFIER = 100, 100, 100
#: a small count in the rules (actions, wounds, generals)
MAX_SMALL = 100

Id = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_\-]*$", min_length=1, max_length=64)]
Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
Length = Annotated[float, Field(gt=0, le=MAX_LENGTH)]
Distance = Annotated[float, Field(ge=0, le=MAX_LENGTH)]
#: A colour as the map draws it: ``#rrggbb``.
Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]
#: A unit's abbreviation on the map: a few letters, digits, dots or hyphens (``Ha``,
#: ``LPP``, ``Cav``).
Short = Annotated[str, Field(pattern=r"^[A-Za-z0-9.\-]{1,6}$")]


def _bounded_dice(text: str) -> str:
    """A data dice expression must be one a table can use: at most :data:`MAX_DICE` dice of
    at most :data:`MAX_FACES` faces, modifier within :data:`MAX_DICE_MODIFIER`."""
    m = re.match(r"^(?:avd|(\d*)d(\d+)z?([+-]\d+)?)$", text.strip().lower())
    if m is None or text.strip().lower() == "avd":
        return text
    if any(len(g or "") > 12 for g in m.groups()):
        raise ValueError(f"{text!r}: the numbers in a dice expression are at most 12 digits")
    count, faces, modifier = int(m.group(1) or 1), int(m.group(2)), int(m.group(3) or 0)
    if not 1 <= count <= MAX_DICE:
        raise ValueError(f"{text!r}: {count:,} dice; a data expression has 1 to {MAX_DICE}")
    if not 2 <= faces <= MAX_FACES:
        plural = "" if faces == 1 else "s"
        raise ValueError(f"{text!r}: a die of {faces:,} face{plural}; dice have 2 to {MAX_FACES}")
    if abs(modifier) > MAX_DICE_MODIFIER:
        raise ValueError(f"{text!r}: modifier {modifier:+,} (at most {MAX_DICE_MODIFIER})")
    return text


#: A dice expression: ``d10``, ``2d6``, ``d3+1``, ``d3-1``, ``d12+2``, ``d10z`` (a d10 read
#: 0-9) or ``avd`` (Leg VI's average die, faces 2,3,3,4,4,5). Parsed by
#: :func:`app.rules.dice.parse_dice`; bounded by :func:`_bounded_dice`.
DiceExpr = Annotated[
    str,
    Field(pattern=r"^(avd|\d*d\d+z?([+-]\d+)?)$", max_length=40),
    AfterValidator(_bounded_dice),
]


class Strict(Record):
    """Base of every schema model: a frozen record (:mod:`app.rules.record`), validated by
    :mod:`app.rules.validate` with unknown keys as errors (a typo must not pass silently)
    and strings stripped."""


# --------------------------------------------------------------------------- troop types


class Category(StrEnum):
    """Broad troop class, shared by all rulesets, used by generic validation rules
    (Leg VI command limits, D3 commander placement) and by the cards."""

    HEAVY_INFANTRY = "heavy_infantry"
    MEDIUM_INFANTRY = "medium_infantry"
    LIGHT_INFANTRY = "light_infantry"
    HEAVY_CAVALRY = "heavy_cavalry"
    MEDIUM_CAVALRY = "medium_cavalry"
    LIGHT_CAVALRY = "light_cavalry"
    ELEPHANT = "elephant"
    ARTILLERY = "artillery"

    @property
    def mounted(self) -> bool:
        return self in (
            Category.HEAVY_CAVALRY,
            Category.MEDIUM_CAVALRY,
            Category.LIGHT_CAVALRY,
        )

    @property
    def light(self) -> bool:
        return self in (Category.LIGHT_INFANTRY, Category.LIGHT_CAVALRY)

    @property
    def infantry(self) -> bool:
        return self in (
            Category.HEAVY_INFANTRY,
            Category.MEDIUM_INFANTRY,
            Category.LIGHT_INFANTRY,
        )


class Symbol(StrEnum):
    """The mark a unit carries on the battle map, read at a glance: each troop type maps to
    one (its ``symbol`` in ``troops.toml``, else the one its :class:`Category` gives), so a
    ruleset's many troop types draw as a few shapes every player knows."""

    HEAVY_INFANTRY = "heavy_infantry"
    MEDIUM_INFANTRY = "medium_infantry"
    LIGHT_INFANTRY = "light_infantry"
    SKIRMISHERS = "skirmishers"
    HEAVY_CAVALRY = "heavy_cavalry"
    MEDIUM_CAVALRY = "medium_cavalry"
    LIGHT_CAVALRY = "light_cavalry"
    ELEPHANTS = "elephants"
    CHARIOTS = "chariots"
    ARTILLERY = "artillery"


#: The symbol of each category, where a troop type names none of its own.
CATEGORY_SYMBOL: dict[Category, Symbol] = {
    Category.HEAVY_INFANTRY: Symbol.HEAVY_INFANTRY,
    Category.MEDIUM_INFANTRY: Symbol.MEDIUM_INFANTRY,
    Category.LIGHT_INFANTRY: Symbol.LIGHT_INFANTRY,
    Category.HEAVY_CAVALRY: Symbol.HEAVY_CAVALRY,
    Category.MEDIUM_CAVALRY: Symbol.MEDIUM_CAVALRY,
    Category.LIGHT_CAVALRY: Symbol.LIGHT_CAVALRY,
    Category.ELEPHANT: Symbol.ELEPHANTS,
    Category.ARTILLERY: Symbol.ARTILLERY,
}


class Basing(Strict):
    """Physical basing of one troop type.

    ``per`` says whether the frontage and depth are those of one figure or of one base.
    ``figures_per_base`` and ``men_per_base`` are left out where the source does not give them.
    """

    per: Literal["figure", "base"]
    frontage_mm: Length
    depth_mm: Length
    figures_per_base: int | None = Field(default=None, ge=1, le=MAX_UNIT_SIZE)
    men_per_base: int | None = Field(default=None, ge=1, le=MAX_UNIT_SIZE)
    men_per_base_range: (
        tuple[
            Annotated[int, Field(ge=1, le=MAX_UNIT_SIZE)],
            Annotated[int, Field(ge=1, le=MAX_UNIT_SIZE)],
        ]
        | None
    ) = None
    note: str | None = None


class Weapon(Strict):
    """A missile weapon: ranges in the ruleset's unit of measure."""

    name: Text
    short_range: Length | None = None
    long_range: Length


class TroopBase(Strict):
    """Fields every engine's troop type has. Engines subclass this with their own numbers."""

    name: Text
    category: Category
    description: str = ""
    shoots: bool = False
    weapons: tuple[Weapon, ...] = ()
    special_rules: tuple[Text, ...] = ()
    basing: Basing
    #: the map's mark for this troop type, where its category's is not the right one
    #: (skirmishers are light infantry whose source fights them in open order)
    symbol: Symbol | None = None


def troop_symbol(troop: TroopBase) -> Symbol:
    """The map symbol of ``troop``: its own, else its category's."""
    return troop.symbol or CATEGORY_SYMBOL[troop.category]


# --------------------------------------------------------------------------- army lists


class Line(Strict):
    """One line of a multi-line unit (a Leg VI legion: hastati 4, principes 4, triarii 2).

    ``alternative_bases`` is a permitted substitute base count for the same line
    (4 understrength triarii bases); they count as the line's ``bases`` full bases.
    """

    name: Text
    troop: Id
    bases: int = Field(ge=1, le=MAX_LINE_BASES)
    alternative_bases: int | None = Field(default=None, ge=1, le=MAX_LINE_BASES)
    note: str | None = None


class ArmyEntry(Strict):
    """One entry of an army list: what a roster may take, how big, how many."""

    name: Text
    troop: Id
    #: the abbreviation a unit of this entry carries on the map where its name does not
    #: fit its base (``Ha`` for Hastati); derived from the name where the data gives none
    short: Short | None = None
    sizes: tuple[Annotated[int, Field(ge=1, le=MAX_UNIT_SIZE)], ...] = Field(
        min_length=1, max_length=MAX_SMALL
    )
    default_size: int = Field(ge=1, le=MAX_UNIT_SIZE)
    min: int = Field(default=0, ge=0, le=MAX_UNITS)
    max: int | None = Field(default=None, ge=0, le=MAX_UNITS)
    grades: tuple[Text, ...] = ()
    default_grade: str | None = None
    lines: tuple[Line, ...] = ()
    warning: str | None = None
    note: str | None = None
    source: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> ArmyEntry:
        if any(s < 1 for s in self.sizes):
            raise ValueError("sizes must all be at least 1")
        if self.default_size not in self.sizes:
            raise ValueError(f"default_size {self.default_size} is not one of sizes {self.sizes}")
        if self.max is not None and self.max < self.min:
            raise ValueError(f"max {self.max} is below min {self.min}")
        if self.default_grade is not None and self.default_grade not in self.grades:
            raise ValueError(f"default_grade {self.default_grade!r} is not one of {self.grades}")
        if self.lines and sum(line.bases for line in self.lines) != self.default_size:
            raise ValueError("the bases of lines must add up to default_size")
        return self


class CompositionGroup(Strict):
    """Entries that must be taken together in equal numbers (an allied cohort: one unit of
    each type)."""

    name: Text
    entries: tuple[Id, ...] = Field(min_length=2)
    rule: Text


class StandardUnit(Strict):
    entry: Id
    count: int = Field(default=1, ge=1, le=MAX_UNIT_COUNT)
    size: int | None = Field(default=None, ge=1, le=MAX_UNIT_SIZE)
    grade: str | None = None
    name: str | None = None
    command: Id | None = None
    leader: Id | None = None


class StandardLeader(Strict):
    id: Id
    name: Text
    rank: Literal["general", "commander"]
    bonus: int | None = Field(default=None, ge=MIN_BONUS, le=MAX_BONUS)
    exceptional: bool = False
    quality: Literal["good", "average", "poor"] | None = None
    #: who he was, where the name comes from: the leader's notes in the roster
    notes: str | None = Field(default=None, max_length=MAX_NOTES)

    def fields(self) -> FieldValues:
        """The engine's fields this leader sets (the keys an army list gives a standard
        army's leader: ``bonus``, ``exceptional``, ``quality``)."""
        return FieldValues(
            {"bonus": self.bonus, "exceptional": self.exceptional, "quality": self.quality}
        )


class StandardCommand(Strict):
    id: Id
    name: Text
    leader: Id | None = None
    kind: Literal["infantry", "cavalry", "mixed"] | None = None


class StandardArmy(Strict):
    """An army ready to play: the one the source itself gives (the Quincunx model legion,
    GSB's sample armies, ``origin = "source"``), or, where the source gives none, one Castra
    built from the lists and the history (``origin = "castra"``; ``notes`` say how). A new
    roster can start from it, it is a sample roster on first start, and New battle offers it."""

    name: Text
    source: Text
    origin: Literal["source", "castra"] = "source"
    #: what the roster's notes say beyond its name and source (who its leaders were, why
    #: Castra built it so)
    notes: str | None = Field(default=None, max_length=MAX_NOTES)
    units: tuple[StandardUnit, ...] = Field(min_length=1, max_length=MAX_UNITS)
    leaders: tuple[StandardLeader, ...] = ()
    commands: tuple[StandardCommand, ...] = ()
    #: the sample roster Castra opens on a first start, so a newcomer sees a working army at
    #: once (a choice of the app, not a rule: one army in all the rulesets carries it; where
    #: several do, the first by ruleset id)
    first_sample: bool = False


class ArmyList(Strict):
    name: Text
    side: Text
    description: str = ""
    #: the army's colour on the battle map, the same in every battle (Rome's red); a side
    #: whose army names none, or the same as its enemy's, takes one of the map's own
    colour: Colour | None = None
    source: str | None = None
    min_units: int | None = Field(default=None, ge=0, le=MAX_UNITS)
    max_units: int | None = Field(default=None, ge=0, le=MAX_UNITS)
    units_rule: str | None = None
    entries: dict[Id, ArmyEntry] = Field(min_length=1)
    groups: dict[Id, CompositionGroup] = Field(default_factory=dict)
    standard: StandardArmy | None = None

    @model_validator(mode="after")
    def _references(self) -> ArmyList:
        for gid, group in self.groups.items():
            for entry in group.entries:
                if entry not in self.entries:
                    raise ValueError(f"group {gid!r} names unknown entry {entry!r}")
        if self.standard is not None:
            commands = {c.id for c in self.standard.commands}
            leaders = {ld.id for ld in self.standard.leaders}
            for unit in self.standard.units:
                if unit.entry not in self.entries:
                    raise ValueError(f"standard army names unknown entry {unit.entry!r}")
                if unit.command is not None and unit.command not in commands:
                    raise ValueError(f"standard unit names unknown command {unit.command!r}")
                if unit.leader is not None and unit.leader not in leaders:
                    raise ValueError(f"standard unit names unknown leader {unit.leader!r}")
                size = unit.size or self.entries[unit.entry].default_size
                if size not in self.entries[unit.entry].sizes:
                    raise ValueError(
                        f"standard unit {unit.entry!r} has size {size}, not one of "
                        f"{self.entries[unit.entry].sizes}"
                    )
            for command in self.standard.commands:
                if command.leader is not None and command.leader not in leaders:
                    raise ValueError(
                        f"standard command {command.id!r} names unknown leader {command.leader!r}"
                    )
        return self


class TemplateLeader(Strict):
    """A leader of a template's side: one of the side's standard-army leaders (by id),
    renamed for the man who held that command in history, and what became of him."""

    id: Id
    name: Text
    fate: Text


class TemplateSide(Strict):
    """A side of a campaign template: the standard army of one of the file's army lists."""

    id: Id
    #: the side's name in the campaign ("Rome")
    name: Text
    #: the army list whose standard army the side takes, whole
    army: Id
    #: the name of the side's roster ("Rome, 218 BC")
    roster: Text
    leaders: tuple[TemplateLeader, ...] = Field(default=(), max_length=MAX_UNITS)


class TemplateBattle(Strict):
    """A battle of a campaign template, between the named sides' whole armies."""

    name: Text
    #: the two sides that fight it, by id
    sides: tuple[Id, Id]
    date: str = Field(default="", max_length=200)
    place: str = Field(default="", max_length=200)
    #: the historical field it is fought on (a scenario id: its terrain, battle order and
    #: the losses in history the chronicle shows beside the campaign's)
    scenario: Id | None = None


class CampaignTemplate(Strict):
    """A historical campaign made from the file's standard armies (``[templates.<id>]`` of
    ``armies.toml``): sides, their leaders renamed with their historical fates, and battles.
    A ruleset whose standard armies lack the template's leaders is refused it, the message
    saying what the template is ``built_on``."""

    name: Text
    #: what the template needs of a ruleset's ready armies, in the refusal's words ("the
    #: Hannibal in Italy template is built on <built_on>; D3's ready armies are others")
    built_on: Text
    sides: tuple[TemplateSide, ...] = Field(min_length=2, max_length=MAX_SMALL)
    battles: tuple[TemplateBattle, ...] = Field(min_length=1, max_length=MAX_SMALL)

    @model_validator(mode="after")
    def _references(self) -> CampaignTemplate:
        ids = [s.id for s in self.sides]
        if len(set(ids)) != len(ids):
            raise ValueError(f"side ids repeat: {ids}")
        for side in self.sides:
            leaders = [ld.id for ld in side.leaders]
            if len(set(leaders)) != len(leaders):
                raise ValueError(f"side {side.id!r} names a leader twice: {leaders}")
        for battle in self.battles:
            for side_id in battle.sides:
                if side_id not in ids:
                    raise ValueError(f"battle {battle.name!r} names unknown side {side_id!r}")
            if battle.sides[0] == battle.sides[1]:
                raise ValueError(f"battle {battle.name!r} names a side twice")
        return self


class ArmiesFile(Strict):
    armies: dict[Id, ArmyList] = Field(min_length=1)
    #: historical campaigns made from these armies (``castra campaign new --template``)
    templates: dict[Id, CampaignTemplate] = Field(default_factory=dict)


# --------------------------------------------------------------------------- ruleset.toml


class TableSize(Strict):
    """The playing area a source gives: ``width`` along each side's base edge, ``height``
    from one side's edge to the other's, in ``unit``."""

    width: Annotated[float, Field(gt=0, le=1000)]
    height: Annotated[float, Field(gt=0, le=1000)]
    unit: Literal["inch", "cm", "ft"]


class Meta(Strict):
    id: Id
    #: the engine whose code plays this ruleset (``app.rulesets.find_engine``); the loader
    #: refuses a name it does not know
    engine: Id
    name: Text
    short_name: Text
    author: str | None = None
    author_note: str | None = None
    year: int | None = Field(default=None, ge=1900, le=2100)
    publication: str | None = None
    source_file: Text
    data_version: Annotated[str, Field(pattern=r"^\d+\.\d+\.\d+$")]
    figure_scale: Text
    unit_of_measure: Literal["inch", "cm", "unit_width"]
    unit_of_measure_note: str | None = None
    #: the length of one unit width, when distances are measured in unit widths (GSB)
    unit_width_mm: Length | None = None
    counts: Literal["figures", "bases"]
    scales: tuple[Scale, ...] = ()
    default_scale: Scale | None = None
    #: the table size as the source words it, for display; ``table`` is the same in numbers
    table_size: str | None = None
    table: TableSize | None = None
    game_length: str | None = None

    @model_validator(mode="after")
    def _unit_width(self) -> Meta:
        if self.unit_of_measure == "unit_width" and self.unit_width_mm is None:
            raise ValueError(
                "a ruleset that measures in unit widths must give unit_width_mm (the length "
                "of one unit width)"
            )
        if self.unit_of_measure != "unit_width" and self.unit_width_mm is not None:
            raise ValueError(
                f"unit_width_mm is only for unit_of_measure = 'unit_width', not "
                f"{self.unit_of_measure!r}"
            )
        return self

    @model_validator(mode="after")
    def _scales(self) -> Meta:
        if self.counts == "figures" and not self.scales:
            raise ValueError("a ruleset that counts figures must list its scales")
        if self.counts == "bases" and self.scales:
            raise ValueError("a ruleset that counts bases has no figure scales")
        if self.default_scale is not None and self.default_scale not in self.scales:
            raise ValueError(f"default_scale {self.default_scale} is not one of {self.scales}")
        return self


class Phase(Strict):
    id: Id
    name: Text
    summary: Text


class TurnSequence(Strict):
    summary: Text
    phases: tuple[Phase, ...] = Field(min_length=1)


class WoundEffect(Strict):
    wounds: int = Field(ge=0, le=20)
    effect: Text
    move: Distance | None = None
    actions_lost: int | None = Field(default=None, ge=0, le=MAX_SMALL)


class Leaders(Strict):
    """Leader-rules parameters. Everything is optional; each engine reads what it needs."""

    summary: Text
    #: how many generals an army must have (Leg VI, GSB, D3: one)
    generals: int | None = Field(default=None, ge=0, le=MAX_SMALL)
    #: the general must be attached to a unit (GSB)
    general_attached: bool = False
    #: a leader the roster attaches to no unit starts the battle with the unit nearest the
    #: centre of his command, where the rules leave it to the players (a decision: Quincunx)
    start_attached: bool = False
    #: when set, every leader must be attached to a unit of one of these categories (D3:
    #: commanders on heavy infantry or heavy cavalry); empty means attaching is optional
    attach_to: tuple[
        Literal[
            "heavy_infantry",
            "medium_infantry",
            "light_infantry",
            "heavy_cavalry",
            "medium_cavalry",
            "light_cavalry",
            "elephant",
            "artillery",
        ],
        ...,
    ] = ()
    move: Distance | None = None
    command_range: Distance | None = None
    command_chain: Distance | None = None
    bonus_default: int | None = Field(default=None, ge=MIN_BONUS, le=MAX_BONUS)
    bonus_great: int | None = Field(default=None, ge=MIN_BONUS, le=MAX_BONUS)
    great_leaders: tuple[Text, ...] = ()
    actions_general: int | None = Field(default=None, ge=0, le=MAX_SMALL)
    actions_commander: int | None = Field(default=None, ge=0, le=MAX_SMALL)
    actions_exceptional_bonus: int | None = Field(default=None, ge=0, le=MAX_SMALL)
    wound_effects: tuple[WoundEffect, ...] = ()
    risk: str | None = None
    #: the wound that kills a leader, counting the wounds he already has (Leg VI: the
    #: second; Quincunx: the third); None when wounds never kill (the text gives no wounds).
    #: A campaign applies it to wounds recorded by hand as the battle's mechanics do.
    wounds_to_kill: int | None = Field(default=None, ge=1, le=20)

    def gives_bonus(self) -> bool:
        """Whether leaders have a bonus by these rules (Quincunx, GSB)."""
        return self.bonus_default is not None or self.bonus_great is not None

    def bonus_by_name(self, name: str) -> int | None:
        """A leader's bonus by the rules, from his name (Quincunx, Leaders: +1, Hannibal
        and Scipio +2; GSB, Generals: +1); None where the rules give none."""
        if self.bonus_great is not None and any(
            g.lower() in name.lower() for g in self.great_leaders
        ):
            return self.bonus_great
        return self.bonus_default


class CampaignRules(Strict):
    """What a campaign takes from the ruleset by default (``[campaign]`` of ``ruleset.toml``).
    No source has campaign rules: the values are decisions, each quoted in the errata."""

    #: how many of a unit's losses come back before the next battle when the campaign uses
    #: the ruleset's default: ``none``, ``half`` (rounded down) or ``all``
    recovery: Literal["none", "half", "all"] = "none"
    #: wounds stay with a leader from battle to battle (no source heals them)
    wounds_carry: bool = True
    summary: str | None = None


class CommandRule(Strict):
    """A limit on what one kind of command may hold (Leg VI: an infantry command at most one
    cavalry unit)."""

    kind: Literal["infantry", "cavalry"]
    limited: tuple[Category, ...] = Field(min_length=1)
    max_units: int = Field(ge=0, le=MAX_UNITS)
    rule: Text


class Organisation(Strict):
    """How a roster is organised: what the groups are called and their limits."""

    group_name: Text = "command"
    command_rules: tuple[CommandRule, ...] = ()
    grades: tuple[Text, ...] = ()
    grade_descriptions: dict[str, str] = Field(default_factory=dict)


class RulesetFile(Strict):
    ruleset: Meta
    turn: TurnSequence
    leaders: Leaders
    organisation: Organisation = Field(default_factory=Organisation)
    campaign: CampaignRules = Field(default_factory=CampaignRules)


# --------------------------------------------------------------------------- errata.toml


class Erratum(Strict):
    """An errata or interpretation note: what the source says and what we decided.

    ``applies_to`` names the data it affects (e.g. ``tables.melee.roman_velites`` or
    ``armies.roman.entries.velites``); ``override`` says how a user changes the decision.
    """

    id: Id
    topic: Text
    kind: Literal["errata", "interpretation", "gap"]
    source_says: Text
    decision: Text
    applies_to: tuple[Text, ...] = ()
    override: str | None = None


class ErrataFile(Strict):
    errata: tuple[Erratum, ...] = ()

    @model_validator(mode="after")
    def _unique(self) -> ErrataFile:
        ids = [e.id for e in self.errata]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate errata ids: {', '.join(dupes)}")
        return self
