"""Quincunx (Duke Seifried, 1999): the battle mechanics.

Every number comes from ``tables.toml`` through :func:`app.rulesets.quincunx.schema.tables`;
the errata (``errata.toml``) say how garbled or silent passages were read, and this module
follows them. The rules as computations without dice (the melee cast by rings and shifts,
the outcome of a difference, missile dice, losses and elephant crews, geometry for command
and the rampage path) live in :mod:`app.rulesets.quincunx.rules` (``QuincunxRules``,
which this class extends); this module casts the dice, counts the exact odds, writes the
explanations and provides the phase hooks.

State kept on units (``Status``):

- ``rings``: rounds of melee fought without rest (the melee matrix column).
- markers set by the actions for the round's rest check: ``fought``, ``fired``, ``shot_at``
  (the core adds ``moved``); chits ``evaded`` (may not move next round) and ``no_fire``
  (pass-through fire: may not fire next round); ``straggler`` (25%: no combat value),
  ``berserk`` (the last elephant), ``to_rampage`` (a berserk elephant still to rampage this
  turn), ``out_of_command`` (set by the command check).
- ``extra``: ``melee_with`` (still in contact after an undecided round), ``elephant_target``
  and ``elephant_rounds`` (rounds against the current target), ``pre_melee_penalty`` and
  ``pre_melee_rounds`` (the lost pila volley), ``volley_used``, ``peltast_volley`` (loosed
  javelins before the melee), ``evaded_rounds``, ``no_fire_rounds``, ``move_class``
  (moving with a battleline or an elephant battlegroup).

Sides' records: ``initiative_die`` (d10 or d12), ``initiative_cast``, ``won_melee`` (forced
a recoil this turn: d12 next turn) and ``moving`` (this side moves in this round).

Rounds: a Quincunx turn is two rounds (move and counter-move: ``rounds_per_turn = 2``, the
core runs the phases once per round and says which in ``TurnView.round``). The initiative
phase casts the dice only in the first round; the rest phase ends a round and hands the next
one to the other side.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction

from app.rules.geometry import Point
from app.rules.mechanics import (
    ActionSpec,
    Combatant,
    Dice,
    Effects,
    LeaderEvent,
    Mechanics,
    Odds,
    Outcome,
    Resolution,
    Scalar,
    Side,
    SideUpdate,
    Situation,
    Status,
    TurnView,
    UnitChange,
    Victory,
)
from app.rules.ruleset import Ruleset
from app.rulesets.quincunx import rules as qr
from app.rulesets.quincunx.rules import (
    ACTIVITY,
    BERSERK,
    DISTANCE,
    EVADED,
    EVADED_ROUNDS,
    FORMED,
    FOUGHT,
    HEADING,
    INIT_CAST,
    INIT_DIE,
    MELEE_WITH,
    MOVE_CLASS,
    MOVED,
    MOVING,
    NO_FIRE,
    NO_FIRE_ROUNDS,
    OUT_OF_COMMAND,
    PELTAST_VOLLEY,
    SKIRMISH,
    STRAGGLER,
    TO_RAMPAGE,
    WON,
    Cast,
    Fight,
    Fighter,
    QuincunxRules,
    fmt,
)
from app.rulesets.quincunx.schema import Tables, tables


def _sides(side: Side, mine: SideUpdate, other: SideUpdate) -> tuple[SideUpdate, SideUpdate]:
    return (mine, other) if side == 0 else (other, mine)


class QuincunxMechanics(QuincunxRules, Mechanics):
    """Quincunx: initiative, missilery, pre-melee volleys, melee by rings, rest, attrition,
    evasion, elephants and their rampage, leaders' bonus and risk, command range."""

    engine = "quincunx"
    strength_unit = "figures"
    #: Quincunx, Sequence: each turn is two rounds, move and counter-move.
    rounds_per_turn = 2

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.t: Tables = tables(ruleset)
        self._actions: tuple[ActionSpec, ...] | None = None

    # ------------------------------------------------------------------ set-up

    def initial_status(self, troop: str, size: int, grade: str | None) -> Status:
        """A fresh unit: figures (an elephant unit's casualty points, errata
        "elephant-unit-size"), no rings; skirmish-only troops in skirmish mode, the rest
        (peltasts included) formed."""
        tr = self.troop(troop)
        formation = SKIRMISH if tr.formation == SKIRMISH else FORMED
        return Status(strength=size, start_strength=size, grade=grade, formation=formation)

    def start_battle(self, view: TurnView, dice: Dice) -> Resolution:
        """Quincunx, Sequence: at game start each side is given a d10."""
        rec: dict[str, Scalar] = {INIT_DIE: self.t.initiative.die, WON: False}
        return Resolution(sides=(dict(rec), dict(rec)))

    # ------------------------------------------------------------------ turn

    def begin_phase(self, view: TurnView, dice: Dice) -> Resolution:
        pid = self._phase_id(view)
        if pid == "initiative":
            return self._initiative(view, dice)
        if pid == "rampage":
            return self._mark_rampages(view)
        return Resolution()

    def end_phase(self, view: TurnView, dice: Dice) -> Resolution:
        pid = self._phase_id(view)
        if pid == "attrition":
            return self._attrition_sweep(view)
        if pid == "rest":
            return self._rest(view)
        return Resolution()

    @staticmethod
    def _round(view: TurnView) -> int:
        return view.round

    def _initiative(self, view: TurnView, dice: Dice) -> Resolution:
        """Quincunx, Sequence: each side casts a d10, or a d12 if it won a melee (forced a
        recoil) in either round of the last turn; the higher chooses move or counter-move;
        equal casts are cast again (errata "initiative-ties"). In the second round of a turn
        nothing is cast: the other side takes its round."""
        ini = self.t.initiative
        names = view.side_names
        if self._round(view) == 2:
            mover: Side = 0 if view.sides[0].get(MOVING) else 1
            return Resolution(
                initiative=view.initiative,
                explanation=(f"Second round of the turn: {names[mover]} moves (counter-move).",),
            )
        dies = tuple(ini.die_after_melee_win if rec.get(WON) else ini.die for rec in view.sides)
        lines: list[str] = []
        while True:
            casts = [dice.roll(dies[s], f"initiative for {names[s]}")[0] for s in (0, 1)]
            lines.append(
                f"Initiative: {names[0]} casts {dies[0]} = {casts[0]}, "
                f"{names[1]} casts {dies[1]} = {casts[1]}."
            )
            if casts[0] != casts[1]:
                break
            lines.append("Equal casts: both cast again.")
        winner: Side = 0 if casts[0] > casts[1] else 1
        lines.append(f"{names[winner]} wins and chooses to move or counter-move (moves first).")
        recs: list[dict[str, Scalar]] = [
            {INIT_DIE: dies[s], INIT_CAST: casts[s], WON: False, MOVING: s == winner}
            for s in (0, 1)
        ]
        return Resolution(sides=(recs[0], recs[1]), initiative=winner, explanation=tuple(lines))

    def _mark_rampages(self, view: TurnView) -> Resolution:
        """Quincunx, Rampage Chart: a berserk elephant rampages every turn until it leaves
        the table (once per turn, after initiative: errata "round-order")."""
        if self._round(view) != 1:
            return Resolution()
        mad = [u for u in view.units if u.status.has(BERSERK) and not u.status.eliminated]
        return Resolution(
            others=tuple(
                UnitChange(u.unit_id, Effects(markers_add=frozenset({TO_RAMPAGE}))) for u in mad
            ),
            explanation=tuple(f"{u.name} is berserk and must rampage this turn." for u in mad),
        )

    def _attrition_sweep(self, view: TurnView) -> Resolution:
        """Quincunx, Attrition: a unit down to 25% disintegrates: it retires 4 MF at once (the
        core moves it back, stopping at a friendly unit behind it) and has no combat value (a
        straggler). Elephants use their own attrition."""
        changes, lines = [], []
        for u in view.units:
            st = u.status
            if st.eliminated or st.has(STRAGGLER) or self.is_elephant(u):
                continue
            if any(
                r.disintegrates for r in qr.attrition_rows(self.t, st.strength, st.start_strength)
            ):
                shift, retired = self.forced_move(u, retire=True, pool=view.units)
                move = f"retires as stragglers ({self._retire_words(retired)})"
                changes.append(
                    UnitChange(
                        u.unit_id,
                        Effects(markers_add=frozenset({STRAGGLER}), move=move, shift=shift),
                    )
                )
                lines.append(f"{u.name} is down to {st.strength} figures and disintegrates.")
        return Resolution(others=tuple(changes), explanation=tuple(lines))

    def _rest(self, view: TurnView) -> Resolution:
        """Quincunx, Melee: a round with no fire, no move, no melee and no missiles received
        removes one ring ("rest"). Clears the round's markers, ages the evasion and
        pass-through chits, and hands the next round to the other side."""
        changes, lines = [], []
        for u in view.units:
            st = u.status
            if st.eliminated:
                continue
            rings = 0
            if not (st.markers & ACTIVITY) and st.rings > 0:
                rings = -min(st.rings, self.t.melee_resolution.rest_removes_rings)
                lines.append(f"{u.name} rests and sheds a ring ({st.rings + rings} left).")
            remove = set(st.markers & ACTIVITY)
            extra: dict[str, Scalar] = {}
            extra_remove = {PELTAST_VOLLEY} & set(st.extra)
            for chit, key in ((EVADED, EVADED_ROUNDS), (NO_FIRE, NO_FIRE_ROUNDS)):
                if st.has(chit):
                    left = int(st.extra.get(key, 0))
                    if left > 0:
                        extra[key] = left - 1
                    else:
                        remove.add(chit)
                        extra_remove.add(key)
            if not st.has(FOUGHT) and MELEE_WITH in st.extra:
                extra_remove.add(MELEE_WITH)
            eff = Effects(
                rings=rings,
                markers_remove=frozenset(remove),
                extra=extra,
                extra_remove=frozenset(extra_remove),
            )
            if not eff.is_empty:
                changes.append(UnitChange(u.unit_id, eff))
        sides: list[dict[str, Scalar]] = [{}, {}]
        if any(MOVING in rec for rec in view.sides):
            for s in (0, 1):
                sides[s][MOVING] = not bool(view.sides[s].get(MOVING))
        return Resolution(
            others=tuple(changes),
            sides=(sides[0] or None, sides[1] or None),
            explanation=tuple(lines),
        )

    def move_allowance(self, unit: Combatant, view: TurnView | None = None) -> float | None:
        """Quincunx, Movement Matrix: move factors x 3 inches by class (skirmishing peltasts
        4 MF, formed 3 MF, 2 MF with a battleline: ``extra["move_class"]``). An evaded unit
        (its chit), an out-of-command unit and an eliminated one cannot move; a berserk
        elephant's move is cast (None)."""
        st = unit.status
        if st.eliminated or st.has(EVADED) or st.has(OUT_OF_COMMAND):
            return 0.0
        if st.has(BERSERK):
            return None
        return self.move_class(unit).move_factors * self._per_mf

    # ------------------------------------------------------------------ command

    def in_command(
        self,
        unit: Combatant,
        view: TurnView,
        commander_at: Point | None = None,
        group: Sequence[str] | None = None,
    ) -> bool:
        """Quincunx, Commanders: within 4 MF of the commander, or a chain of the
        battlegroup's units no more than 2 MF apart. ``group``: the battlegroup's unit ids
        (default: every friendly unit); ``commander_at``: where the commander stands
        (default: the unit of the group he is attached to)."""
        friends = [
            u
            for u in view.units
            if u.side == unit.side
            and u.unit_id != unit.unit_id
            and (group is None or u.unit_id in group)
        ]
        return self._command(unit, friends, commander_at)

    # ------------------------------------------------------------------ actions

    def actions(self) -> Sequence[ActionSpec]:
        if self._actions is None:
            self._actions = qr.action_specs(self.t)
        return self._actions

    def _opts(self, action: str, sit: Situation) -> Situation:
        """The situation with every option filled in (defaults) and checked."""
        spec = self.action(action)
        merged = spec.defaults()
        for key, value in sit.options.items():
            spec.option(key)
            merged[key] = value
        return replace(sit, options=merged)

    def resolve(self, action: str, sit: Situation, dice: Dice) -> Resolution:
        handlers: dict[str, Callable[[Situation, Dice], Resolution]] = {
            "melee": self._resolve_melee,
            "shoot": self._resolve_shoot,
            "pre_melee": self._resolve_pre_melee,
            "evade": self._resolve_evade,
            "trample": self._resolve_trample,
            "rampage": self._resolve_rampage,
            "command_check": self._resolve_command,
            "formation": self._resolve_formation,
            "order": self._resolve_order,
        }
        if action not in handlers:
            self.action(action)  # raises NotImplementedRule naming the known actions
        return handlers[action](self._opts(action, sit), dice)

    def odds(self, action: str, sit: Situation) -> Odds:
        handlers: dict[str, Callable[[Situation], Odds]] = {
            "melee": self._odds_melee,
            "shoot": self._odds_shoot,
            "pre_melee": self._odds_pre_melee,
            "evade": self._odds_evade,
            "trample": self._odds_trample,
        }
        if action not in handlers:
            self.action(action)
            return super().odds(action, sit)
        return handlers[action](self._opts(action, sit))

    def victory(self, view: TurnView) -> Victory | None:
        """Quincunx has no victory rule: the players declare the result."""
        return None

    # ------------------------------------------------------------------ leaders

    def _leader_risk(
        self, units: Sequence[Combatant], dice: Dice
    ) -> tuple[list[LeaderEvent], list[str]]:
        """Quincunx, Commanders: when the unit a leader is attached to loses casualties he
        casts 2d6: double one kills him, any other double wounds him; a third wound kills."""
        events, lines = [], []
        for u in units:
            ld = u.leader
            if ld is None:
                continue
            faces = dice.roll(self.t.leaders.risk_dice, f"risk to {ld.name} with {u.name}")
            status, wounds = qr.leader_fate(faces, ld.wounds, self._killing_wounds())
            text = {
                "killed": f"{ld.name} is killed",
                "wounded": f"{ld.name} is wounded ({wounds} wound{'s' if wounds != 1 else ''})",
                "fit": f"{ld.name} is unhurt",
            }[status]
            lines.append(f"Risk to {ld.name}: 2d6 = {faces[0]}, {faces[1]}: {text}.")
            if status != "fit":
                events.append(LeaderEvent(ld.id, status, wounds, text))
        return events, lines

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

    def _fight_odds(self, f: Fight) -> Odds:
        a_counts, a_den = qr.dice_counts(f.a.cast.dice, f.a.cast.modifier)
        d_counts, d_den = qr.dice_counts(f.d.cast.dice, f.d.cast.modifier)
        by_diff: dict[int, int] = {}
        for av, ac in a_counts.items():
            for dv, dc in d_counts.items():
                by_diff[av - dv] = by_diff.get(av - dv, 0) + ac * dc
        weights: dict[Outcome, int] = {}
        for diff, w in by_diff.items():
            outcome = self._fight_outcome(f, diff, 0)[0]
            weights[outcome] = weights.get(outcome, 0) + w
        den = a_den * d_den
        return {o: Fraction(w, den) for o, w in weights.items()}

    def _cast_dice(self, unit: Combatant, cast: Cast, dice: Dice, why: str) -> tuple[int, str]:
        faces: list[int] = []
        for spec in cast.dice:
            faces.extend(dice.roll(spec, f"{unit.name} {why}"))
        total = cast.total(faces)
        shown = " + ".join(str(x) for x in faces)
        return total, f"{unit.name} casts {cast.words}: {shown} -> {total}."

    def _fight_resolve(self, f: Fight, dice: Dice, why: str) -> Resolution:
        a_total, a_line = self._cast_dice(f.a.unit, f.a.cast, dice, why)
        d_total, d_line = self._cast_dice(f.d.unit, f.d.cast, dice, why)
        outcome, winner, losers, words = self._fight_outcome(f, a_total, d_total)
        lines = [a_line, d_line]
        diff = abs(a_total - d_total)
        cas = diff // self.t.melee_resolution.casualty_divisor
        if cas == 0:
            lines.append(f"Difference {diff}: no casualties; the units stay in contact.")
        else:
            low = f.a.unit if a_total < d_total else f.d.unit
            lines.append(
                f"Difference {diff}: {cas} casualt{'ies' if cas != 1 else 'y'} to {low.name}."
            )
            lines.extend(w + "." for w in words)
            for who, eff in ((f.a.unit, outcome.attacker), (f.d.unit, outcome.defender)):
                if eff.move:
                    lines.append(f"{who.name} {eff.move}.")
        lines.append(f"Result: {outcome.result}.")
        events, risk = self._leader_risk(losers, dice)
        lines.extend(risk)
        sides: tuple[SideUpdate, SideUpdate] = (None, None)
        if winner is not None:
            sides = _sides(winner, {WON: True}, None)
            lines.append("The winner's side will cast a d12 for the next initiative.")
        return Resolution(
            outcome=outcome, sides=sides, leader_events=tuple(events), explanation=tuple(lines)
        )

    def _resolve_melee(self, sit: Situation, dice: Dice) -> Resolution:
        f = self._melee_setup(sit)
        if isinstance(f, Outcome):
            return Resolution(
                outcome=f, explanation=(f"{sit.attacker.name} v {sit.defender.name}: {f.result}.",)
            )
        return self._fight_resolve(f, dice, "melee die")

    def _odds_melee(self, sit: Situation) -> Odds:
        """Exact odds of a melee round: each side's total distribution (its die, the pike's
        extra d6, modifiers) convolved; the outcome follows from the difference alone."""
        f = self._melee_setup(sit)
        if isinstance(f, Outcome):
            return {f: Fraction(1)}
        return self._fight_odds(f)

    # ------------------------------------------------------------------ missilery

    def _resolve_shoot(self, sit: Situation, dice: Dice) -> Resolution:
        shot = self._shot_setup(sit)
        a, d = sit.attacker, sit.defender
        if isinstance(shot, Outcome):
            return Resolution(outcome=shot, explanation=(f"{a.name} at {d.name}: {shot.result}.",))
        faces = dice.roll(shot.dice, f"{a.name} shooting at {d.name}")
        difference = max(faces) - min(faces)
        outcome, words = self._shot_outcome(shot, difference)
        lines = [
            f"{a.name} shoot at {d.name}: " + "; ".join(shot.words) + ".",
            f"Dice {faces[0]} and {faces[1]}: difference {difference}"
            + (
                f" {shot.modifier:+d} = {max(0, difference + shot.modifier)}"
                if shot.modifier
                else ""
            )
            + f": {outcome.result}.",
            *(w + "." for w in words),
        ]
        losers = (d,) if outcome.defender.casualties else ()
        events, risk = self._leader_risk(losers, dice)
        lines.extend(risk)
        return Resolution(outcome=outcome, leader_events=tuple(events), explanation=tuple(lines))

    def _odds_shoot(self, sit: Situation) -> Odds:
        """Exact odds of a missile volley: the distribution of the difference of the pair."""
        shot = self._shot_setup(sit)
        if isinstance(shot, Outcome):
            return {shot: Fraction(1)}
        counts, den = qr.difference_counts(shot.dice)
        weights: dict[Outcome, int] = {}
        for diff, w in counts.items():
            o = self._shot_outcome(shot, diff)[0]
            weights[o] = weights.get(o, 0) + w
        return {o: Fraction(w, den) for o, w in weights.items()}

    # ------------------------------------------------------------------ pre-melee volley

    def _pre_setup(self, sit: Situation) -> tuple[str | None, str | None] | Outcome:
        a, d = sit.attacker, sit.defender
        if a.side == d.side:
            raise ValueError("the pre-melee volley is cast against an enemy unit")
        if a.status.extra.get(MELEE_WITH) == d.unit_id:
            return Outcome(result="no volley: the melee is already under way")
        dies = (self.volley_die(a), self.volley_die(d))
        if dies == (None, None):
            return Outcome(result="no volley on either side")
        return dies

    def _resolve_pre_melee(self, sit: Situation, dice: Dice) -> Resolution:
        a, d = sit.attacker, sit.defender
        dies = self._pre_setup(sit)
        if isinstance(dies, Outcome):
            return Resolution(outcome=dies, explanation=(f"{a.name} v {d.name}: {dies.result}.",))
        casts = [0, 0]
        lines = []
        for i, (u, die) in enumerate(((a, dies[0]), (d, dies[1]))):
            if die is None:
                lines.append(f"{u.name} have no volley (left) and lose it automatically.")
            elif None not in dies:
                casts[i] = dice.roll(die, f"{u.name} pre-melee volley")[0]
                lines.append(f"{u.name} cast {die} for their volley: {casts[i]}.")
        outcome = self._pre_outcome(sit, dies, casts[0], casts[1])
        lines.append(f"Result: {outcome.result}.")
        return Resolution(outcome=outcome, explanation=tuple(lines))

    def _odds_pre_melee(self, sit: Situation) -> Odds:
        dies = self._pre_setup(sit)
        if isinstance(dies, Outcome):
            return {dies: Fraction(1)}
        a_counts, a_den = qr.dice_counts([dies[0]] if dies[0] else [])
        d_counts, d_den = qr.dice_counts([dies[1]] if dies[1] else [])
        weights: dict[Outcome, int] = {}
        for av, ac in a_counts.items():
            for dv, dc in d_counts.items():
                o = self._pre_outcome(sit, dies, av, dv)
                weights[o] = weights.get(o, 0) + ac * dc
        return {o: Fraction(w, a_den * d_den) for o, w in weights.items()}

    # ------------------------------------------------------------------ evasion

    def _evade_setup(self, sit: Situation) -> tuple[str, str, int]:
        a, d = sit.attacker, sit.defender
        if not self.skirmishing(a):
            raise ValueError(f"{a.name} are not in skirmish mode and cannot evade")
        if self.skirmishing(d):
            raise ValueError(f"{d.name} are skirmishers: only a formed attacker can be evaded")
        ev = self.t.evasion
        return ev.evader_die, ev.attacker_die, self.move_class(a).move_factors

    def _resolve_evade(self, sit: Situation, dice: Dice) -> Resolution:
        a, d = sit.attacker, sit.defender
        e_die, k_die, allowance = self._evade_setup(sit)
        e = dice.roll(e_die, f"{a.name} evading")[0]
        k = dice.roll(k_die, f"{d.name} pursuing")[0]
        outcome = self._evade_outcome(sit, allowance, e - k)
        return Resolution(
            outcome=outcome,
            explanation=(
                f"{a.name} try to evade {d.name}: {e_die} = {e} against {k_die} = {k} "
                f"(need {sit.number('needed')} MF, move {allowance} MF).",
                f"Result: {outcome.result}.",
            ),
        )

    def _odds_evade(self, sit: Situation) -> Odds:
        e_die, k_die, allowance = self._evade_setup(sit)
        e_counts, e_den = qr.dice_counts([e_die])
        k_counts, k_den = qr.dice_counts([k_die])
        weights: dict[Outcome, int] = {}
        for ev, ec in e_counts.items():
            for kv, kc in k_counts.items():
                o = self._evade_outcome(sit, allowance, ev - kv)
                weights[o] = weights.get(o, 0) + ec * kc
        return {o: Fraction(w, e_den * k_den) for o, w in weights.items()}

    # ------------------------------------------------------------------ elephants

    def _resolve_trample(self, sit: Situation, dice: Dice) -> Resolution:
        fight = self._trample_fight(sit.attacker, sit.defender, self.pool(sit))
        return self._fight_resolve(fight, dice, "trample")

    def _odds_trample(self, sit: Situation) -> Odds:
        return self._fight_odds(self._trample_fight(sit.attacker, sit.defender, self.pool(sit)))

    def _resolve_rampage(self, sit: Situation, dice: Dice) -> Resolution:
        """Quincunx, Rampage Chart: cast a d8 for the direction and a d6 for move factors;
        the elephant tramples every unit in its path (nearest first) with d12+2, friend or
        foe; it stops if it is killed. The core moves it along the path (``Effects.shift``;
        ``extra`` records the bearing and the inches), stopping at the table's edge: taking
        it off when it leaves the table is the players' call."""
        el = sit.attacker
        if not el.status.has(BERSERK):
            raise ValueError(f"{el.name} is not a berserk elephant")
        t = self.t
        face = dice.roll(t.rampage.direction_die, f"{el.name} rampage direction")[0]
        name = t.rampage.directions[str(face)]
        bearing = (self.north_bearing(el, sit.view) + qr.COMPASS[name.lower()]) % 360
        mf = sum(dice.roll(t.rampage.move_die, f"{el.name} rampage move factors"))
        inches = mf * self._per_mf
        lines = [
            f"{el.name} rampages: {t.rampage.direction_die} = {face} ({name}), "
            f'{t.rampage.move_die} = {mf} MF ({fmt(inches)}").'
        ]
        pool = sit.others or (sit.view.units if sit.view is not None else ())
        path = qr.units_in_path(el, bearing, inches, pool)
        changes: list[UnitChange] = []
        events: list[LeaderEvent] = []
        lost, killed = 0, False
        for victim in path:
            res = self._fight_resolve(self._trample_fight(el, victim, pool), dice, "trample")
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

    # ------------------------------------------------------------------ small actions

    def _resolve_command(self, sit: Situation, dice: Dice) -> Resolution:
        """Quincunx, Commanders: a unit out of command cannot move (it may still defend
        itself). ``others`` are the other units of the battlegroup."""
        unit = sit.attacker
        at = None
        if sit.flag("commander_detached"):
            at = (float(sit.number("commander_x")), float(sit.number("commander_y")))
        ok = self._command(unit, sit.others, at)
        if ok:
            eff = Effects(markers_remove=frozenset({OUT_OF_COMMAND}))
            result = "in command"
        else:
            eff = Effects(markers_add=frozenset({OUT_OF_COMMAND}))
            result = "out of command: cannot move"
        return Resolution(
            outcome=Outcome(attacker=eff, result=result), explanation=(f"{unit.name} is {result}.",)
        )

    def _resolve_formation(self, sit: Situation, dice: Dice) -> Resolution:
        """Quincunx, Movement and Formations: peltasts are formed (three ranks) or skirmish
        (one or two ranks); units may move with a battleline or an elephant battlegroup."""
        unit = sit.attacker
        tr = self.troop(unit.troop)
        to = sit.choice("to")
        if to != unit.status.formation and tr.formation != "either":
            raise ValueError(f"{unit.name} are always {tr.formation}")
        cls = sit.choice("move_class")
        changed = to != unit.status.formation
        eff = Effects(
            formation=to,
            markers_add=frozenset({MOVED}) if changed else frozenset(),
            extra={} if cls == "own" else {MOVE_CLASS: cls},
            extra_remove=frozenset({MOVE_CLASS}) if cls == "own" else frozenset(),
        )
        text = f"{unit.name}: {to}" + ("" if cls == "own" else f", moving as {cls}")
        return Resolution(outcome=Outcome(attacker=eff, result=text), explanation=(text + ".",))

    def _resolve_order(self, sit: Situation, dice: Dice) -> Resolution:
        """Quincunx, Sequence: the higher initiative cast chooses move or counter-move."""
        if sit.side is None:
            raise ValueError("say which side chooses")
        side: Side = sit.side
        if sit.view is not None and sit.view.initiative not in (None, side):
            raise ValueError("only the side with the initiative chooses")
        first = sit.choice("choose") == "move"
        names = sit.view.side_names if sit.view is not None else ("side 0", "side 1")
        mover = names[side] if first else names[1 - side]
        return Resolution(
            sides=_sides(side, {MOVING: first}, {MOVING: not first}),
            explanation=(
                f"{names[side]} chooses to {'move' if first else 'counter-move'}: "
                f"{mover} moves first.",
            ),
        )
