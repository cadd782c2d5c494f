"""Leg VI Carthago on the table: how wide and deep a unit stands, and which of its bases are
engaged when it touches an enemy.

- A legion's lines: "the bases should be spaced apart on a movement tray with a gap between
  each base so that the 4 bases in each line have a 120mm frontage -- the same as 6 bases
  rather than the actual 4", with "a gap of up to 1 inch between lines" (``[legion]``
  ``line_frontage_mm``, ``line_gap_max``; errata 'legion-footprint').
- Engaged bases: "Count all bases in direct contact with opponent plus up to one
  over-lapping on each flank if otherwise not engaged. Also count 1/2 bases of a second line
  of a Legion in quincunx unless in open ranks." Read from where the two units touch: the
  bases of the front line (a legion's spaced out over its frontage) whose fronts meet the
  enemy, and one more on each side where the line reaches past the enemy's flank (errata
  'engaged-bases-on-the-table').

Pure geometry over :class:`~app.rules.geometry.Footprint` (no state)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.rules.contact import TOUCH
from app.rules.geometry import Footprint, polygon_distance

#: points of an edge tried for contact with the enemy (besides the enemy's own corners)
EDGE_SAMPLES = 120


@dataclass(frozen=True)
class EdgeContact:
    """Where an enemy touches one edge of a unit: the ``edge`` (front, right, rear, left) and
    the stretch of it that touches, from ``start`` to ``end`` (distances along the edge from
    its first corner: the front's left corner, ...)."""

    edge: str
    start: float
    end: float


def _edges(fp: Footprint) -> list[tuple[str, tuple[float, float], tuple[float, float]]]:
    fl, fr, rr, rl = fp.corners()
    return [("front", fl, fr), ("right", fr, rr), ("rear", rr, rl), ("left", rl, fl)]


def contact_on(unit: Footprint, enemy: Footprint) -> EdgeContact | None:
    """The edge of ``unit`` the ``enemy`` touches and the stretch of it (the longest when it
    touches more than one; a front stretch first among equals); None when they do not
    touch."""
    theirs = enemy.corners()
    best: EdgeContact | None = None
    for name, a, b in _edges(unit):
        ex, ey = b[0] - a[0], b[1] - a[1]
        length = math.hypot(ex, ey)
        if length <= 0:
            continue
        ts = [k / EDGE_SAMPLES for k in range(EDGE_SAMPLES + 1)]
        for px, py in theirs:
            ts.append(((px - a[0]) * ex + (py - a[1]) * ey) / (length * length))
        hits = [
            t
            for t in ts
            if 0.0 <= t <= 1.0
            and polygon_distance(((a[0] + ex * t, a[1] + ey * t),), theirs) <= TOUCH * 10
        ]
        if not hits:
            continue
        found = EdgeContact(name, min(hits) * length, max(hits) * length)
        if best is None or found.end - found.start > best.end - best.start + 1e-9:
            best = found
    return best


def engaged_in_line(
    width: float, slots: int, bases: int, base_width: float, contact: EdgeContact
) -> int:
    """Leg VI, Engaged bases, for a line whose front is touched: ``bases`` standing in the
    middle of ``slots`` places spread evenly over ``width`` (each base ``base_width`` wide);
    those whose front meets the stretch touched, plus one on each side reaching past the
    enemy's flank."""
    if bases <= 0 or slots <= 0:
        return 0
    bases = min(bases, slots)
    first = (slots - bases) // 2
    pitch = width / slots
    half = min(base_width, pitch) / 2
    touching = left = right = 0
    gaps: list[tuple[float, str]] = []
    for i in range(first, first + bases):
        centre = pitch * (i + 0.5)
        lo, hi = centre - half, centre + half
        if hi < contact.start - 1e-9:
            left += 1
            gaps.append((contact.start - hi, "left"))
        elif lo > contact.end + 1e-9:
            right += 1
            gaps.append((lo - contact.end, "right"))
        else:
            touching += 1
    if touching == 0:  # the enemy meets the line between two spaced bases: the nearer fights
        touching = 1
        if min(gaps)[1] == "left":
            left -= 1
        else:
            right -= 1
    return touching + min(left, 1) + min(right, 1)
