"""Movement on the table: what each kind of terrain means, what a leg of a move costs, who
may move, and :meth:`MovementRules.check_move`, the generic checks of a path (no Qt).

:class:`~app.rules.mechanics.Mechanics` includes this mixin, so every ruleset has these
hooks with defaults sensible for rules that say nothing; a ruleset overrides the few its
movement chapter needs (python-chess's variants are the model), reading its numbers from
its ``tables.toml``:

- :meth:`terrain_effect` -- what a kind of terrain is to a unit (passable, cost, sight,
  cover), with the rule it comes from;
- :meth:`leg_cost` -- what a traced leg costs (GSB pivots, MWAN wheels, the D3 road bonus);
- :meth:`move_allowance_for` -- how far the unit may go for this reason of moving;
- :meth:`may_pass_through` -- whether a unit may pass through a friend (GSB, MWAN);
- :meth:`may_leave_table` -- whether a path may leave the table (a rout may);
- :meth:`side_to_move` and :meth:`may_move` -- who may move now, and for which reasons;
- :meth:`check_move` itself: call ``super().check_move(...)`` and add the ruleset's own
  breaches (Leg VI's 4" from formed enemy, the 22.5 degree straight-ahead limit, ...) with
  :meth:`MoveCheck.with_breaches`;
- :meth:`on_move` -- what a move does once it is made besides moving the unit (Leg VI:
  DPs for rough ground, unformed enemy falling back before it; D3: a friend passed through
  counts as having moved), applied in the same step.

Every check gives a :class:`Breach` citing its rule: "forbidden" (the core refuses the move
unless the user forces it, and the log says so) or "confirm" (the umpire's call, e.g. a
move whose length dice decide).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar, Literal, NamedTuple, get_args

from app.rules.geometry import (
    BBox,
    Footprint,
    Point,
    bbox_of,
    bboxes_meet,
    convex_overlap,
)
from app.rules.paths import Leg, Path, Traced
from app.rules.table import Table, TerrainKind, TerrainPiece
from app.rules.values import Combatant, Resolution, Side, TurnView

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset

MoveReason = Literal["move", "charge", "evade", "response", "forced", "rout", "pursuit", "deploy"]
MOVE_REASONS: tuple[MoveReason, ...] = get_args(MoveReason)
#: Reasons a side may move out of its turn by default (the rules give these to the side
#: that is not in play: evading, responding, being forced back, routing, pursuing).
OUT_OF_TURN: frozenset[MoveReason] = frozenset({"evade", "response", "forced", "rout", "pursuit"})
Severity = Literal["forbidden", "confirm"]
#: The rule cited for the generic checks.
TABLE_RULE = "Castra, table"


@dataclass(frozen=True)
class TerrainEffect:
    """What a kind of terrain is to a unit under a ruleset. ``passable``: True, False, or
    "confirm" (the umpire decides); ``cost_factor``: 1 open ground, 2 half speed;
    ``blocks_los``: whether it blocks a line of sight through it; ``cover`` against
    shooting; ``note``: a few words for the log; ``rule``: where it comes from."""

    passable: bool | Literal["confirm"] = True
    cost_factor: float = 1.0
    blocks_los: bool = False
    cover: bool = False
    note: str = ""
    rule: str = ""


_GENERIC = "Castra, generic terrain (no rule of this ruleset)"
#: What each kind of terrain is when a ruleset says nothing of it: the commonest tabletop
#: reading (rough ground at half speed, woods and towns block sight and give cover, a lake
#: cannot be entered, a river only where the umpire allows). App defaults, not rules
#: numbers: each ruleset's :meth:`MovementRules.terrain_effect` replaces them.
GENERIC_TERRAIN: dict[TerrainKind, TerrainEffect] = {
    "woods": TerrainEffect(True, 2.0, True, True, "woods: half speed", _GENERIC),
    "hill": TerrainEffect(True, 1.0, True, False, "hill: blocks sight across it", _GENERIC),
    "river": TerrainEffect("confirm", 2.0, False, False, "river: crossed at a ford", _GENERIC),
    "ford": TerrainEffect(True, 2.0, False, False, "ford: half speed", _GENERIC),
    "road": TerrainEffect(True, 1.0, False, False, "road", _GENERIC),
    "marsh": TerrainEffect(True, 2.0, False, False, "marsh: half speed", _GENERIC),
    "town": TerrainEffect(True, 2.0, True, True, "town: half speed", _GENERIC),
    "broken": TerrainEffect(True, 2.0, False, False, "broken ground: half speed", _GENERIC),
    "stream": TerrainEffect(True, 2.0, False, False, "stream: half speed", _GENERIC),
    "lake": TerrainEffect(False, 1.0, False, False, "lake: impassable", _GENERIC),
}
#: A ford laid on a river or stream is where it is crossed: inside the ford, the river's
#: effect gives way to the ford's.
FORD_OVER: frozenset[TerrainKind] = frozenset({"river", "stream"})
#: The default of :meth:`MovementRules.terrain_laid_over`: a ford over a river or stream.
LAID_OVER: Mapping[TerrainKind, frozenset[TerrainKind]] = {"ford": FORD_OVER}


@dataclass(frozen=True)
class Breach:
    """A rule a move breaks: ``rule`` cites it ("Castra, table", "GSB, Pivots"), ``text``
    says how; "forbidden" is refused unless forced, "confirm" needs the umpire's yes."""

    rule: str
    text: str
    severity: Severity = "forbidden"

    def __str__(self) -> str:
        return f"{self.rule}: {self.text}"


