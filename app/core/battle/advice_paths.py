"""Paths the rules allow towards a point, for the advisor and the opponent (issue 30).

A player pushes a unit towards where it should go in the way its rules allow: straight on,
straight on and sideways, turning to face the point first, wheeling or pivoting and then
going straight. :func:`path_towards` tries those shapes in turn, each as far as the unit may
go and then shorter, and keeps the first one the ruleset's ``check_move`` passes with no
rule broken (nothing forbidden, nothing for the umpire to confirm). Nothing here knows a
rule: the mechanics judge every path.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from app.rules.geometry import Footprint, bearing, heading_vector
from app.rules.mechanics import Mechanics, TurnView
from app.rules.movement import MoveCheck, MoveReason
from app.rules.paths import Corner, Leg, Path, PathError

#: the least share of the longest distance tried, and how many halvings find the most
LEAST = 0.1
HALVINGS = 5
#: a point within this many degrees of straight ahead is reached by going straight on
AHEAD = 15.0
#: how many of the shapes are put where the ruleset would end them (``snap_drag``)
SNAPPED = 2
#: the largest wheel tried in one leg (degrees)
WHEEL = 45.0


@dataclass(frozen=True)
class Route:
    """A path ``check_move`` passes, with its check (cost, end pose)."""

    legs: tuple[Leg, ...]
    check: MoveCheck

    @property
    def end(self) -> Footprint:
        return self.check.end


def relative(fp: Footprint, x: float, y: float) -> float:
    """The bearing of (x, y) from ``fp``'s centre relative to its facing, -180..180."""
    rel = (bearing(fp.x, fp.y, x, y) - fp.facing) % 360
    return rel - 360 if rel > 180 else rel


def _shapes(fp: Footprint, x: float, y: float, far: float) -> Iterator[tuple[Leg, ...]]:
    """Paths of a few shapes going ``far`` towards (x, y): facing kept (straight on or
    back, then sideways, as a drag moves a unit), then turning towards the point first
    (straight to it, a wheel, a pivot, a turn) and going straight on."""
    rel = relative(fp, x, y)
    fx, fy = heading_vector(fp.facing)
    dx, dy = x - fp.x, y - fp.y
    dist = math.hypot(dx, dy)
    if dist <= 1e-6:
        return
    k = min(1.0, far / dist)
    along = round((dx * fx + dy * fy) * k, 3)
    across = round((dx * fy - dy * fx) * k, 3)
    if abs(across) <= 1e-2 or abs(rel) <= AHEAD or abs(rel) >= 180 - AHEAD:
        yield (Leg.straight(along),)
    if abs(along) <= 1e-2:
        yield (Leg.sideways(across),)
    elif abs(across) > 1e-2:
        yield (Leg.straight(along), Leg.sideways(across))
    if abs(rel) > AHEAD:
        tx, ty = fp.x + dx * k, fp.y + dy * k
        yield (Leg.to(round(tx, 3), round(ty, 3)),)
        turn = max(-WHEEL, min(WHEEL, rel))
        about: Corner = "right" if turn > 0 else "left"
        yield (Leg.wheel(round(turn, 2), about), Leg.straight(round(far * 0.8, 3)))
        yield (Leg.pivot(round(rel, 2)), Leg.straight(round(far, 3)))
        yield (Leg.turn(round(rel, 2)), Leg.straight(round(far, 3)))


def _scaled(legs: tuple[Leg, ...], share: float, fp: Footprint) -> tuple[Leg, ...] | None:
    """``legs`` with their distances cut to ``share`` (turns kept)."""
    out: list[Leg] = []
    for leg in legs:
        if leg.kind in ("straight", "sideways"):
            d = round(leg.distance * share, 3)
            if abs(d) < 1e-3:
                continue
            out.append(Leg(leg.kind, distance=d))
        elif leg.kind == "to" and leg.x is not None and leg.y is not None:
            out.append(
                Leg.to(
                    round(fp.x + (leg.x - fp.x) * share, 3), round(fp.y + (leg.y - fp.y) * share, 3)
                )
            )
        else:
            out.append(leg)
    return tuple(out) if out else None


def _turns(legs: tuple[Leg, ...]) -> int:
    """How many of ``legs`` are turns made before the move (kept as they are when the
    ruleset puts the end of the move where its rules put it: ``snap_drag``)."""
    n = 0
    for leg in legs:
        if leg.kind not in ("wheel", "pivot", "turn"):
            break
        n += 1
    return n


def legal(
    view: TurnView,
    mech: Mechanics,
    unit_id: str,
    legs: tuple[Leg, ...],
    reason: MoveReason = "move",
) -> Route | None:
    """The route when ``check_move`` passes ``legs`` with no rule broken, else None."""
    try:
        path = Path(legs)
    except PathError:
        return None
    check = mech.check_move(view, unit_id, path, reason=reason)
    if check.breaches:
        return None
    return Route(legs, check)


def path_towards(
    view: TurnView,
    mech: Mechanics,
    unit_id: str,
    x: float,
    y: float,
    far: float,
    *,
    reason: MoveReason = "move",
) -> Route | None:
    """A legal route going up to ``far`` towards (x, y): the first of the shapes that
    ``check_move`` passes at its full length; else the first of the first two put where the
    ruleset ends such a move (``snap_drag``: Leg VI's dice move its full rolled distance, a
    move halting 4" from formed enemy); else the first that it passes at a tenth of
    it, as long as it still passes (found by halving: the rules may stop a move short, as
    Leg VI's 4" from formed enemy does); None when none passes at all."""
    if far <= 1e-3:
        return None
    fp = view.unit(unit_id).footprint
    shapes = list(_shapes(fp, x, y, far))
    for legs in shapes:
        found = legal(view, mech, unit_id, legs, reason)
        if found is not None:
            return found
    for legs in shapes[:SNAPPED]:
        snapped = mech.snap_drag(view, unit_id, legs, _turns(legs), reason)
        if snapped != legs:
            found = legal(view, mech, unit_id, snapped, reason)
            if found is not None:
                return found
    for legs in shapes:
        lo_legs = _scaled(legs, LEAST, fp)
        best = None if lo_legs is None else legal(view, mech, unit_id, lo_legs, reason)
        if best is None:
            continue
        lo, hi = LEAST, 1.0
        for _ in range(HALVINGS):
            mid = (lo + hi) / 2
            mid_legs = _scaled(legs, mid, fp)
            found = None if mid_legs is None else legal(view, mech, unit_id, mid_legs, reason)
            if found is None:
                hi = mid
            else:
                lo, best = mid, found
        return best
    return None


def turn_to(view: TurnView, mech: Mechanics, unit_id: str, x: float, y: float) -> Route | None:
    """A legal turn on the spot to face (x, y): a turn, else a pivot, else a wheel."""
    fp = view.unit(unit_id).footprint
    rel = relative(fp, x, y)
    if abs(rel) < 5.0:
        return None
    for legs in (
        (Leg.turn(round(rel, 2)),),
        (Leg.pivot(round(rel, 2)),),
        (Leg.wheel(round(rel, 2), "right" if rel > 0 else "left"),),
    ):
        found = legal(view, mech, unit_id, legs)
        if found is not None:
            return found
    return None
