"""Leg VI Carthago mechanics: the risk to leaders (Risk to Leader): the die of death's
consequences and an unattached leader's capture.
"""

from __future__ import annotations

from app.rules.actions import Throws
from app.rules.mechanics import (
    Combatant,
    LeaderEvent,
    Resolution,
    Scalar,
    Situation,
    TurnView,
)
from app.rulesets.leg_vi.base import LegVIBase, Pending, plural
from app.rulesets.leg_vi.fates import LeaderFate, leader_morale_dps
from app.rulesets.leg_vi.units import IllegalAction


class LegVILeaders(LegVIBase):
    """Leg VI, Risk to Leader: wounds, death and the second in command, capture."""

    def _leader_captured(self, sit: Situation, plan: None, th: Throws) -> Resolution:
        """Leg VI, Risk to Leader: an unattached leader contacted by any enemy troops is
        captured (pass a stand-in combatant carrying him). Units within 4" take the morale
        DPs of a lost leader."""
        c, leader = sit.attacker, sit.attacker.leader
        if leader is None:
            raise IllegalAction("no leader given")
        pending: dict[str, Pending] = {}
        words = [f"{leader.name} is captured."]
        self._morale_others(
            sit.view, c, leader_morale_dps(self.t, leader), f"{leader.name} lost", pending, words
        )
        return Resolution(
            others=self._finish(sit.view, pending),
            leader_events=(LeaderEvent(leader.id, "captured", leader.wounds, words[0]),),
            explanation=tuple(words),
        )

    # ------------------------------------------------------------------ leaders at risk

    def _leader_fallout(
        self,
        view: TurnView | None,
        c: Combatant,
        fate: LeaderFate,
        pending: dict[str, Pending],
        words: list[str],
        events: list[LeaderEvent],
        sides: list[dict[str, Scalar] | None],
    ) -> None:
        """Leg VI, Risk to Leader: a wound costs an action (a second one kills); a killed
        leader's second in command takes over next turn with 1 action, and units within 4"
        take 1 morale DP (2 for the General; his own unit's DPs are in its effects)."""
        leader = c.leader
        if leader is None or fate == "ok":
            return
        if fate == "wounded":
            events.append(
                LeaderEvent(leader.id, "wounded", leader.wounds + 1, f"{leader.name} wounded")
            )
            return
        dd = self.t.die_of_death
        text = f"{leader.name} killed"
        if view is not None:
            due = view.turn + dd.successor_delay_turns
            rec = sides[c.side] or {}
            rec[f"successor:{leader.id}"] = due
            sides[c.side] = rec
            text += f"; his second in command takes over in turn {due} with " + plural(
                dd.successor_actions, "action"
            )
        events.append(LeaderEvent(leader.id, "killed", leader.wounds, text))
        words.append(text + ".")
        n = leader_morale_dps(self.t, leader)
        self._morale_others(view, c, n, f"{leader.name} killed", pending, words)
