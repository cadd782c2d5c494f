"""Quincunx: the actions that throw dice -- melee, trample and rampage, missilery, the
pre-melee volley and skirmisher evasion -- each as a ``prepare`` (no dice: is it allowed,
which dice, which modifiers) and a ``play`` that throws the dice through
:class:`~app.rules.actions.Throws`. Resolving an action runs ``play`` with the battle's dice;
its exact odds run the same ``play`` with every reading of each throw
(:mod:`app.rules.actions`), so the two agree by construction. The declarations are in
:meth:`QuincunxMechanics.declare <app.rulesets.quincunx.mechanics.QuincunxMechanics.declare>`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.rules.actions import Classify, Throws, Total
from app.rules.mechanics import (
    Combatant,
    Effects,
    LeaderEvent,
    Outcome,
    Resolution,
    Side,
    SideUpdate,
    Situation,
    UnitChange,
)
from app.rulesets.quincunx.geometry import units_in_path
from app.rulesets.quincunx.melee import QuincunxMelee, north_bearing
from app.rulesets.quincunx.missiles import QuincunxMissiles
from app.rulesets.quincunx.rules import (
    BERSERK,
    COMPASS,
    DISTANCE,
    HEADING,
    MELEE_WITH,
    MOVED,
    OUT_OF_COMMAND,
    PELTAST_VOLLEY,
    STRAGGLER,
    TO_RAMPAGE,
    WON,
    Fight,
    Fighter,
    Plan,
    Shot,
    fmt,
    leader_fate,
    risk_reading,
)
from app.rulesets.quincunx.throws import clash, side_cast, sides_of, spread

Dies = tuple[str | None, str | None]


def sides(side: Side, mine: SideUpdate, other: SideUpdate) -> tuple[SideUpdate, SideUpdate]:
    """Side records ordered (side 0, side 1) from ``side``'s point of view."""
    return (mine, other) if side == 0 else (other, mine)


