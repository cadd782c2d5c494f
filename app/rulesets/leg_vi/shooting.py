"""Leg VI Carthago mechanics: shooting (Shooting)."""

from __future__ import annotations

from app.rules.dice import binomial, chance_of_any
from app.rules.mechanics import (
    Dice,
    LeaderEvent,
    Odds,
    Outcome,
    Resolution,
    Scalar,
    Situation,
    add_odds,
)
from app.rulesets.leg_vi.base import Pending, plural
from app.rulesets.leg_vi.combat_rules import shooting_dice
from app.rulesets.leg_vi.elephants import combat_effects_elephant
from app.rulesets.leg_vi.fates import (
    ElephantFate,
    LeaderFate,
    elephant_fate_dist,
    leader_fate_dist,
    leader_morale_dps,
    roll_elephant_fate,
    roll_leader_fate,
)
from app.rulesets.leg_vi.leaders import LeaderRules
from app.rulesets.leg_vi.units import (
    IllegalAction,
    LegUnit,
    count_at_least,
    dp_words,
    take_dps,
)


class ShootingRules(LeaderRules):
    """Leg VI, Shooting: light troops' dice, DPs per 6, elephants' critical hits and the
    die of death for a leader with the target."""

    # ------------------------------------------------------------------ shooting

    def _shoot_parts(self, sit: Situation) -> tuple[LegUnit, LegUnit, int, tuple[str, ...]]:
        a, d = self.u(sit.attacker), self.u(sit.defender)
        if not a.troop.shoots:
            raise IllegalAction(f"Leg VI, Shooting: only light troops shoot, not {a.name}")
        if a.routing:
            raise IllegalAction(f"{a.name} is routing")
        aspect = sit.choice("aspect", "front")
        strength = a.c.status.strength
        bases = min(sit.number("bases", 0) or strength, strength)
        sd = shooting_dice(self.t, a, d, bases, sit.flag("cover"), aspect)
        return a, d, sd.dice, sd.reasons

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

    def _shoot(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Shooting: 1 D6 per base in range (4"), halved once against light
        infantry, cover, formed HI from the front or a quincunx legion's front or flank
        (rounding up), -1 die per shooter DP, +1 die at elephants, at least 1 die. Each 6 is
        a DP (shaken targets lose a base instead); at an elephant each 6 is a critical-hit
        test. A leader with a unit taking a shooting DP rolls the die of death."""
        a, d, n, why = self._shoot_parts(sit)
        sh = self.t.shooting
        rolled = dice.roll(f"{n}{sh.die}", f"shooting by {a.name} at {d.name}")
        hits = count_at_least(rolled, sh.hit_on)
        words = [
            f"{a.name} shoots at {d.name}: " + "; ".join(why),
            f"rolled {' '.join(map(str, rolled))}: {plural(hits, 'hit')}",
        ]
        el_fate: ElephantFate = "unharmed"
        fate: LeaderFate = "ok"
        if d.elephant:
            el_fate, ew = roll_elephant_fate(self.t, hits, 0, dice, d.name)
            words += ew
        elif hits * sh.dps_per_hit and d.c.leader is not None:
            fate, lw = roll_leader_fate(self.t, d.c.leader, dice, "his unit took a shooting DP")
            words += lw
        out = self._shoot_outcome(d, hits, el_fate, fate)
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

    def _shoot_odds(self, sit: Situation) -> Odds:
        _a, d, n, _ = self._shoot_parts(sit)
        sh = self.t.shooting
        out: Odds = {}
        for hits, p in binomial(n, chance_of_any(sh.die, sh.hit_on)).items():
            if d.elephant:
                for el, q in elephant_fate_dist(self.t, hits).items():
                    add_odds(out, self._shoot_outcome(d, hits, el, "ok"), p * q)
            elif hits * sh.dps_per_hit:
                for lf, q in leader_fate_dist(self.t, d.c.leader).items():
                    add_odds(out, self._shoot_outcome(d, hits, "unharmed", lf), p * q)
            else:
                add_odds(out, self._shoot_outcome(d, hits, "unharmed", "ok"), p)
        return out
