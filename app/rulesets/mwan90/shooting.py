"""MWAN #90 missiles on the table: a shot is "a clear shot" within the weapon's range.

When both units stand on the table (their footprints have a size), a shot is refused
beyond the weapon's range (``tables.missiles.ranges``, base edge to base edge), outside a
formed shooter's front arc (``tables.missiles.arc_degrees``; unformed troops shoot all
round), or with no clear line of sight (terrain that blocks sight, other units); pre-melee
javelins only between units in contact. Without positions (odds set by hand) nothing is
checked. Errata "clear-shot", "missile-arc", "pre-melee-javelins". The same numbers give
the map its shooting reach.
"""

from __future__ import annotations

import math

from app.rules.geometry import Point, edge_distance, polygon_distance
from app.rules.geometry import in_front_arc as front_arc
from app.rules.sight import ShotReach, base_points
from app.rules.values import Combatant, Situation, TurnView
from app.rulesets.mwan90.base import MWAN90Base
from app.rulesets.mwan90.rules import CONTACT

MISSILE_RULE = "MWAN #90, Missiles"
#: at most this many stretches of the shooting edge are tried for a clear shot (a unit of
#: more figures shares them out: a search step of Castra's, not a rules number)
MAX_STRETCHES = 24


def on_table(a: Combatant, b: Combatant) -> bool:
    """Both units have a footprint on the table (hand-set odds have none)."""
    return a.footprint.has_size and b.footprint.has_size


def in_front_arc(shooter: Combatant, target: Combatant, arc_degrees: float) -> bool:
    """Some part of ``target``'s base lies ahead of ``shooter``'s front edge, between lines
    drawn ``arc_degrees / 2`` outward from straight ahead at its front corners."""
    return front_arc(shooter.footprint, target.footprint, arc_degrees / 2, front_margin=1e-9)


