"""Leg VI Carthago mechanics: what every chapter shares (the tables, a unit's Leg VI view,
distances on the table, words), and the morale DPs that spread to friends (Leg VI, Morale
DPs), which most chapters cause.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from app.rules.actions import Throws
from app.rules.measure import from_mm
from app.rules.mechanics import (
    Combatant,
    Effects,
    Mechanics,
    Outcome,
    Resolution,
    Scalar,
    Side,
    Situation,
    TurnView,
    UnitChange,
)
from app.rules.ruleset import Ruleset
from app.rules.schema import ArmyEntry, Category
from app.rulesets.leg_vi.fates import leader_morale_dps
from app.rulesets.leg_vi.schema import Troop, tables, troops
from app.rulesets.leg_vi.tables_schema import Tables
from app.rulesets.leg_vi.units import (
    RETIRING,
    ROUTING,
    SHAKEN,
    LegUnit,
    dp_words,
    leg_unit,
    nearest,
    take_dps,
)

AUTO = ("auto", "yes", "no")


@dataclass
class Pending:
    """DPs and a move gathered for a unit other than the actor and target: a support's share
    of the combat result (``band``) and morale DPs, applied together."""

    morale: int = 0
    band: int = 0
    markers: set[str] = field(default_factory=set)
    formation: str | None = None
    move: str | None = None
    shift: tuple[float, float] | None = None
    unit: Combatant | None = None


def plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def flag(sit: Situation, key: str, default: bool) -> bool:
    return bool(sit.options.get(key, default))


def inches(x: float) -> str:
    return f'{x:g}"'


class LegVIBase(Mechanics):
    """The Leg VI tables and troop types, the helpers every chapter of the rules uses, and
    the morale DPs a loss spreads to friends within 4"."""

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.t: Tables = tables(ruleset)
        self.troop_types: dict[str, Troop] = troops(ruleset)
        self.phase_ids: tuple[str, ...] = tuple(p.id for p in ruleset.turn.phases)

    # ------------------------------------------------------------------ the table

    def footprint(self, entry: ArmyEntry, size: int) -> tuple[float, float]:
        """Leg VI, Unit Organisation: a legion's lines stand "spaced apart on a movement tray
        with a gap between each base so that the 4 bases in each line have a 120mm frontage
        -- the same as 6 bases", with "a gap of up to 1 inch between lines": as wide as its
        widest line at the spaced frontage (``[legion]`` ``line_frontage_mm`` for the
        legion's line of the most bases), and as deep as its lines with the largest gap
        between each two (``line_gap_max``; errata 'legion-footprint'). Other units: bases
        side by side (the core's)."""
        if not entry.lines:
            return super().footprint(entry, size)
        rs = self.ruleset
        lg = self.t.legion
        b = rs.troop(entry.troop).basing
        standard = max(line.bases for line in lg.lines)
        per_base = lg.line_frontage_mm / standard
        front = max(line.bases for line in entry.lines)
        width = from_mm(rs, front * max(per_base, b.frontage_mm))
        depth = from_mm(rs, len(entry.lines) * b.depth_mm)
        return (width, depth + (len(entry.lines) - 1) * lg.line_gap_max)

    def spaced_width(self, c: Combatant) -> tuple[int, float]:
        """A unit's front line as it stands: how many places its width is spread over, and
        a base's own width (a legion's four bases over its 120mm, a line's bases side by
        side), in the ruleset's unit."""
        rs = self.ruleset
        b = rs.troop(c.troop).basing
        base = from_mm(rs, b.frontage_mm)
        u = self.u(c)
        if u.legion:
            slots = self.t.legion.lines[0].bases
        else:
            slots = max(1, round(c.width / base)) if base > 0 else 1
        return slots, base

    # ------------------------------------------------------------------ helpers

    def u(self, c: Combatant) -> LegUnit:
        return leg_unit(c, self.troop_types, self.t)

    def _phase(self, view: TurnView | None) -> str | None:
        if view is None or not 0 <= view.phase < len(self.phase_ids):
            return None
        return self.phase_ids[view.phase]

    def _friends_near(
        self, view: TurnView | None, unit: Combatant, within: float
    ) -> list[Combatant]:
        """Friendly units within ``within`` inches of ``unit`` (not itself, not gone)."""
        if view is None:
            return []
        return [
            o
            for o in view.side_units(unit.side)
            if o.unit_id != unit.unit_id
            and not o.status.eliminated
            and self._distance(unit, o) <= within
        ]

    @staticmethod
    def _distance(a: Combatant, b: Combatant) -> float:
        return nearest(a, (b,))

    def _enemy_distance(
        self, view: TurnView | None, unit: Combatant, unbroken_only: bool = False
    ) -> float:
        if view is None:
            return math.inf
        enemies = [
            o
            for o in view.units
            if o.side != unit.side
            and not o.status.eliminated
            and not (unbroken_only and o.status.has(ROUTING))
        ]
        return nearest(unit, enemies)

    def _enemy_within(self, view: TurnView | None, unit: Combatant, within: float) -> bool:
        """Whether any enemy stands within ``within`` inches of ``unit`` (base edge to base
        edge): :meth:`_enemy_distance` ``<= within``, with a cheap test of the centres
        first, since a move's check asks it of every unit on the table."""
        if view is None:
            return False
        reach = math.hypot(unit.width, unit.depth) / 2 + within
        for o in view.units:
            if o.side == unit.side or o.status.eliminated:
                continue
            if math.hypot(o.x - unit.x, o.y - unit.y) - math.hypot(o.width, o.depth) / 2 > reach:
                continue
            if nearest(unit, (o,)) <= within:
                return True
        return False

    @staticmethod
    def _auto(sit: Situation, key: str, computed: Callable[[], bool]) -> bool:
        value = sit.choice(key, "auto")
        if value == "yes":
            return True
        if value == "no":
            return False
        return computed()

    def _sides(
        self, side: Side, update: dict[str, Scalar]
    ) -> tuple[Mapping[str, Scalar] | None, Mapping[str, Scalar] | None]:
        return (update, None) if side == 0 else (None, update)

    # ------------------------------------------------------------------ morale, moves

    def _morale_others(
        self,
        view: TurnView | None,
        unit: Combatant,
        n: int,
        why: str,
        pending: dict[str, Pending],
        words: list[str],
    ) -> None:
        """Leg VI, morale DPs: friends within 4" of a unit retiring, routed or destroyed, or
        of a leader killed or routed (elephants take none)."""
        if n <= 0:
            return
        within = self.t.morale_dps.triggers["friend_routed"].within or 0.0
        for o in self._friends_near(view, unit, within):
            if self.u(o).elephant:
                continue
            pending.setdefault(o.unit_id, Pending()).morale += n
            words.append(f"{o.name}: {plural(n, 'morale DP')} ({why}).")

    def _finish(self, view: TurnView | None, pending: dict[str, Pending]) -> tuple[UnitChange, ...]:
        """Turn the DPs gathered for other units into effects: a support's share of its
        combat result (DPs, never casualties) and morale DPs (shaken units lose bases)."""
        out = []
        units = {c.unit_id: c for c in view.units} if view else {}
        for uid, p in pending.items():
            c = p.unit or units.get(uid)
            if c is None:
                continue
            u = self.u(c)
            r = take_dps(u, p.band + p.morale, "morale")
            band_only = take_dps(u, p.band, "combat")
            eff = Effects(
                dps=r.dps,
                casualties=max(0, r.casualties - band_only.casualties),
                markers_add=frozenset(p.markers | ({SHAKEN} if r.shaken else set()))
                - c.status.markers,
                formation=p.formation,
                move=p.move,
                shift=p.shift,
            )
            out.append(UnitChange(uid, eff))
        return tuple(out)

    def _dps(self, u: LegUnit, n: int, kind: str) -> Effects:
        r = take_dps(u, n, "morale" if kind == "morale" else "combat")
        return Effects(
            dps=r.dps,
            casualties=r.casualties,
            markers_add=frozenset({SHAKEN}) if r.shaken else frozenset(),
        )

    def _loss_morale(
        self,
        view: TurnView | None,
        c: Combatant,
        eff: Effects,
        changes: dict[str, Pending],
        words: list[str],
    ) -> None:
        """Morale DPs caused by what happened to ``c``: it routed or was destroyed (2 DPs
        within 4" unless light), retired (1 DP if HI or MI), its leader routed with it."""
        u = self.u(c)
        trig = self.t.morale_dps.triggers
        gone = eff.eliminated or eff.casualties >= c.status.strength
        if (ROUTING in eff.markers_add or gone) and not u.light:
            self._morale_others(
                view, c, trig["friend_routed"].dps, f"{c.name} lost", changes, words
            )
        elif RETIRING in eff.markers_add and u.category in (
            Category.HEAVY_INFANTRY,
            Category.MEDIUM_INFANTRY,
        ):
            self._morale_others(
                view, c, trig["friend_retiring"].dps, f"{c.name} retiring", changes, words
            )
        if ROUTING in eff.markers_add and c.leader is not None:
            self._morale_others(
                view,
                c,
                leader_morale_dps(self.t, c.leader),
                f"{c.leader.name} routed",
                changes,
                words,
            )

    def _morale(self, sit: Situation, plan: None, th: Throws) -> Resolution:
        """Leg VI, morale DPs taken at once: 1 for each friendly HI or MI unit retiring
        within 4", 2 for each non-light friend routed or destroyed within 4", 1 for a leader
        killed or routed within 4" (2 for the General), 2 for formed troops burst through by
        rampaging elephants. Elephants take none."""
        c = sit.attacker
        u = self.u(c)
        trig = self.t.morale_dps.triggers
        event = sit.choice("event", "friend_routed")
        if event == "general_lost":
            n = trig["leader_lost"].dps_general or trig["leader_lost"].dps
            label = trig["leader_lost"].event
        else:
            n, label = trig[event].dps, trig[event].event
        if event == "elephant_burst" and not u.formed:
            n = self.t.rampage.burst_through_dps_unformed
        n *= max(1, sit.number("count", 1))
        eff = Effects() if u.elephant else self._dps(u, n, "morale")
        r = take_dps(u, n, "morale")
        return Resolution(
            outcome=Outcome(attacker=eff, result=dp_words(r)),
            explanation=(f"{c.name}: {label}: {dp_words(r)}.",),
        )