@dataclass(frozen=True)
class TerrainSpan:
    """The part of a leg's track in one piece of terrain (the worst one where pieces
    overlap): its share of the leg (``fraction``, 0-1) and length."""

    piece: TerrainPiece
    effect: TerrainEffect
    fraction: float
    length: float


@dataclass(frozen=True)
class LegCost:
    """One leg's cost: ``distance`` traced, ``cost`` counted against the allowance, the
    terrain pieces it crossed, and a note (the ruleset's words for an unusual cost)."""

    index: int
    kind: str
    distance: float
    cost: float
    terrain: tuple[str, ...] = ()
    note: str = ""


class TerrainCrossed(NamedTuple):
    piece_id: str
    kind: TerrainKind
    note: str
    #: the piece's own name, if it has one ("Trebia")
    name: str = ""

    def words(self) -> str:
        """The piece as the ruler names it: ``stream T1 "Trebia"``, or ``woods T2``."""
        return f"{self.kind} {self.piece_id}" + (f' "{self.name}"' if self.name else "")


@dataclass(frozen=True)
class MoveCheck:
    """The answer to :meth:`MovementRules.check_move`: the cost by leg and in all, the
    allowance, what was used before this move this turn, what was ``left`` before it
    (None when dice decide), the terrain crossed, every rule broken, the end pose, and
    the friends the path passes through (``passed``, ids, where the rules let it)."""

    unit_id: str
    reason: MoveReason
    legs: tuple[LegCost, ...]
    cost: float
    allowance: float | None
    used_before: float
    left: float | None
    terrain_crossed: tuple[TerrainCrossed, ...]
    breaches: tuple[Breach, ...]
    end: Footprint
    traced: tuple[Traced, ...] = field(default=(), compare=False, repr=False)
    passed: tuple[str, ...] = ()

    @property
    def forbidden(self) -> bool:
        return any(b.severity == "forbidden" for b in self.breaches)

    @property
    def needs_confirmation(self) -> bool:
        return any(b.severity == "confirm" for b in self.breaches)

    @property
    def ok(self) -> bool:
        """No rule broken at all."""
        return not self.breaches

    @property
    def remaining(self) -> float | None:
        """What is left of the allowance after this move (negative when it is overspent)."""
        return None if self.left is None else self.left - self.cost

    def with_breaches(self, *more: Breach) -> MoveCheck:
        """This check with the ruleset's own breaches added."""
        return replace(self, breaches=(*self.breaches, *more))


def _rank(effect: TerrainEffect) -> tuple[int, float]:
    """How bad an effect is for a unit going through: impassable, then the umpire's call,
    then the slowest."""
    blocked = 2 if effect.passable is False else 1 if effect.passable == "confirm" else 0
    return (blocked, effect.cost_factor)


def _unit_bbox(u: Combatant) -> BBox:
    r = (u.width**2 + u.depth**2) ** 0.5 / 2
    return (u.x - r, u.y - r, u.x + r, u.y + r)


