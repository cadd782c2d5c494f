"""MWAN #90 Punic rules (untitled magazine article, 1997): battle mechanics.

A figure-counting game: one die per figure, hits by the target's class, formed units routing
at three figures (elephant units at one). ``Status.strength`` counts figures (elephants for an
elephant unit); ``Status.formation`` is ``formed``, ``skirmish`` (unformed), or for barbarians
``shield_wall`` or ``wedge``. Markers: ``disordered``, ``routed``, ``moved`` (a shield wall
that moved this turn is no longer heavy).

Every number comes from ``tables.toml`` (:mod:`app.rulesets.mwan90.schema`). The article breaks
off in its morale section: the ``morale_check`` action raises :class:`NotImplementedRule`
saying so, unless a user has supplied the rows in a house-rules copy (``complete = true``).

Side records: ``lost_initiative`` (for the tie rule) and ``initiative_roll``. During the
missile phase each unit's ``extra["missile_figures"]`` holds its figures at the start of the
phase, so that missiles are simultaneous: a unit shoots with the figures it began with.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import ClassVar

from app.rules.dice import capped_binomial, dist_of, parse_dice
from app.rules.mechanics import (
    ActionSpec,
    Dice,
    NotImplementedRule,
    Odds,
    Outcome,
    Resolution,
    Situation,
    add_odds,
    normalise,
)
from app.rulesets.mwan90.combat import CombatRules
from app.rulesets.mwan90.rules import (
    UNFORMED,
    action_specs,
    morale_missing,
    morale_outcome,
    morale_rows,
    row_for,
)
from app.rulesets.mwan90.schema import MoraleRow
from app.rulesets.mwan90.turn import TurnRules


class MWAN90Mechanics(TurnRules, CombatRules):
    """MWAN #90: initiative with its tie rule, simultaneous missiles, pre-melee javelins,
    melee by figures in contact with flank tripling, rout at 3 figures, bonus move,
    barbarian shield wall and wedge, dispersal of skirmishers, and the truncated morale
    table."""

    engine: ClassVar[str] = "mwan90"
    strength_unit: ClassVar[str] = "figures"

    # -- actions --------------------------------------------------------------------------

    def actions(self) -> Sequence[ActionSpec]:
        """Shoot, pre-melee javelins, melee, dispersal of skirmishers and the morale check."""
        return action_specs(self.t)

    def resolve(self, action: str, sit: Situation, dice: Dice) -> Resolution:
        self.action(action)
        if action == "morale_check":
            return self._morale(sit, dice)
        plan = self.plan(action, sit)
        return self._roll(plan, sit, dice)

    def odds(self, action: str, sit: Situation) -> Odds:
        self.action(action)
        if action == "morale_check":
            return self._morale_odds(sit)
        plan = self.plan(action, sit)
        on_def = capped_binomial(plan.dice_a, plan.p_a, plan.cap_d)
        on_att = capped_binomial(plan.dice_d, plan.p_d, plan.cap_a)
        eff_d = {h: self.defender_effects(plan, sit, h) for h in on_def}
        eff_a = {h: self.losses(sit.attacker, plan.form_a, h) for h in on_att}
        odds: Odds = {}
        for on_d, pd in on_def.items():
            for on_a, pa in on_att.items():
                add_odds(odds, self.outcome_of(plan, eff_a[on_a], eff_d[on_d]), pd * pa)
        return normalise(odds)

    # -- morale ---------------------------------------------------------------------------

    def morale_missing(self) -> str:
        """What to tell a player who asks for a morale check the data cannot give."""
        return morale_missing(self.ruleset)

    def _morale_rows(self, sit: Situation) -> tuple[str, int, tuple[MoraleRow, ...]]:
        if not self.t.morale.complete or not self.t.morale.rows:
            raise NotImplementedRule(self.morale_missing())
        return morale_rows(self.t, sit.choice("unit_in", ""), sit.flag("routing_elephants"))

    def _exempt(self, sit: Situation) -> bool:
        """MWAN #90, Morale 1: unformed units do not check morale."""
        return not self.t.morale.unformed_check and not self.formed(sit.attacker)

    def _morale(self, sit: Situation, dice: Dice) -> Resolution:
        """MWAN #90, Morale 3: a friendly formed unit near a rout path (or a disordered unit
        attacked in melee) checks morale, -3 on the die if the routers are elephants. The
        results table is lost from the source: only a user's own rows are used."""
        unit = sit.attacker
        if self._exempt(sit):
            return Resolution(
                outcome=Outcome(result=UNFORMED),
                explanation=(f"{unit.name} is unformed and does not check morale",),
            )
        unit_in, mod, rows = self._morale_rows(sit)
        die = self.t.morale.die or ""
        faces = dice.roll(die, f"morale check for {unit.name} ({unit_in})")
        score = sum(faces) + parse_dice(die).modifier + mod
        row = row_for(rows, score)
        assert row is not None  # _morale_rows checked every score
        outcome = morale_outcome(self.t, unit, row)
        text = f"{unit.name} checks morale ({unit_in}): rolled {' '.join(map(str, faces))}"
        if mod:
            text += f" {mod:+d} for routing elephants"
        return Resolution(
            outcome=outcome,
            explanation=(f"{text} = {score}: {row.result} (your table)",),
        )

    def _morale_odds(self, sit: Situation) -> Odds:
        if self._exempt(sit):
            return {Outcome(result=UNFORMED): Fraction(1)}
        _, mod, rows = self._morale_rows(sit)
        odds: Odds = {}
        for score, p in dist_of(self.t.morale.die or "").items():
            row = row_for(rows, score + mod)
            assert row is not None
            add_odds(odds, morale_outcome(self.t, sit.attacker, row), p)
        return normalise(odds)
