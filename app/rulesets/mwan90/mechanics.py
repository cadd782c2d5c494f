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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from app.rules.actions import Action, Throws, Total
from app.rules.mechanics import (
    LeaderView,
    NotImplementedRule,
    Outcome,
    Resolution,
    Scalar,
    Situation,
)
from app.rules.table import TerrainKind
from app.rulesets.mwan90.combat import MWANCombat
from app.rulesets.mwan90.decisions import MWANDecisions
from app.rulesets.mwan90.movement import MWANMovement
from app.rulesets.mwan90.rules import (
    CALLS,
    DISPERSE_OPTIONS,
    HOUSE_MORALE,
    JAVELIN_OPTIONS,
    SHOOT_OPTIONS,
    UNFORMED,
    house_morale,
    house_morale_problem,
    melee_options,
    morale_effects,
    morale_help,
    morale_missing,
    morale_options,
    morale_outcome,
    morale_rows,
    row_for,
)
from app.rulesets.mwan90.schema import MoraleRow
from app.rulesets.mwan90.turn import ORDER_OPTIONS, MWANTurn


@dataclass(frozen=True)
class MoralePlan:
    """A morale check before its die: exempt (unformed), the players' call (``called``), or
    the rows of a table for the unit's situation (the ruleset's, or the club's the battle
    keeps: ``club``), their die and the die modifier (routing elephants)."""

    exempt: bool
    unit_in: str = ""
    modifier: int = 0
    rows: tuple[MoraleRow, ...] = ()
    called: str = ""
    die: str = ""
    club: bool = False


class MWAN90Mechanics(MWANDecisions, MWANMovement, MWANTurn, MWANCombat):
    """MWAN #90: initiative with its tie rule, simultaneous missiles, pre-melee javelins,
    melee by figures in contact with flank tripling, rout at 3 figures, bonus move,
    barbarian shield wall and wedge, dispersal of skirmishers, and the truncated morale
    table."""

    engine: ClassVar[str] = "mwan90"
    #: MWAN #90's text is cut short before any terrain rule, so it names no terrain
    terrain_terms: ClassVar[Mapping[TerrainKind, str]] = {}
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

    def club_morale(self, sit: Situation) -> tuple[str, tuple[MoraleRow, ...]] | None:
        """The club's own morale table the battle keeps (its side's record), or None."""
        if sit.view is None:
            return None
        text = sit.view.sides[sit.attacker.side].get(HOUSE_MORALE)
        return None if not isinstance(text, str) or not text else house_morale(text)

    def _morale_plan(self, sit: Situation) -> MoralePlan:
        """What the check reads. The source's table is lost (errata morale-table-truncated):
        the players' call when they give one (the ``result`` option); else the rows of a
        table: the ruleset's own when a house-rules copy fills them, else the club's own the
        battle keeps (``castra morale-table``); with neither, refused (never invented),
        saying how to settle it."""
        if self._exempt(sit):
            return MoralePlan(exempt=True)
        m = self.t.morale
        called = sit.choice("result", CALLS[0]) if not m.complete else CALLS[0]
        if called != CALLS[0]:
            return MoralePlan(exempt=False, called=called)
        routing = sit.flag("routing_elephants")
        if m.complete and m.rows:
            unit_in, mod, rows = morale_rows(self.t, sit.choice("unit_in", ""), routing)
            return MoralePlan(False, unit_in, mod, rows, die=m.die or "")
        club = self.club_morale(sit)
        if club is None:
            raise NotImplementedRule(
                self.morale_missing()
                + " Or give the players' result (the check's result option: passes, "
                "disordered, falls back, routs)."
            )
        situations = list(dict.fromkeys(r.unit_in for r in club[1]))
        n = sit.number("situation", 1)
        if not 1 <= n <= len(situations):
            raise ValueError(
                f"the club's morale table has {len(situations)} situation(s) "
                f"({'; '.join(situations)}), not a number {n}"
            )
        unit_in, mod, rows = morale_rows(self.t, situations[n - 1], routing, club)
        return MoralePlan(False, unit_in, mod, rows, die=club[0], club=True)

    def _play_morale(self, sit: Situation, plan: MoralePlan, th: Throws) -> Resolution:
        """MWAN #90, Morale 3: a friendly formed unit near a rout path (or a disordered unit
        attacked in melee) checks morale, -3 on the die if the routers are elephants. The
        results table is lost from the source: the players' call, or a user's own rows."""
        unit = sit.attacker
        if plan.exempt:
            return Resolution(
                outcome=Outcome(result=UNFORMED),
                explanation=(f"{unit.name} is unformed and does not check morale",),
            )
        if plan.called:
            eff = morale_effects(self.t, unit, plan.called)
            return Resolution(
                outcome=Outcome(attacker=eff, result=f"{plan.called}: the players' call"),
                explanation=(
                    f"{unit.name} checks morale: {plan.called} (the players' call; the "
                    "article's table is lost)",
                ),
            )
        rolled, faces = th.throw(Total(plan.die, f"morale check for {unit.name} ({plan.unit_in})"))
        score = rolled + plan.modifier
        row = row_for(plan.rows, score)
        assert row is not None  # morale_rows checked every score
        text = f"{unit.name} checks morale ({plan.unit_in}): rolled {faces}"
        if plan.modifier:
            text += f" {plan.modifier:+d} for routing elephants"
        whose = "your club's table" if plan.club else "your table"
        return Resolution(
            outcome=morale_outcome(self.t, unit, row),
            explanation=(f"{text} = {score}: {row.result} ({whose})",),
        )

    #: MWAN #90's morale results break off in the source: a club's own table is kept here
    house_morale_key: ClassVar[str | None] = HOUSE_MORALE

    @classmethod
    def house_morale_problem(cls, text: str) -> str | None:
        """The club's table read and checked as :meth:`morale_check` reads it."""
        try:
            die, rows = house_morale(text)
        except ValueError as exc:
            return str(exc).splitlines()[0]
        return house_morale_problem(die, rows)

    def side_record(self, army: str, general: LeaderView | None) -> dict[str, Scalar]:
        """Nothing of its own; a club's morale table is added by the caller from the user
        data folder (``app.house``), since the mechanics read no files."""
        return {}
