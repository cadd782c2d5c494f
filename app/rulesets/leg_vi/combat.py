"""Leg VI Carthago mechanics: resolving a combat (Resolving combat, Results)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from app.rules.actions import Throws
from app.rules.contact import not_in_contact
from app.rules.geometry import Aspect
from app.rules.mechanics import (
    Combatant,
    Effects,
    LeaderEvent,
    Outcome,
    Resolution,
    Scalar,
    Situation,
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
    DeathRoll,
    ElephantCriticals,
    ElephantFate,
    LeaderFate,
    death_roll,
    elephant_criticals,
)
from app.rulesets.leg_vi.leaders import LegVILeaders
from app.rulesets.leg_vi.tables_schema import Tables
from app.rulesets.leg_vi.throws import Bands, CombatHits, combat_hits
from app.rulesets.leg_vi.units import (
    PURSUING,
    ROUTING,
    SHAKEN,
    IllegalAction,
    LegUnit,
    dp_words,
    take_dps,
)

#: one side's effects and notes by (side, result, DPs inflicted, elephant fate, leader fate)
SideCache = dict[tuple[str, SideResult, int, str, str], tuple[Effects, list[str]]]
#: combat is fought by the bases in contact (the engaged bases)
COMBAT_RULE = "Leg VI, Resolving combat"
_ASPECTS: dict[str, Aspect] = {"front": "front", "flank": "flank", "rear": "rear"}


class LegVICombat(LegVILeaders):
    """Leg VI, Resolving combat: both sides' dice, hits, result bands, elephants' critical
    hits, the die of death, supports sharing the result."""

    # ------------------------------------------------------------------ combat

    def _melee_sides(self, sit: Situation) -> tuple[CombatSide, CombatSide]:
        """The two sides with their situation: who charged (``charge``), who followed up
        (``follow_up``) or pursued (``pursued``) into contact, where the charged unit was
        struck (``flank``), advantage of ground, supports (a three-line quincunx legion is
        supported by its triarii), engaged bases (0 = counted from the formation), an
        average grade for several units, countercharged infantry and a later round.
        Refused when both units stand on the table and their bases do not touch (combat is
        fought by the bases in contact: charge, or follow up, into contact first)."""
        pursued = sit.choice("pursued", "none")
        # Leg VI, Formations: "Others become unformed if shaken, routing, pursuing, ...": a
        # side that pursued into contact fights unformed whether or not its unit carries the
        # marker (odds set by hand give only the option; issue 25)
        attacker, defender = sit.attacker, sit.defender
        if pursued == "attacker":
            attacker = _pursuing(attacker)
        elif pursued == "defender":
            defender = _pursuing(defender)
        a, d = self.u(attacker), self.u(defender)
        for x in (a, d):
            if x.routing or x.c.status.eliminated:
                raise IllegalAction(f"{x.name} is routing or gone: it cannot fight a combat")
        apart = not_in_contact(COMBAT_RULE, sit.attacker, sit.defender)
        if apart is not None:
            raise IllegalAction(apart)
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
                pursued=pursued == me,
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

    def _results(self, A: CombatSide, D: CombatSide, read: Bands) -> tuple[SideResult, SideResult]:
        """Each side's band; the side that did not win is settled first, since a winner's
        follow-up or pursuit depends on the loser's move."""
        if read.attacker_ahead:
            rd = side_result(self.t, D, read.defender, ())
            return side_result(self.t, A, read.attacker, rd.moves), rd
        ra = side_result(self.t, A, read.attacker, ())
        return ra, side_result(self.t, D, read.defender, ra.moves)

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

    def _melee_prepare(self, sit: Situation) -> MeleePlan:
        """Everything a round of combat needs before the dice: both sides, their dice and
        factors (``combat_dice``), the faces that hit (``hit_faces``) and the automatic hit of
        an attached leader."""
        A, D = self._melee_sides(sit)
        t = self.t
        counts = [combat_dice(t, s) for s in (A, D)]
        faces = [hit_faces(t, s) for s in (A, D)]
        autos = [t.hit_numbers.leader_automatic_hits if s.leader else 0 for s in (A, D)]
        throw = combat_hits(
            t,
            (counts[0][0], counts[1][0]),
            (faces[0][0], faces[1][0]),
            (autos[0], autos[1]),
            (A.unit.name, D.unit.name),
        )
        why = "his unit fought a round of combat"
        return MeleePlan(
            A,
            D,
            (counts[0][1], counts[1][1]),
            (faces[0][0], faces[1][0]),
            (faces[0][1], faces[1][1]),
            throw,
            (A.unit.elephant, D.unit.elephant),
            tuple(None if s.leader is None else death_roll(t, s.leader, why) for s in (A, D)),
        )

    def _melee_play(self, sit: Situation, plan: MeleePlan, th: Throws) -> Resolution:
        """Leg VI, Resolving combat: each side rolls its dice (see ``combat_dice``), hits on
        5-6 or on 6 in the listed situations, plus one automatic hit for an attached leader.
        The hit difference gives each side's band (victory 4+, success +1..+3, inconclusive,
        set-back -1..-3, defeat -4 or worse) with its DPs, casualties, rout and after-combat
        move; elephants test critical hits instead of taking DPs; each attached leader rolls
        the die of death. Supports (``others``) share the DPs and the move. A compulsory move
        of a fixed distance (fall back, pass through, retire behind the triarii) is made on
        the table at once (``Effects.shift``, see ``after_combat_shift``); the rest stay in
        words for the after-combat moves phase."""
        A, D, t = plan.A, plan.D, self.t
        read, shown = th.throw(plan.throw)
        results = plan.results.get(read)
        if results is None:
            results = plan.results[read] = self._results(A, D, read)
        ra, rd = results
        words = self._dice_words(plan, shown, ra, rd) if th.rolling else []
        fates: list[ElephantFate] = []
        for i, r in enumerate((ra, rd)):
            fate: ElephantFate = "unharmed"
            if plan.elephant[i] and (r.crit_tests or r.auto_crits):
                fate, text = th.throw(plan.criticals(t, i, r))
                words += text.splitlines()
            fates.append(fate)
        lfates: list[LeaderFate] = []
        for death in plan.deaths:
            lf: LeaderFate = "ok"
            if death is not None:
                lf, text = th.throw(death)
                words += text.splitlines()
            lfates.append(lf)
        out = self._melee_outcome(
            A, D, ra, rd, fates[0], fates[1], lfates[0], lfates[1], plan.cache
        )
        if not th.rolling:
            return Resolution(outcome=out)  # the odds count the outcome alone
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

    def _dice_words(self, plan: MeleePlan, shown: str, ra: SideResult, rd: SideResult) -> list[str]:
        """Each side's dice, the faces rolled and its hits, and the hit difference."""
        hits = plan.throw.hits(shown)
        words = []
        for s, n, why, on, hard, faces_text, h, auto in zip(
            (plan.A, plan.D),
            (plan.throw.attacker.dice.count, plan.throw.defender.dice.count),
            plan.why,
            plan.on,
            plan.hard,
            shown.split("; "),
            hits,
            plan.throw.auto,
            strict=True,
        ):
            need = "6" if len(on) == 1 else f"{min(on)}-{max(on)}"
            words.append(
                f"{s.unit.name}: {n} dice ({'; '.join(why)}); hits on {need}"
                + (f" ({'; '.join(hard)})" if hard else "")
                + f"; rolled {faces_text}: {plural(h, 'hit')}"
                + (f" including {auto} for {s.leader.name}" if s.leader and auto else "")
            )
        bands = self.t.combat_results.bands
        words.append(
            f"Hit difference {hits[0] - hits[1]:+d}: {plan.A.unit.name} "
            f"{bands[ra.band].name.lower()}, {plan.D.unit.name} {bands[rd.band].name.lower()}"
        )
        return words


