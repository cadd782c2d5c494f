"""Leg VI Carthago on the table: what terrain is to each troop (Rough Terrain), where moves
stop short of formed enemy and unformed enemy fall back (Movement), the declared range of a
charge, the distance a dice move rolled as the allowance of the move made on the table,
which phase a unit moves in (Playing the Game), the manoeuvre DPs of a path (Manoeuvre), a
pursuit heading for its enemy, and the map's shooting and command reach.

Every number comes from ``tables.toml`` (``movement``, ``rough_terrain`` and its ``kinds``,
``charges``, ``shooting``, ``control_test``, ``sequence``, ``manoeuvres``); the decisions where
the source is silent are the errata 'terrain-kinds', 'sight-and-cover',
'stop-from-formed-enemy', 'light-fall-back', 'charge-move-length',
'rolled-move-on-the-table' and 'manoeuvres-on-the-table'.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

from app.rules.geometry import (
    Footprint,
    convex_hull,
    edge_distance,
    heading_vector,
    polygon_distance,
)
from app.rules.geometry import (
    bearing as bearing_to,
)
from app.rules.movement import TABLE_RULE, Breach, MoveCheck, MoveReason, TerrainEffect
from app.rules.paths import Leg, Path, Traced, end_pose
from app.rules.ruleset import Ruleset
from app.rules.sight import CommandReach, ShotReach
from app.rules.table import TerrainKind
from app.rules.values import Combatant, Effects, Resolution, TurnView, UnitChange
from app.rulesets.leg_vi.base import LegVIBase, inches, plural
from app.rulesets.leg_vi.tables_schema import RoughRow, SequenceStep
from app.rulesets.leg_vi.units import (
    MEASURE,
    PURSUING,
    RETIRING,
    ROLLED_KIND,
    ROLLED_MOVE,
    ROLLED_TURN,
    ROUTING,
    SHAKEN,
    LegUnit,
    take_dps,
)

MOVEMENT_RULE = "Leg VI, Movement"
NON_MARCH_RULE = "Leg VI, Non-March Moves"
MARCH_RULE = "Leg VI, March Move"
TERRAIN_RULE = "Leg VI, Rough Terrain"
CHARGE_RULE = "Leg VI, Charges"
SHOOTING_RULE = "Leg VI, Shooting"
CONTROL_RULE = "Leg VI, Control"
SEQUENCE_RULE = "Leg VI, Playing the Game"
AFTER_COMBAT_RULE = "Leg VI, After Combat Moves"
#: the reason of the move on the table each kind of dice move is made with
KIND_REASON: dict[str, MoveReason] = {
    "move": "move",
    "charge_on": "charge",
    "evade": "evade",
    "rout": "rout",
    "retire": "forced",
    "pursue": "pursuit",
}
#: how the core words passing through an enemy (``LegVIMovement._unit_breaches``)
THROUGH = "would pass through the enemy "
#: the moves made away from the enemy (Evade, Retire, Rout), with the words for them
AWAY: dict[MoveReason, str] = {"evade": "an evade", "forced": "a retirement", "rout": "a rout"}
#: a rolled move shorter than the dice by more than this is the umpire's to confirm, unless
#: it halts this close to 4" from formed enemy (measuring slack, not a rules number)
SLACK = 0.05
EPS = 1e-6


def _radius(c: Combatant | Footprint) -> float:
    return math.hypot(c.width, c.depth) / 2


def _apart(a: Combatant | Footprint, b: Combatant | Footprint) -> float:
    """A cheap lower bound of the edge distance: centres less the bases' half-diagonals."""
    return math.hypot(a.x - b.x, a.y - b.y) - _radius(a) - _radius(b)


