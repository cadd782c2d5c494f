"""Leg VI Carthago mechanics: rampaging elephants (Elephant critical hits, Attempt to stop
Rampage).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import cast

from app.rules.actions import Joint, Throw, Throws, Total
from app.rules.mechanics import (
    Combatant,
    Effects,
    Outcome,
    Resolution,
    Situation,
    UnitChange,
)
from app.rulesets.leg_vi.base import LegVIBase, inches
from app.rulesets.leg_vi.fates import ElephantFate, elephant_effects
from app.rulesets.leg_vi.units import (
    MOVED,
    OPEN_RANKS,
    RAMPAGE,
    RAMPAGE_DIRECTION,
    RAMPAGE_TESTED,
    STOP_ATTEMPTS,
    IllegalAction,
    dp_words,
    scalar_int,
    take_dps,
)


def combat_effects_elephant(fate: ElephantFate) -> Effects:
    eff = elephant_effects(fate)
    if fate == "rampage":
        return Effects(
            markers_add=eff.markers_add,
            extra=eff.extra,
            move="Rampage: turn to face the cause, then roll its direction (rampage action)",
        )
    return eff


def total(*values: int) -> int:
    """The rampage move: the inches of every die added up."""
    return sum(values)


class LegVIElephants(LegVIBase):
    """Leg VI, Elephants: the rampage move and the mahout's attempts to stop it."""

    # ------------------------------------------------------------------ rampage

    def _rampage_prepare(self, sit: Situation) -> int | None:
        """The direction a failed attempt to stop the rampage already rolled, if any."""
        c = sit.attacker
        if not c.status.has(RAMPAGE):
            raise IllegalAction(f"{c.name} is not rampaging")
        pending = c.status.extra.get(RAMPAGE_DIRECTION)
        return int(pending) if pending is not None else None

    def _rampage_outcome(self, c: Combatant, direction: int, dist: int) -> Outcome:
        """The rampage move: the rolled direction clockwise from the elephant's facing (it
        has turned to face the cause) and the rolled inches, made on the table."""
        d = next(x for x in self.t.rampage.directions if x.roll == direction)
        eff = Effects(
            markers_add=frozenset({MOVED}) - c.status.markers,
            extra_remove=frozenset({RAMPAGE_DIRECTION}) & frozenset(c.status.extra),
            move=f"rampage {inches(dist)} {d.direction.lower()} ({d.bearing_degrees} degrees)",
            shift=((c.facing + d.bearing_degrees) % 360, float(dist)),
        )
        return Outcome(attacker=eff, result=f"{d.direction}, {inches(dist)}")

    def _rampage_play(self, sit: Situation, pending: int | None, th: Throws) -> Resolution:
        """Leg VI, Elephant critical hits: a rampaging elephant turns to face the cause, rolls
        a D6 for direction (errata 'rampage-diagram': six ways 60 degrees apart) unless a
        failed stop attempt already rolled it, and moves at full speed (AvD + D6, errata
        'rampage-speed'). Formed troops it bursts through (``others``) take 2 DPs; unformed
        troops and legions with open ranks let it pass. The core moves the elephant the rolled
        inches in the rolled direction, read clockwise from its facing (``Effects.shift``):
        turn it to face the cause first, as the combat result says."""
        c, rp = sit.attacker, self.t.rampage
        if pending is None:
            direction, _ = th.throw(Total(rp.direction_die, f"rampage direction for {c.name}"))
        else:
            direction = pending
        move = tuple(Total(s, f"rampage move for {c.name}") for s in rp.move_dice)
        parts = cast("tuple[Throw[Hashable], ...]", move)  # Throw is invariant in its value
        inches_moved, shown = th.throw(Joint(parts=parts, how=total))
        out = self._rampage_outcome(c, direction, inches_moved)
        if not th.rolling:
            return Resolution(outcome=out)  # the odds count the outcome alone
        words = [
            f"{c.name} rampages: direction {direction}, move {shown.replace('; ', ' + ')}"
            f" = {out.attacker.move}"
        ]
        changes = []
        for o in sit.others:
            ou = self.u(o)
            if ou.elephant or ou.unformed or o.status.has(OPEN_RANKS):
                words.append(f"{o.name} lets it pass")
                continue
            n = self.t.rampage.burst_through_dps_formed
            eff = self._dps(ou, n, "morale")
            changes.append(UnitChange(o.unit_id, eff))
            words.append(f"{o.name} is burst through: {dp_words(take_dps(ou, n, 'morale'))}")
        return Resolution(outcome=out, others=tuple(changes), explanation=("; ".join(words),))

    def _stop_bonus(self, c: Combatant) -> int:
        sr = self.t.stop_rampage
        tries = scalar_int(c.status.extra, STOP_ATTEMPTS)
        if sr.bonus_cumulative:
            return sr.bonus_per_turn_after_first * tries
        return sr.bonus_per_turn_after_first if tries else 0

    def _stop_outcome(self, c: Combatant, roll: int, direction: int | None) -> Outcome:
        sr = self.t.stop_rampage
        if roll + self._stop_bonus(c) >= sr.destroyed_on_at_least:
            return Outcome(attacker=Effects(eliminated=True), result="killed by its mahout")
        d = next(x for x in self.t.rampage.directions if x.roll == direction)
        eff = Effects(
            markers_add=frozenset({RAMPAGE_TESTED}) - c.status.markers,
            extra={
                STOP_ATTEMPTS: scalar_int(c.status.extra, STOP_ATTEMPTS) + 1,
                RAMPAGE_DIRECTION: d.roll,
            },
        )
        return Outcome(attacker=eff, result=f"rampage goes on: {d.direction.lower()}")

    def _stop_rampage_play(self, sit: Situation, plan: int | None, th: Throws) -> Resolution:
        """Leg VI, Attempt to stop Rampage: a D6 per rampaging elephant, 5-6 and its mahout
        kills it, +2 for each turn of rampage after the first (errata 'stop-rampage-bonus',
        counted by attempts). Otherwise roll a new direction; it rampages again in the
        manoeuvre phase (``rampage`` action)."""
        c = sit.attacker
        sr = self.t.stop_rampage
        roll, _ = th.throw(Total(sr.die, f"attempt to stop {c.name}'s rampage"))
        bonus = self._stop_bonus(c)
        direction = None
        if roll + bonus < sr.destroyed_on_at_least:
            direction, _ = th.throw(
                Total(self.t.rampage.direction_die, f"new direction for {c.name}")
            )
        out = self._stop_outcome(c, roll, direction)
        words = f"Stopping {c.name}'s rampage: {roll}" + (f" {bonus:+d}" if bonus else "")
        return Resolution(outcome=out, explanation=(f"{words}: {out.result}.",))
