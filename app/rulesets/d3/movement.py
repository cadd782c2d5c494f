"""D3 Ancients on the table: what each kind of terrain is to each troop, the road bonus,
passing through friends, and which charges the rules allow (one attacker to each side of a
target, no cavalry against elephants, light troops only into a fight already joined).

Every rule comes from the data (``tables.terrain``, ``tables.charges`` and the troop
profiles' ``may_enter``, ``road_bonus``, ``passes_through_friends``, ``may_charge...``);
this module only reads it through the core's movement and contact hooks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.rules.contact import Contact, ContactHow
from app.rules.geometry import Footprint
from app.rules.movement import Breach, TerrainEffect, TerrainSpan
from app.rules.paths import Traced
from app.rules.sight import ShotReach
from app.rules.table import TerrainKind
from app.rules.values import Combatant, TurnView
from app.rulesets.d3.rules import attack_side, has_footprint, in_contact
from app.rulesets.d3.schema import TerrainType
from app.rulesets.d3.turn import D3Turn

#: Castra's terrain kinds as D3's terrain types (``tables.terrain.types``): the source
#: lists streams with rocks and fields as broken ground, and fords as river crossings.
D3_TERRAIN: dict[TerrainKind, str] = {
    "woods": "woods",
    "town": "towns",
    "marsh": "marsh",
    "lake": "lakes",
    "river": "rivers",
    "ford": "river_crossings",
    "broken": "broken_ground",
    "stream": "broken_ground",
    "road": "roads",
    "hill": "hills",
}
#: The source says nothing of sight: woods, towns and hills block it (errata
#: "sight-through-terrain").
BLOCKS_SIGHT = frozenset({"woods", "towns", "hills"})
TERRAIN_RULE = "D3, Terrain"
CHARGE_RULE = "D3, Charges"
ROAD_KINDS = frozenset({"road"})


class D3Movement(D3Turn):
    """The movement and contact hooks of :class:`~app.rules.mechanics.Mechanics` as D3
    Ancients' rules fill them."""

    def terrain_effect(self, unit: Combatant, kind: TerrainKind) -> TerrainEffect:
        """D3, Terrain: no terrain slows a unit; woods only for light infantry and
        warbands, broken ground (and streams) only for infantry, marsh and lakes for
        nobody, rivers only at a bridge or ford; woods and towns are cover."""
        d3 = D3_TERRAIN[kind]
        t: TerrainType = self.t.terrain.types[d3]
        troop = self.troop(unit.troop)
        if t.entry == "all":
            passable = True
        elif t.entry == "listed":
            passable = d3 in troop.may_enter
        else:  # "none"; "crossings": a ford laid on the river is where it is crossed
            passable = False
        note = f"{t.name.lower()}: {t.effect}"
        if not passable and t.entry == "listed":
            note = f"{t.name.lower()}: {troop.name} may not enter ({t.effect})"
        return TerrainEffect(
            passable=passable,
            cost_factor=1.0,
            blocks_los=d3 in BLOCKS_SIGHT,
            cover=t.cover,
            note=note,
            rule=TERRAIN_RULE,
        )

    def allowance_bonus(
        self,
        view: TurnView,
        unit: Combatant,
        traced: Sequence[Traced],
        spans: Sequence[Sequence[TerrainSpan]],
    ) -> float:
        """D3, Terrain: "Units moving all their move on roads add 3" to their move
        distance": every leg that moves runs wholly along road pieces."""
        moving = [(t, s) for t, s in zip(traced, spans, strict=True) if t.distance > 0]
        if not moving:
            return 0.0
        for _t, leg_spans in moving:
            on_road = sum(s.fraction for s in leg_spans if s.piece.kind in ROAD_KINDS)
            if on_road < 1 - 1e-6:
                return 0.0
        return self.troop(unit.troop).road_bonus

    def shooting_reach(self, view: TurnView, unit_id: str) -> ShotReach | None:
        """D3, Shooting: light infantry and light cavalry reach 12", catapults 24", in the
        front arc (lines drawn 45 degrees outward from the front corners, so 90 degrees in
        all); None for troops that do not shoot. For the map's overlay."""
        troop = self.troop(view.unit(unit_id).troop)
        if troop.shoot_hits is None or not troop.weapons:
            return None
        reach = max(w.long_range for w in troop.weapons)
        return ShotReach(reach, 2 * self.t.shooting.front_arc_degrees, "D3, Shooting")

    def may_pass_through(self, view: TurnView, unit: Combatant, other: Combatant) -> bool:
        """D3, Movement: only light infantry may pass through friendly units."""
        return self.troop(unit.troop).passes_through_friends

    def _sides_taken(self, view: TurnView, unit: Combatant, target: Combatant) -> dict[str, str]:
        """The sides of ``target`` that already have their attacker (D3, Charges: "Only one
        attacking unit can contact each side of an enemy unit"): side -> who is there."""
        limit = self.t.charges.max_attackers_per_side
        there: dict[str, list[Combatant]] = {}
        for u in view.units:
            if (
                u.side == unit.side
                and u.unit_id != unit.unit_id
                and not u.status.eliminated
                and has_footprint(u)
                and in_contact(u, target)
            ):
                there.setdefault(attack_side(target, u), []).append(u)
        return {
            side: ", ".join(f"{u.name} ({u.unit_id})" for u in us)
            for side, us in there.items()
            if len(us) >= limit
        }

    def contact_poses(
        self, view: TurnView, unit: Combatant, target: Combatant
    ) -> list[tuple[ContactHow, Footprint]]:
        """D3, Charges: the core's poses, less those on a side of the target that already
        has its one attacker."""
        poses = super().contact_poses(view, unit, target)
        taken = self._sides_taken(view, unit, target)
        if not taken:
            return poses
        return [
            (how, pose)
            for how, pose in poses
            if attack_side(target, replace(unit, x=pose.x, y=pose.y, facing=pose.facing))
            not in taken
        ]

    def contact(self, view: TurnView, unit_id: str, target_id: str) -> Contact:
        """D3, Charges: the core finds the path into contact on a side of the target still
        free; the charge is refused when every side it could reach has its attacker, or
        when the troop may not charge this target now (cavalry against elephants, light
        troops against an enemy not already in combat, a unit that may not move, a broken
        army)."""
        found = super().contact(view, unit_id, target_id)
        unit, target = view.unit(unit_id), view.unit(target_id)
        breaches = list(found.breaches)
        problem = self.may_charge(unit, target, view)
        if problem is not None:
            breaches.append(Breach(CHARGE_RULE, problem))
        if found.path is None:
            taken = self._sides_taken(view, unit, target)
            if taken:
                sides = "; ".join(f"{s.replace('_', ' ')}: {w}" for s, w in sorted(taken.items()))
                breaches.append(
                    Breach(
                        CHARGE_RULE,
                        f"only one attacking unit may contact each side of an enemy, and "
                        f"the sides of {target.name} ({target_id}) it could reach are taken "
                        f"({sides})",
                    )
                )
        if len(breaches) == len(found.breaches):
            return found
        return replace(found, breaches=tuple(breaches))