@dataclass
class MeleePlan:
    """A round of combat before the dice: the two sides, the reasons for their dice and for
    the faces that hit, the combat throw, and memos of the results and effects by band (the
    odds ask for each many times)."""

    A: CombatSide
    D: CombatSide
    why: tuple[tuple[str, ...], tuple[str, ...]]
    on: tuple[tuple[int, ...], tuple[int, ...]]
    hard: tuple[tuple[str, ...], tuple[str, ...]]
    throw: CombatHits
    elephant: tuple[bool, bool]
    #: each side's die of death (None: no leader attached)
    deaths: tuple[DeathRoll | None, ...]
    results: dict[Bands, tuple[SideResult, SideResult]] = field(default_factory=dict)
    cache: SideCache = field(default_factory=dict)
    _criticals: dict[tuple[int, int, int], ElephantCriticals] = field(default_factory=dict)

    def criticals(self, t: Tables, side: int, r: SideResult) -> ElephantCriticals:
        """The critical-hit tests of side ``side``'s elephant after result ``r``."""
        key = (side, r.crit_tests, r.auto_crits)
        throw = self._criticals.get(key)
        if throw is None:
            name = (self.A, self.D)[side].unit.name
            throw = elephant_criticals(t, r.crit_tests, r.auto_crits, name)
            self._criticals[key] = throw
        return throw


def _pursuing(c: Combatant) -> Combatant:
    """``c`` as a unit pursuing (the marker that makes it unformed)."""
    if c.status.has(PURSUING):
        return c
    return replace(c, status=replace(c.status, markers=c.status.markers | {PURSUING}))
