"""Base-edge distances between units, measured only where they can matter (issue 30: the
advisor and the opponent ask how far every enemy stands from each unit, many times a
phase). The distance between two centres less the two half-diagonals never exceeds the
edge-to-edge distance, so a unit whose bound is already beyond the distance of interest is
never measured exactly."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

from app.rules.geometry import Footprint, edge_distance


class Placed(Protocol):
    @property
    def footprint(self) -> Footprint: ...


P = TypeVar("P", bound=Placed)


def lower_gap(a: Footprint, b: Footprint) -> float:
    """A lower bound of ``edge_distance(a, b)``: centres apart less the half-diagonals."""
    ra = math.hypot(a.width, a.depth) / 2
    rb = math.hypot(b.width, b.depth) / 2
    return max(0.0, math.hypot(a.x - b.x, a.y - b.y) - ra - rb)


def gap_within(a: Footprint, b: Footprint, limit: float) -> float | None:
    """The edge distance from ``a`` to ``b`` when it is at most ``limit``, else None."""
    if lower_gap(a, b) > limit + 1e-9:
        return None
    gap = edge_distance(a, b)
    return gap if gap <= limit + 1e-9 else None


def within(fp: Footprint, units: Iterable[P], limit: float) -> list[tuple[float, P]]:
    """The units within ``limit`` of ``fp`` (edge to edge), nearest first, with their gap."""
    out: list[tuple[float, P]] = []
    for u in units:
        gap = gap_within(fp, u.footprint, limit)
        if gap is not None:
            out.append((gap, u))
    out.sort(key=lambda g: g[0])
    return out


def nearest(fp: Footprint, units: Sequence[P]) -> tuple[float, P] | None:
    """The unit nearest ``fp`` edge to edge, with its gap (None for no units)."""
    if not units:
        return None
    bounds = sorted(((lower_gap(fp, u.footprint), i) for i, u in enumerate(units)))
    best: tuple[float, P] | None = None
    for bound, i in bounds:
        if best is not None and bound >= best[0]:
            break
        gap = edge_distance(fp, units[i].footprint)
        if best is None or gap < best[0]:
            best = (gap, units[i])
    return best
