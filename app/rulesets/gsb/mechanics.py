"""Grown Slightly Bald (five minute Punic War rules, blog post): battle mechanics.

A base-counting game. ``Status.strength`` counts bases; ``Status.hits`` the hits on the
current base. The active player activates units one at a time (two free, then a rising d10
read 0-9); in melee only the active unit rolls, so there is no return fire. Every number comes
from ``tables.toml`` (:mod:`app.rulesets.gsb.schema`). Each action is declared once
(:meth:`GSBMechanics.declare`): activation in :mod:`app.rulesets.gsb.turn`, melee and shooting
in :mod:`app.rulesets.gsb.combat`, their compound throws in :mod:`app.rulesets.gsb.throws`.

Side records (``TurnView.sides``): ``stars`` (victory stars won), ``units_at_start``,
``activations`` (successful activations this turn) and ``passed`` (a failed activation roll
handed play over). Unit markers: ``activated`` (acted this turn), ``general_moved`` (the
general joined this unit this turn, so gives no bonus), ``disengaged`` (left a melee this
turn) and ``shot`` (shot in its activation; ``shot_after_moving`` in its ``extra`` when it had
moved first); all are cleared when a turn begins, ``shot`` also when the unit is activated.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar, Protocol

from app.rules.actions import Action, Throws
from app.rules.mechanics import Outcome, Resolution, Side, Situation, TurnView, Victory
from app.rules.table import TerrainKind
from app.rulesets.gsb.base import BOTH, other_side
from app.rulesets.gsb.combat import Attack
from app.rulesets.gsb.decisions import GSBDecisions
from app.rulesets.gsb.deployment import GSBDeployment
from app.rulesets.gsb.rules import (
    MELEE_HELP,
    activate_help,
    activate_options,
    melee_options,
    shoot_help,
    shoot_options,
)
from app.rulesets.gsb.turn import Ladder


class GSBNeeds(Protocol):
    """What :class:`GSBMechanics` declares as actions of the chapters its bases bring: the
    activation roll (:class:`~app.rulesets.gsb.turn.GSBTurn`) and the attacks
    (:class:`~app.rulesets.gsb.combat.GSBCombat`)."""

    def prepare_activation(self, sit: Situation) -> Ladder: ...

    def play_activation(self, sit: Situation, plan: Ladder, th: Throws) -> Resolution: ...

    def prepare_melee(self, sit: Situation) -> Attack: ...

    def prepare_shoot(self, sit: Situation) -> Attack: ...

    def play_attack(self, sit: Situation, plan: Attack, th: Throws) -> Resolution: ...

    def attack_odds(self, sit: Situation, plan: Attack) -> dict[Outcome, Fraction]: ...


class GSBMechanics(GSBDecisions, GSBDeployment, GSBNeeds):
    """Grown Slightly Bald: initiative, activation ladder, shooting, melee with elephant
    terror and rampage, base loss with morale, the general's death test, victory stars."""

    engine: ClassVar[str] = "gsb"
    #: the source's words for the kinds of terrain it names
    terrain_terms: ClassVar[Mapping[TerrainKind, str]] = {"hill": "hills", "woods": "woods"}
    sequence_rule = "GSB, Turn order"
    strength_unit: ClassVar[str] = "bases"

    def declare(self) -> tuple[Action[Any], ...]:
        """Activate (a side), shoot and melee (a pair), with their options from the tables,
        and Carthage's swap of two units as the armies are revealed.
        Melee and shooting share one ``play``; their odds come from its structure (tested
        equal to exploring it)."""
        t = self.t
        return (
            Action(
                "activate",
                "Activate a unit",
                "side",
                play=self.play_activation,
                prepare=self.prepare_activation,
                options=activate_options(t),
                help=activate_help(t),
            ),
            Action(
                "shoot",
                "Shoot",
                "pair",
                play=self.play_attack,
                prepare=self.prepare_shoot,
                options=shoot_options(t),
                help=shoot_help(t),
                closed_form=self.attack_odds,
            ),
            Action(
                "melee",
                "Melee",
                "pair",
                play=self.play_attack,
                prepare=self.prepare_melee,
                options=melee_options(t),
                help=MELEE_HELP,
                closed_form=self.attack_odds,
            ),
            Action(
                "swap",
                "Swap two units (deployment)",
                "pair",
                play=self.play_swap,
                prepare=self.prepare_swap,
                odds=False,
                help=(
                    "As the armies are revealed, Carthage may have two of its units change "
                    "places, once."
                ),
            ),
        )

    # -- the end --------------------------------------------------------------------------

    def victory(self, view: TurnView) -> Victory | None:
        """GSB, Victory: stars equal to half the enemy's units at the start (rounded up)
        win. If both sides reach it at once, more stars win; equal stars are a draw."""
        reached: list[tuple[Side, int, int]] = []
        for side in BOTH:
            need = self._stars_needed(view, side)
            stars = int(view.sides[side].get("stars", 0))
            if need and stars >= need:
                reached.append((side, stars, need))
        if not reached:
            return None
        if len(reached) == 2 and reached[0][1] == reached[1][1]:
            return Victory(
                None, f"both sides reached their victory stars ({reached[0][1]}): a draw"
            )
        side, stars, need = max(reached, key=lambda x: x[1])
        enemy = view.side_names[other_side(side)]
        return Victory(
            side,
            f"{view.side_names[side]} has {stars} victory stars, at least half of "
            f"{enemy}'s units ({need} needed)",
        )
