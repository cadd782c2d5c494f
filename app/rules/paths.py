"""Moves as paths: a unit's move is a list of legs -- straight on, sideways, wheels, pivots,
turns, or straight to a point -- traced from its start so the rules can cost and check it
(no Qt).

:func:`trace` gives, for each leg, the unit's pose after it, the distance the leg costs by
the usual tabletop measure, the swept shape (for passing through other units and leaving the
table) and the tracks (the lines whose length is that distance, for terrain crossed on
the way). A ruleset's mechanics cost legs their own way (``Mechanics.leg_cost``); the geometry is
the same for all.

Angles are degrees, clockwise (a facing of 0 looks towards +y, 90 towards +x); distances are
in the ruleset's unit of measure. Paths serialise to plain JSON (a list of legs) and parse
from text such as ``"forward 6; wheel 45 left; forward 3"``.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

from app.rules.geometry import (
    BBox,
    Footprint,
    Point,
    bbox_of,
    bearing,
    convex_hull,
    rotate_about,
)
from app.rules.kept import kept
from app.rules.table import MAX_LENGTH, coordinate_problem

LegKind = Literal["straight", "sideways", "wheel", "pivot", "turn", "to"]
LEG_KINDS: tuple[LegKind, ...] = get_args(LegKind)
Corner = Literal["left", "right"]
#: Most legs in one path.
MAX_LEGS = 50
#: Largest angle of one wheel, pivot or turn (degrees, either way).
MAX_ANGLE = 360.0
#: Arcs are traced as chords of at most this many degrees (a 12" unit's arc is then off by
#: less than 0.02").
ARC_STEP = 5.0


class PathError(ValueError):
    """A leg or a path that cannot be made or read; one line naming what is wrong."""


def _number(what: str, value: object, limit: float = MAX_LENGTH) -> float:
    problem = coordinate_problem(what, value, limit)
    if problem is not None:
        raise PathError(problem)
    assert isinstance(value, int | float)
    return float(value)


def _heading(degrees: float) -> Point:
    """Unit vector of a facing, exact at right angles (so a unit turned 90 degrees and moved
    lands on round numbers)."""
    d = degrees % 360
    exact = {0.0: (0.0, 1.0), 90.0: (1.0, 0.0), 180.0: (0.0, -1.0), 270.0: (-1.0, 0.0)}
    if d in exact:
        return exact[d]
    rad = math.radians(d)
    return (math.sin(rad), math.cos(rad))


@dataclass(frozen=True)
class Leg:
    """One leg of a move. Make legs with the constructors (:meth:`straight`, ...); every
    number is checked when the leg is made."""

    kind: LegKind
    distance: float = 0.0
    angle: float = 0.0
    about: Corner | None = None
    x: float | None = None
    y: float | None = None
    facing: float | None = None

    def __post_init__(self) -> None:
        if self.kind not in LEG_KINDS:
            raise PathError(f"unknown leg {self.kind!r} (legs: {', '.join(LEG_KINDS)})")
        object.__setattr__(self, "distance", _number("a distance", self.distance))
        object.__setattr__(self, "angle", _number("an angle", self.angle, MAX_ANGLE))
        if self.kind == "wheel" and self.about not in ("left", "right"):
            raise PathError("a wheel is about its front left or front right corner")
        if self.kind != "wheel" and self.about is not None:
            raise PathError("only a wheel has a corner to wheel about")
        if self.kind == "to":
            if self.x is None or self.y is None:
                raise PathError("a move to a point needs x and y")
            object.__setattr__(self, "x", _number("x", self.x))
            object.__setattr__(self, "y", _number("y", self.y))
            if self.facing is not None:
                object.__setattr__(self, "facing", _number("the facing", self.facing) % 360)
        elif (self.x, self.y, self.facing) != (None, None, None):
            raise PathError("only a move to a point has x, y and a facing")

    # ------------------------------------------------------------------ constructors

    @classmethod
    def straight(cls, distance: float) -> Leg:
        """Straight ahead (negative: backwards)."""
        return cls("straight", distance=distance)

    @classmethod
    def sideways(cls, distance: float) -> Leg:
        """Sideways to the right (negative: to the left), facing unchanged."""
        return cls("sideways", distance=distance)

    @classmethod
    def wheel(cls, angle: float, about: Corner) -> Leg:
        """Wheel ``angle`` degrees (+ clockwise) about the front ``about`` corner: a wheel
        to the right forward is ``wheel(45, "right")``, to the left ``wheel(-45, "left")``."""
        return cls("wheel", angle=angle, about=about)

    @classmethod
    def pivot(cls, angle: float) -> Leg:
        """Turn ``angle`` degrees (+ clockwise) about the centre."""
        return cls("pivot", angle=angle)

    @classmethod
    def turn(cls, angle: float) -> Leg:
        """A turn in place (about-face 180, right face 90, left face -90): traced as a pivot;
        rulesets cost it their own way."""
        return cls("turn", angle=angle)

    @classmethod
    def to(cls, x: float, y: float, facing: float | None = None) -> Leg:
        """Straight to the point (``x``, ``y``) (the centre's destination): the unit first
        turns to face it when it is not straight ahead, then ends facing ``facing`` when
        given (a pivot at the end), else the way it moved."""
        return cls("to", x=x, y=y, facing=facing)

    # ------------------------------------------------------------------ words and data

    def __str__(self) -> str:
        k = self.kind
        if k == "straight":
            return (
                f"forward {_n(self.distance)}"
                if self.distance >= 0
                else (f"back {_n(-self.distance)}")
            )
        if k == "sideways":
            side = "right" if self.distance >= 0 else "left"
            return f"{side} {_n(abs(self.distance))}"
        if k == "wheel":
            forward = (self.angle >= 0) == (self.about == "right")
            if forward:
                return f"wheel {_n(abs(self.angle))} {self.about}"
            return f"wheel {_n(self.angle)} about {self.about}"
        if k in ("pivot", "turn"):
            side = "right" if self.angle >= 0 else "left"
            return f"{k} {_n(abs(self.angle))} {side}"
        text = f"to {_n(self.x or 0.0)},{_n(self.y or 0.0)}"
        return text + (f" facing {_n(self.facing)}" if self.facing is not None else "")

    def to_dict(self) -> dict[str, Any]:
        if self.kind in ("straight", "sideways"):
            return {"kind": self.kind, "distance": self.distance}
        if self.kind == "wheel":
            return {"kind": self.kind, "angle": self.angle, "about": self.about}
        if self.kind in ("pivot", "turn"):
            return {"kind": self.kind, "angle": self.angle}
        return {"kind": "to", "x": self.x, "y": self.y, "facing": self.facing}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Leg:
        if not isinstance(data, Mapping):
            raise PathError("a leg must be an object")
        kind = data.get("kind")
        allowed = {
            "straight": {"distance"},
            "sideways": {"distance"},
            "wheel": {"angle", "about"},
            "pivot": {"angle"},
            "turn": {"angle"},
            "to": {"x", "y", "facing"},
        }.get(str(kind))
        if allowed is None:
            raise PathError(f"unknown leg {kind!r} (legs: {', '.join(LEG_KINDS)})")
        unknown = sorted(set(data) - allowed - {"kind"})
        if unknown:
            raise PathError(f"a {kind} leg has no key {', '.join(unknown)}")
        return cls(**{k: v for k, v in data.items()})


def _n(value: float | None) -> str:
    v = float(value or 0.0)
    return f"{v:.4f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def path_text(legs: Iterable[Leg]) -> str:
    """The path in the words :func:`parse_path` reads: ``forward 6; wheel 45 left``."""
    return "; ".join(str(leg) for leg in legs)


def legs_to_list(legs: Iterable[Leg]) -> list[dict[str, Any]]:
    return [leg.to_dict() for leg in legs]


def legs_from_list(data: object) -> tuple[Leg, ...]:
    """Read back :func:`legs_to_list` (:class:`PathError` naming the leg)."""
    if not isinstance(data, list | tuple):
        raise PathError("a path must be a list of legs")
    if len(data) > MAX_LEGS:
        raise PathError(f"a path has at most {MAX_LEGS} legs, not {len(data)}")
    out = []
    for i, item in enumerate(data):
        try:
            out.append(Leg.from_dict(item))
        except (PathError, TypeError) as exc:
            raise PathError(f"leg {i + 1}: {exc}") from None
    return tuple(out)


# --------------------------------------------------------------------------- parsing

_NUM = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_SIDE = r"(left|right)"


def _f(text: str, what: str, limit: float = MAX_LENGTH) -> float:
    if len(text) > 40:
        raise PathError(f"{what}: a number of {len(text):,} characters is too large")
    return _number(what, float(text), limit)


def parse_leg(text: str) -> Leg:
    """One leg in words: ``forward 6``, ``back 2``, ``right 3`` / ``left 3`` (sideways),
    ``wheel 45 left`` (forward, turning left about the left front corner), ``wheel -30
    about right`` (any wheel: angle clockwise, about a front corner), ``pivot 90 right``,
    ``turn 180`` / ``about face`` / ``right face`` / ``left face``, ``to 30,20 [facing
    90]``."""
    t = " ".join(text.strip().lower().split())
    m = re.fullmatch(rf"(forward|back|backward|backwards|straight)\s+({_NUM})", t)
    if m:
        d = _f(m[2], "the distance")
        return Leg.straight(d if m[1] in ("forward", "straight") else -d)
    m = re.fullmatch(rf"(?:sideways\s+)?{_SIDE}\s+({_NUM})", t)
    if m:
        d = _f(m[2], "the distance")
        return Leg.sideways(d if m[1] == "right" else -d)
    m = re.fullmatch(rf"sideways\s+({_NUM})", t)
    if m:
        return Leg.sideways(_f(m[1], "the distance"))
    m = re.fullmatch(rf"wheel\s+({_NUM})\s+{_SIDE}", t)
    if m:
        a = abs(_f(m[1], "the angle", MAX_ANGLE))
        return Leg.wheel(a if m[2] == "right" else -a, m[2])  # type: ignore[arg-type]
    m = re.fullmatch(rf"wheel\s+({_NUM})\s+about\s+{_SIDE}", t)
    if m:
        return Leg.wheel(_f(m[1], "the angle", MAX_ANGLE), m[2])  # type: ignore[arg-type]
    m = re.fullmatch(rf"(pivot|turn)\s+({_NUM})(?:\s+{_SIDE})?", t)
    if m:
        a = _f(m[2], "the angle", MAX_ANGLE)
        if m[3] == "left":
            a = -abs(a)
        elif m[3] == "right":
            a = abs(a)
        return Leg.pivot(a) if m[1] == "pivot" else Leg.turn(a)
    if t in ("about face", "about-face", "about turn", "about-turn"):
        return Leg.turn(180)
    if t in ("right face", "right-face", "left face", "left-face"):
        return Leg.turn(90 if t.startswith("right") else -90)
    m = re.fullmatch(rf"to\s+({_NUM})\s*,\s*({_NUM})(?:\s+facing\s+({_NUM}))?", t)
    if m:
        facing = None if m[3] is None else _f(m[3], "the facing")
        return Leg.to(_f(m[1], "x"), _f(m[2], "y"), facing)
    shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:37] + "..."
    raise PathError(
        f"cannot read the leg {shown!r} (legs: forward D, back D, right D, left D, "
        "wheel A left|right, wheel A about left|right, pivot A [left|right], "
        "turn A [left|right], about face, right face, left face, to X,Y [facing F])"
    )


def parse_path(text: str) -> tuple[Leg, ...]:
    """A path in words, legs separated by ``;`` (:func:`parse_leg`)."""
    if len(text) > 4000:
        raise PathError(f"the path is too long ({len(text):,} characters)")
    parts = [p for p in text.split(";") if p.strip()]
    if not parts:
        raise PathError("the path has no legs")
    if len(parts) > MAX_LEGS:
        raise PathError(f"a path has at most {MAX_LEGS} legs, not {len(parts)}")
    out = []
    for i, part in enumerate(parts):
        try:
            out.append(parse_leg(part))
        except PathError as exc:
            raise PathError(f"leg {i + 1}: {exc}") from None
    return tuple(out)


# --------------------------------------------------------------------------- tracing


@dataclass(frozen=True)
class Traced:
    """One leg traced from ``start``: the pose after it (``end``), the ``distance`` it costs
    by the usual tabletop measure (the distance moved by the front corner that moves
    farthest: a straight or sideways leg its length, a wheel the outer front corner's arc,
    a pivot or turn a front corner's arc about the centre, a move to a point the sum of its
    turn, its straight leg and its final turn), the ``swept`` shape (convex polygons whose
    union covers the ground the base passes over, arcs as short chords), and the ``tracks``
    (polylines whose lengths add up to ``distance``: the centre's line, the outer corner's
    arc; for terrain crossed on the way). ``parts``:
    a move to a point as the pivots and straight leg it is made of."""

    index: int
    leg: Leg
    start: Footprint
    end: Footprint
    distance: float
    swept: tuple[tuple[Point, ...], ...]
    tracks: tuple[tuple[Point, ...], ...]
    parts: tuple[Traced, ...] = ()

    @functools.cached_property
    def bbox(self) -> BBox:
        """The box round everything the leg sweeps (worked out once: a traced leg is
        shared by every check that traces it, :func:`trace`)."""
        return bbox_of([p for poly in self.swept for p in poly])

    @functools.cached_property
    def swept_boxes(self) -> tuple[BBox, ...]:
        """The box round each of the ``swept`` shapes, in order (worked out once)."""
        return tuple(bbox_of(poly) for poly in self.swept)

    @property
    def turned(self) -> float:
        """Degrees turned in this leg (+ clockwise)."""
        if self.leg.kind in ("wheel", "pivot", "turn"):
            return self.leg.angle
        return sum(p.turned for p in self.parts)


def _moved(f: Footprint, dx: float, dy: float) -> Footprint:
    return replace(f, x=f.x + dx, y=f.y + dy)


def _rotated(f: Footprint, centre: Point, angle: float) -> Footprint:
    x, y = rotate_about((f.x, f.y), centre, angle)
    return replace(f, x=x, y=y, facing=(f.facing + angle) % 360)


def _corner(f: Footprint, which: str) -> Point:
    fl, fr, rr, rl = f.corners() if f.has_size else ((f.x, f.y),) * 4
    return {"fl": fl, "fr": fr, "rr": rr, "rl": rl}[which]


def _rotation(
    f: Footprint, centre: Point, angle: float, corner: str
) -> tuple[Footprint, tuple[tuple[Point, ...], ...], tuple[Point, ...]]:
    steps = max(1, math.ceil(abs(angle) / ARC_STEP))
    # the base's corners turned step by step (each pose's corners computed once: the
    # swept shapes of long turns are most of a move's check)
    base = f.corners() if f.has_size else ((f.x, f.y),) * 4
    cx, cy = centre
    outlines = [base]
    for k in range(1, steps + 1):
        rad = math.radians(angle * k / steps)
        c, s = math.cos(rad), math.sin(rad)
        outlines.append(
            tuple(
                (cx + (x - cx) * c + (y - cy) * s, cy - (x - cx) * s + (y - cy) * c)
                for x, y in base
            )
        )
    swept = tuple(convex_hull(a + b) for a, b in itertools.pairwise(outlines))
    which = ("fl", "fr", "rr", "rl").index(corner)
    track = tuple(o[which] for o in outlines)
    return _rotated(f, centre, angle), swept, track


def _trace_one(f: Footprint, leg: Leg, index: int) -> Traced:
    k = leg.kind
    if k in ("straight", "sideways"):
        fx, fy = _heading(f.facing)
        vx, vy = (fx, fy) if k == "straight" else (fy, -fx)
        end = _moved(f, vx * leg.distance, vy * leg.distance)
        hull = convex_hull(f.corners() + end.corners())
        line = ((f.x, f.y), (end.x, end.y))
        return Traced(index, leg, f, end, abs(leg.distance), (hull,), (line,))
    if k == "wheel":
        pivot = _corner(f, "fl" if leg.about == "left" else "fr")
        outer = "fr" if leg.about == "left" else "fl"
        end, swept, track = _rotation(f, pivot, leg.angle, outer)
        distance = f.width * math.radians(abs(leg.angle))
        return Traced(index, leg, f, end, distance, swept, (track,))
    if k in ("pivot", "turn"):
        end, swept, track = _rotation(f, (f.x, f.y), leg.angle, "fl")
        radius = math.hypot(f.width, f.depth) / 2
        distance = radius * math.radians(abs(leg.angle))
        return Traced(index, leg, f, end, distance, swept, (track,))
    # to a point: a pivot to face it (unless it is ahead), straight on, a pivot to the end
    assert leg.x is not None and leg.y is not None
    parts: list[Traced] = []
    pose = f
    dist = math.hypot(leg.x - f.x, leg.y - f.y)
    if dist > 1e-9:
        turn = _signed_turn(f.facing, bearing(f.x, f.y, leg.x, leg.y))
        if abs(turn) > 1e-7:
            parts.append(_trace_one(pose, Leg.pivot(turn), index))
            pose = parts[-1].end
        straight = _trace_one(pose, Leg.straight(dist), index)
        # land exactly on the point asked for
        straight = replace(straight, end=replace(straight.end, x=leg.x, y=leg.y))
        parts.append(straight)
        pose = straight.end
    if leg.facing is not None:
        turn = _signed_turn(pose.facing, leg.facing)
        if abs(turn) > 1e-7:
            parts.append(_trace_one(pose, Leg.pivot(turn), index))
            pose = replace(parts[-1].end, facing=leg.facing % 360)
    if not parts:
        return Traced(index, leg, f, f, 0.0, (tuple(f.corners()),), (((f.x, f.y),),))
    return Traced(
        index,
        leg,
        f,
        pose,
        sum(p.distance for p in parts),
        tuple(s for p in parts for s in p.swept),
        tuple(t for p in parts for t in p.tracks),
        tuple(parts),
    )


def _signed_turn(frm: float, to: float) -> float:
    """The smallest turn (degrees, + clockwise) from facing ``frm`` to ``to``."""
    d = (to - frm) % 360
    return d - 360 if d > 180 else d


#: how many traced legs :func:`trace` keeps (a leg traced from a pose is a value: the
#: paths a move's search tries share their first legs, and a command's check traces again
#: the path its search found)
TRACED_KEPT = 4096


@kept(TRACED_KEPT)
def _kept_trace(f: Footprint, leg: Leg, index: int) -> Traced:
    return _trace_one(f, leg, index)


def _keeps(f: Footprint, leg: Leg) -> bool:
    """Whether a leg traced from ``f`` may be kept and given again for an equal pose and leg:
    every number of the pose a float, and none of them or of the leg's a negative zero (equal
    to a zero, it would trace to a pose whose numbers differ in their sign)."""
    for v in (f.x, f.y, f.facing, f.width, f.depth):
        if type(v) is not float or (v == 0.0 and math.copysign(1.0, v) < 0):
            return False
    for w in (leg.distance, leg.angle, leg.x, leg.y, leg.facing):
        if w is not None and w == 0.0 and math.copysign(1.0, w) < 0:
            return False
    return True


def trace(start: Footprint, legs: Sequence[Leg]) -> tuple[Traced, ...]:
    """Each leg of a path traced from ``start`` (see :class:`Traced`): each leg from its pose
    traced once of the last :data:`TRACED_KEPT` (the same pose and leg trace the same)."""
    out = []
    pose = start
    for i, leg in enumerate(legs):
        traced = _kept_trace(pose, leg, i) if _keeps(pose, leg) else _trace_one(pose, leg, i)
        out.append(traced)
        pose = traced.end
    return tuple(out)


def end_pose(start: Footprint, legs: Sequence[Leg]) -> Footprint:
    """Where a path ends (its last traced pose, or ``start`` for no legs)."""
    traced = trace(start, legs)
    return traced[-1].end if traced else start


@dataclass(frozen=True)
class Path:
    """A move: its legs, traced from the unit's pose when it is checked."""

    legs: tuple[Leg, ...]

    def __post_init__(self) -> None:
        if not self.legs:
            raise PathError("a path has at least one leg")
        if len(self.legs) > MAX_LEGS:
            raise PathError(f"a path has at most {MAX_LEGS} legs, not {len(self.legs)}")

    @classmethod
    def parse(cls, text: str) -> Path:
        return cls(parse_path(text))

    def __str__(self) -> str:
        return path_text(self.legs)

    def trace(self, start: Footprint) -> tuple[Traced, ...]:
        return trace(start, self.legs)

    def to_list(self) -> list[dict[str, Any]]:
        return legs_to_list(self.legs)

    @classmethod
    def from_list(cls, data: object) -> Path:
        return cls(legs_from_list(data))
