"""Leg VI Carthago mechanics: shooting (Shooting)."""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.actions import Count, Throws
from app.rules.geometry import edge_distance
from app.rules.mechanics import (
    LeaderEvent,
    Outcome,
    Resolution,
    Scalar,
    Situation,
    TurnView,
)
from app.rules.values import Combatant
from app.rulesets.leg_vi.base import Pending, inches, plural
from app.rulesets.leg_vi.combat_rules import shooting_dice
from app.rulesets.leg_vi.elephants import combat_effects_elephant
from app.rulesets.leg_vi.fates import (
    ElephantFate,
    LeaderFate,
    death_roll,
    elephant_criticals,
    leader_morale_dps,
)
from app.rulesets.leg_vi.leaders import LegVILeaders
from app.rulesets.leg_vi.throws import hits_on
from app.rulesets.leg_vi.units import (
    MEASURE,
    IllegalAction,
    LegUnit,
    dp_words,
    take_dps,
)


@dataclass(frozen=True)
class ShootPlan:
    """A volley before the dice: shooters, target, the reasons for the number of dice, and
    the throw of those dice read as the number of hits."""

    a: LegUnit
    d: LegUnit
    why: tuple[str, ...]
    dice: Count


class LegVIShooting(LegVILeaders):
    """Leg VI, Shooting: light troops' dice, DPs per 6, elephants' critical hits and the
    die of death for a leader with the target."""

    # ------------------------------------------------------------------ shooting

    def _shoot_parts(self, sit: Situation) -> tuple[LegUnit, LegUnit, int, tuple[str, ...]]:
        a, d = self.u(sit.attacker), self.u(sit.defender)
        if not a.troop.shoots:
            raise IllegalAction(f"Leg VI, Shooting: only light troops shoot, not {a.name}")
        if a.routing:
            raise IllegalAction(f"{a.name} is routing")
        self._shot_on_the_table(sit)
        aspect = sit.choice("aspect", "front")
        strength = a.c.status.strength
        bases = min(sit.number("bases", 0) or strength, strength)
        sd = shooting_dice(self.t, a, d, bases, sit.flag("cover"), aspect)
        return a, d, sd.dice, sd.reasons

    def _shot_on_the_table(self, sit: Situation) -> None:
        """Leg VI, Shooting, where both units stand on the table: the target within 4"
        (base edge to base edge) and in clear sight (terrain that blocks sight, other
        units)."""
        view, a, d = sit.view, sit.attacker, sit.defender
        if view is None or a.width <= 0 or d.width <= 0:
            return
        ids = {u.unit_id for u in view.units}
        if a.unit_id not in ids or d.unit_id not in ids:
            return
        reach = self.t.shooting.range
        gap = edge_distance(a.footprint, d.footprint)
        if gap > reach + MEASURE:
            raise IllegalAction(
                f'Leg VI, Shooting: {d.name} is {gap:.1f}" from {a.name}, beyond the '
                f"{inches(reach)} range"
            )
        clear, blocked = self.line_of_sight(view, a.unit_id, d.unit_id)
        if not clear:
            raise IllegalAction(
                f"Leg VI, Shooting: {a.name} has no clear line of sight to {d.name} "
                f"(blocked by {', '.join(blocked)})"
            )
        if self._enemy_within(view, d, MEASURE):
            raise IllegalAction(
                f"Leg VI, Shooting: {d.name} is engaged in combat: engaged bases are not "
                "eligible targets (errata 'shooting-targets')"
            )
        nearer = self._nearer_target(view, a, gap)
        if nearer is not None:
            raise IllegalAction(
                f"Leg VI, Shooting: {nearer[0].name} ({nearer[0].unit_id}) is nearer "
                f'({nearer[1]:.1f}" against {gap:.1f}"): the nearest target must be shot at '
                "(errata 'shooting-targets')"
            )

    def _nearer_target(
        self, view: TurnView, a: Combatant, gap: float
    ) -> tuple[Combatant, float] | None:
        """The nearest eligible target nearer to ``a`` than ``gap`` (base edge to base edge,
        beyond the measuring slack): an enemy on the table in clear sight, not engaged in
        combat; None when the chosen target is the nearest."""
        best: tuple[Combatant, float] | None = None
        for o in view.units:
            if o.side == a.side or o.status.eliminated or o.width <= 0:
                continue
            d = edge_distance(a.footprint, o.footprint)
            if d >= gap - MEASURE or (best is not None and d >= best[1]):
                continue
            if not self.line_of_sight(view, a.unit_id, o.unit_id)[0]:
                continue
            if self._enemy_within(view, o, MEASURE):
                continue
            best = (o, d)
        return best

    def _shoot_outcome(
        self, d: LegUnit, hits: int, el_fate: ElephantFate, leader_fate: LeaderFate
    ) -> Outcome:
        label = plural(hits, "hit")
        if d.elephant:
            eff = combat_effects_elephant(el_fate)
            if el_fate != "unharmed":
                label += f"; elephant {'destroyed' if el_fate == 'destroyed' else 'rampages'}"
            return Outcome(defender=eff, result=label)
        n = hits * self.t.shooting.dps_per_hit
        leader = d.c.leader
        morale = leader_morale_dps(self.t, leader) if leader and leader_fate == "killed" else 0
        eff = self._dps(d, n + morale, "shooting")
        if leader_fate != "ok":
            label += f"; leader {leader_fate}"
        return Outcome(defender=eff, result=label)

    def _shoot_prepare(self, sit: Situation) -> ShootPlan:
        a, d, n, why = self._shoot_parts(sit)
        sh = self.t.shooting
        dice = hits_on(f"{n}{sh.die}", sh.hit_on, f"shooting by {a.name} at {d.name}")
        return ShootPlan(a, d, why, dice)

    def _shoot_play(self, sit: Situation, plan: ShootPlan, th: Throws) -> Resolution:
        """Leg VI, Shooting: on the table, the target within 4" and in sight; 1 D6 per base
        in range (4"), halved once against light
        infantry, cover, formed HI from the front or a quincunx legion's front or flank
        (rounding up), -1 die per shooter DP, +1 die at elephants, at least 1 die. Each 6 is
        a DP (shaken targets lose a base instead); at an elephant each 6 is a critical-hit
        test. A leader with a unit taking a shooting DP rolls the die of death."""
        a, d = plan.a, plan.d
        sh = self.t.shooting
        hits, shown = th.throw(plan.dice)
        words = [
            f"{a.name} shoots at {d.name}: " + "; ".join(plan.why),
            f"rolled {shown}: {plural(hits, 'hit')}",
        ]
        el_fate: ElephantFate = "unharmed"
        fate: LeaderFate = "ok"
        if d.elephant:
            if hits:
                el_fate, text = th.throw(elephant_criticals(self.t, hits, 0, d.name))
                words += text.splitlines()
        elif hits * sh.dps_per_hit and d.c.leader is not None:
            fate, text = th.throw(death_roll(self.t, d.c.leader, "his unit took a shooting DP"))
            words += text.splitlines()
        out = self._shoot_outcome(d, hits, el_fate, fate)
        if not th.rolling:
            return Resolution(outcome=out)  # the odds count the outcome alone
        pending: dict[str, Pending] = {}
        events: list[LeaderEvent] = []
        sides: list[dict[str, Scalar] | None] = [None, None]
        if not d.elephant:
            r = take_dps(d, hits * sh.dps_per_hit, "shooting")
            words.append(f"{d.name}: {dp_words(r)}")
        self._leader_fallout(sit.view, d.c, fate, pending, words, events, sides)
        self._loss_morale(sit.view, d.c, out.defender, pending, words)
        return Resolution(
            outcome=out,
            others=self._finish(sit.view, pending),
            sides=(sides[0], sides[1]),
            leader_events=tuple(events),
            explanation=tuple(words),
        )
