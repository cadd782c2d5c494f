"""Table layouts: the ready-made tables every ruleset offers ("open plain", "river crossing",
"hills and woods") and the layouts a user saves, as data in fractions of the table so one
layout fits any table size (no Qt). Each ruleset's own words for the kinds of terrain are
its engine's (:attr:`~app.rules.movement.MovementRules.terrain_terms`).

A layout is a list of pieces whose points are fractions of the table (x of its width, y of
its height; side 0's edge is y = 0) and, for a river, road or stream, a width in millimetres
(None: the kind's default). :func:`fit_layout` makes the terrain pieces of a given table.
Saved layouts are JSON (:func:`layout_to_json`, :func:`layout_from_json`); where they are
kept is the caller's business (``app.core.layouts``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from app.rules.inputs import InputError, control_problem, loads_json
from app.rules.table import (
    LINEAR_KINDS,
    MAX_NAME,
    MAX_PIECES,
    MAX_POINTS,
    TERRAIN_KINDS,
    Table,
    TerrainError,
    TerrainKind,
    TerrainPiece,
    default_width,
)

FORMAT = "castra-table-layout"
VERSION = 1
#: Largest layout file read (bytes): far above any real table.
MAX_FILE = 2_000_000

# --------------------------------------------------------------------------- layouts


@dataclass(frozen=True)
class LayoutPiece:
    """One piece of a layout: ``points`` in fractions of the table, ``width_mm`` a linear
    piece's width (None: its kind's default)."""

    kind: TerrainKind
    points: tuple[tuple[float, float], ...]
    name: str = ""
    width_mm: float | None = None


@dataclass(frozen=True)
class Layout:
    name: str
    pieces: tuple[LayoutPiece, ...]
    note: str = ""


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


#: The ready-made tables, for every ruleset. Terrain keeps to the middle half of the table
#: (y 0.3-0.7), clear of the default deployment zones.
READY_MADE: tuple[Layout, ...] = (
    Layout("open plain", (), "no terrain at all"),
    Layout(
        "river crossing",
        (
            LayoutPiece(
                "river", ((0.0, 0.5), (0.3, 0.48), (0.5, 0.5), (0.7, 0.52), (1.0, 0.5)), "River"
            ),
            LayoutPiece("ford", _rect(0.27, 0.43, 0.33, 0.53), "Lower ford"),
            LayoutPiece("ford", _rect(0.67, 0.47, 0.73, 0.57), "Upper ford"),
            LayoutPiece("woods", ((0.05, 0.58), (0.16, 0.57), (0.18, 0.66), (0.06, 0.68)), "Grove"),
            LayoutPiece("hill", ((0.82, 0.34), (0.94, 0.33), (0.95, 0.41), (0.83, 0.42)), "Knoll"),
        ),
        "a river across the middle of the table, crossed at two fords",
    ),
    Layout(
        "hills and woods",
        (
            LayoutPiece(
                "hill", ((0.12, 0.38), (0.3, 0.36), (0.33, 0.5), (0.14, 0.52)), "West hill"
            ),
            LayoutPiece("woods", ((0.42, 0.58), (0.55, 0.56), (0.58, 0.68), (0.44, 0.69)), "Wood"),
            LayoutPiece(
                "hill", ((0.68, 0.45), (0.86, 0.43), (0.88, 0.58), (0.7, 0.6)), "East hill"
            ),
            LayoutPiece("woods", ((0.5, 0.31), (0.6, 0.32), (0.59, 0.4), (0.49, 0.39)), "Copse"),
        ),
        "two hills and two woods in the middle of the table",
    ),
)


def ready_made(in_place_of: Mapping[TerrainKind, TerrainKind]) -> tuple[Layout, ...]:
    """The ready-made tables with ``in_place_of``'s kinds swapped in (a ruleset's
    :attr:`~app.rules.movement.MovementRules.terrain_in_place_of`)."""
    swap = in_place_of
    if not swap:
        return READY_MADE
    return tuple(
        Layout(
            lay.name,
            tuple(
                LayoutPiece(swap.get(p.kind, p.kind), p.points, p.name, p.width_mm)
                for p in lay.pieces
            ),
            lay.note,
        )
        for lay in READY_MADE
    )


def fit_layout(
    layout: Layout, table: Table, mm_per_unit: Fraction | float
) -> tuple[TerrainPiece, ...]:
    """The layout's pieces on ``table`` (ids ``T1``, ``T2``, ...): fractions scaled to its
    size, widths in the ruleset's unit (:class:`TerrainError` naming a bad piece)."""
    per = float(mm_per_unit)
    out: list[TerrainPiece] = []
    for i, p in enumerate(layout.pieces):
        if p.kind in LINEAR_KINDS:
            width = default_width(p.kind, mm_per_unit) if p.width_mm is None else p.width_mm / per
        else:
            width = None
        points = tuple((x * table.width, y * table.height) for x, y in p.points)
        try:
            out.append(TerrainPiece(f"T{i + 1}", p.kind, points, p.name, width))
        except TerrainError as exc:
            raise TerrainError(f"piece {i + 1} of {layout.name!r}: {exc}") from None
    return tuple(out)


def layout_of(name: str, table: Table, mm_per_unit: Fraction | float, note: str = "") -> Layout:
    """The layout of ``table``'s terrain, in fractions of its size, to save as ``name``;
    :class:`LayoutError` when the file it makes could not be read back (what Castra saves,
    it can read)."""
    per = float(mm_per_unit)
    pieces = tuple(
        LayoutPiece(
            p.kind,
            tuple((x / table.width, y / table.height) for x, y in p.points),
            p.name,
            None if p.width is None else p.width * per,
        )
        for p in table.terrain
    )
    layout = Layout(checked_name(name), pieces, note)
    layout_from_json(layout_to_json(layout))
    return layout


