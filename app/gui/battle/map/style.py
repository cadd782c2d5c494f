"""How the map looks: the scale from the ruleset's unit to scene units, side colours, and
each terrain kind's fill, pattern and outline. Brushes and pens are made once and shared
(nothing on the paint path builds them)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPen

#: Scene units per inch; a ruleset measuring in another unit gets its own scale so a unit
#: of any ruleset is about as large on screen (GSB's 8 cm unit width is 31.5 scene units).
SCENE_PER_INCH = 10.0

CLOTH = QColor("#d9d3b4")
CLOTH_EDGE = QColor("#6b5f3a")
GRID_MINOR = QColor(90, 80, 50, 45)
GRID_MAJOR = QColor(90, 80, 50, 95)
SELECTED = QColor("#ffd21f")
#: the target of the action being prepared: red corner marks on a white edge
TARGET = QColor("#e8112d")
GHOST_OK = QColor(30, 140, 60)
GHOST_BAD = QColor(200, 30, 30)
GHOST_ASK = QColor(220, 140, 0)
LEADER = (QColor("#f2c94c"), QColor("#e0e0e0"))
TEXT = QColor("#ffffff")


@dataclass(frozen=True)
class TerrainLook:
    fill: QColor
    pattern: Qt.BrushStyle
    pattern_colour: QColor
    outline: QColor
    label: str


TERRAIN: dict[str, TerrainLook] = {
    "woods": TerrainLook(
        QColor(70, 120, 60, 200),
        Qt.BrushStyle.Dense5Pattern,
        QColor("#2e5a25"),
        QColor("#2e5a25"),
        "Woods",
    ),
    "hill": TerrainLook(
        QColor(176, 150, 100, 190),
        Qt.BrushStyle.BDiagPattern,
        QColor("#8a6d3b"),
        QColor("#6e5426"),
        "Hill",
    ),
    "river": TerrainLook(
        QColor(70, 130, 200, 220),
        Qt.BrushStyle.NoBrush,
        QColor(0, 0, 0, 0),
        QColor("#2b5d9c"),
        "River",
    ),
    "stream": TerrainLook(
        QColor(110, 165, 220, 220),
        Qt.BrushStyle.NoBrush,
        QColor(0, 0, 0, 0),
        QColor("#3e78b8"),
        "Stream",
    ),
    "road": TerrainLook(
        QColor(190, 165, 120, 230),
        Qt.BrushStyle.NoBrush,
        QColor(0, 0, 0, 0),
        QColor("#8c7448"),
        "Road",
    ),
    "ford": TerrainLook(
        QColor(200, 185, 140, 230),
        Qt.BrushStyle.Dense6Pattern,
        QColor("#7a6a45"),
        QColor("#7a6a45"),
        "Ford",
    ),
    "marsh": TerrainLook(
        QColor(120, 150, 120, 170),
        Qt.BrushStyle.HorPattern,
        QColor("#3d6b6b"),
        QColor("#3d6b6b"),
        "Marsh",
    ),
    "town": TerrainLook(
        QColor(160, 140, 130, 210),
        Qt.BrushStyle.CrossPattern,
        QColor("#5a4a40"),
        QColor("#4a3a30"),
        "Town",
    ),
    "broken": TerrainLook(
        QColor(165, 150, 115, 170),
        Qt.BrushStyle.Dense6Pattern,
        QColor("#5e5236"),
        QColor("#5e5236"),
        "Broken ground",
    ),
    "lake": TerrainLook(
        QColor(60, 115, 185, 230),
        Qt.BrushStyle.NoBrush,
        QColor(0, 0, 0, 0),
        QColor("#234f88"),
        "Lake",
    ),
}
UNKNOWN = TerrainLook(
    QColor(150, 150, 150, 150),
    Qt.BrushStyle.NoBrush,
    QColor(0, 0, 0, 0),
    QColor("#555555"),
    "Terrain",
)


def look(kind: str) -> TerrainLook:
    return TERRAIN.get(kind, UNKNOWN)


@cache
def brush(colour: str, style: Qt.BrushStyle = Qt.BrushStyle.SolidPattern) -> QBrush:
    return QBrush(QColor(colour), style)


@cache
def pen(colour: str, width: float = 0.0, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    """A pen; width 0 is a cosmetic one-pixel line at any zoom."""
    p = QPen(QColor(colour), width, style)
    p.setCosmetic(width == 0.0)
    p.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    p.setCapStyle(Qt.PenCapStyle.RoundCap)
    return p


def cosmetic(
    colour: QColor, width: float = 1.5, style: Qt.PenStyle = Qt.PenStyle.SolidLine
) -> QPen:
    """A pen as wide in pixels at any zoom (outlines, ghosts, rulers)."""
    p = QPen(colour, width, style)
    p.setCosmetic(True)
    return p


@cache
def _cosmetic_cached(rgba: int, width: float, style: Qt.PenStyle) -> QPen:
    return cosmetic(QColor.fromRgba(rgba), width, style)


def cosmetic_pen(
    colour: QColor, width: float = 1.5, style: Qt.PenStyle = Qt.PenStyle.SolidLine
) -> QPen:
    """:func:`cosmetic`, made once per colour, width and style (for paint methods)."""
    return _cosmetic_cached(colour.rgba(), width, style)