class QuincunxCombat(QuincunxMelee, QuincunxMissiles):
    """Quincunx: the dice-throwing actions, prepared and played."""

    # ------------------------------------------------------------------ leaders

    def _leader_risk(
        self, units: Sequence[Combatant], th: Throws
    ) -> tuple[list[LeaderEvent], list[str]]:
        """Quincunx, Commanders: when the unit a leader is attached to loses casualties he
        casts 2d6: double one kills him, any other double wounds him; a third wound kills."""
        events, lines = [], []
        for u in units:
            ld = u.leader
            if ld is None:
                continue
            purpose = f"risk to {ld.name} with {u.name}"
            reading, shown = th.throw(Classify(self.t.leaders.risk_dice, purpose, risk_reading))
            status, wounds = leader_fate(reading, ld.wounds, self._killing_wounds())
            text = {
                "killed": f"{ld.name} is killed",
                "wounded": f"{ld.name} is wounded ({wounds} wound{'s' if wounds != 1 else ''})",
                "fit": f"{ld.name} is unhurt",
            }[status]
            if th.rolling:
                lines.append(f"Risk to {ld.name}: 2d6 = {', '.join(shown.split())}: {text}.")
            if status != "fit":
                events.append(LeaderEvent(ld.id, status, wounds, text))
        return events, lines

    # ------------------------------------------------------------------ a fight

    def _play_fight(self, f: Fight, th: Throws, why: str) -> Resolution:
        """Quincunx, Melee: both sides cast at once (attacker first); each 2 points of the
        difference is a casualty to the lower side, whose attached leader is then at risk."""
        a, d = f.a, f.d
        diff, shown = th.throw(
            clash(
                side_cast(a.cast.dice, a.cast.modifier, f"{a.unit.name} {why}"),
                side_cast(d.cast.dice, d.cast.modifier, f"{d.unit.name} {why}"),
            )
        )
        outcome, winner, losers, words = self._fight_outcome(f, diff)
        lines: list[str] = []
        if th.rolling:
            a_shown, d_shown = sides_of(shown)
            lines += [
                f"{a.unit.name} casts {a.cast.words}: {a_shown}.",
                f"{d.unit.name} casts {d.cast.words}: {d_shown}.",
            ]
            gap = abs(diff)
            cas = gap // self.t.melee_resolution.casualty_divisor
            if cas == 0:
                lines.append(f"Difference {gap}: no casualties; the units stay in contact.")
            else:
                low = a.unit if diff < 0 else d.unit
                lines.append(
                    f"Difference {gap}: {cas} casualt{'ies' if cas != 1 else 'y'} to {low.name}."
                )
                lines.extend(w + "." for w in words)
                for who, eff in ((a.unit, outcome.attacker), (d.unit, outcome.defender)):
                    if eff.move:
                        lines.append(f"{who.name} {eff.move}.")
            lines.append(f"Result: {outcome.result}.")
        events, risk = self._leader_risk(losers, th)
        lines.extend(risk)
        side_updates: tuple[SideUpdate, SideUpdate] = (None, None)
        if winner is not None:
            side_updates = sides(winner, {WON: True}, None)
            lines.append("The winner's side will cast a d12 for the next initiative.")
        return Resolution(
            outcome=outcome,
            sides=side_updates,
            leader_events=tuple(events),
            explanation=tuple(lines),
        )

    # ------------------------------------------------------------------ melee

    def _melee_setup(self, sit: Situation) -> Fight | Outcome:
        """Check a melee and build both casts; an Outcome when no fight takes place
        (stragglers met, horses shying from elephants)."""
        a, d = sit.attacker, sit.defender
        t = self.t
        for u in (a, d):
            if u.status.eliminated:
                raise ValueError(f"{u.name} is no longer on the table")
        if a.side == d.side:
            raise ValueError("a melee is fought against an enemy unit")
        if a.status.has(STRAGGLER):
            raise ValueError(f"{a.name} are stragglers with no combat ability")
        if a.status.has(OUT_OF_COMMAND):
            raise ValueError(f"{a.name} are out of command: they may defend, not attack")
        if d.status.has(STRAGGLER):
            return self._capture(a, d, self.pool(sit))
        shy = self._shy(a, d)
        if shy is not None:
            return shy
        initial = {"yes": True, "no": False}.get(
            sit.choice("initial_attack"), a.status.extra.get(MELEE_WITH) != d.unit_id
        )
        pre = sit.choice("pre_melee")
        fighters = []
        for me, foe, role in ((a, d, "attacker"), (d, a, "defender")):
            pen, pen_extra, pen_remove = self._penalty(me, pre, role)
            prefix = "" if role == "attacker" else "defender_"
            volleyed = sit.flag(f"{role}_volleyed") or bool(me.status.extra.get(PELTAST_VOLLEY))
            cast, el_extra = self._melee_cast(
                me,
                foe,
                initial=initial and role == "attacker",
                assaulting=role == "attacker",
                flank=sit.flag(f"{prefix}flank"),
                downhill=sit.flag(f"{prefix}downhill"),
                volleyed=volleyed,
                wood_edge=sit.flag("wood_edge") and role == "attacker",
                crossing=sit.flag(f"{role}_crossing"),
                penalty=pen,
                leader=sit.choice(f"{role}_leader"),
                elephant_round=sit.number("elephant_round") if self.is_elephant(me) else 0,
            )
            remove = pen_remove | ({PELTAST_VOLLEY} & set(me.status.extra))
            fighters.append(
                Fighter(
                    me,
                    cast,
                    t.melee_resolution.rings_per_round,
                    {**pen_extra, **el_extra},
                    frozenset(remove),
                )
            )
        return Fight("melee", fighters[0], fighters[1], self.pool(sit))

    def _play_melee(self, _: Situation, plan: Plan[Fight | Outcome], th: Throws) -> Resolution:
        """Quincunx, Melee: one round; the odds follow from the difference alone."""
        f, sit = plan.what, plan.sit
        if isinstance(f, Outcome):
            return Resolution(
                outcome=f, explanation=(f"{sit.attacker.name} v {sit.defender.name}: {f.result}.",)
            )
        return self._play_fight(f, th, "melee die")

    # ------------------------------------------------------------------ missilery

    def _play_shoot(self, _: Situation, plan: Plan[Shot | Outcome], th: Throws) -> Resolution:
        """Quincunx, Missilery: the pair of dice read as high minus low, with modifiers; the
        target's attached leader is at risk when it loses casualties."""
        shot, sit = plan.what, plan.sit
        a, d = sit.attacker, sit.defender
        if isinstance(shot, Outcome):
            return Resolution(outcome=shot, explanation=(f"{a.name} at {d.name}: {shot.result}.",))
        purpose = f"{a.name} shooting at {d.name}"
        gap, shown = th.throw(Classify(shot.dice, purpose, spread))
        outcome, words = self._shot_outcome(shot, gap)
        lines: list[str] = []
        if th.rolling:
            faces = shown.split()
            modified = f" {shot.modifier:+d} = {max(0, gap + shot.modifier)}"
            lines += [
                f"{a.name} shoot at {d.name}: " + "; ".join(shot.words) + ".",
                f"Dice {faces[0]} and {faces[1]}: difference {gap}"
                + (modified if shot.modifier else "")
                + f": {outcome.result}.",
                *(w + "." for w in words),
            ]
        losers = (d,) if outcome.defender.casualties else ()
        events, risk = self._leader_risk(losers, th)
        lines.extend(risk)
        return Resolution(outcome=outcome, leader_events=tuple(events), explanation=tuple(lines))

    # ------------------------------------------------------------------ pre-melee volley

    def _pre_setup(self, sit: Situation) -> Dies | Outcome:
        a, d = sit.attacker, sit.defender
        if a.side == d.side:
            raise ValueError("the pre-melee volley is cast against an enemy unit")
        if a.status.extra.get(MELEE_WITH) == d.unit_id:
            return Outcome(result="no volley: the melee is already under way")
        dies = (self.volley_die(a), self.volley_die(d))
        if dies == (None, None):
            return Outcome(result="no volley on either side")
        return dies

    def _play_pre_melee(self, _: Situation, plan: Plan[Dies | Outcome], th: Throws) -> Resolution:
        """Quincunx, Pre-Melee Missilery: both sides cast their volley die (pila d12,
        javelins d10) read as the difference; a side without a volley loses uncast."""
        dies, sit = plan.what, plan.sit
        a, d = sit.attacker, sit.defender
        if isinstance(dies, Outcome):
            return Resolution(outcome=dies, explanation=(f"{a.name} v {d.name}: {dies.result}.",))
        lines = []
        diff = 0
        a_die, d_die = dies
        if a_die is None or d_die is None:
            lacking = a if a_die is None else d
            lines.append(f"{lacking.name} have no volley (left) and lose it automatically.")
        else:
            diff, shown = th.throw(
                clash(
                    Total(a_die, f"{a.name} pre-melee volley"),
                    Total(d_die, f"{d.name} pre-melee volley"),
                )
            )
            if th.rolling:
                a_cast, d_cast = sides_of(shown)
                lines.append(f"{a.name} cast {a_die} for their volley: {a_cast}.")
                lines.append(f"{d.name} cast {d_die} for their volley: {d_cast}.")
        outcome = self._pre_outcome(dies, diff)
        lines.append(f"Result: {outcome.result}.")
        return Resolution(outcome=outcome, explanation=tuple(lines))

    # ------------------------------------------------------------------ evasion

    def _evade_setup(self, sit: Situation) -> tuple[str, str, int]:
        a, d = sit.attacker, sit.defender
        if not self.skirmishing(a):
            raise ValueError(f"{a.name} are not in skirmish mode and cannot evade")
        if self.skirmishing(d):
            raise ValueError(f"{d.name} are skirmishers: only a formed attacker can be evaded")
        ev = self.t.evasion
        return ev.evader_die, ev.attacker_die, self.move_class(a).move_factors

    def _play_evade(self, _: Situation, plan: Plan[tuple[str, str, int]], th: Throws) -> Resolution:
        """Quincunx, Movement: the skirmishers' d10 against the attacker's d6, read as the
        difference in move factors."""
        (e_die, k_die, allowance), sit = plan.what, plan.sit
        a, d = sit.attacker, sit.defender
        diff, shown = th.throw(
            clash(Total(e_die, f"{a.name} evading"), Total(k_die, f"{d.name} pursuing"))
        )
        outcome = self._evade_outcome(sit, allowance, diff)
        lines: tuple[str, ...] = ()
        if th.rolling:
            e, k = sides_of(shown)
            lines = (
                f"{a.name} try to evade {d.name}: {e_die} = {e} against {k_die} = {k} "
                f"(need {sit.number('needed')} MF, move {allowance} MF).",
                f"Result: {outcome.result}.",
            )
        return Resolution(outcome=outcome, explanation=lines)

    # ------------------------------------------------------------------ elephants

    def _play_trample(self, _: Situation, plan: Plan[Fight], th: Throws) -> Resolution:
        return self._play_fight(plan.what, th, "trample")

    def _rampage_setup(self, sit: Situation) -> None:
        if not sit.attacker.status.has(BERSERK):
            raise ValueError(f"{sit.attacker.name} is not a berserk elephant")

    def _play_rampage(self, _: Situation, plan: Plan[None], th: Throws) -> Resolution:
        """Quincunx, Rampage Chart: cast a d8 for the direction and a d6 for move factors;
        the elephant tramples every unit in its path (nearest first) with d12+2, friend or
        foe; it stops if it is killed. The core moves it along the path (``Effects.shift``;
        ``extra`` records the bearing and the inches), stopping at the table's edge: taking
        it off when it leaves the table is the players' call."""
        sit = plan.sit
        el = sit.attacker
        t = self.t
        face, _shown = th.throw(Total(t.rampage.direction_die, f"{el.name} rampage direction"))
        name = t.rampage.directions[str(face)]
        bearing = (north_bearing(el, sit.view) + COMPASS[name.lower()]) % 360
        mf, _shown = th.throw(Total(t.rampage.move_die, f"{el.name} rampage move factors"))
        inches = mf * self._per_mf
        lines = [
            f"{el.name} rampages: {t.rampage.direction_die} = {face} ({name}), "
            f'{t.rampage.move_die} = {mf} MF ({fmt(inches)}").'
        ]
        pool = sit.others or (sit.view.units if sit.view is not None else ())
        path = units_in_path(el, bearing, inches, pool)
        changes: list[UnitChange] = []
        events: list[LeaderEvent] = []
        lost, killed = 0, False
        for victim in path:
            res = self._play_fight(self._trample_fight(el, victim, pool), th, "trample")
            lines.append(f"It tramples into {victim.name}:")
            lines.extend(res.explanation)
            events.extend(res.leader_events)
            changes.append(UnitChange(victim.unit_id, res.outcome.defender))
            hit = res.outcome.attacker
            lost += hit.casualties
            el = replace(el, status=el.status.apply(hit))
            if el.status.eliminated:
                killed = True
                lines.append(f"{el.name} is killed and the rampage ends.")
                break
        if not path:
            lines.append("Nothing stands in its path.")
        eff = Effects(
            casualties=lost,
            eliminated=killed,
            markers_add=frozenset({MOVED}),
            markers_remove=frozenset({TO_RAMPAGE}),
            move=f"rampages {self._mf(mf)} {name}",
            extra={HEADING: int(bearing), DISTANCE: int(inches)},
            # the core moves the elephant along its path (a dead one stays where it fell)
            shift=None if killed else (float(bearing), float(inches)),
        )
        return Resolution(
            outcome=Outcome(attacker=eff, result=f"rampages {mf} MF {name}"),
            others=tuple(changes),
            leader_events=tuple(events),
            explanation=tuple(lines),
        )
