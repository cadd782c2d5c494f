"""The contract between a ruleset's mechanics module and the battle core.

Each ruleset's ``app/rulesets/<engine>/mechanics.py`` subclasses :class:`Mechanics` and
overrides the small hooks its rules need (python-chess's variants are the model): numbers
come from the ruleset's tables (``app.rulesets.<engine>.schema.tables(rs)``); conditions are
Python.

Mechanics see plain values -- a :class:`Situation` holding the acting unit, its target, other
units and the chosen options, and a :class:`TurnView` of the battle -- and return plain values:
a :class:`Resolution` (what changes, and why, in words) and, for actions with odds, the exact
distribution of :class:`Outcome` values. They never change the battle themselves: the core
applies the effects, records every roll and writes the log. Given the same dice, ``resolve``
must produce exactly the ``Outcome`` that ``odds`` counts for those dice.

An action or hook a ruleset does not implement raises :class:`NotImplementedRule` naming the
rule, so nothing is silently skipped.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from app.collector import collector_paused
from app.rules.actions import Action
from app.rules.contact import Contact, ContactHow, not_in_contact
from app.rules.decisions import SideDecision, UmpireDefault, losses_result
from app.rules.geometry import aspect, edge_distance
from app.rules.measure import from_mm
from app.rules.movement import (
    GENERIC_TERRAIN,
    MOVE_REASONS,
    Breach,
    LegCost,
    MoveCheck,
    MoveReason,
    TerrainEffect,
    TerrainSpan,
)
from app.rules.sight import Arc, Measurement, SightRules
from app.rules.values import (
    NO_EFFECT,
    ActionSpec,
    Combatant,
    Dice,
    Effects,
    LeaderEvent,
    LeaderView,
    NotImplementedRule,
    Odds,
    OptionSpec,
    Outcome,
    Resolution,
    Scalar,
    Side,
    SideUpdate,
    Situation,
    Status,
    Targets,
    TurnView,
    UnitChange,
    Victory,
    add_odds,
    normalise,
)

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset
    from app.rules.schema import ArmyEntry

__all__ = [
    "GENERIC_TERRAIN",
    "MOVE_REASONS",
    "NO_EFFECT",
    "ActionSpec",
    "Arc",
    "Breach",
    "Combatant",
    "Contact",
    "ContactHow",
    "Dice",
    "Effects",
    "LeaderEvent",
    "LeaderView",
    "LegCost",
    "Measurement",
    "Mechanics",
    "MoveCheck",
    "MoveReason",
    "NotImplementedRule",
    "Odds",
    "OptionSpec",
    "Outcome",
    "Resolution",
    "Scalar",
    "Side",
    "SideDecision",
    "SideUpdate",
    "Situation",
    "Status",
    "Targets",
    "TerrainEffect",
    "TerrainSpan",
    "TurnView",
    "UmpireDefault",
    "UnitChange",
    "Victory",
    "add_odds",
    "mechanics_for",
    "normalise",
]


# --------------------------------------------------------------------------- the base class


class Mechanics(SightRules):
    """Base of every ruleset's mechanics. Subclasses set ``engine`` and override hooks; the
    table's hooks (terrain, moves, contact, deployment, measuring) come from the mixins
    named in its bases, each documented there."""

    engine: ClassVar[str] = ""
    #: what ``Status.strength`` counts, for the log and the inspector
    strength_unit: ClassVar[str] = "figures"
    #: how many times a turn runs through the phases (Quincunx: two rounds, move and
    #: counter-move); ``TurnView.round`` says which
    rounds_per_turn: ClassVar[int] = 1
    #: what a round is called in the log ("round"; D3: "player turn")
    round_name: ClassVar[str] = "round"
    #: markers that, on a unit still on the table when the battle ends, mean it is gone for
    #: a campaign, with the reason in words (a routing Leg VI unit, a routed MWAN #90 one, a
    #: berserk Quincunx elephant that rampages until it leaves the table). Destroyed and
    #: eliminated units (``Status.eliminated``) are lost whatever their markers.
    lost_markers: ClassVar[Mapping[str, str]] = {
        "routing": "routed off",
        "routed": "routed off",
        "berserk": "ran berserk off the table",
    }
    #: the actions that are a fight between two units: refused, naming the rule and both
    #: units, when both stand on the table and their bases do not touch
    #: (:func:`app.rules.contact.not_in_contact`; odds outside a battle and units not placed
    #: are never refused). On by default for ``melee``, after the action's own ``prepare``
    #: (whose refusals come first); an engine whose rules let units fight apart opts out by
    #: leaving an action out (``frozenset()``), one with more hand-to-hand actions names them.
    contact_actions: ClassVar[frozenset[str]] = frozenset({"melee"})

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    # -- set-up -------------------------------------------------------------------------

    def initial_status(self, troop: str, size: int, grade: str | None) -> Status:
        """A fresh unit of ``size`` (figures or bases, as the roster counts them)."""
        return Status(strength=size, start_strength=size, grade=grade)

    def status_problem(self, troop: str, status: Status) -> str | None:
        """Why ``status`` is not a state a unit of ``troop`` can be in under these rules, in
        words, or None when it is one. The core refuses such a state when it is typed by hand
        (``battle adjust``, ``castra odds``), since the mechanics assume they never see one.

        The generic check: strength from 0 to the unit's starting strength; hits, rings and
        DPs not negative. Rulesets extend it with the limits their tables set (call
        ``super()`` first)."""
        what = self.strength_unit
        if status.strength < 0:
            return f"strength cannot be negative ({status.strength} {what})"
        if status.strength > status.start_strength:
            return (
                f"strength {status.strength} is more than the unit's "
                f"{status.start_strength} {what} at the start"
            )
        for name in ("hits", "rings", "dps"):
            value = getattr(status, name)
            if value < 0:
                return f"{name} cannot be negative ({value})"
        return None

    def footprint(self, entry: ArmyEntry, size: int) -> tuple[float, float]:
        """Width and depth on the table of one unit of ``entry`` with ``size`` figures or
        bases, in the ruleset's unit of measure, from the troop type's basing: bases side by
        side in one line (a multi-line unit, a Leg VI legion, has as many lines as the entry
        gives); figures based singly stand in :meth:`figure_ranks`. Rulesets whose units
        are laid out otherwise (GSB: one unit width wide) override it."""
        rs = self.ruleset
        troop = rs.troop(entry.troop)
        b = troop.basing
        if rs.counts_figures:
            if b.per == "base" and b.figures_per_base:
                bases = math.ceil(size / b.figures_per_base)
                return (from_mm(rs, bases * b.frontage_mm), from_mm(rs, b.depth_mm))
            ranks = self.figure_ranks(entry.troop)
            files = math.ceil(size / ranks)
            return (from_mm(rs, files * b.frontage_mm), from_mm(rs, ranks * b.depth_mm))
        if entry.lines:
            front = max(line.bases for line in entry.lines)
            return (
                from_mm(rs, front * b.frontage_mm),
                from_mm(rs, len(entry.lines) * b.depth_mm),
            )
        return (from_mm(rs, size * b.frontage_mm), from_mm(rs, b.depth_mm))

    def figure_ranks(self, troop: str) -> int:
        """Ranks a unit of singly based figures of ``troop`` stands in on the map: two, a
        layout default (not a rules number) for rulesets that give none."""
        return 2

    #: the side-record key under which a battle keeps a club's own morale table, for a
    #: ruleset whose source leaves its morale results out (MWAN #90); None: the ruleset
    #: takes no such table (``app.house`` keeps the club's file)
    house_morale_key: ClassVar[str | None] = None

    @classmethod
    def house_morale_problem(cls, text: str) -> str | None:
        """What is wrong with a club's morale table (JSON: ``die`` and ``rows``) as this
        ruleset's morale check reads it, in one line; None when it reads well. Only for a
        ruleset with a :attr:`house_morale_key`."""
        raise NotImplementedError(f"{cls.engine or cls.__name__} takes no house morale table")

    def side_record(self, army: str, general: LeaderView | None) -> dict[str, Scalar]:
        """What this ruleset keeps in a side's record from the start of a battle, besides
        the ``army`` and ``side_name`` every battle records (D3: the commander's quality and
        supply problems for its chance cards); ``general`` is the side's general, if any."""
        return {}

    def start_battle(self, view: TurnView, dice: Dice) -> Resolution:
        """Once, when the battle is created (build chance-card decks, ...)."""
        return Resolution()

    # -- turn ---------------------------------------------------------------------------

    def phases(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.ruleset.turn.phases)

    def begin_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """When ``view.phase`` of ``view.turn`` begins (roll initiative, draw a card, ...)."""
        return Resolution()

    def end_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """When ``view.phase`` ends (rest, rally, elimination, clearing markers, ...)."""
        return Resolution()

    def side_in_play(self, view: TurnView) -> Side | None:
        """The side whose turn, activations or move it is in ``view``'s phase, or None
        when both play or the rules do not say (shown in the battle window's Turn panel)."""
        return None

    def move_allowance(self, unit: Combatant, view: TurnView | None = None) -> float | None:
        """The unit's move in the ruleset's unit of measure; None when dice decide it."""
        return None

    # -- actions ------------------------------------------------------------------------

    def declare(self) -> Sequence[Action[Any]]:
        """Every action this ruleset resolves, each declared once (:mod:`app.rules.actions`):
        its options, a ``prepare`` step without dice and a ``play`` function throwing the
        dice. :meth:`resolve` and :meth:`odds` both run that ``play``, so they agree."""
        return ()

    @cached_property
    def _declared(self) -> dict[str, Action[Any]]:
        out: dict[str, Action[Any]] = {}
        for a in self.declare():
            if a.key in self.contact_actions:
                rule = f"{self.ruleset.meta.short_name}, {a.label}"
                a = replace(a, prepare=_then_in_contact(a.prepare, rule))
            out[a.key] = a
        return out

    def declared(self, key: str) -> Action[Any]:
        """The declaration of action ``key``; :class:`NotImplementedRule` naming the known
        actions when this ruleset has no such action."""
        try:
            return self._declared[key]
        except KeyError:
            known = ", ".join(self._declared) or "none"
            raise NotImplementedRule(
                f"{self.ruleset.meta.short_name} has no action {key!r} (actions: {known})"
            ) from None

    def actions(self) -> Sequence[ActionSpec]:
        """Every action this ruleset resolves, as players see it."""
        return tuple(a.spec for a in self._declared.values())

    def derive_options(self, action: str, sit: Situation) -> dict[str, Scalar]:
        """Options the table itself decides, filled in before the player edits them: by
        default the attack's aspect from the units' positions (options named ``aspect``,
        ``flank``, ``rear`` or ``flank_or_rear``) and the base-edge distance (``distance``).
        Rulesets override this to read more from the state."""
        spec = self.action(action)
        keys = {o.key for o in spec.options}
        out: dict[str, Scalar] = {}
        if sit.actor is None or sit.target is None:
            return out
        a, t = sit.actor, sit.target
        side_of = aspect(t.footprint, a.x, a.y)
        if "aspect" in keys:
            out["aspect"] = side_of
        if "flank" in keys:
            out["flank"] = side_of == "flank"
        if "rear" in keys:
            out["rear"] = side_of == "rear"
        if "flank_or_rear" in keys:
            out["flank_or_rear"] = side_of != "front"
        if "distance" in keys:
            out["distance"] = round(edge_distance(a.footprint, t.footprint))
        return out

    def action(self, key: str) -> ActionSpec:
        for spec in self.actions():
            if spec.key == key:
                return spec
        known = ", ".join(a.key for a in self.actions()) or "none"
        raise NotImplementedRule(
            f"{self.ruleset.meta.short_name} has no action {key!r} (actions: {known})"
        )

    def may_act(self, action: str, sit: Situation) -> str | None:
        """Why ``action`` may not be taken now in the battle's sequence (whose turn, which
        unit acts, who is in command), in one line naming the rule, or None (GSB: only the
        unit activated fights or shoots; Leg VI: the side leading the phase acts first;
        Quincunx: no aggressive act out of command). Asked when the action is resolved, after
        its own ``prepare`` (which refuses what the rules never allow); not for its odds,
        which stay what a player weighs before choosing (the unit to activate next, ...).
        Default: None."""
        return None

    def _now(self, action: str, sit: Situation) -> Action[Any]:
        """The declaration of ``action``, its own refusals and then :meth:`may_act`'s
        raised (``ValueError``)."""
        declared = self.declared(action)
        why = self.may_act(action, sit)
        if why is not None:
            declared.prepare(sit)  # a rule the action never allows is said first
            raise ValueError(why)
        return declared

    def resolve(self, action: str, sit: Situation, dice: Dice) -> Resolution:
        """Resolve ``action`` with ``dice``: its declaration's ``play`` with real dice
        (refused, with the rule, when :meth:`may_act` says it may not be taken now)."""
        return self._now(action, sit).resolve(sit, dice)

    def odds(self, action: str, sit: Situation) -> Odds:
        """The exact distribution of ``Outcome`` for ``action`` (sums to 1): its
        declaration's ``play`` run with every throw, or its tested closed form. An action
        declared without odds (``odds=False``) has none: :class:`NotImplementedRule`."""
        declared = self.declared(action)
        if not declared.odds:
            raise NotImplementedRule(
                f"{self.ruleset.meta.short_name}: {declared.label} has no odds to count"
            )
        # Thousands of outcomes, each a few new objects that hold no cycle: the cyclic
        # collector's passes over them while they are made were a sixth of the time of the
        # largest odds. Off while they are made (reference counting still frees them), then
        # back as it was.
        with collector_paused():
            return normalise(declared.exact_odds(sit))

    # -- leaders at the start ------------------------------------------------------------

    def leader_post(
        self,
        leader: LeaderView,
        command: Sequence[Combatant],
        side: Sequence[Combatant],
    ) -> str | None:
        """The unit a leader stands with when a battle begins and his roster attaches him to
        none, or None when he starts detached (behind the centre of his command). ``command``
        holds the units of the command he leads (empty when he leads none), ``side`` all his
        side's units, both as deployed. Where the rules put him with a unit (GSB's general;
        D3's commander, on heavy foot or horse: ``leaders.attach_to``), or where Castra
        decides it because the rules leave it to the players (``leaders.start_attached``:
        Quincunx, errata "leaders-at-start"): the unit nearest the centre of his command (else
        of his side) among those he may be attached to."""
        rules = self.ruleset.leaders
        general = rules.general_attached and leader.rank == "general"
        if not (rules.start_attached or general or rules.attach_to):
            return None
        for group in (command, side):
            able = [u for u in group if self._may_carry(u, rules.attach_to)]
            if able:
                return central(able).unit_id
        return None

    def _may_carry(self, unit: Combatant, categories: Sequence[str]) -> bool:
        if not categories:
            return True
        troop = self.ruleset.troops.get(unit.troop)
        return troop is not None and troop.category.value in categories

    # -- decisions a side takes (issue 30) -------------------------------------------------

    def side_decisions(self, view: TurnView, side: Side) -> Sequence[SideDecision]:
        """The decisions the rules leave to ``side`` now that are not a unit's move or fight
        (:class:`~app.rules.decisions.SideDecision`: GSB's activation of a unit before it
        acts, MWAN #90's move order, ...), each with the choice Castra takes by default,
        documented where the ruleset implements this. Only decisions the side may take now
        are listed; each is an action of :meth:`declare` whose own checks still apply.
        Default: none (rules with no such decisions)."""
        return ()

    def loss_share(self, unit: Combatant, effects: Effects) -> float:
        """How much of ``unit``'s fighting worth ``effects`` take away, as a share of what it
        has now (1: all of it), for the advisor's measure of an action (issue 30). Default:
        the casualties as a share of its strength, and a tenth for each hit, disorder point
        or ring (rulesets where hits are the damage, D3's and GSB's, count them their
        way); a unit put out of the battle loses all of it."""
        if effects.eliminated:
            return 1.0
        strength = max(1, unit.status.strength)
        share = effects.casualties / strength + 0.1 * (effects.hits + effects.dps + effects.rings)
        return max(0.0, min(1.0, share))

    def leader_risk(self, unit: Combatant, effects: Effects, action: str) -> float:
        """The chance that the leader attached to ``unit`` is killed, wounded or captured
        when action ``action`` does ``effects`` to the unit, by the ruleset's risk to leaders
        (Quincunx's 2d6 when the unit loses casualties, GSB's death test when it is hit, Leg
        VI's die of death when it fights, D3's commander lost with his unit), for the
        advisor's measure (issue 30). Default: 0 (no leader with it, or the rules put none at
        risk)."""
        return 0.0

    def charge_reach(self, view: TurnView, unit_id: str) -> float:
        """How far the unit could charge from where it stands (base edge to base edge), for
        the advisor's reckoning of the enemy's threat to a unit (issue 30). Default: its
        allowance for a charge, else for a move (where dice decide: 0). Rulesets whose
        charges are declared within a distance of their own (Leg VI: 4") say so."""
        unit = view.unit(unit_id)
        for reason in ("charge", "move"):
            found = self.move_allowance_for(view, unit, reason)
            if found is not None:
                return found
        return 0.0

    def commanded(self, view: TurnView, unit_id: str) -> bool | None:
        """Whether the unit is in command (under control) where it stands, by the ruleset's
        command rules, or None where it has none (the advisor weighs a move that would take
        a unit out of command against it: issue 30). Default: None."""
        return None

    def unit_lost(self, unit: Combatant) -> bool:
        """Whether ``unit`` counts as lost to its side for a result: out of the battle, or
        carrying one of :attr:`lost_markers` (routed, berserk). Rulesets add their own
        (Quincunx: a unit disintegrated into stragglers)."""
        return unit.status.eliminated or bool(unit.status.markers & set(self.lost_markers))

    def units_lost(self, view: TurnView, side: Side) -> tuple[int, int]:
        """(units of ``side`` lost by :meth:`unit_lost`, units it began with)."""
        mine = view.side_units(side)
        return sum(1 for u in mine if self.unit_lost(u)), len(mine)

    def umpire_default(self) -> UmpireDefault | None:
        """The ruleset's documented default for the umpire's call on the result (its
        ``tables.toml``'s ``[umpire]``, errata ``umpire-default``), or None where its own
        victory rule decides. Default: None."""
        return None

    def umpire_result(self, view: TurnView) -> Victory | None:
        """The result the umpire would declare now by the ruleset's documented default
        (:meth:`umpire_default`), for a side Castra plays in a ruleset with no victory rule,
        or None to play on. Never asked of a battle the players run themselves: there the
        players declare the result."""
        rule = self.umpire_default()
        if rule is None:
            return None
        counts = [self.units_lost(view, s) for s in (0, 1)]
        return losses_result(
            rule,
            view,
            [c[0] for c in counts],
            [c[1] for c in counts],
            self.lost_words,
        )

    #: what a unit lost is, in words, for the umpire's result
    lost_words: ClassVar[str] = "destroyed or routed"

    # -- the end ------------------------------------------------------------------------

    def victory(self, view: TurnView) -> Victory | None:
        """The winner by the ruleset's victory rule, or None while the battle goes on."""
        return None

    # -- helpers for subclasses -----------------------------------------------------------

    def troop_name(self, troop: str) -> str:
        return self.ruleset.troop(troop).name

    def record_item_name(self, key: str, item: str) -> str:
        """A side record's item as a player reads it (``key`` the record's entry, ``item``
        one element of a list kept there: D3's chance cards by name, not by id). Default:
        the item with its underscores as spaces."""
        return item.replace("_", " ")


def _then_in_contact(prepare: Callable[[Situation], Any], rule: str) -> Callable[[Situation], Any]:
    """``prepare``, then the contact rule (:attr:`Mechanics.contact_actions`)."""

    def checked(sit: Situation) -> Any:
        plan = prepare(sit)
        if sit.actor is not None and sit.target is not None:
            apart = not_in_contact(rule, sit.actor, sit.target)
            if apart is not None:
                raise ValueError(apart)
        return plan

    return checked


def central(units: Sequence[Combatant]) -> Combatant:
    """The unit nearest the centre of ``units`` (the first such, in their order)."""
    cx = sum(u.x for u in units) / len(units)
    cy = sum(u.y for u in units) / len(units)
    return min(units, key=lambda u: math.hypot(u.x - cx, u.y - cy))


# --------------------------------------------------------------------------- finding them


def mechanics_for(ruleset: Ruleset) -> Mechanics:
    """The mechanics of ``ruleset``: its engine's class (:attr:`Engine.mechanics
    <app.rules.engine.Engine.mechanics>`, code of ``app.rulesets``, never of the ruleset's
    folder) reading the ruleset's own numbers."""
    return ruleset.engine.mechanics(ruleset)
