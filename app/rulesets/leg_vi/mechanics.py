"""Leg VI Carthago battle mechanics (engine ``leg-vi``).

Strength is counted in bases; wear in DPs (``Status.dps``); a legion records its number of
lines in ``Status.extra["lines"]`` and stands in ``"quincunx"``. Markers (``shaken``,
``routing``, ``control_halt``, ``rampage``, ...) are named in
:mod:`app.rulesets.leg_vi.units`; every number comes from ``tables.toml``.

The class is assembled from one mixin per chapter of the rules, each named after the
engine: ``turn`` (set-up and the phases), ``command`` (leader actions, control tests),
``control`` (who is under control, who acts first), ``movement`` (dice moves, fatigue,
redress, rally, manoeuvres, after-combat moves), ``manoeuvre`` and ``on_table`` (moves on the
table), ``shooting``, ``charges``, ``combat``, ``leaders`` (risk to leaders), ``elephants``
(rampage) and ``decisions`` (a side's decisions), over ``base`` (shared helpers and morale
DPs); ``actions`` declares every action once, with its options. Each chapter names the
chapters it uses (docs/reference/code-layout.md, "The chapters of an engine").

What the core must know (the contract leaves these to the ruleset):

* A unit that moves should get the ``moved`` marker (``dice_move`` and ``charge`` add it
  themselves); the rally check also compares the unit's position with the one recorded in
  ``extra["turn_start"]`` when the command phase began.
* Leader actions (``leader_move``, ``steady``, ``inspire``) read the leader from
  ``actor.leader``; for a detached leader moving alone the core may pass a stand-in
  combatant carrying him (only ``.leader`` and ``.side`` are read). Actions used this turn are
  kept in the side record as ``actions_used:<leader id>`` and ``leader_did:<leader id>``.
* ``LeaderView.actions`` is read as the leader's actions per turn before wounds (0: 2 for the
  General, 1 for a Commander, +1 if ``exceptional``); a side record
  ``leader_actions:<leader id>`` overrides it (the second in command's 1 action).
* A killed leader: a ``LeaderEvent("killed")`` now, and ``successor:<leader id>`` = the turn
  his second in command takes over in the side record. When that turn's command phase
  begins, ``begin_phase`` returns ``LeaderEvent(<leader id>, "fit", 0, ...)`` and sets
  ``leader_actions:<leader id>`` to 1: the core should then bring the leader back (as the
  successor, no wounds, attached where the player puts him).
* ``Situation.others`` of ``melee`` are the engaged units' supports (same side as the actor
  or the target); of ``rampage`` the units the elephant bursts through.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from app.rules.actions import Action
from app.rules.mechanics import (
    Combatant,
    Scalar,
    Situation,
    TurnView,
    Victory,
)
from app.rules.table import TerrainKind
from app.rulesets.leg_vi.actions import declare_actions
from app.rulesets.leg_vi.charges import LegVICharges
from app.rulesets.leg_vi.combat import LegVICombat
from app.rulesets.leg_vi.combat_rules import legion_lines, second_line_bases
from app.rulesets.leg_vi.command import LegVICommand
from app.rulesets.leg_vi.decisions import LegVIDecisions
from app.rulesets.leg_vi.elephants import LegVIElephants
from app.rulesets.leg_vi.frontage import contact_on, engaged_in_line
from app.rulesets.leg_vi.manoeuvre import LegVIManoeuvres
from app.rulesets.leg_vi.shooting import LegVIShooting
from app.rulesets.leg_vi.turn import LegVITurn
from app.rulesets.leg_vi.units import CHARGING, PURSUING


class LegVIMechanics(
    LegVIDecisions,
    LegVIManoeuvres,
    LegVITurn,
    LegVIElephants,
    LegVICommand,
    LegVIShooting,
    LegVICharges,
    LegVICombat,
):
    """Leg VI Carthago: DPs and shaken, initiative, leader actions, control tests, march and
    dice moves with fatigue, shooting, charges and evades, combat with result bands,
    elephant critical hits and rampage, redress and rally, the die of death."""

    engine: ClassVar[str] = "leg-vi"
    #: the source's words for the kinds of terrain it names, and (read in its errata
    #: 'terrain-kinds') those it does not
    terrain_terms: ClassVar[Mapping[TerrainKind, str]] = {
        "woods": "woods (rough terrain)",
        "town": "built-up areas (rough terrain)",
        "marsh": "boggy ground (rough terrain)",
        "broken": "rough terrain",
        "hill": "higher ground",
        "stream": "a minor obstacle",
        # not named by the source: read in its errata 'terrain-kinds'
        "river": "an obstacle to cross (rough terrain)",
        "ford": "a minor obstacle",
        "road": "open ground",
        "lake": "impassable",
    }
    #: Leg VI knows obstacles to cross, not rivers: its ready-made tables and historical
    #: fields have a stream for a river and rough terrain for a ford
    terrain_in_place_of: ClassVar[Mapping[TerrainKind, TerrainKind]] = {
        "river": "stream",
        "ford": "broken",
    }
    sequence_rule = "Leg VI, Playing the Game"
    #: Leg VI, Control: units in a line that touches a controlled unit are under control, so
    #: a new battle stands each row's units side by side, touching (with the app's small
    #: gaps most of a Leg VI army started out of control)
    deploy_touching = True
    strength_unit: ClassVar[str] = "bases"

    def declare(self) -> Sequence[Action[Any]]:
        """Every Leg VI action, declared once (:mod:`app.rulesets.leg_vi.actions`)."""
        return declare_actions(self)

    def derive_options(self, action: str, sit: Situation) -> dict[str, Scalar]:
        """The base's reading of the table (the target's ``aspect``, the ``distance``); for a
        shot, whether the target stands in cover (woods, built-up areas: errata
        'sight-and-cover'); and for a combat who charged this turn, from the ``charging``
        markers the charge action leaves (none: a combat going on from an earlier turn), and
        who pursued into contact, from the ``pursuing`` markers of a combat result."""
        out = super().derive_options(action, sit)
        if action == "shoot" and sit.view is not None and sit.target is not None:
            target = sit.target
            out["cover"] = target.width > 0 and any(
                piece.overlaps(target.footprint) and self.terrain_effect(target, piece.kind).cover
                for piece in sit.view.table.terrain
            )
        if action == "melee" and sit.actor is not None and sit.target is not None:
            for key, me, enemy in (
                ("a_bases", sit.actor, sit.target),
                ("d_bases", sit.target, sit.actor),
            ):
                bases = self.engaged_on_table(me, enemy)
                if bases:
                    out[key] = bases
            a, d = sit.actor.status.has(CHARGING), sit.target.status.has(CHARGING)
            out["charge"] = "both" if a and d else "attacker" if a else "defender" if d else "none"
            a, d = sit.actor.status.has(PURSUING), sit.target.status.has(PURSUING)
            out["pursued"] = "attacker" if a else "defender" if d else "none"
        return out

    def engaged_on_table(self, unit: Combatant, enemy: Combatant) -> int:
        """Leg VI, Engaged bases, read from the table where a formed line or a legion in
        quincunx touches its enemy with its front (or a line its rear): the bases in direct
        contact plus one overlapping on each side, and a legion's half second line; a line
        touched on a flank, its end base. 0 (counted from the formation) for units without
        positions or not touching, unformed troops, elephants and columns, and a legion
        touched elsewhere than its front (it has no flank or rear: its maniples turn)."""
        if not (unit.footprint.has_size and enemy.footprint.has_size):
            return 0
        u = self.u(unit)
        if u.unformed or u.elephant or u.column or not (u.quincunx or u.formed):
            return 0
        contact = contact_on(unit.footprint, enemy.footprint)
        if contact is None:
            return 0
        if contact.edge in ("left", "right"):
            return 0 if u.quincunx else 1
        if contact.edge == "rear" and u.quincunx:
            return 0
        slots, base = self.spaced_width(unit)
        if u.quincunx:
            front = legion_lines(self.t, u)[0]
            return engaged_in_line(unit.width, slots, front, base, contact) + second_line_bases(
                self.t, u
            )
        return engaged_in_line(unit.width, slots, unit.status.strength, base, contact)

    def victory(self, view: TurnView) -> Victory | None:
        """Leg VI has no victory rule: the players declare the result."""
        return None
