"""Overlays for the selected unit -- movement reach, shooting range and arc, command radius,
lines of sight -- and the ruler's line. Every figure is asked of the core
(:mod:`app.core.battle.reach`): the map only draws the answers. Overlays are computed when
the selection or the state changes, never while painting."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPainterPathStroker, QPolygonF
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsScene

from app.core.battle.reach import (
    RulerReading,
    command_line,
    command_reach,
    reach_outline,
    shooting_reach,
    sight,
)
from app.gui.battle.map import style
from app.gui.battle.map.frame import Frame
from app.gui.battle.map.ghost import Label
from app.gui.battle.map.items import Z_OVERLAY
from app.rules.mechanics import Mechanics, NotImplementedRule, TurnView
from app.rules.sight import SightRules

OVERLAYS = ("reach", "range", "command", "los")
COLOURS = {
    "reach": QColor(30, 140, 60),
    "range": QColor(200, 90, 20),
    "command": QColor(120, 60, 170),
    "los": QColor(20, 120, 160),
}


def _path_item(scene: QGraphicsScene, z: float) -> QGraphicsPathItem:
    item = QGraphicsPathItem()
    item.setZValue(z)
    item.setVisible(False)
    scene.addItem(item)
    return item


class OverlayLayer:
    """One path item per overlay (and one for blocked sight lines), with a label saying
    what each shows or why it shows nothing."""

    def __init__(self, scene: QGraphicsScene) -> None:
        self.on: set[str] = set()
        self.items = {name: _path_item(scene, Z_OVERLAY) for name in OVERLAYS}
        self.blocked = _path_item(scene, Z_OVERLAY)
        self.label = Label()
        self.label.setVisible(False)
        scene.addItem(self.label)
        self.notes: dict[str, str] = {}
        for name, item in self.items.items():
            c = QColor(COLOURS[name])
            item.setPen(style.cosmetic(c, 1.5))
            c.setAlpha(45)
            item.setBrush(c if name != "los" else Qt.BrushStyle.NoBrush)
        self.blocked.setPen(style.cosmetic(style.GHOST_BAD, 1.0, Qt.PenStyle.DotLine))

    def toggle(self, name: str, on: bool) -> None:
        if name not in OVERLAYS:
            raise ValueError(f"no overlay {name!r} (overlays: {', '.join(OVERLAYS)})")
        if on:
            self.on.add(name)
        else:
            self.on.discard(name)

    def clear(self) -> None:
        for item in (*self.items.values(), self.blocked):
            item.setVisible(False)
        self.label.setVisible(False)
        self.notes = {}

    def refresh(
        self, mech: Mechanics | None, view: TurnView | None, unit_id: str | None, frame: Frame
    ) -> None:
        """Recompute the overlays that are on for ``unit_id`` (all hidden without one)."""
        self.clear()
        if mech is None or view is None or unit_id is None or not self.on:
            return
        symbol = mech.length_symbol()
        unit = view.unit(unit_id)
        if "reach" in self.on:
            reach = reach_outline(mech, view, unit_id)
            if len(reach.outline) > 2:
                self._show("reach", _polygon(reach.outline, frame))
                self.notes["reach"] = f"reach: {reach.left:.1f}{symbol} left this turn"
            else:
                self.notes["reach"] = f"reach: none ({reach.why})"
        if "range" in self.on:
            shot = shooting_reach(mech, view, unit_id)
            if shot is None:
                self.notes["range"] = "range: the rules give this unit no shooting range here"
            else:
                self._show("range", _range_shape(unit.footprint, shot.range, shot.arc, frame))
                arc = f", {shot.arc:g} degree arc" if shot.arc is not None else ", all round"
                self.notes["range"] = f"range: {shot.range:g}{symbol}{arc} ({shot.rule})"
        if "command" in self.on:
            self._command(mech, view, unit_id, frame, symbol)
        if "los" in self.on:
            clear, blocked = QPainterPath(), QPainterPath()
            seen = 0
            for other in view.units:
                if other.side == unit.side or other.status.eliminated:
                    continue
                s = sight(mech, view, unit_id, other.unit_id)
                path = clear if s.clear else blocked
                path.moveTo(frame.to_scene(*s.start))
                path.lineTo(frame.to_scene(*s.end))
                seen += s.clear
            self._show("los", clear)
            self.blocked.setPath(blocked)
            self.blocked.setVisible(True)
            self.notes["los"] = f"sight: {seen} enemy units in sight (dotted red: blocked)"
        if self.notes:
            colour = QColor("#202020")
            self.label.set_lines([(text, colour) for text in self.notes.values()])
            corners = [frame.to_scene(x, y) for x, y in unit.footprint.corners()]
            left = min(p.x() for p in corners)
            bottom = max(p.y() for p in corners)
            self.label.setPos(QPointF(left, bottom + 2))
            self.label.setVisible(True)

    def _command(
        self, mech: Mechanics, view: TurnView, unit_id: str, frame: Frame, symbol: str
    ) -> None:
        """The command radius the mechanics' ``command_reach`` gives (a circle about its
        centre), with the line to the nearest leader of the unit's side where there is one.
        A ruleset without a command radius says so; one whose radius reaches no leader of
        this unit says that instead."""
        try:
            cmd = command_reach(mech, view, unit_id)
            line = command_line(mech, view, unit_id)
        except NotImplementedRule as exc:
            self.notes["command"] = f"command: not given by these rules yet ({exc})"
            return
        path = QPainterPath()
        if cmd is not None:
            r = frame.length(cmd.radius)
            path.addEllipse(frame.to_scene(*cmd.centre), r, r)
        if line is not None:
            path.moveTo(frame.to_scene(*line.start))
            path.lineTo(frame.to_scene(*line.end))
        if not path.isEmpty():
            self._show("command", path)
        far = "" if line is None else f"; {line.distance:.1f}{symbol} from {line.leader}"
        if cmd is not None:
            self.notes["command"] = f"command radius: {cmd.radius:g}{symbol} ({cmd.rule}){far}"
        elif not has_command_radius(mech):
            self.notes["command"] = f"command: no command radius in this ruleset{far}"
        else:
            self.notes["command"] = f"command: no command radius reaches this unit{far}"

    def _show(self, name: str, path: QPainterPath) -> None:
        item = self.items[name]
        item.setPath(path)
        item.setVisible(True)


def has_command_radius(mech: Mechanics) -> bool:
    """Whether the ruleset's mechanics give command radii at all (they override the
    ``command_reach`` hook, whose default gives none)."""
    return getattr(type(mech), "command_reach", None) is not SightRules.command_reach


def _polygon(points: tuple[tuple[float, float], ...], frame: Frame) -> QPainterPath:
    path = QPainterPath()
    pts = [frame.to_scene(x, y) for x, y in points]
    path.addPolygon(QPolygonF([*pts, pts[0]]))
    return path


def _range_shape(fp: object, reach: float, arc: float | None, frame: Frame) -> QPainterPath:
    """The ground within ``reach`` of the unit's base, cut to its arc of fire (a wedge from
    its centre about its facing) when it has one."""
    from app.rules.geometry import Footprint

    assert isinstance(fp, Footprint)
    base = _polygon(fp.corners(), frame)
    stroker = QPainterPathStroker()
    stroker.setWidth(2 * frame.length(reach))
    stroker.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    area = stroker.createStroke(base).united(base)
    if arc is None or arc >= 360:
        return area.simplified()
    far = frame.length(reach + fp.width + fp.depth) * 2
    c = frame.to_scene(fp.x, fp.y)
    wedge = QPainterPath(c)
    steps = max(2, int(arc / 5))
    for k in range(steps + 1):
        a = math.radians(fp.facing - arc / 2 + arc * k / steps)
        wedge.lineTo(QPointF(c.x() + math.sin(a) * far, c.y() - math.cos(a) * far))
    wedge.closeSubpath()
    return area.intersected(wedge).simplified()


class RulerLine:
    """The ruler's line and its reading."""

    def __init__(self, scene: QGraphicsScene) -> None:
        self.line = _path_item(scene, Z_OVERLAY + 2)
        self.line.setPen(style.cosmetic(QColor("#111111"), 2.0))
        self.label = Label()
        self.label.setVisible(False)
        scene.addItem(self.label)
        self.reading: RulerReading | None = None

    def show(self, reading: RulerReading, frame: Frame, symbol: str) -> None:
        self.reading = reading
        a, b = frame.to_scene(*reading.start), frame.to_scene(*reading.end)
        path = QPainterPath(a)
        path.lineTo(b)
        for p in (a, b):
            path.addEllipse(p, 1.5, 1.5)
        self.line.setPath(path)
        self.line.setVisible(True)
        ink = QColor("#202020")
        lines = [
            (
                f"{reading.distance:.2f}{symbol}"
                + (" base edge to base edge" if reading.kind == "units" else ""),
                ink,
            )
        ]
        if reading.ends:
            lines.append((reading.ends, ink))
        m = reading.measurement
        if m is not None:
            lines.append((f"in its {m.arc} arc; it stands in the target's {m.target_arc} arc", ink))
            sight = "in sight" if m.los else "out of sight: " + ", ".join(m.blocked_by)
            lines.append((sight, ink if m.los else style.GHOST_BAD))
        for c in reading.crossed:
            name = f' "{c.name}"' if c.name else ""
            lines.append((f"across {c.kind} {c.piece_id}{name}: {c.length:.1f}{symbol}", ink))
        self.label.set_lines(lines)
        self.label.setPos(QPointF((a.x() + b.x()) / 2, (a.y() + b.y()) / 2))
        self.label.setVisible(True)

    def hide(self) -> None:
        self.reading = None
        self.line.setVisible(False)
        self.label.setVisible(False)
