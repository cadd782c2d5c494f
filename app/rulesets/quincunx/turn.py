"""Quincunx mechanics: a unit's starting state, the sequence of a turn (initiative, the
berserk elephants' rampage, attrition, rest), move allowances and command range.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.geometry import Point
from app.rules.mechanics import (
    Combatant,
    Dice,
    Effects,
    Resolution,
    Scalar,
    Side,
    Status,
    TurnView,
    UnitChange,
)
from app.rulesets.quincunx.base import QuincunxRules
from app.rulesets.quincunx.rules import (
    ACTIVITY,
    BERSERK,
    EVADED,
    EVADED_ROUNDS,
    FORMED,
    FOUGHT,
    INIT_CAST,
    INIT_DIE,
    MELEE_WITH,
    MOVING,
    NO_FIRE,
    NO_FIRE_ROUNDS,
    OUT_OF_COMMAND,
    PELTAST_VOLLEY,
    SKIRMISH,
    STRAGGLER,
    TO_RAMPAGE,
    WON,
    attrition_rows,
)


class QuincunxTurn(QuincunxRules):
    """Quincunx, Sequence: set-up, the phase hooks of each round, moves and command."""

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
            if any(r.disintegrates for r in attrition_rows(self.t, st.strength, st.start_strength)):
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