class MWANShooting(MWAN90Base):
    """Range, arc and sight of MWAN #90 missiles; the map's shooting reach."""

    def weapon_of(self, unit: Combatant) -> tuple[str, float] | None:
        """The unit's missile weapon and its range in inches (the missile table's), or None
        for troops that do not shoot in the missile phase."""
        troop = self.mw_troop(unit.troop)
        if not troop.shoots or not troop.weapons:
            return None
        name = troop.weapons[0].name
        return name, self.t.missiles.ranges[name]

    def fire_arc(self, unit: Combatant) -> int | None:
        """The unit's arc of fire in degrees, or None when it shoots all round (errata
        "missile-arc": unformed troops, or no arc in the data)."""
        m = self.t.missiles
        if m.arc_degrees is None or (m.unformed_all_round and not self.formed(unit)):
            return None
        return m.arc_degrees

    def check_shot(self, sit: Situation, weapon: str, reach: float) -> None:
        """MWAN #90, Missiles: refuse a shot the table shows is not a clear shot in range
        (a ValueError naming the rule); nothing is checked without both footprints."""
        a, d = sit.attacker, sit.defender
        if not on_table(a, d):
            return
        gap = edge_distance(a.footprint, d.footprint)
        if gap > reach + 1e-6:
            raise ValueError(
                f'{MISSILE_RULE}: {d.name} ({d.unit_id}) is {gap:.1f}" from {a.name} '
                f"({a.unit_id}), beyond the {weapon}'s {reach:g}\" range"
            )
        arc = self.fire_arc(a)
        if arc is not None and not in_front_arc(a, d, arc):
            raise ValueError(
                f"{MISSILE_RULE}: {d.name} ({d.unit_id}) is outside the {arc}-degree front "
                f"arc of {a.name} ({a.unit_id}) (errata missile-arc)"
            )
        view = sit.view
        if view is None or not _holds(view, a, d):
            return
        los, blocked = self.line_of_sight(view, a.unit_id, d.unit_id)
        if not los:
            by = ", ".join(_named(view, b) for b in blocked) or "the table"
            raise ValueError(
                f"{MISSILE_RULE}: {a.name} ({a.unit_id}) has no clear shot at {d.name} "
                f"({d.unit_id}): the line of sight is blocked by {by}"
            )

    def clear_shooters(
        self, sit: Situation, reach: float, figures: int
    ) -> tuple[int, int, int] | None:
        """MWAN #90, Missiles: "Toss 1 die per figure with a clear shot", counted from the
        table (errata clear-shot-figures): the shooting edge (a formed unit's front; an
        unformed unit's edge nearest the target) is cut into one stretch per figure (at
        most :data:`MAX_STRETCHES`), and a stretch has a clear shot when its middle is
        within ``reach`` of the target's base and a straight line runs from it to a point
        of that base past nothing that blocks sight. The figures with a clear shot are
        that share of ``figures``, rounded up, at least one when the unit sees the target
        at all. Returns (figures, stretches clear, stretches), or None without positions
        (then every figure shoots unless the player counts fewer)."""
        a, d = sit.attacker, sit.defender
        view = sit.view
        if not on_table(a, d) or figures <= 0:
            return None
        left, right = self._shooting_edge(a, d)
        n = max(1, min(figures, MAX_STRETCHES))
        target = d.footprint.corners()
        ends = base_points(d.footprint)
        blockers = self._blockers(view, a, d) if view is not None and _holds(view, a, d) else []
        clear = 0
        for i in range(n):
            t = (i + 0.5) / n
            p = (left[0] + (right[0] - left[0]) * t, left[1] + (right[1] - left[1]) * t)
            if polygon_distance((p,), target) > reach + 1e-6:
                continue
            if any(not any(k.blocks(p, e) for k in blockers) for e in ends):
                clear += 1
        count = math.ceil(figures * clear / n)
        return max(count, 1), clear, n

    def _shooting_edge(self, a: Combatant, d: Combatant) -> tuple[Point, Point]:
        """The edge a unit shoots from: its front if formed; an unformed unit, shooting all
        round, from the edge whose middle is nearest the target's base."""
        c = a.footprint.corners()
        if self.fire_arc(a) is not None:
            return c[0], c[1]
        target = d.footprint.corners()
        edges = [(c[i - 1], c[i]) for i in range(len(c))]
        return min(
            edges,
            key=lambda e: polygon_distance(
                (((e[0][0] + e[1][0]) / 2, (e[0][1] + e[1][1]) / 2),), target
            ),
        )

    def check_javelins(self, sit: Situation) -> None:
        """MWAN #90, Missiles: pre-melee javelins are thrown only immediately before the
        first round of a melee, so on the table only between units in contact."""
        a, d = sit.attacker, sit.defender
        if not on_table(a, d):
            return
        gap = edge_distance(a.footprint, d.footprint)
        if gap > CONTACT:
            raise ValueError(
                f"{MISSILE_RULE}: pre-melee javelins are thrown only just before a melee, and "
                f'{a.name} ({a.unit_id}) and {d.name} ({d.unit_id}) are {gap:.1f}" apart, '
                "not in contact"
            )

    def shooting_reach(self, view: TurnView, unit_id: str) -> ShotReach | None:
        """MWAN #90, Missiles: bows and slings 15", javelins 9" (from the missile table), in
        the formed unit's 90-degree front arc or all round for skirmishers (errata
        "missile-arc"); None for troops that do not shoot. For the map's overlay."""
        unit = view.unit(unit_id)
        weapon = self.weapon_of(unit)
        if weapon is None:
            return None
        return ShotReach(weapon[1], self.fire_arc(unit), MISSILE_RULE)


def _holds(view: TurnView, a: Combatant, d: Combatant) -> bool:
    ids = {u.unit_id for u in view.units}
    return a.unit_id in ids and d.unit_id in ids


def _named(view: TurnView, blocker: str) -> str:
    """A blocker's id with what it is: a terrain piece's kind, a unit's name."""
    for piece in view.table.terrain:
        if piece.id == blocker:
            return f"the {piece.kind} {piece.id}" + (f' "{piece.name}"' if piece.name else "")
    for u in view.units:
        if u.unit_id == blocker:
            return f"{u.name} ({u.unit_id})"
    return blocker