class MovementRules:
    """The movement hooks of :class:`~app.rules.mechanics.Mechanics` (a mixin)."""

    #: the ruleset's rule on whose move it is, cited when a unit of the side not moving is
    #: refused ("Quincunx, Sequence"); the core's own words where a ruleset names none
    sequence_rule: ClassVar[str] = TABLE_RULE
    #: the ruleset's own word for each kind of terrain its source names (the kinds it does
    #: not name are missing): the engine's, so a house-rules copy of the ruleset keeps them.
    #: Until a ruleset's mechanics give a kind its own effect, it has Castra's generic one
    #: (:data:`GENERIC_TERRAIN`) and the note says so.
    terrain_terms: ClassVar[Mapping[TerrainKind, str]] = {}
    #: kinds the ready-made tables and the historical fields use in place of another, where
    #: the source names the one and not the other (Leg VI knows obstacles to cross, not
    #: rivers)
    terrain_in_place_of: ClassVar[Mapping[TerrainKind, TerrainKind]] = {}

    if TYPE_CHECKING:
        ruleset: Ruleset

        def move_allowance(self, unit: Combatant, view: TurnView | None = None) -> float | None: ...

    # ------------------------------------------------------------------ terrain

    @classmethod
    def terrain_term(cls, kind: TerrainKind) -> str | None:
        """The ruleset's word for ``kind``, or None when its source does not name it."""
        return cls.terrain_terms.get(kind)

    def terrain_laid_over(self) -> Mapping[TerrainKind, frozenset[TerrainKind]]:
        """Kinds of terrain laid over others, whose effect gives way to theirs where they
        lie: kind -> the kinds it opens. Default: a ford over a river or stream (where it is
        crossed). A ruleset adds its own (Quincunx: a road through a wood)."""
        return LAID_OVER

    def terrain_effect(self, unit: Combatant, kind: TerrainKind) -> TerrainEffect:
        """What terrain of ``kind`` is to ``unit``. Default: :data:`GENERIC_TERRAIN`, the
        note naming the ruleset's own word for the kind (:attr:`terrain_terms`) or saying its
        source names no such terrain. A ruleset returns its own numbers and rule (from its
        ``tables.toml``), and maps a kind its source does not name to its nearest kind, or to
        open ground with a note."""
        effect = GENERIC_TERRAIN[kind]
        term = self.terrain_term(kind)
        short = self.ruleset.meta.short_name
        said = f"{short}: {term}" if term else f"{short} names no {kind}"
        return replace(effect, note=f"{effect.note} (generic; {said})")

    def terrain_spans(self, view: TurnView, unit: Combatant, traced: Traced) -> list[TerrainSpan]:
        """Where the leg's tracks run through terrain: cut at every piece's edge, each
        part in the worst piece that covers it (a ford over a river or stream counts as
        the ford), summed by piece."""
        table: Table = view.table
        if not table.terrain or traced.distance <= 0:
            return []
        box = bbox_of([p for line in traced.tracks for p in line])
        near = [t for t in table.terrain if bboxes_meet(t.bbox, box)]
        if not near:
            return []
        total = sum(
            ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
            for line in traced.tracks
            for a, b in itertools.pairwise(line)
        )
        if total <= 0:
            return []
        effects = {t.id: self.terrain_effect(unit, t.kind) for t in near}
        laid = self.terrain_laid_over()
        found: dict[str, float] = {}
        for line in traced.tracks:
            for a, b in itertools.pairwise(line):
                seg = ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
                if seg <= 0:
                    continue
                inside = {t.id: t.intervals(a, b) for t in near}
                inside = {k: v for k, v in inside.items() if v}
                if not inside:
                    continue
                cuts = sorted({0.0, 1.0, *(x for v in inside.values() for i in v for x in i)})
                for t0, t1 in itertools.pairwise(cuts):
                    mid = (t0 + t1) / 2
                    here = [
                        t for t in near if any(i0 <= mid <= i1 for i0, i1 in inside.get(t.id, ()))
                    ]
                    opened = {k for t in here for k in laid.get(t.kind, ())}
                    if opened:
                        here = [t for t in here if t.kind not in opened]
                    if not here:
                        continue
                    worst = max(here, key=lambda t: _rank(effects[t.id]))
                    found[worst.id] = found.get(worst.id, 0.0) + (t1 - t0) * seg
        pieces = {t.id: t for t in near}
        return [
            TerrainSpan(pieces[k], effects[k], length / total, traced.distance * length / total)
            for k, length in found.items()
            if length > 1e-9
        ]

    def leg_cost(
        self, view: TurnView, unit: Combatant, traced: Traced, spans: Sequence[TerrainSpan]
    ) -> LegCost:
        """What a traced leg costs against the allowance. Default: its distance (the
        farthest-moving front corner, :class:`~app.rules.paths.Traced`), each part in
        terrain multiplied by that terrain's ``cost_factor``. Rulesets override it for their
        rules (GSB pivots 45 degrees free, elephants 1 UW; MWAN wheels; the D3 road)."""
        cost = traced.distance + sum(s.length * (s.effect.cost_factor - 1) for s in spans)
        notes = [
            f"{s.length:.1f} in {s.piece.kind} x{s.effect.cost_factor:g}"
            for s in spans
            if s.effect.cost_factor != 1
        ]
        return LegCost(
            traced.index,
            traced.leg.kind,
            traced.distance,
            cost,
            tuple(s.piece.id for s in spans),
            "; ".join(notes),
        )

    # ------------------------------------------------------------------ who and how far

    def side_to_move(self, view: TurnView) -> Side | None:
        """The side whose units move now, or None when either may (the default: rules that
        say nothing, or a phase where both sides move)."""
        return None

    def may_move(self, view: TurnView, unit_id: str, reason: MoveReason) -> Breach | None:
        """Why ``unit_id`` may not move now for ``reason`` (a :class:`Breach`), or None.
        Default: a unit out of the battle never moves; when a side is to move
        (:meth:`side_to_move`), the other side moves only for the reasons the rules give it
        (:data:`OUT_OF_TURN`: evading, responding, forced moves, routs and pursuits)."""
        unit = view.unit(unit_id)
        if unit.status.eliminated:
            return Breach(TABLE_RULE, f"{unit.name} ({unit.unit_id}) is out of the battle")
        side = self.side_to_move(view)
        if side is not None and unit.side != side and reason not in OUT_OF_TURN:
            return Breach(
                self.sequence_rule,
                f"it is {view.side_names[side]}'s move; {unit.name} ({unit.unit_id}) may "
                f"move now only to {', '.join(sorted(OUT_OF_TURN))}",
            )
        return None

    def move_allowance_for(
        self, view: TurnView, unit: Combatant, reason: MoveReason
    ) -> float | None:
        """How far ``unit`` may go this turn for ``reason``, in the ruleset's unit (None:
        dice or the situation decide, and the player confirms the distance). Default: the
        unit's :meth:`move_allowance` for a move or a charge; None for the other reasons,
        whose distances the rules set case by case."""
        if reason in ("move", "charge"):
            return self.move_allowance(unit, view)
        return None

    def allowance_bonus(
        self,
        view: TurnView,
        unit: Combatant,
        traced: Sequence[Traced],
        spans: Sequence[Sequence[TerrainSpan]],
    ) -> float:
        """Distance the path itself adds to the allowance (D3: a move wholly along a road
        goes 3" farther). ``spans``: each leg's :meth:`terrain_spans`. Default: none."""
        return 0.0

    def may_pass_through(self, view: TurnView, unit: Combatant, other: Combatant) -> bool:
        """Whether ``unit`` may pass through the friendly unit ``other``. Default: no (a
        ruleset says when it may: GSB light troops, MWAN skirmishers through elephants)."""
        return False

    def may_leave_table(
        self, view: TurnView, unit: Combatant, reason: MoveReason
    ) -> Severity | None:
        """What leaving the table is for a move of ``reason``: "forbidden", "confirm" (the
        umpire's call), or None (allowed). Default: a rout, a pursuit or an evade may run
        off the table if the umpire confirms; any other move may not."""
        return "confirm" if reason in ("rout", "pursuit", "evade") else "forbidden"

    def snap_drag(
        self,
        view: TurnView,
        unit_id: str,
        legs: tuple[Leg, ...],
        fixed: int,
        reason: MoveReason,
    ) -> tuple[Leg, ...]:
        """Where a unit dragged on the map ends once the ruleset's own distances apply:
        ``legs[fixed:]`` are the drag's (straight on, then sideways: see
        :func:`~app.core.battle.reach.drag_legs`), which a ruleset may scale together so the
        move ends where its rules put it (Leg VI: a dice move its full rolled distance, a
        move stopped by the 4" rule exactly 4" from the formed enemy), since a pointer
        lands a little short or a little past. ``legs[:fixed]`` (turns and wheels made
        first) stay. Default: as dragged."""
        return legs

    def on_move(self, view: TurnView, unit_id: str, check: MoveCheck) -> Resolution:
        """What a move (or a charge's move into contact) does once it is made, besides
        putting the unit at its end pose: DPs for the ground it crossed, enemy falling back
        before it, markers on the friends it passed through (``check.passed``), ... as a
        :class:`~app.rules.values.Resolution` the core applies in the same step (so undo,
        redo and replay carry it). ``view`` already shows the unit at ``check.end``.
        Default: nothing."""
        return Resolution()

    # ------------------------------------------------------------------ the check

    def length_symbol(self) -> str:
        """The ruleset's unit of length as the log writes it after a number."""
        return {"inch": '"', "cm": " cm", "unit_width": " UW"}[self.ruleset.meta.unit_of_measure]

    def check_move(
        self,
        view: TurnView,
        unit_id: str,
        path: Path,
        *,
        reason: MoveReason = "move",
        target: str | None = None,
    ) -> MoveCheck:
        """The generic checks of a move along ``path`` (see the module's docstring): who may
        move (:meth:`may_move`), the table's edge (:meth:`may_leave_table`), terrain that
        cannot be entered, passing through units (friends: :meth:`may_pass_through`;
        enemies never), ending on top of a unit, and the cost against what is left of the
        allowance this turn (:meth:`move_allowance_for` less the unit's ``moved``).
        ``target``: the unit a charge means to reach (a ruleset may relax its checks for
        it). Rulesets extend it: ``super().check_move(...)`` then add their breaches."""
        unit = view.unit(unit_id)
        u = self.length_symbol()
        who = f"{unit.name} ({unit.unit_id})"
        breaches: list[Breach] = []
        first = self.may_move(view, unit_id, reason)
        if first is not None:
            breaches.append(first)
        traced = path.trace(unit.footprint)
        end = traced[-1].end
        table = view.table

        # terrain: cost by leg, what cannot be entered
        legs: list[LegCost] = []
        crossed: dict[str, TerrainCrossed] = {}
        refused: set[str] = set()
        spans_by_leg: list[list[TerrainSpan]] = []
        for t in traced:
            spans = self.terrain_spans(view, unit, t)
            spans_by_leg.append(spans)
            legs.append(self.leg_cost(view, unit, t, spans))
            for s in spans:
                crossed.setdefault(
                    s.piece.id,
                    TerrainCrossed(s.piece.id, s.piece.kind, s.effect.note, s.piece.name or ""),
                )
                if s.effect.passable is not True and s.piece.id not in refused:
                    refused.add(s.piece.id)
                    breaches.append(_terrain_breach(who, s.piece, s.effect))
        laid = self.terrain_laid_over()
        opened = {
            k for p in table.terrain if p.kind in laid and p.overlaps(end) for k in laid[p.kind]
        }
        for piece in table.terrain:
            if piece.id in refused or not piece.overlaps(end):
                continue
            if piece.kind in opened:
                continue  # standing at a ford (the river is crossed there), on a road, ...
            effect = self.terrain_effect(unit, piece.kind)
            if effect.passable is False:
                refused.add(piece.id)
                breaches.append(_terrain_breach(who, piece, effect))

        # the table's edge
        for t in traced:
            if not table.holds_box(t.bbox):  # every point it sweeps: the box round them
                severity = self.may_leave_table(view, unit, reason)
                if severity is not None:
                    breaches.append(
                        Breach(
                            TABLE_RULE,
                            f"{who} would leave the table (leg {t.index + 1}: {t.leg})",
                            severity,
                        )
                    )
                break

        # other units: passed through, or under the end pose
        unit_breaches, passed = self._unit_breaches(view, unit, traced, end)
        breaches += unit_breaches

        # the allowance, cumulative over the turn
        cost = sum(c.cost for c in legs)
        allowance = self.move_allowance_for(view, unit, reason)
        if allowance is not None:
            allowance += self.allowance_bonus(view, unit, traced, spans_by_leg)
        left = None if allowance is None else allowance - unit.moved
        rule = f"{self.ruleset.meta.short_name}, movement"
        if left is None:
            breaches.append(
                Breach(
                    rule,
                    f"how far {who} may go {_reason_words(reason)} is not a fixed distance "
                    f"(dice or the rules decide): confirm {cost:.1f}{u}",
                    "confirm",
                )
            )
        elif cost > left + 1e-6:
            used = f" ({unit.moved:.1f}{u} used this turn)" if unit.moved else ""
            breaches.append(
                Breach(
                    rule,
                    f"{who} would move {cost:.1f}{u} with {max(left, 0.0):.1f}{u} of its "
                    f"{allowance:g}{u} left{used}",
                )
            )
        return MoveCheck(
            unit_id=unit_id,
            reason=reason,
            legs=tuple(legs),
            cost=cost,
            allowance=allowance,
            used_before=unit.moved,
            left=left,
            terrain_crossed=tuple(crossed.values()),
            breaches=tuple(breaches),
            end=end,
            traced=traced,
            passed=passed,
        )

    def _unit_breaches(
        self, view: TurnView, unit: Combatant, traced: Sequence[Traced], end: Footprint
    ) -> tuple[list[Breach], tuple[str, ...]]:
        """The rules broken by passing through or ending on other units, and the friends
        passed through where the rules allow it."""
        boxes = [t.bbox for t in traced]
        whole = (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )
        start = unit.footprint.corners()
        end_corners = end.corners()
        out: list[Breach] = []
        passed: list[str] = []
        standing = _standing(view)
        # whether each other unit overlaps this one where it stands, asked of a view once
        # (the unit as the view has it: every path tried from there asks the same)
        overlaps: dict[tuple[str, str], bool] | None = None
        if _as_viewed(view, unit):
            overlaps = view.__dict__.setdefault("_start_overlaps", {})
        for other, box, corners in standing:
            if other.unit_id == unit.unit_id or not bboxes_meet(box, whole):
                continue
            key = (unit.unit_id, other.unit_id)
            under = None if overlaps is None else overlaps.get(key)
            if under is None:
                under = convex_overlap(start, corners)
                if overlaps is not None:
                    overlaps[key] = under
            if under:
                continue  # already overlapping where it stands (set by hand): not passed through
            name = f"{other.name} ({other.unit_id})"
            if convex_overlap(end_corners, corners):
                out.append(Breach(TABLE_RULE, f"would end on top of {name}"))
                continue
            hit = _first_leg_through(traced, boxes, box, corners)
            if hit is None:
                continue
            if other.side == unit.side:
                if self.may_pass_through(view, unit, other):
                    passed.append(other.unit_id)
                    continue
                text = f"would pass through {name} (leg {hit + 1}), a friend it may not pass"
            else:
                text = f"would pass through the enemy {name} (leg {hit + 1})"
            out.append(Breach(TABLE_RULE, text))
        return out, tuple(passed)


