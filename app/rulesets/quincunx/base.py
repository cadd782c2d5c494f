"""Quincunx: the computations on units the mechanics share (troop types, melee tracks,
skirmishing, forced moves, leaders' bonus and moves, move classes, command, losses).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from app.rules.geometry import Point, away_bearing, heading_vector
from app.rules.leader_bonus import BONUS
from app.rules.mechanics import Combatant, LeaderView, Situation, TurnView
from app.rulesets.quincunx.schema import MeleeTrack, MoveClass, Tables, Troop

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset
from app.rulesets.quincunx.geometry import EPS, as_shift, clear_run, command_reach
from app.rulesets.quincunx.rules import (
    BERSERK,
    MOVE_CLASS,
    SKIRMISH,
    STRAGGLER,
    Loss,
    attrition_rows,
    elephant_loss,
    fmt,
)

# --------------------------------------------------------------------------- the rules


class QuincunxRules:
    """The rules of Quincunx as computations on units and tables: no dice are cast and no
    battle is changed here. :class:`QuincunxMechanics` (app/rulesets/quincunx/mechanics.py)
    adds the dice, the words and the phase hooks."""

    ruleset: Ruleset
    t: Tables

    def troop(self, troop_id: str) -> Troop:
        tr = self.ruleset.troop(troop_id)
        if not isinstance(tr, Troop):
            raise TypeError(f"{troop_id!r} is not a Quincunx troop")
        return tr

    def track(self, unit: Combatant) -> MeleeTrack:
        return self.t.melee.tracks[self.troop(unit.troop).melee_track]

    def is_elephant(self, unit: Combatant) -> bool:
        return self.troop(unit.troop).category == "elephant"

    def skirmishing(self, unit: Combatant) -> bool:
        return unit.status.formation == SKIRMISH

    def _phase_id(self, view: TurnView) -> str:
        phases = self.ruleset.turn.phases
        return phases[view.phase].id if 0 <= view.phase < len(phases) else ""

    def _mf(self, mf: float) -> str:
        return f'{fmt(mf)} MF ({fmt(mf * self.t.movement.inches_per_move_factor)}")'

    @staticmethod
    def pool(sit: Situation) -> tuple[Combatant, ...]:
        """The units on the table as the situation shows them: the battle's, else ``others``."""
        return sit.view.units if sit.view is not None else sit.others

    def forced_move(
        self,
        unit: Combatant,
        *,
        recoil_from: Combatant | None = None,
        retire: bool = False,
        pool: Sequence[Combatant] = (),
    ) -> tuple[tuple[float, float] | None, float]:
        """Quincunx, Melee and Attrition: the move the rules make at once, as
        ``Effects.shift``, and how far the stragglers retired. A unit that lost casualties in
        a melee recoils 4 MF directly away from the victor (``recoil_from``: from its centre
        through the loser's), still facing it; stragglers (``retire``) then move back 4 MF,
        or until they meet a friendly unit behind them (one of ``pool``). The distances are
        the tables' (``melee_resolution.recoil_inches``, ``stragglers.retire_inches``)."""
        dx = dy = 0.0
        if recoil_from is not None:
            vx, vy = heading_vector(away_bearing(recoil_from, unit))
            inches = self.t.melee_resolution.recoil_inches
            dx, dy = vx * inches, vy * inches
        retired = 0.0
        if retire:
            back = (unit.facing + 180.0) % 360
            friends = [
                u
                for u in pool
                if u.side == unit.side and u.unit_id != unit.unit_id and not u.status.eliminated
            ]
            start = replace(unit.footprint, x=unit.x + dx, y=unit.y + dy)
            retired = clear_run(start, back, self.t.stragglers.retire_inches, friends)
            vx, vy = heading_vector(back)
            dx, dy = dx + vx * retired, dy + vy * retired
        return as_shift(dx, dy), retired

    def _retire_words(self, inches: float) -> str:
        """'4 MF (12")', or the inches the stragglers went before a friendly unit behind
        stopped them."""
        if inches >= self.t.stragglers.retire_inches - EPS:
            return self._mf(self.t.stragglers.retire_move_factors)
        return f'{fmt(round(inches, 1))}", up to the friendly unit behind'

    def leader_bonus(self, leader: LeaderView | None, choice: str = "attached") -> int:
        """Quincunx, Commanders: an attached leader adds +1 to the unit's missile difference
        or melee die; Hannibal and Scipio +2."""
        lt = self.t.leaders
        if choice == "none" or (choice == "attached" and leader is None):
            return 0
        if choice != "attached":
            return int(choice)
        assert leader is not None
        own = BONUS.number(leader.fields)
        if own:
            return own
        great = any(g.lower() in leader.name.lower() for g in lt.great_leaders)
        return lt.great_leader_bonus if great else lt.attached_bonus

    def _killing_wounds(self) -> int:
        return min(m.wounds for m in self.t.leaders.moves if m.move_factors is None)

    def leader_move(self, leader: LeaderView) -> float:
        """Quincunx, Commanders: a leader moves 4 MF; wounded 2 MF, twice wounded 1 MF
        (errata "leader-wound-move"); a third wound kills (0)."""
        moves = sorted(self.t.leaders.moves, key=lambda m: m.wounds)
        row = moves[0]
        for m in moves:
            if m.wounds <= leader.wounds:
                row = m
        return 0.0 if row.move_factors is None else row.move_factors * self._per_mf

    @property
    def _per_mf(self) -> float:
        return self.t.movement.inches_per_move_factor

    def move_class(self, unit: Combatant) -> MoveClass:
        tr = self.troop(unit.troop)
        classes = self.t.movement.classes
        chosen = str(unit.status.extra.get(MOVE_CLASS, ""))
        if chosen in classes:
            return classes[chosen]
        if self.skirmishing(unit) and tr.movement_skirmish is not None:
            return classes[tr.movement_skirmish]
        return classes[tr.movement]

    def _command(
        self, unit: Combatant, friends: Sequence[Combatant], commander_at: Point | None
    ) -> bool:
        if commander_at is None:
            carriers = [u for u in (unit, *friends) if u.leader is not None]
            if not carriers:
                raise ValueError(
                    f"{unit.name}: no unit of the battlegroup carries its commander; "
                    "give the commander's position"
                )
            commander_at = (carriers[0].x, carriers[0].y)
        c = self.t.command
        return command_reach(unit, friends, commander_at, c.range_inches, c.chain_inches)

    def loss(self, unit: Combatant, casualties: int) -> Loss:
        """Casualties on a unit: figures come off (an elephant unit's crew, then its
        elephant; the last elephant goes berserk); a unit down to 25% disintegrates
        (Quincunx, Attrition); a unit with nothing left is gone."""
        st = unit.status
        if casualties <= 0:
            return Loss(0, frozenset(), False, (), False)
        if self.is_elephant(unit):
            el = elephant_loss(self.t, st.strength, st.start_strength, casualties, st.has(BERSERK))
            words = [f"{unit.name} loses " + ", ".join(el.fallen)] if el.fallen else []
            if el.berserk:
                words.append(f"{unit.name}: the last elephant goes berserk")
            if el.killed:
                words.append(f"{unit.name}: the elephant is killed")
            markers = frozenset({BERSERK}) if el.berserk else frozenset()
            return Loss(el.casualties, markers, el.killed, tuple(words), False)
        lost = min(casualties, st.strength)
        after = st.strength - lost
        words = [f"{unit.name} loses {lost} figure{'s' if lost != 1 else ''} ({after} left)"]
        if after == 0:
            return Loss(lost, frozenset(), True, (*words, f"{unit.name} is destroyed"), False)
        straggler = not st.has(STRAGGLER) and any(
            r.disintegrates for r in attrition_rows(self.t, after, st.start_strength)
        )
        if straggler:
            words.append(f"{unit.name} is down to 25% and disintegrates (stragglers)")
        return Loss(
            lost,
            frozenset({STRAGGLER}) if straggler else frozenset(),
            False,
            tuple(words),
            straggler,
        )
