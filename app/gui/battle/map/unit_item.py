"""A unit on the map (see :mod:`app.gui.battle.map.items` for how items are kept and
cached)."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from app.core.battle.state import BattleUnit
from app.gui.battle.map import style
from app.gui.battle.map.frame import Frame
from app.gui.battle.map.items import CACHE, Z_UNIT

#: Markers shown as a word on the unit (others are shown too, as they are named).
SHORT = {
    "disordered": "disord.",
    "shaken": "shaken",
    "routed": "ROUTED",
    "routing": "ROUTING",
    "engaged": "engaged",
    "charging": "charging",
    "evading": "evading",
}
#: Bookkeeping markers not worth a word on the map.
QUIET = frozenset({"moved", "turn_start"})
#: Radius of the rotation handle, and how far ahead of the front edge its centre is (in
#: radii), in scene units.
HANDLE_R = style.SCENE_PER_INCH * 0.3
HANDLE_AHEAD = 2.2


class UnitItem(QGraphicsItem):
    """A unit at its real base footprint, turned to its facing, in its side's colour, with a
    mark on its front edge, its name and its state (strength left, hits, rings, DPs,
    markers); routed units hatched, eliminated ones faded. Local coordinates: centre at
    the origin, front edge up."""

    def __init__(self, unit: BattleUnit, frame: Frame, strength_unit: str) -> None:
        super().__init__()
        self.unit = unit
        self.strength_unit = strength_unit
        self.selected = False
        self._body = QRectF()
        self._font = QFont()
        self._name = ""
        self._state = ""
        self._fraction = 1.0
        self._flip = False
        self.setZValue(Z_UNIT)
        self.setCacheMode(CACHE)
        self.setAcceptHoverEvents(False)
        self._frame = frame
        self._apply(unit, frame, place=True)

    @property
    def unit_id(self) -> str:
        return self.unit.id

    @property
    def body(self) -> QRectF:
        """The base, in local coordinates (front edge up)."""
        return self._body

    def set_unit(self, unit: BattleUnit, frame: Frame) -> bool:
        """Show ``unit``; returns whether anything changed. Position and rotation are set
        only when they change."""
        if unit == self.unit and frame == self._frame:
            return False
        place = (unit.x, unit.y, unit.facing) != (self.unit.x, self.unit.y, self.unit.facing) or (
            frame != self._frame
        )
        same_look = replace(unit, x=self.unit.x, y=self.unit.y, moved=self.unit.moved) == self.unit
        if same_look and frame == self._frame and unit.facing == self.unit.facing:
            # only moved: the drawing (and its cache) stays, the item goes where the unit is
            self.unit = unit
            self.setPos(frame.to_scene(unit.x, unit.y))
            self.setToolTip(self.tooltip())
            return True
        self._apply(unit, frame, place=place)
        return True

    def set_selected(self, on: bool) -> None:
        if on != self.selected:
            self.selected = on
            self.update()

    def _apply(self, unit: BattleUnit, frame: Frame, *, place: bool) -> None:
        size_changed = (unit.width, unit.depth) != (
            self.unit.width,
            self.unit.depth,
        ) or not self._body.isValid()
        if size_changed or frame != self._frame:
            self.prepareGeometryChange()
        self.unit = unit
        self._frame = frame
        w, d = frame.length(max(unit.width, 0.05)), frame.length(max(unit.depth, 0.05))
        self._body = QRectF(-w / 2, -d / 2, w, d)
        if place:
            self.setPos(frame.to_scene(unit.x, unit.y))
            self.setRotation(unit.facing % 360)
        self._flip = 90 < unit.facing % 360 < 270
        self._font.setPointSizeF(max(1.0, min(d * 0.28, w * 0.14, style.SCENE_PER_INCH * 0.42)))
        metrics = QFontMetricsF(self._font)
        self._name = metrics.elidedText(unit.name, Qt.TextElideMode.ElideRight, w * 0.94)
        self._state = metrics.elidedText(self.state_text(), Qt.TextElideMode.ElideRight, w * 0.94)
        st = unit.status
        self._fraction = float(st.fraction_left) if st.start_strength else 1.0
        self.setToolTip(self.tooltip())
        self.setOpacity(0.35 if st.eliminated else 1.0)
        self.update()

    def state_text(self) -> str:
        st = self.unit.status
        parts = [f"{st.strength}/{st.start_strength}"] if st.start_strength > 1 else []
        if st.hits:
            parts.append(f"{st.hits} hit{'s' if st.hits != 1 else ''}")
        if st.rings:
            parts.append(f"{st.rings} ring{'s' if st.rings != 1 else ''}")
        if st.dps:
            parts.append(f"{st.dps} DP")
        parts += [SHORT.get(m, m) for m in sorted(st.markers) if m not in QUIET]
        if st.eliminated:
            parts.append("out")
        return " · ".join(parts)

    def tooltip(self) -> str:
        u, st = self.unit, self.unit.status
        lines = [
            f"<b>{u.name}</b> ({u.id})",
            f"{st.strength} of {st.start_strength} {self.strength_unit} left",
        ]
        for label, value in (("hits", st.hits), ("rings", st.rings), ("DPs", st.dps)):
            if value:
                lines.append(f"{label}: {value}")
        if st.grade:
            lines.append(f"grade {st.grade}")
        if st.formation:
            lines.append(f"formation: {st.formation}")
        if st.markers:
            lines.append("markers: " + ", ".join(sorted(st.markers)))
        if u.moved:
            lines.append(f"moved {u.moved:.1f} this turn")
        return "<br>".join(lines)

    def boundingRect(self) -> QRectF:
        extra = self._handle_r() * 3.5
        return self._body.adjusted(-1.5, -1.5 - extra, 1.5, 1.5)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRect(self._body)
        return path

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        st = self.unit.status
        side = self.unit.side
        body = self._body
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        outline = style.SELECTED if self.selected else style.SIDE_DARK[side]
        pen = style.cosmetic(outline, 3.0 if self.selected else 1.0)
        if "disordered" in st.markers:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(style.SIDE_FILL[side])
        painter.drawRect(body)
        # strength left: a dark band along the rear, as long as what is lost
        if self._fraction < 1.0:
            lost = body.width() * (1.0 - self._fraction)
            band = QRectF(
                body.right() - lost,
                body.bottom() - body.height() * 0.22,
                lost,
                body.height() * 0.22,
            )
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(0, 0, 0, 110))
            painter.drawRect(band)
        if st.markers & {"routed", "routing"}:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(QColor(255, 255, 255, 150), Qt.BrushStyle.BDiagPattern))
            painter.drawRect(body)
        if "shaken" in st.markers:
            painter.setPen(style.cosmetic(QColor("#ff9800"), 2.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(body.adjusted(1, 1, -1, -1))
        # the front edge: a white band and a notch at its middle
        edge = min(body.height() * 0.12, style.SCENE_PER_INCH * 0.25)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("#ffffff"))
        painter.drawRect(QRectF(body.left(), body.top(), body.width(), edge))
        notch = min(body.width(), body.height(), style.SCENE_PER_INCH) * 0.3
        painter.drawPolygon(
            QPolygonF(
                [
                    QPointF(-notch / 2, body.top()),
                    QPointF(notch / 2, body.top()),
                    QPointF(0, body.top() - notch * 0.8),
                ]
            )
        )
        if self.selected:
            self._paint_handle(painter, body)
        # words, when large enough to read
        lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        if self._font.pointSizeF() * lod < 4.5:
            return
        box = body.adjusted(1, edge, -1, -body.height() * 0.04)
        if self._flip:
            painter.rotate(180)
            box = QRectF(-box.right(), -box.bottom(), box.width(), box.height())
        painter.setFont(self._font)
        painter.setPen(style.TEXT)
        top = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop
        bottom = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom
        if self._state and box.height() > self._font.pointSizeF() * 2.4:
            painter.drawText(box, top, self._name)
            painter.drawText(box, bottom, self._state)
        else:
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self._name)

    def handle_centre(self) -> QPointF:
        """Where the rotation handle of the selected unit is drawn (local coordinates)."""
        return QPointF(0, self._body.top() - HANDLE_R * HANDLE_AHEAD)

    @staticmethod
    def _handle_r() -> float:
        return HANDLE_R

    def _paint_handle(self, painter: QPainter, body: QRectF) -> None:
        c = self.handle_centre()
        r = self._handle_r()
        painter.setPen(style.cosmetic(style.SELECTED, 2.0))
        painter.drawLine(QPointF(0, body.top()), QPointF(0, c.y() + r))
        painter.setBrush(style.SELECTED)
        painter.drawEllipse(c, r, r)
