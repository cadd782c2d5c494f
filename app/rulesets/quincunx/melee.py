"""Quincunx: the melee as computations (Melee, Melee Resolution, Elephants, skirmisher
evasion): the casts by rings and shifts, and the outcome of a difference.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from app.rules.geometry import away_bearing
from app.rules.mechanics import Combatant, Effects, Outcome, Scalar, Side, Situation, TurnView
from app.rulesets.quincunx.base import QuincunxRules
from app.rulesets.quincunx.rules import (
    BERSERK,
    EL_ROUNDS,
    EL_TARGET,
    EVADED,
    EVADED_ROUNDS,
    FOUGHT,
    MELEE_WITH,
    MOVED,
    PENALTY,
    PENALTY_ROUNDS,
    STRAGGLER,
    Cast,
    Fight,
    Fighter,
    attrition_rows,
    combine_shifts,
    effective_shifts,
)

#: a fight's outcome, the winning side (it forced a recoil), the units that lost casualties,
#: and the words of their losses
FightResult = tuple[Outcome, Side | None, tuple[Combatant, ...], tuple[str, ...]]


def north_bearing(elephant: Combatant, view: TurnView | None) -> float:
    """Errata "rampage-north": North is the table edge behind the Roman army. Side 0 faces
    +y, so its rear edge lies at bearing 180; side 1's at bearing 0."""
    roman: int | None = None
    if view is not None:
        roman = next((i for i, a in enumerate(view.armies) if "roman" in a.lower()), None)
    if roman is None:
        roman = 1 - elephant.side
    return 180.0 if roman == 0 else 0.0