class LegVITable(LegVIBase):
    """The movement, contact and measuring hooks of the core as Leg VI's rules fill them."""

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self._terrain_effects: dict[tuple[object, ...], TerrainEffect] = {}

    # ------------------------------------------------------------------ terrain

    def _rough_row(self, u: LegUnit) -> RoughRow:
        """The troop's row of the rough terrain table: unformed infantry have their own."""
        row_id = "unformed_infantry" if u.infantry and u.unformed else u.troop.rough_terrain
        return self.t.rough_terrain.rows[row_id]

    def terrain_dps(self, unit: Combatant, kind: TerrainKind) -> int | None:
        """Leg VI, Rough Terrain: the DPs ``unit`` takes for moving into, through or across
        terrain of ``kind`` (0: none), or None where it cannot go (rough terrain for cavalry
        and elephants, errata 'rough-usually-impassable'; a lake for anyone)."""
        row = self.t.rough_terrain.kinds.get(kind)
        if row is None or row.counts_as == "open":
            return 0
        if row.counts_as == "impassable":
            return None
        troop = self._rough_row(self.u(unit))
        return troop.dps if row.counts_as == "rough" else troop.light_cover_dps

    def terrain_effect(self, unit: Combatant, kind: TerrainKind) -> TerrainEffect:
        """The effect of :meth:`_terrain_effect`, kept per troop, formation, markers and kind
        (a move's check asks it of every piece near every leg)."""
        key = (unit.troop, unit.status.formation, unit.status.markers, kind)
        found = self._terrain_effects.get(key)
        if found is None:
            found = self._terrain_effects[key] = self._terrain_effect(unit, kind)
        return found

    def _terrain_effect(self, unit: Combatant, kind: TerrainKind) -> TerrainEffect:
        """Leg VI, Rough Terrain (errata 'terrain-kinds', 'sight-and-cover'): no terrain
        slows a move; rough terrain costs formed HI 2 DPs, formed MI and triarii 1, unformed
        infantry none, and bars cavalry and elephants; a minor obstacle costs cavalry 1 DP
        and elephants nothing; woods, built-up areas and hills block sight; woods and
        built-up areas are cover."""
        row = self.t.rough_terrain.kinds.get(kind)
        if row is None:
            return TerrainEffect(
                note=f"{kind}: open ground (not Leg VI terrain)", rule=TERRAIN_RULE
            )
        dps = self.terrain_dps(unit, kind)
        if dps is None:
            who = self._rough_row(self.u(unit)).label if row.counts_as != "impassable" else "all"
            note = f"{row.term}: impassable to {who}"
        elif row.counts_as == "open":
            note = f"{row.term}: open ground"
        else:
            note = f"{row.term}: {plural(dps, 'DP')} for {self._rough_row(self.u(unit)).label}"
        return TerrainEffect(
            passable=dps is not None,
            cost_factor=1.0,
            blocks_los=row.blocks_sight,
            cover=row.cover,
            note=note,
            rule=TERRAIN_RULE,
        )

    # ------------------------------------------------------------------ who moves when

    def may_move(self, view: TurnView, unit_id: str, reason: MoveReason) -> Breach | None:
        """The core's answer, then Leg VI, Sequence of Play: light troops move in the
        skirmish phase (II), the others in the manoeuvre phase (III), charges are made in
        the charge phase (IV) (``[sequence]`` steps' ``moves`` and ``charges``); pursuers
        charge new enemy whenever they meet them. Evades, responses, forced moves, routs and
        pursuits go when the rules send them."""
        found = super().may_move(view, unit_id, reason)
        if found is not None or reason not in ("move", "charge"):
            return found
        if not 0 <= view.phase < len(self.t.sequence.steps):
            return None
        step = self.t.sequence.steps[view.phase]
        unit = view.unit(unit_id)
        who = f"{unit.name} ({unit_id})"
        if reason == "charge":
            if step.charges or unit.status.has(PURSUING):
                return None
            phases = [s for s in self.t.sequence.steps if s.charges]
            return Breach(
                SEQUENCE_RULE,
                f"{who} may charge only in the {_phase_names(phases)}, not in the "
                f"{step.name.lower()} phase",
            )
        kind = "light" if self.u(unit).light else "others"
        if kind in step.moves:
            return None
        phases = [s for s in self.t.sequence.steps if kind in s.moves]
        troops = "light troops move" if kind == "light" else "troops other than light move"
        return Breach(
            SEQUENCE_RULE,
            f"{who}: {troops} in the {_phase_names(phases)}, not in the {step.name.lower()} phase",
        )

    # ------------------------------------------------------------------ allowances

    def rolled(self, view: TurnView, unit: Combatant, reason: MoveReason) -> float | None:
        """The allowance a dice move rolled this turn gives a move for ``reason`` (what the
        unit had moved when it rolled, plus the dice), or None (errata
        'rolled-move-on-the-table')."""
        extra = unit.status.extra
        if extra.get(ROLLED_TURN) != view.turn:
            return None
        if KIND_REASON.get(str(extra.get(ROLLED_KIND))) != reason:
            return None
        value = extra.get(ROLLED_MOVE)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        return float(value)

    def move_allowance_for(
        self, view: TurnView, unit: Combatant, reason: MoveReason
    ) -> float | None:
        """Leg VI, Move Distances: the dice a unit rolled this turn for this kind of move;
        else a move is its march move (beyond 8" of enemy) or dice decide (None, the umpire
        confirms); a charge without carried-on dice is not measured (errata
        'charge-move-length'); evades, routs, retirements (forced moves) and pursuits go
        as far as their dice."""
        rolled = self.rolled(view, unit, reason)
        if rolled is not None:
            return rolled
        if reason == "move":
            return self.move_allowance(unit, view)
        return None

    # ------------------------------------------------------------------ the check

    def check_move(
        self,
        view: TurnView,
        unit_id: str,
        path: Path,
        *,
        reason: MoveReason = "move",
        target: str | None = None,
    ) -> MoveCheck:
        """The checks of the chapters before, then Leg VI's own: a move may not come within
        4" of formed enemy (errata 'stop-from-formed-enemy'); a march move ends beyond 8" of
        enemy; a rolled move is made in full unless it halts 4" from formed enemy (the
        umpire confirms a shorter one); a rolled evade, retirement (a forced move) or rout
        moves away from the enemy; a charge starts within 4" of its target and is not
        measured against an allowance unless carried on with dice; elephants pass through
        unformed enemy."""
        found = super().check_move(view, unit_id, path, reason=reason, target=target)
        unit = view.unit(unit_id)
        who = f"{unit.name} ({unit_id})"
        mv = self.t.movement
        rolled = self.rolled(view, unit, reason)
        more: list[Breach] = []
        if reason == "charge":
            if rolled is None:
                found = _without_allowance(found, f"{self.ruleset.meta.short_name}, movement")
                if target is not None:
                    more += self._charge_range(view, unit, target)
            return found.with_breaches(*more) if more else found
        if self.u(unit).elephant:
            found = self._through_unformed(view, found)
        march = reason == "move" and rolled is None and bool(found.allowance)
        near_formed, near_any = self._enemy_scan(view, unit, found, reason, march, more)
        if march and near_any <= mv.march_beyond + EPS:
            more.append(
                Breach(
                    MARCH_RULE,
                    f"{who} would end a march move {inches(round(near_any, 1))} from enemy: a "
                    f"march move begins and ends beyond {inches(mv.march_beyond)} of enemy",
                )
            )
        if reason in AWAY and rolled is not None:
            more += self._away(view, unit, found, reason)
        if reason == "pursuit":
            more += self._toward(view, unit, found, target)
        if rolled is not None and found.left is not None and found.cost < found.left - SLACK:
            halted = abs(near_formed - mv.stop_from_enemy) <= SLACK
            if not halted and not self._halted_short(view, unit, found.end):
                more.append(
                    Breach(
                        NON_MARCH_RULE,
                        f'{who} rolled {found.left:.1f}" and moves {found.cost:.1f}": a dice '
                        f"move is made in full unless it halts {inches(mv.stop_from_enemy)} "
                        f"from formed enemy (or {inches(mv.may_halt_short_of)} short of "
                        "friends or rough terrain: the umpire's call)",
                        "confirm",
                    )
                )
        return found.with_breaches(*more) if more else found

    def snap_drag(
        self,
        view: TurnView,
        unit_id: str,
        legs: tuple[Leg, ...],
        fixed: int,
        reason: MoveReason,
    ) -> tuple[Leg, ...]:
        """Leg VI, Non-March Moves: "The full distance must be moved except that movement
        must halt at 4" from formed enemy": a unit dragged after a dice move goes its full
        rolled distance (the drag's legs scaled to it); and a move that the drag takes
        within 4" of formed enemy ends exactly where it reaches 4" (to a ten-thousandth of
        an inch on the legal side), so that a charge may then be declared from there."""
        drag = legs[fixed:]
        if not drag or any(leg.kind not in ("straight", "sideways", "to") for leg in drag):
            return legs
        unit = view.unit(unit_id)
        start = end_pose(unit.footprint, legs[:fixed])

        def scaled(t: float) -> tuple[Leg, ...]:
            out = list(legs[:fixed])
            for leg in drag:
                if leg.kind == "to" and leg.x is not None and leg.y is not None:
                    x = start.x + (leg.x - start.x) * t
                    y = start.y + (leg.y - start.y) * t
                    out.append(Leg.to(round(x, 4), round(y, 4), leg.facing))
                else:
                    out.append(replace(leg, distance=math.trunc(leg.distance * t * 1e4) / 1e4))
            return tuple(out)

        def check(t: float) -> MoveCheck:
            return self.check_move(view, unit_id, Path(scaled(t)), reason=reason)

        t = 1.0
        found = check(t)
        rolled = self.rolled(view, unit, reason)
        if rolled is not None and found.left is not None:
            before = (
                self.check_move(view, unit_id, Path(legs[:fixed]), reason=reason).cost
                if fixed
                else 0.0
            )
            dragged = found.cost - before
            if dragged > EPS:
                t = max(0.0, (found.left - before) / dragged)
                found = check(t)
        if reason != "move" or not self._too_near(found):
            return scaled(t) if t != 1.0 else legs
        stop = self.t.movement.stop_from_enemy
        formed = [
            o.footprint
            for o in view.units
            if o.side != unit.side and not o.status.eliminated and o.width > 0 and self.u(o).formed
        ]

        def near(t: float) -> bool:
            found = check(t)
            gap = min((edge_distance(found.end, f) for f in formed), default=math.inf)
            return self._too_near(found) or gap < stop - 1e-7

        lo, hi = 0.0, t
        if self._too_near(check(lo)):
            return legs  # too near already where the drag starts: the refusal says why
        for _ in range(20):
            mid = (lo + hi) / 2
            if near(mid):
                hi = mid
            else:
                lo = mid
        return scaled(lo)

    @staticmethod
    def _too_near(found: MoveCheck) -> bool:
        """Whether the move breaks the 4" rule (Leg VI, Movement)."""
        return any(
            b.rule == MOVEMENT_RULE and "from the formed enemy" in b.text for b in found.breaches
        )

    def _halted_short(self, view: TurnView, unit: Combatant, end: Footprint) -> bool:
        """Leg VI, Non-March Moves: whether the end pose stands 4" short of a friend or of
        rough terrain (a piece that costs the unit DPs, or it may not enter), base edge to
        the piece's edge, to a twentieth of an inch."""
        short = self.t.movement.may_halt_short_of
        corners = end.corners()
        for other in view.units:
            if other.side != unit.side or other.unit_id == unit.unit_id:
                continue
            if other.status.eliminated or other.width <= 0 or _apart(end, other) > short + 1:
                continue
            if abs(polygon_distance(corners, other.footprint.corners()) - short) <= SLACK:
                return True
        for piece in view.table.terrain:
            if self.terrain_dps(unit, piece.kind) == 0:
                continue
            pts = piece.points if piece.linear else (*piece.points, piece.points[0])
            gap = min(polygon_distance(corners, (a, b)) for a, b in itertools.pairwise(pts))
            if piece.linear:
                gap = max(0.0, gap - piece.half_width)
            if abs(gap - short) <= SLACK:
                return True
        return False

    def _through_unformed(self, view: TurnView, found: MoveCheck) -> MoveCheck:
        """Leg VI, Movement and Phase III: elephants pass harmlessly through unformed enemy
        (light troops): the core's refusal to pass through those enemy is dropped (ending
        on top of them is still refused)."""
        passed = [b for b in found.breaches if b.rule == TABLE_RULE and THROUGH in b.text]
        if not passed:
            return found
        unformed = {
            f"{THROUGH}{o.name} ({o.unit_id}) (leg"
            for o in view.units
            if o.side != view.unit(found.unit_id).side and self.u(o).unformed
        }
        kept = tuple(
            b
            for b in found.breaches
            if not (b.rule == TABLE_RULE and any(w in b.text for w in unformed))
        )
        return replace(found, breaches=kept)

    def _away(
        self, view: TurnView, unit: Combatant, found: MoveCheck, reason: MoveReason
    ) -> list[Breach]:
        """Leg VI, Move Distances and After Combat Moves: an evade, a retirement or a rout
        is a move away from the enemy: it must end farther from the nearest enemy than it
        began."""
        enemies = [
            o for o in view.units if o.side != unit.side and not o.status.eliminated and o.width > 0
        ]
        if not enemies:
            return []
        start = min(edge_distance(unit.footprint, o.footprint) for o in enemies)
        end = min(edge_distance(found.end, o.footprint) for o in enemies)
        if end > start + EPS:
            return []
        return [
            Breach(
                AFTER_COMBAT_RULE,
                f'{unit.name} ({unit.unit_id}) would end {end:.1f}" from the nearest enemy, '
                f'{start:.1f}" before: {AWAY[reason]} moves away from the enemy',
            )
        ]

    def _toward(
        self, view: TurnView, unit: Combatant, found: MoveCheck, target: str | None
    ) -> list[Breach]:
        """Leg VI, After Combat Moves: a pursuit is made "in an attempt to remain in contact
        with opponent who routed or retired": it must end nearer than it began to the unit
        pursued (``target``, else the nearest enemy routing or retiring, else the nearest
        enemy)."""
        enemies = [
            o for o in view.units if o.side != unit.side and not o.status.eliminated and o.width > 0
        ]
        if target is not None:
            enemies = [o for o in enemies if o.unit_id == target] or enemies
        else:
            fleeing = [o for o in enemies if o.status.markers & {ROUTING, RETIRING}]
            enemies = fleeing or enemies
        if not enemies:
            return []
        pursued = min(enemies, key=lambda o: edge_distance(unit.footprint, o.footprint))
        start = edge_distance(unit.footprint, pursued.footprint)
        end = edge_distance(found.end, pursued.footprint)
        if end < start - EPS or start <= MEASURE:
            return []
        return [
            Breach(
                AFTER_COMBAT_RULE,
                f'{unit.name} ({unit.unit_id}) would end {end:.1f}" from {pursued.name} '
                f'({pursued.unit_id}), {start:.1f}" before: a pursuit heads for the enemy it '
                "pursues",
            )
        ]

    def _charge_range(self, view: TurnView, unit: Combatant, target_id: str) -> list[Breach]:
        """Leg VI, Charges: only against enemy within 4" (base edge to base edge)."""
        target = view.unit(target_id)
        reach = self.t.charges.range
        gap = edge_distance(unit.footprint, target.footprint)
        if gap <= reach + MEASURE:
            return []
        return [
            Breach(
                CHARGE_RULE,
                f'{unit.name} ({unit.unit_id}) is {gap:.1f}" from {target.name} '
                f"({target_id}): charges are declared only against enemy within "
                f"{inches(reach)}",
            )
        ]

    def _enemy_scan(
        self,
        view: TurnView,
        unit: Combatant,
        found: MoveCheck,
        reason: MoveReason,
        march: bool,
        out: list[Breach],
    ) -> tuple[float, float]:
        """One pass over the enemy near the path: a move coming closer than 4" to a formed
        enemy (at any point of its path, unless it started closer and comes no closer) adds
        a forbidden breach to ``out``. Returns the end pose's distance to the nearest formed
        enemy and to the nearest enemy of any kind (within the march distance; beyond it,
        infinity; only a march looks that far)."""
        mv = self.t.movement
        stop = mv.stop_from_enemy
        reach = max(stop, mv.march_beyond) if march else stop + SLACK
        traced = found.traced
        boxes = [t.bbox for t in traced]
        x0 = min(b[0] for b in boxes) - reach
        y0 = min(b[1] for b in boxes) - reach
        x1 = max(b[2] for b in boxes) + reach
        y1 = max(b[3] for b in boxes) + reach
        end_corners = found.end.corners()
        start_corners = unit.footprint.corners()
        near_formed = near_any = math.inf
        for other in view.units:
            if other.side == unit.side or other.status.eliminated or other.width <= 0:
                continue
            r = _radius(other)
            if other.x + r < x0 or other.x - r > x1 or other.y + r < y0 or other.y - r > y1:
                continue
            corners = other.footprint.corners()
            d_end = polygon_distance(end_corners, corners)
            near_any = min(near_any, d_end)
            if not self.u(other).formed:
                continue
            near_formed = min(near_formed, d_end)
            if reason != "move":
                continue
            limit = min(stop, polygon_distance(start_corners, corners))
            closest = d_end
            if closest >= limit - MEASURE:
                closest = min(
                    (
                        polygon_distance(poly, corners)
                        for t, box in zip(traced, boxes, strict=True)
                        if box[0] - stop <= other.x + r and other.x - r <= box[2] + stop
                        if box[1] - stop <= other.y + r and other.y - r <= box[3] + stop
                        for poly in t.swept
                    ),
                    default=closest,
                )
            if closest < limit - MEASURE:
                out.append(
                    Breach(
                        MOVEMENT_RULE,
                        f'{unit.name} ({unit.unit_id}) would come {closest:.1f}" from the '
                        f"formed enemy {other.name} ({other.unit_id}): moves stop "
                        f"{inches(stop)} from formed enemy (only a charge closes)",
                    )
                )
        return near_formed, near_any

    # ------------------------------------------------------------------ a move made

    def on_move(self, view: TurnView, unit_id: str, check: MoveCheck) -> Resolution:
        """Leg VI, Rough Terrain: the DPs for the worst terrain the move went into, through or
        across, once a move (errata 'terrain-kinds'). Leg VI, Manoeuvre: the DPs of the
        manoeuvres on the path made within 8" of enemy (:meth:`_manoeuvre_dps`). None of
        these once the unit has 3 DPs. Leg VI, Movement: unformed enemy that a formed
        unit's move came within 4" of fall back directly away from it until 4" away again
        (errata 'light-fall-back')."""
        unit = view.unit(unit_id)
        changes: list[UnitChange] = []
        words: list[str] = []
        costs = [self.terrain_dps(unit, t.kind) for t in check.terrain_crossed]
        rough = max((c for c in costs if c is not None), default=0)
        manoeuvres = self._manoeuvre_dps(view, unit, check)
        n = rough + sum(k for _, k in manoeuvres)
        if n:
            u = self.u(unit)
            dp = take_dps(u, n, "fatigue")
            why = [
                f"{name} within {inches(self.t.manoeuvres.dp_range)} of enemy"
                for name, _ in manoeuvres
            ]
            if rough:
                kinds = ", ".join(sorted({t.words() for t in check.terrain_crossed}))
                why.insert(0, f"moved through rough terrain ({kinds})")
            capped = "" if dp.dps == n else f" (none past {self.t.dp_limits.fatigue_manoeuvre_cap})"
            words.append(
                f"{unit.name} ({unit_id}) {'; '.join(why)}: {plural(dp.dps, 'DP')}{capped}."
            )
            if dp.dps:
                add = frozenset({SHAKEN}) if dp.shaken else frozenset()
                changes.append(UnitChange(unit_id, Effects(dps=dp.dps, markers_add=add)))
        if check.reason == "move" and self.u(unit).formed and check.traced:
            changes += self._fall_backs(view, unit, check.traced[0].start, check.end)
        if not changes and not words:
            return Resolution()
        return Resolution(others=tuple(changes), explanation=tuple(words))

    def _manoeuvre_dps(
        self, view: TurnView, unit: Combatant, check: MoveCheck
    ) -> list[tuple[str, int]]:
        """Leg VI, Manoeuvre: "Manoeuvre within 8" of enemy causes DPs on formed troops": a
        wheel on the path costs formed HI not in column 1 DP (triarii manoeuvre as MI: none);
        an about face (a turn of 180 degrees) costs formed cavalry 1 DP; each once a move,
        when the unit began the move within 8" of enemy (``[manoeuvres]``; errata
        'manoeuvres-on-the-table'). A charge's own alignment is not a manoeuvre."""
        if check.reason != "move" or not check.traced:
            return []
        u = self.u(unit)
        if not u.formed or u.elephant:
            return []
        kinds = {t.leg.kind for t in check.traced}
        about_face = any(
            t.leg.kind == "turn" and abs(abs(t.leg.angle) - 180) < 1e-6 for t in check.traced
        )
        items = self.t.manoeuvres.items
        found: list[tuple[str, int]] = []
        hi_like = u.heavy_infantry and u.troop.manoeuvres_as is None
        if "wheel" in kinds and hi_like and not u.column:
            found.append(("wheeled", items["wheel"].dps))
        if about_face and u.cavalry:
            found.append(("faced about", items["about_face"].dps))
        if not found:
            return []
        start = check.traced[0].start
        before = replace(unit, x=start.x, y=start.y, facing=start.facing)
        if not self._enemy_within(view, before, self.t.manoeuvres.dp_range):
            return []
        return [(name, n) for name, n in found if n]

    def _fall_backs(
        self, view: TurnView, unit: Combatant, start: Footprint, end: Footprint
    ) -> list[UnitChange]:
        keep = self.t.movement.light_fall_back_keep
        out: list[UnitChange] = []
        for other in view.units:
            if other.side == unit.side or other.status.eliminated or other.width <= 0:
                continue
            if _apart(end, other) >= keep or not self.u(other).unformed:
                continue
            there = other.footprint
            now = edge_distance(end, there)
            if now >= keep - EPS or now >= edge_distance(start, there) - EPS:
                continue  # far enough, or the move did not come closer
            bearing = (
                bearing_to(end.x, end.y, there.x, there.y)
                if (end.x, end.y) != (there.x, there.y)
                else (there.facing + 180) % 360
            )
            dist = _distance_to_keep(end, there, bearing, keep)
            made, stop = self._fall_back_run(view, other, bearing, dist)
            before = f"before {unit.name} ({unit.unit_id})"
            if stop is None:
                words = f'fall back {made:.2f}" {before}, keeping {inches(keep)} away'
            elif made > 0:
                words = (
                    f'fall back {made:.2f}" {before} and are stopped short of {keep:g}" ({stop})'
                )
            else:
                words = f"cannot fall back {before} ({stop})"
            effects = (
                Effects(shift=(bearing, made), move=words) if made > 0 else Effects(move=words)
            )
            out.append(UnitChange(other.unit_id, effects))
        return out

    def _fall_back_run(
        self, view: TurnView, unit: Combatant, bearing: float, dist: float
    ) -> tuple[float, str | None]:
        """How far ``unit`` falls back along ``bearing``, at most ``dist``: the whole of it
        when the core's checks of that move (a forced move, facing kept) find nothing in the
        way; else as far as they allow, to the hundredth of an inch below, with what stops it
        (a unit, ground it may not enter, the table's edge: errata 'light-fall-back')."""

        def blocked(d: float) -> Breach | None:
            check = self.check_move(view, unit.unit_id, _Shift.of(bearing, d), reason="forced")
            return next((b for b in check.breaches if b.severity == "forbidden"), None)

        first = blocked(dist)
        if first is None:
            return dist, None
        lo, hi = 0.0, dist
        for _ in range(12):
            mid = (lo + hi) / 2
            if blocked(mid) is None:
                lo = mid
            else:
                hi = mid
        made = math.floor(lo * 100 + 1e-6) / 100
        stop = blocked(hi) or first
        return made, f"{stop.rule}: {stop.text}"

    # ------------------------------------------------------------------ the map's reach

    def shooting_reach(self, view: TurnView, unit_id: str) -> ShotReach | None:
        """Leg VI, Shooting: only light troops shoot, 4" whatever the weapon; being unformed
        they face all round (Formations), so the reach has no arc."""
        unit = view.unit(unit_id)
        if not self.u(unit).troop.shoots:
            return None
        return ShotReach(self.t.shooting.range, None, SHOOTING_RULE)

    def command_reach(self, view: TurnView, unit_id: str) -> CommandReach | None:
        """Leg VI, Control: units within 4" of a detached leader are under control; a leader
        attached to a unit controls only that unit. For a unit with a leader attached, a
        reach of 0 about it (its own leader, no radius beyond it); else the circle about the
        detached leader of the unit's side nearest to it; None when its side has no detached
        leader on the table (a leader attached elsewhere controls only his own unit)."""
        unit = view.unit(unit_id)
        if any(ld.side == unit.side and ld.attached_to == unit_id for ld in view.leaders):
            return CommandReach((unit.x, unit.y), 0.0, CONTROL_RULE)
        corners = unit.footprint.corners()
        best: tuple[float, CommandReach] | None = None
        for ld in view.leaders:
            if ld.side != unit.side or ld.attached_to is not None:
                continue
            d = polygon_distance(((ld.x, ld.y),), corners)
            if best is None or d < best[0]:
                reach = CommandReach((ld.x, ld.y), self.t.control_test.radius, CONTROL_RULE)
                best = (d, reach)
        return None if best is None else best[1]


