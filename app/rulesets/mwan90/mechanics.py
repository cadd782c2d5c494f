"""MWAN #90 Punic rules (untitled magazine article, 1997): battle mechanics.

A figure-counting game: one die per figure, hits by the target's class, formed units routing
at three figures (elephant units at one). ``Status.strength`` counts figures (elephants for an
elephant unit); ``Status.formation`` is ``formed``, ``skirmish`` (unformed), or for barbarians
``shield_wall`` or ``wedge``. Markers: ``disordered``, ``routed``, ``moved`` (a shield wall
that moved this turn is no longer heavy).

Every number comes from ``tables.toml`` (:mod:`app.rulesets.mwan90.schema`). The article breaks
off in its morale section: the ``morale_check`` action raises :class:`NotImplementedRule`
saying so, unless a user has supplied the rows in a house-rules copy (``complete = true``).

Side records: ``lost_initiative`` (for the tie rule) and ``initiative_roll``; the turn in
which the initiative winner chose to move second (``moves_second``) and the turn in which
the first side's move ended (``first_move_over``), the order of moves. During the
missile phase each unit's ``extra["missile_figures"]`` holds its figures at the start of the
phase, so that missiles are simultaneous: a unit shoots with the figures it began with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from app.rules.actions import Action, Throws, Total
from app.rules.mechanics import NotImplementedRule, Outcome, Resolution, Situation
from app.rulesets.mwan90.combat import CombatRules
from app.rulesets.mwan90.decisions import MWANDecisions
from app.rulesets.mwan90.movement import MWANMovement
from app.rulesets.mwan90.rules import (
    DISPERSE_OPTIONS,
    JAVELIN_OPTIONS,
    SHOOT_OPTIONS,
    UNFORMED,
    melee_options,
    morale_help,
    morale_missing,
    morale_options,
    morale_outcome,
    morale_rows,
    row_for,
)
from app.rulesets.mwan90.schema import MoraleRow
from app.rulesets.mwan90.turn import ORDER_OPTIONS, TurnRules


@dataclass(frozen=True)
class MoralePlan:
    """A morale check before its die: exempt (unformed), or the user's rows for the unit's
    situation and the die modifier (routing elephants)."""

    exempt: bool
    unit_in: str = ""
    modifier: int = 0
    rows: tuple[MoraleRow, ...] = ()


class MWAN90Mechanics(MWANDecisions, MWANMovement, TurnRules, CombatRules):
    """MWAN #90: initiative with its tie rule, simultaneous missiles, pre-melee javelins,
    melee by figures in contact with flank tripling, rout at 3 figures, bonus move,
    barbarian shield wall and wedge, dispersal of skirmishers, and the truncated morale
    table."""

    engine: ClassVar[str] = "mwan90"
    sequence_rule = "MWAN #90, Turn sequence"
    strength_unit: ClassVar[str] = "figures"

    # -- actions --------------------------------------------------------------------------

    def declare(self) -> tuple[Action[Any], ...]:
        """Shoot, pre-melee javelins, melee, dispersal of skirmishers, the move order and the
        end of the first side's move, and the morale check,
        each declared once: its plan of dice (no dice thrown) and the play that throws
        them."""
        t = self.t
        return (
            Action(
                "shoot",
                "Shoot",
                "pair",
                play=self.play_hits,
                prepare=self.shoot_plan,
                options=SHOOT_OPTIONS,
                help='A die per figure, 6s hit; bows and slings 15", javelins 9".',
            ),
            Action(
                "javelins",
                "Pre-melee javelins",
                "pair",
                play=self.play_hits,
                prepare=self.javelin_plan,
                options=JAVELIN_OPTIONS,
                closed_form=self.hits_odds,
                help="Javelin-armed formed infantry, front rank only, before the first melee "
                "round.",
            ),
            Action(
                "melee",
                "Melee",
                "pair",
                play=self.play_hits,
                prepare=self.melee_plan,
                options=melee_options(t),
                closed_form=self.hits_odds,
                help="Both sides roll at once, a die per figure in contact.",
            ),
            Action(
                "disperse",
                "Move through skirmishers",
                "pair",
                play=self.play_hits,
                prepare=self.disperse_plan,
                options=DISPERSE_OPTIONS,
                help="Formed troops scatter skirmishers; each gets one shot as he is removed.",
            ),
            Action(
                "move_order",
                "Move order",
                "side",
                play=self.play_order,
                prepare=self.prepare_order,
                options=ORDER_OPTIONS,
                odds=False,
                help="The initiative winner chooses to move first or second.",
            ),
            Action(
                "end_move",
                "End of the first side's move",
                "side",
                play=self.play_end_move,
                prepare=self.prepare_end_move,
                odds=False,
                help="The side moving first has finished; the other side moves now.",
            ),
            Action(
                "morale_check",
                "Morale check",
                "unit",
                play=self._play_morale,
                prepare=self._morale_plan,
                options=morale_options(t),
                odds=t.morale.complete,
                help=morale_help(t),
            ),
        )

    # -- morale ---------------------------------------------------------------------------

    def morale_missing(self) -> str:
        """What to tell a player who asks for a morale check the data cannot give."""
        return morale_missing(self.ruleset)

    def _exempt(self, sit: Situation) -> bool:
        """MWAN #90, Morale 1: unformed units do not check morale."""
        return not self.t.morale.unformed_check and not self.formed(sit.attacker)

    def _morale_plan(self, sit: Situation) -> MoralePlan:
        """The rows the check reads: refused (never invented) while the source's table is
        missing and the user has not supplied one."""
        if self._exempt(sit):
            return MoralePlan(exempt=True)
        if not self.t.morale.complete or not self.t.morale.rows:
            raise NotImplementedRule(self.morale_missing())
        unit_in, mod, rows = morale_rows(
            self.t, sit.choice("unit_in", ""), sit.flag("routing_elephants")
        )
        return MoralePlan(exempt=False, unit_in=unit_in, modifier=mod, rows=rows)

    def _play_morale(self, sit: Situation, plan: MoralePlan, th: Throws) -> Resolution:
        """MWAN #90, Morale 3: a friendly formed unit near a rout path (or a disordered unit
        attacked in melee) checks morale, -3 on the die if the routers are elephants. The
        results table is lost from the source: only a user's own rows are used."""
        unit = sit.attacker
        if plan.exempt:
            return Resolution(
                outcome=Outcome(result=UNFORMED),
                explanation=(f"{unit.name} is unformed and does not check morale",),
            )
        die = self.t.morale.die or ""
        rolled, faces = th.throw(Total(die, f"morale check for {unit.name} ({plan.unit_in})"))
        score = rolled + plan.modifier
        row = row_for(plan.rows, score)
        assert row is not None  # morale_rows checked every score
        text = f"{unit.name} checks morale ({plan.unit_in}): rolled {faces}"
        if plan.modifier:
            text += f" {plan.modifier:+d} for routing elephants"
        return Resolution(
            outcome=morale_outcome(self.t, unit, row),
            explanation=(f"{text} = {score}: {row.result} (your table)",),
        )
