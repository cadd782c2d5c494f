"""Leg VI Carthago mechanics: resolving a combat (Resolving combat, Results)."""

from __future__ import annotations

from fractions import Fraction

from app.rules.dice import binomial, chance_of_any
from app.rules.geometry import Aspect
from app.rules.mechanics import (
    Dice,
    Effects,
    LeaderEvent,
    Odds,
    Outcome,
    Resolution,
    Scalar,
    Situation,
    add_odds,
)
from app.rulesets.leg_vi.base import Pending, plural
from app.rulesets.leg_vi.combat_rules import (
    CombatSide,
    SideResult,
    combat_dice,
    combat_effects,
    default_engaged_bases,
    hit_faces,
    side_result,
)
from app.rulesets.leg_vi.fates import (
    ElephantFate,
    LeaderFate,
    elephant_fate_dist,
    leader_fate_dist,
    roll_elephant_fate,
    roll_leader_fate,
)
from app.rulesets.leg_vi.leaders import LeaderRules
from app.rulesets.leg_vi.units import (
    ROUTING,
    SHAKEN,
    IllegalAction,
    LegUnit,
    count_at_least,
    dp_words,
    result_band,
    take_dps,
)

#: one side's effects and notes by (side, result, DPs inflicted, elephant fate, leader fate)
SideCache = dict[tuple[str, SideResult, int, str, str], tuple[Effects, list[str]]]
_ASPECTS: dict[str, Aspect] = {"front": "front", "flank": "flank", "rear": "rear"}