class QuincunxMelee(QuincunxRules):
    """Quincunx, Melee: each side's cast and what a difference does; evasion and the berserk
    elephant's trample."""

    def _melee_cast(
        self,
        unit: Combatant,
        enemy: Combatant,
        *,
        initial: bool = False,
        assaulting: bool = False,
        flank: bool = False,
        downhill: bool = False,
        volleyed: bool = False,
        wood_edge: bool = False,
        crossing: bool = False,
        penalty: int = 0,
        leader: str = "attached",
        elephant_round: int = 0,
    ) -> tuple[Cast, dict[str, Scalar]]:
        """Quincunx, Melee Matrix: the die of the unit's track for its rings, read right by
        the column shifts (skirmish mode, peltast volley, wood edge, stream far shore,
        attrition 50%/33%), plus the modifiers (mounted +1, on the enemy flank +2, downhill
        +1, leader +1/+2, fury or spear phalanx +1 and pike +1d6 on an initial attack,
        elephants +2/+1/+0 against a new target when they assault it -- ``assaulting``: the
        unit is the attacker of the melee (errata "elephant-bonus-on-assault") -- and -1 for
        a lost pre-melee volley). Returns the cast and the extra the unit keeps (the
        elephants' round count against this target, kept whichever side attacked)."""
        t, st, tr = self.t, unit.status, self.troop(unit.troop)
        track = self.track(unit)
        mods = t.melee_modifiers.modifiers
        extra: dict[str, Scalar] = {}
        if st.has(BERSERK):
            return Cast((t.rampage.trample_die,), 0, f"berserk: {t.rampage.trample_die}"), extra
        shifts: list[str] = []
        peltast = tr.light_class == "peltast"
        if peltast and self.skirmishing(unit):
            shifts.append("skirmish_mode")
        if volleyed:
            if not peltast:
                raise ValueError(f"{unit.name} are not peltasts: no javelins before a melee")
            shifts.append(
                "peltast_volley_skirmish" if self.skirmishing(unit) else "peltast_volley_formed"
            )
        if wood_edge:
            shifts.append(t.terrain.woods.melee_column_shift)
        if crossing:
            shifts.append(t.terrain.streams.melee_column_shift)
        if not self.is_elephant(unit):
            rows = attrition_rows(t, st.strength, st.start_strength)
            shifts.extend(r.column_shift for r in rows if r.column_shift is not None)
        counted = effective_shifts(t, shifts)
        shift = combine_shifts(t, counted)
        column = min(st.rings + shift, len(track.dice) - 1)
        dice: tuple[str, ...] = (track.dice[column],)
        words = [f"{track.dice[column]} ({st.rings} ring{'s' if st.rings != 1 else ''}"]
        if shift:
            names = ", ".join(t.column_shifts.shifts[s].situation.lower() for s in counted)
            words[0] += f", {shift} column{'s' if shift != 1 else ''} right: {names}"
        words[0] += ")"
        modifier = 0

        def add(value: int, why: str) -> None:
            nonlocal modifier
            if value:
                modifier += value
                words.append(f"{value:+d} {why}")

        if tr.mounted:
            add(mods["mounted"].modifier, "mounted")
        if flank:
            add(mods["enemy_flank"].modifier, "on the enemy flank")
        if downhill:
            add(mods["downhill"].modifier, "downhill")
        add(self.leader_bonus(unit.leader, leader), "leader")
        if initial:
            add(
                track.initial_attack_bonus,
                "initial attack" + (" (fury)" if "ury" in (track.special or "") else ""),
            )
            if track.initial_attack_extra_die:
                dice = (*dice, track.initial_attack_extra_die)
                words.append(f"+{track.initial_attack_extra_die} initial attack")
        if track.new_target_bonus:
            if elephant_round > 0:
                index = elephant_round - 1
            elif st.extra.get(EL_TARGET) == enemy.unit_id:
                index = int(st.extra.get(EL_ROUNDS, 0))
            else:
                index = 0
            bonus = track.new_target_bonus[index] if index < len(track.new_target_bonus) else 0
            if assaulting or track.new_target_bonus_on == "any":
                add(bonus, f"elephants, round {index + 1} against this target")
            extra = {EL_TARGET: enemy.unit_id, EL_ROUNDS: index + 1}
        add(penalty, "lost the pre-melee volley")
        return Cast(dice, modifier, " ".join(words)), extra

    def _penalty(
        self, unit: Combatant, choice: str, role: str
    ) -> tuple[int, dict[str, Scalar], set[str]]:
        """The pre-melee penalty for this round, and how the record of it changes."""
        pm = self.t.pre_melee
        if choice == "status":
            value = int(unit.status.extra.get(PENALTY, 0))
            if not value:
                return 0, {}, set()
            left = int(unit.status.extra.get(PENALTY_ROUNDS, 1)) - 1
            if left > 0:
                return value, {PENALTY_ROUNDS: left}, set()
            return value, {}, {PENALTY, PENALTY_ROUNDS}
        return (pm.loser_modifier if choice == role else 0), {}, set()

    def _capture(self, a: Combatant, d: Combatant, pool: Sequence[Combatant] = ()) -> Outcome:
        """Quincunx, Attrition: stragglers are captured by an enemy unit of more than 95% of
        its strength (errata "straggler-capture"); otherwise they fall back again (4 MF
        back, or up to a friendly unit behind them)."""
        limit = Fraction(self.t.stragglers.captured_by_enemy_above_percent, 100)
        if a.status.fraction_left > limit:
            return Outcome(
                defender=Effects(eliminated=True, move="captured"), result="stragglers captured"
            )
        shift, retired = self.forced_move(d, retire=True, pool=pool)
        move = f"retires {self._retire_words(retired)}"
        return Outcome(defender=Effects(move=move, shift=shift), result="stragglers fall back")

    def _shy(self, a: Combatant, d: Combatant) -> Outcome | None:
        """Quincunx, Elephants and Horses: cavalry not used to elephants may not attack them
        and withdraws when they advance: no melee takes place."""
        eh = self.t.elephants_and_horses
        for horse, elephant, role in ((a, d, "attacker"), (d, a, "defender")):
            tr = self.troop(horse.troop)
            if tr.mounted and self.is_elephant(elephant) and horse.troop not in eh.exempt_troops:
                eff = Effects(
                    move=f"withdraws {self._mf(eh.keep_away_move_factors)} from the elephants"
                )
                result = "horses shy from the elephants: no melee"
                if role == "attacker":
                    return Outcome(attacker=eff, result=result)
                return Outcome(defender=eff, result=result)
        return None

    def _fight_outcome(self, f: Fight, diff: int) -> FightResult:
        """Quincunx, Melee: every 2 points of difference (``diff``: the attacker's total
        minus the defender's) is a casualty to the lower side; both units take a ring; the
        side that lost casualties recoils 4 MF (12") directly away from the victor, still
        facing it, and takes a second ring (the core moves it: ``Effects.shift``; stragglers
        then retire 4 MF more). Returns the outcome, the winning side (it forced a recoil),
        the units that lost casualties and the words of their losses."""
        known: FightResult | None = f.memo.get(diff)
        if known is None:
            known = f.memo[diff] = self._work_out_fight(f, diff)
        return known

    def _work_out_fight(self, f: Fight, diff: int) -> FightResult:
        t = self.t.melee_resolution
        cas = abs(diff) // t.casualty_divisor
        loser = None if cas == 0 else (f.d if diff > 0 else f.a)
        effects: list[Effects] = []
        labels: list[str] = []
        losers: list[Combatant] = []
        words: list[str] = []
        recoiled = False
        for me, other, role in ((f.a, f.d, "attacker"), (f.d, f.a, "defender")):
            rings = me.rings
            markers = {FOUGHT}
            extra = dict(me.extra)
            remove = set(me.extra_remove)
            move = None
            shift: tuple[float, float] | None = None
            casualties = 0
            eliminated = False
            if cas == 0:
                if f.kind == "melee":
                    extra[MELEE_WITH] = other.unit.unit_id
            else:
                remove.add(MELEE_WITH)
            if me is loser:
                loss = self.loss(me.unit, cas)
                casualties, eliminated = loss.casualties, loss.eliminated
                markers |= loss.markers
                words.extend(loss.words)
                berserk = BERSERK in loss.markers
                parts = [f"loses {casualties}"] if casualties else []
                recoils = me.recoils and not eliminated and not berserk
                if recoils:
                    rings += t.recoil_extra_rings
                    move = f"recoils {self._mf(t.recoil_move_factors)}"
                    parts.append("recoils")
                    recoiled = True
                shift, retired = self.forced_move(
                    me.unit,
                    recoil_from=other.unit if recoils else None,
                    retire=loss.straggler,
                    pool=f.pool,
                )
                if loss.straggler:
                    retire = self._retire_words(retired)
                    move = (move + " and " if move else "") + f"retires as stragglers ({retire})"
                    parts.append("disintegrates")
                if berserk:
                    move = "goes berserk"
                    parts.append("goes berserk (its last elephant)")
                if eliminated:
                    parts.append("is destroyed")
                labels.append(f"{role} " + " and ".join(parts))
                if casualties:
                    losers.append(me.unit)
            elif loser is not None and t.optional_victory_ring_removal and me.recoils:
                rings -= t.rings_per_round
            effects.append(
                Effects(
                    casualties=casualties,
                    rings=rings,
                    markers_add=frozenset(markers),
                    eliminated=eliminated,
                    move=move,
                    shift=shift,
                    extra=extra,
                    extra_remove=frozenset(
                        k for k in remove if k not in extra and k in me.unit.status.extra
                    ),
                )
            )
        result = "; ".join(labels) if labels else "no decision: the units stay in contact"
        winner: Side | None = None
        if loser is not None and recoiled and f.kind == "melee":
            winner = f.d.unit.side if loser is f.a else f.a.unit.side
        return Outcome(effects[0], effects[1], result), winner, tuple(losers), tuple(words)

    def _evade_outcome(self, sit: Situation, allowance: int, diff: int) -> Outcome:
        """Quincunx, Movement: the skirmishers withdraw one MF per point they cast above the
        attacker, within their normal move; they evade only if they cast higher (a tie
        fails: errata "evasion-ties"), the margin carries them clear and a route is open;
        the core moves them directly away from the attacker (``Effects.shift``). An evading
        unit cannot move in the next round (chit)."""
        ev = self.t.evasion
        won = diff > 0 or (diff == 0 and ev.ties == "succeed")
        mf = min(max(diff, 0) * ev.move_factors_per_point, allowance)
        if not won or mf < sit.number("needed") or not sit.flag("exit_open"):
            return Outcome(result="evasion fails: the melee follows")
        eff = Effects(
            markers_add=frozenset({EVADED, MOVED}),
            move=f"evades {self._mf(mf)}",
            # withdrawn directly away from the attacker, by the move factors it cast
            shift=(away_bearing(sit.defender, sit.attacker), mf * self._per_mf) if mf else None,
            extra={EVADED_ROUNDS: ev.rounds_without_moving_after},
        )
        return Outcome(attacker=eff, result=f"evades {mf} MF")

    def _trample_fight(
        self, elephant: Combatant, target: Combatant, pool: Sequence[Combatant] = ()
    ) -> Fight:
        """Quincunx, Rampage Chart: the berserk elephant fights a melee with d12+2 against
        any unit in its path, friend or foe; the unit casts its own melee die. The unit takes
        a ring (and recoils directly away from the elephant if it loses); the elephant loses
        hits if it is the lower side. ``pool``: the units on the table (stragglers made by
        the trample retire up to a friendly unit behind them)."""
        if not self.is_elephant(elephant):
            raise ValueError(f"{elephant.name} is not an elephant unit")
        if target.status.eliminated or target.unit_id == elephant.unit_id:
            raise ValueError(f"{target.name} cannot be trampled")
        t = self.t
        e_cast = Cast((t.rampage.trample_die,), 0, f"berserk: {t.rampage.trample_die}")
        if target.status.has(STRAGGLER):
            d_cast = Cast((), 0, "stragglers: no combat ability (0)")
        else:
            d_cast, _ = self._melee_cast(target, elephant)
        ring = t.melee_resolution.rings_per_round
        return Fight(
            "trample",
            Fighter(elephant, e_cast, 0, {}, frozenset(), recoils=False),
            Fighter(target, d_cast, ring, {}, frozenset()),
            tuple(pool),
        )