# --------------------------------------------------------------------------- JSON


class LayoutError(ValueError):
    """A layout that cannot be read or saved; one line naming what is wrong."""


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot name a layout, or None."""
    if not isinstance(name, str) or not name.strip():
        return "a layout needs a name"
    if len(name) > MAX_NAME:
        return f"a layout's name is at most {MAX_NAME} characters"
    return control_problem("the layout's name", name)


def checked_name(name: str) -> str:
    problem = name_problem(name)
    if problem is not None:
        raise LayoutError(problem)
    return name.strip()


def layout_to_json(layout: Layout) -> str:
    pieces: list[dict[str, Any]] = []
    for p in layout.pieces:
        d: dict[str, Any] = {"kind": p.kind, "points": [list(pt) for pt in p.points]}
        if p.name:
            d["name"] = p.name
        if p.width_mm is not None:
            d["width_mm"] = p.width_mm
        pieces.append(d)
    doc = {"format": FORMAT, "version": VERSION, "name": layout.name, "pieces": pieces}
    if layout.note:
        doc["note"] = layout.note
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _fraction(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise LayoutError(f"{what} must be a finite number, not {value!r}"[:200])
    if not -1e-9 <= value <= 1.0 + 1e-9:
        raise LayoutError(f"{what} {value:g} is not a fraction of the table (0 to 1)")
    return float(value)


def _piece(i: int, d: object) -> LayoutPiece:
    where = f"piece {i + 1}"
    if not isinstance(d, Mapping):
        raise LayoutError(f"{where} must be an object")
    unknown = sorted(set(d) - {"kind", "points", "name", "width_mm"})
    if unknown:
        raise LayoutError(f"{where} has no key {', '.join(map(str, unknown))[:100]}")
    kind = d.get("kind")
    if kind not in TERRAIN_KINDS:
        raise LayoutError(f"{where}: unknown terrain kind {str(kind)[:40]!r}")
    points = d.get("points")
    if not isinstance(points, list) or len(points) > MAX_POINTS:
        raise LayoutError(f"{where}: points must be a list of at most {MAX_POINTS} [x, y]")
    pts: list[tuple[float, float]] = []
    for j, pt in enumerate(points):
        if not isinstance(pt, list) or len(pt) != 2:
            raise LayoutError(f"{where}, point {j + 1}: must be [x, y]")
        pts.append(
            (
                _fraction(pt[0], f"{where}, point {j + 1} x"),
                _fraction(pt[1], f"{where}, point {j + 1} y"),
            )
        )
    name = d.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_NAME or control_problem("", name):
        raise LayoutError(f"{where}: the name must be plain text of at most {MAX_NAME} characters")
    width = d.get("width_mm")
    if width is not None:
        if (
            isinstance(width, bool)
            or not isinstance(width, int | float)
            or not math.isfinite(width)
        ):
            raise LayoutError(f"{where}: width_mm must be a finite number")
        if kind not in LINEAR_KINDS:
            raise LayoutError(
                f"{where}: a {kind} is an area; only rivers, roads and streams have a width"
            )
        if not 0 < width <= 10_000:
            raise LayoutError(f"{where}: width_mm {width:g} is out of range (0 to 10,000)")
        width = float(width)
    piece = LayoutPiece(kind, tuple(pts), name, width)
    try:  # the shape itself: enough points, no crossing outline (on a unit square)
        TerrainPiece("T1", kind, piece.points, "", 0.01 if kind in LINEAR_KINDS else None)
    except TerrainError as exc:
        raise LayoutError(f"{where}: {exc}") from None
    return piece


def layout_from_json(text: str) -> Layout:
    """Read a saved layout (:class:`LayoutError` naming what is wrong, in one line)."""
    if len(text) > MAX_FILE:
        raise LayoutError(f"a layout file is at most {MAX_FILE:,} bytes")
    try:
        doc = loads_json(text)
    except InputError as exc:
        raise LayoutError(f"not a layout file ({str(exc)[:120]})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise LayoutError(f'not a layout file (no "format": "{FORMAT}")')
    if doc.get("version") != VERSION:
        raise LayoutError(f"layout file version {str(doc.get('version'))[:20]} is not {VERSION}")
    name = doc.get("name")
    problem = name_problem(name)
    if problem is not None:
        raise LayoutError(problem)
    pieces = doc.get("pieces")
    if not isinstance(pieces, list) or len(pieces) > MAX_PIECES:
        raise LayoutError(f"a layout's pieces must be a list of at most {MAX_PIECES}")
    note = doc.get("note", "")
    if not isinstance(note, str) or len(note) > MAX_NAME or control_problem("", note):
        raise LayoutError("a layout's note must be plain text")
    assert isinstance(name, str)
    return Layout(name.strip(), tuple(_piece(i, p) for i, p in enumerate(pieces)), note)


def find_layout(
    name: str, in_place_of: Mapping[TerrainKind, TerrainKind], saved: Sequence[Layout] = ()
) -> Layout:
    """The ready-made (``in_place_of``: see :func:`ready_made`) or saved layout called
    ``name`` (case ignored); :class:`LayoutError` listing the names there are."""
    wanted = name.strip().casefold()
    for lay in (*ready_made(in_place_of), *saved):
        if lay.name.casefold() == wanted:
            return lay
    names = ", ".join(lay.name for lay in (*READY_MADE, *saved))
    raise LayoutError(f"no table layout {name[:60]!r} (layouts: {names})")