class CombatRules(LeaderRules):
    """Leg VI, Resolving combat: both sides' dice, hits, result bands, elephants' critical
    hits, the die of death, supports sharing the result."""

    # ------------------------------------------------------------------ combat

    def _melee_sides(self, sit: Situation) -> tuple[CombatSide, CombatSide]:
        """The two sides with their situation: who charged (``charge``), who followed up or
        pursued into contact (``follow_up``), where the charged unit was struck (``flank``),
        advantage of ground, supports (a three-line quincunx legion is supported by its
        triarii), engaged bases (0 = counted from the formation), an average grade for
        several units, countercharged infantry and a later round."""
        a, d = self.u(sit.attacker), self.u(sit.defender)
        for x in (a, d):
            if x.routing or x.c.status.eliminated:
                raise IllegalAction(f"{x.name} is routing or gone: it cannot fight a combat")
        charge = sit.choice("charge", "attacker")
        follow = sit.choice("follow_up", "none")
        flank: Aspect = _ASPECTS.get(sit.choice("aspect", "front"), "front")
        ground = sit.choice("ground", "none")
        cc = sit.choice("countercharged", "none")
        later = sit.number("round", 1) >= 2
        a_struck: Aspect = flank if charge == "defender" else "front"
        d_struck: Aspect = flank if charge in ("attacker", "none") else "front"
        t = self.t

        def side(u: LegUnit, e: LegUnit, me: str, struck: Aspect, e_struck: Aspect) -> CombatSide:
            other = "defender" if me == "attacker" else "attacker"
            prefix = me[0]
            grade = sit.choice(f"{prefix}_grade", "unit")
            charged = charge in (me, "both")
            return CombatSide(
                unit=u,
                enemy=e,
                bases=sit.number(f"{prefix}_bases", 0) or default_engaged_bases(t, u),
                grade=u.grade if grade == "unit" else grade,
                supported=sit.flag(f"{prefix}_supported")
                or (
                    t.support.legion_third_line_supports
                    and u.quincunx
                    and u.lines >= len(t.legion.lines)
                ),
                charged=charged,
                followed_up=follow == me,
                enemy_charged=charge in (other, "both"),
                struck_in=struck,
                enemy_struck_in=e_struck,
                ground=ground == me,
                enemy_ground=ground == other,
                countercharged=cc == me
                or (charge == "both" and u.infantry and (e.cavalry or e.elephant)),
                later_round=later,
            )

        return side(a, d, "attacker", a_struck, d_struck), side(
            d, a, "defender", d_struck, a_struck
        )

    def _results(self, A: CombatSide, D: CombatSide, diff: int) -> tuple[SideResult, SideResult]:
        """Each side's band; the side that did not win is settled first, since a winner's
        follow-up or pursuit depends on the loser's move."""
        ba, bd = result_band(self.t, diff), result_band(self.t, -diff)
        if diff >= 0:
            rd = side_result(self.t, D, bd, ())
            return side_result(self.t, A, ba, rd.moves), rd
        ra = side_result(self.t, A, ba, ())
        return ra, side_result(self.t, D, bd, ra.moves)

    def _melee_outcome(
        self,
        A: CombatSide,
        D: CombatSide,
        ra: SideResult,
        rd: SideResult,
        ela: ElephantFate,
        eld: ElephantFate,
        la: LeaderFate,
        ld: LeaderFate,
        cache: SideCache | None = None,
    ) -> Outcome:
        cache = {} if cache is None else cache
        ea, na = self._side_outcome(A, ra, rd.inflicts, ela, la, "attacker", cache)
        ed, nd = self._side_outcome(D, rd, ra.inflicts, eld, ld, "defender", cache)
        bands = self.t.combat_results.bands
        notes = [f"{bands[ra.band].name} / {bands[rd.band].name}", *na, *nd]
        return Outcome(attacker=ea, defender=ed, result="; ".join(notes))

    def _side_outcome(
        self,
        s: CombatSide,
        r: SideResult,
        inflicted: int,
        el: ElephantFate,
        lf: LeaderFate,
        who: str,
        cache: SideCache,
    ) -> tuple[Effects, list[str]]:
        """One side's effects and notes (memoised within one odds computation, which asks
        for each many times)."""
        key = (who, r, inflicted, el, lf)
        hit = cache.get(key)
        if hit is not None:
            return hit
        eff = combat_effects(self.t, s, r, inflicted, el, lf)
        notes = []
        if s.unit.elephant and el != "unharmed":
            notes.append(f"{who} elephant {'destroyed' if el == 'destroyed' else 'rampages'}")
        if lf != "ok":
            notes.append(f"{who} leader {lf}")
        cache[key] = (eff, notes)
        return eff, notes

    def _melee(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Resolving combat: each side rolls its dice (see ``combat_dice``), hits on
        5-6 or on 6 in the listed situations, plus one automatic hit for an attached leader.
        The hit difference gives each side's band (victory 4+, success +1..+3, inconclusive,
        set-back -1..-3, defeat -4 or worse) with its DPs, casualties, rout and after-combat
        move; elephants test critical hits instead of taking DPs; each attached leader rolls
        the die of death. Supports (``others``) share the DPs and the move. A compulsory move
        of a fixed distance (fall back, pass through, retire behind the triarii) is made on
        the table at once (``Effects.shift``, see ``after_combat_shift``); the rest stay in
        words for the after-combat moves phase."""
        A, D = self._melee_sides(sit)
        t = self.t
        words: list[str] = []
        hits = []
        for s in (A, D):
            n, why = combat_dice(t, s)
            on, hard = hit_faces(t, s)
            rolled = dice.roll(f"{n}{t.combat_dice.die}", f"combat dice for {s.unit.name}")
            auto = t.hit_numbers.leader_automatic_hits if s.leader else 0
            h = count_at_least(rolled, on) + auto
            hits.append(h)
            need = "6" if len(on) == 1 else f"{min(on)}-{max(on)}"
            words.append(
                f"{s.unit.name}: {n} dice ({'; '.join(why)}); hits on {need}"
                + (f" ({'; '.join(hard)})" if hard else "")
                + f"; rolled {' '.join(map(str, rolled))}: {plural(h, 'hit')}"
                + (f" including {auto} for {s.leader.name}" if s.leader and auto else "")
            )
        diff = hits[0] - hits[1]
        ra, rd = self._results(A, D, diff)
        bands = t.combat_results.bands
        words.append(
            f"Hit difference {diff:+d}: {A.unit.name} {bands[ra.band].name.lower()}, "
            f"{D.unit.name} {bands[rd.band].name.lower()}"
        )
        fates: list[ElephantFate] = []
        for s, r in ((A, ra), (D, rd)):
            fate: ElephantFate = "unharmed"
            if s.unit.elephant:
                fate, ew = roll_elephant_fate(t, r.crit_tests, r.auto_crits, dice, s.unit.name)
                words += ew
            fates.append(fate)
        lfates: list[LeaderFate] = []
        for s in (A, D):
            lf, lw = roll_leader_fate(t, s.leader, dice, "his unit fought a round of combat")
            lfates.append(lf)
            words += lw
        out = self._melee_outcome(A, D, ra, rd, fates[0], fates[1], lfates[0], lfates[1])
        for s, eff in ((A, out.attacker), (D, out.defender)):
            if not s.unit.elephant:
                bits = [dp_words(take_dps(s.unit, eff.dps, "combat")) if eff.dps else ""]
                if eff.casualties:
                    bits.append(plural(eff.casualties, "base") + " lost")
                if ROUTING in eff.markers_add:
                    bits.append("routs")
                words.append(
                    f"{s.unit.name}: "
                    + ", ".join(b for b in bits if b)
                    + (f"; {eff.move}" if eff.move else "")
                )
            elif eff.move:
                words.append(f"{s.unit.name}: {eff.move}")
        pending: dict[str, Pending] = {}
        events: list[LeaderEvent] = []
        sides: list[dict[str, Scalar] | None] = [None, None]
        for s, r, eff in ((A, ra, out.attacker), (D, rd, out.defender)):
            for o in sit.others:
                if o.side != s.unit.c.side or o.unit_id in (A.unit.c.unit_id, D.unit.c.unit_id):
                    continue
                p = pending.setdefault(o.unit_id, Pending(unit=o))
                p.band += r.dps
                # a support routs with the unit it backs; otherwise its own DPs decide shaken
                p.markers |= set(eff.markers_add) - (
                    set() if ROUTING in eff.markers_add else {SHAKEN}
                )
                p.formation = eff.formation
                p.move = eff.move
                p.shift = eff.shift  # a support makes the same move
                words.append(f"{o.name} (support) shares the result: {plural(r.dps, 'DP')}")
        for s, eff, lf in ((A, out.attacker, lfates[0]), (D, out.defender, lfates[1])):
            self._leader_fallout(sit.view, s.unit.c, lf, pending, words, events, sides)
            self._loss_morale(sit.view, s.unit.c, eff, pending, words)
        return Resolution(
            outcome=out,
            others=self._finish(sit.view, pending),
            sides=(sides[0], sides[1]),
            leader_events=tuple(events),
            explanation=tuple(words),
        )

    def _melee_odds(self, sit: Situation) -> Odds:
        A, D = self._melee_sides(sit)
        t = self.t
        dists = []
        for s in (A, D):
            n, _ = combat_dice(t, s)
            on, _ = hit_faces(t, s)
            auto = t.hit_numbers.leader_automatic_hits if s.leader else 0
            dists.append(binomial(n, chance_of_any(t.combat_dice.die, on)))
            dists[-1] = {k + auto: p for k, p in dists[-1].items()}
        by_band: dict[int, Fraction] = {}
        for ha, pa in dists[0].items():
            for hd, pd in dists[1].items():
                diff = ha - hd
                by_band[diff] = by_band.get(diff, Fraction(0)) + pa * pd
        grouped: dict[str, tuple[int, Fraction]] = {}
        for diff, p in by_band.items():
            band = result_band(t, diff)
            old = grouped.get(band, (diff, Fraction(0)))
            grouped[band] = (old[0], old[1] + p)
        out: Odds = {}
        leaders_a = list(leader_fate_dist(t, A.leader).items())
        leaders_d = list(leader_fate_dist(t, D.leader).items())
        unharmed: dict[ElephantFate, Fraction] = {"unharmed": Fraction(1)}
        cache: SideCache = {}
        for _band, (diff, p) in grouped.items():
            ra, rd = self._results(A, D, diff)
            fa = elephant_fate_dist(t, ra.crit_tests, ra.auto_crits) if A.unit.elephant else None
            fd = elephant_fate_dist(t, rd.crit_tests, rd.auto_crits) if D.unit.elephant else None
            for ela, pa in (fa or unharmed).items():
                for eld, pd in (fd or unharmed).items():
                    for la, qa in leaders_a:
                        for ld, qd in leaders_d:
                            o = self._melee_outcome(A, D, ra, rd, ela, eld, la, ld, cache)
                            add_odds(out, o, p * pa * pd * qa * qd)
        return out