def _phase_names(steps: list[SequenceStep]) -> str:
    """'skirmish phase (II)', or several joined with 'or'."""
    return " or ".join(f"{s.name.lower()} phase ({s.numeral})" for s in steps) or "no phase"


@dataclass(frozen=True)
class _Shift(Path):
    """A move straight along a bearing with the facing kept (how unformed troops fall back,
    facing all round): one leg whose ground is the hull of the base at both ends, so the
    core checks it as it is made."""

    dx: float = 0.0
    dy: float = 0.0

    @classmethod
    def of(cls, bearing: float, distance: float) -> _Shift:
        vx, vy = heading_vector(bearing)
        return cls((Leg.straight(distance),), vx * distance, vy * distance)

    def trace(self, start: Footprint) -> tuple[Traced, ...]:
        end = replace(start, x=start.x + self.dx, y=start.y + self.dy)
        hull = convex_hull(start.corners() + end.corners())
        line = ((start.x, start.y), (end.x, end.y))
        return (
            Traced(0, self.legs[0], start, end, math.hypot(self.dx, self.dy), (hull,), (line,)),
        )


def _without_allowance(found: MoveCheck, rule: str) -> MoveCheck:
    """The check without the core's allowance breach (a charge is not measured)."""
    kept = tuple(b for b in found.breaches if b.rule != rule)
    return replace(found, breaches=kept) if len(kept) != len(found.breaches) else found


def _distance_to_keep(source: Footprint, unit: Footprint, bearing: float, keep: float) -> float:
    """How far ``unit`` moves along ``bearing`` to stand ``keep`` from ``source`` (base edge to
    base edge), to the hundredth of an inch above."""
    vx, vy = heading_vector(bearing)

    def gap(d: float) -> float:
        return edge_distance(source, replace(unit, x=unit.x + vx * d, y=unit.y + vy * d))

    lo, hi = 0.0, keep
    for _ in range(8):
        if gap(hi) >= keep:
            break
        lo, hi = hi, hi * 2
    for _ in range(30):
        mid = (lo + hi) / 2
        if gap(mid) >= keep:
            hi = mid
        else:
            lo = mid
    return math.ceil(hi * 100 - 1e-6) / 100