def _as_viewed(view: TurnView, unit: Combatant) -> bool:
    """Whether ``unit`` is the view's own (not a pose the view does not have)."""
    try:
        return view.unit(unit.unit_id) is unit
    except KeyError:
        return False


def _standing(view: TurnView) -> tuple[tuple[Combatant, BBox, tuple[Point, ...]], ...]:
    """The units in the battle (not eliminated), each with a box round its base and its
    corners: made once a view (a view never changes; every move checked on it passes them
    all). The box is its corners' own where the base has a width and a depth (a shape
    swept by a move that misses it is apart from the base, which the overlap test of
    :func:`~app.rules.geometry.convex_overlap` finds by the base's own sides), else the
    box round it turned any way."""
    made: tuple[tuple[Combatant, BBox, tuple[Point, ...]], ...] | None = view.__dict__.get(
        "_standing"
    )
    if made is None:
        placed = []
        for u in view.units:
            if u.status.eliminated:
                continue
            fp = u.footprint
            corners = fp.corners()
            placed.append((u, bbox_of(corners) if fp.has_size else _unit_bbox(u), corners))
        made = view.__dict__["_standing"] = tuple(placed)
    return made


def _first_leg_through(
    traced: Sequence[Traced], boxes: Sequence[BBox], box: BBox, corners: Sequence[Point]
) -> int | None:
    for t, leg_box in zip(traced, boxes, strict=True):
        if not bboxes_meet(leg_box, box):
            continue
        for poly, poly_box in zip(t.swept, t.swept_boxes, strict=True):
            if bboxes_meet(poly_box, box) and convex_overlap(poly, corners):
                return t.index
    return None


def _terrain_breach(who: str, piece: TerrainPiece, effect: TerrainEffect) -> Breach:
    name = f' "{piece.name}"' if piece.name else ""
    note = f" ({effect.note})" if effect.note else ""
    if effect.passable is False:
        text = f"{who} cannot enter the {piece.kind} {piece.id}{name}{note}"
        return Breach(effect.rule or TABLE_RULE, text)
    text = f"{who} enters the {piece.kind} {piece.id}{name}{note}: the umpire decides"
    return Breach(effect.rule or TABLE_RULE, text, "confirm")


def _reason_words(reason: MoveReason) -> str:
    return {
        "move": "this turn",
        "charge": "in a charge",
        "evade": "when evading",
        "response": "in response",
        "forced": "in a forced move",
        "rout": "in a rout",
        "pursuit": "in a pursuit",
        "deploy": "when deploying",
    }[reason]
