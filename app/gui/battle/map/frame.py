"""Table coordinates and scene coordinates. The table's y runs from side 0's edge (y = 0,
at the bottom of the screen) to side 1's; a facing of 0 looks up the screen and turns
clockwise, as it does in the core, so a unit item's rotation is its facing."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF

from app.gui.battle.map.style import SCENE_PER_INCH

Point = tuple[float, float]


@dataclass(frozen=True)
class Frame:
    """Scene units per table unit (``k``) and the table's height (to flip y)."""

    k: float = SCENE_PER_INCH
    height: float = 48.0

    @classmethod
    def for_table(cls, unit_mm: float, height: float) -> Frame:
        return cls(SCENE_PER_INCH * unit_mm / 25.4, height)

    def to_scene(self, x: float, y: float) -> QPointF:
        return QPointF(x * self.k, (self.height - y) * self.k)

    def to_table(self, p: QPointF) -> Point:
        return (p.x() / self.k, self.height - p.y() / self.k)

    def length(self, d: float) -> float:
        return d * self.k
