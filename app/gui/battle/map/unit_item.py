"""A unit on the map: its real base footprint turned to its facing, in its army's colour, with
its troop symbol, its label (inside the base, or on a tag beside it: the *plate* the scene
lays out for the zoom, :mod:`app.gui.battle.map.plates`) and its state (strength lost,
hits, rings, DPs, disorder, shaken, routed). Selected units have a yellow outline (the one
the Unit dock shows also its rotation handle); the target of the action being prepared has
red corner marks, so the two are never confused.

Like every item it mirrors core values, is updated in place and caches its drawing
(:mod:`app.gui.battle.map.items`): ``paint`` only draws what ``set_*`` prepared."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPolygonF,
    QStaticText,
)
from PySide6.QtWidgets import QGraphicsRectItem, QStyleOptionGraphicsItem, QWidget

from app.core.battle.look import UnitLabel
from app.core.battle.state import BattleUnit
from app.gui.battle.map import style
from app.gui.battle.map.frame import Frame
from app.gui.battle.map.items import NO_CACHE, Z_UNIT, cache_mode
from app.gui.battle.map.plates import NO_PLATE, REF_PX, Plate, ref_font, to_local
from app.gui.battle.map.symbols import WORDS, symbol_pixmap
from app.rules.schema import Symbol

#: State markers shown on the map: (the word inside a large base, the short one on a tag).
#: Other markers are bookkeeping of the rules (``moved``, ``activated``...): tooltip only.
MARKERS: dict[str, tuple[str, str]] = {
    "disordered": ("disordered", "Dis"),
    "shaken": ("shaken", "Shk"),
    "routed": ("ROUTED", "ROUT"),
    "routing": ("ROUTING", "ROUT"),
    "rampage": ("rampage", "Ramp"),
    "evading": ("evading", "Evd"),
    "pursuing": ("pursuing", "Pur"),
    "retiring": ("retiring", "Ret"),
    "looting": ("looting", "Loot"),
    "charging": ("charging", "Chg"),
}
#: the markers a base shows
SHOWN = frozenset(MARKERS)
#: Radius of the rotation handle, and how far ahead of the front edge its centre is (in
#: radii), in scene units.
HANDLE_R = style.SCENE_PER_INCH * 0.3
HANDLE_AHEAD = 2.2
#: Text smaller than this on the screen is not drawn (device pixels).
UNREADABLE_PX = 3.5
#: The target's corner marks: how far outside the base, and how long, in device pixels.
TARGET_OUT, TARGET_LEN = 3.0, 8.0
#: The front edge's white band and notch, and the text, as painted.
FRONT = QBrush(QColor("#ffffff"))
TEXT_PEN = QPen(style.TEXT)
TEXT_RGBA = style.TEXT.rgba()
#: no outline (a pen made once: Qt's enum passed from Python costs a lookup each time)
NO_PEN = QPen(Qt.PenStyle.NoPen)
#: no rectangle yet (never changed in place: every rectangle an item keeps is replaced whole)
NO_RECT = QRectF()
#: an outline's line styles, looked up once (each unit asks for one as it is made)
_SOLID, _DASHED = Qt.PenStyle.SolidLine, Qt.PenStyle.DashLine


@lru_cache(maxsize=256)
def _base(w: float, d: float) -> tuple[QRectF, QPolygonF, float, float, QRectF]:
    """A base ``w`` by ``d`` (scene units): its rectangle (centred on the origin, front edge
    up); its front, the white band along the front edge with the notch standing out at its
    middle, one outline (drawn in one go, with no seam where the notch meets the band); the
    band's depth and how far the notch stands out, as numbers (the labels' layout reads
    them thousands of times); the bounds of a unit with no label yet, not selected nor
    targeted (:meth:`UnitItem._bounding`, as every unit is made) -- made once for every
    base of that size (each Qt object a unit keeps costs it to make)."""
    body = QRectF(-w / 2, -d / 2, w, d)
    band = min(d * 0.12, style.SCENE_PER_INCH * 0.25)
    notch = min(w, d, style.SCENE_PER_INCH) * 0.3
    rise = notch * 0.8
    left, right, top = body.left(), body.right(), body.top()
    front = QPolygonF(
        [
            QPointF(left, top + band),
            QPointF(left, top),
            QPointF(-notch / 2, top),
            QPointF(0, top - rise),
            QPointF(notch / 2, top),
            QPointF(right, top),
            QPointF(right, top + band),
        ]
    )
    margin = 2.5 * NO_PLATE.px
    return body, front, band, rise, body.adjusted(-margin, -margin - rise, margin, margin)


@lru_cache(maxsize=1024)
def _margined(w: float, d: float, px: float) -> QRectF:
    """The bounds of a ``w`` by ``d`` base with the margin of a label laid out at ``px``
    local units a device pixel (:meth:`UnitItem._bounding` of a unit with no tag, not
    selected nor targeted), made once a base size and zoom (never changed in place)."""
    body, _, _, rise, _ = _base(w, d)
    m = 2.5 * px
    return body.adjusted(-m, -m - rise, m, m)


@lru_cache(maxsize=64)
def _brush(rgba: int) -> QBrush:
    """A solid brush of the colour ``rgba``, made once."""
    return QBrush(QColor.fromRgba(rgba))


@lru_cache(maxsize=512)
def _symbol_drawn(symbol: Symbol, width: int, height: int) -> tuple[QPixmap, QRectF]:
    """``symbol``'s pixmap at ``width`` by ``height`` device pixels in the text's colour
    (:func:`symbol_pixmap`), and the whole of it as a rectangle to draw from."""
    pixmap = symbol_pixmap(symbol, width, height, TEXT_RGBA)
    return pixmap, QRectF(0, 0, pixmap.width(), pixmap.height())


@dataclass(frozen=True)
class UnitLook:
    """How a unit is told apart: its army's colours, its labels and its symbol."""

    fill: QColor
    dark: QColor
    label: UnitLabel
    symbol: Symbol | None
    #: the troop type's name and the side's, for the tooltip
    troop: str = ""
    side: str = ""


def plain_look(unit: BattleUnit) -> UnitLook:
    """The look of a unit before its battle's look is known: its side's default colour, its
    name and id only."""
    fill = QColor(("#a83232", "#27548a")[unit.side])
    return UnitLook(fill, fill.darker(220), UnitLabel(unit.id, unit.name, unit.name, unit.id), None)


class UnitItem(QGraphicsRectItem):
    """One unit (see the module's docstring). Local coordinates: centre at the origin,
    front edge up."""

    # What every unit starts with, kept on the class (values never changed in place): a
    # unit is given its own only when one changes. Each attribute a unit is given is a
    # write into its Qt wrapper's dict (which grows as they come), 1,000 units at a time.
    selected = False
    #: the selected unit the Unit dock shows: its rotation handle is drawn
    primary = False
    targeted = False
    _plate = NO_PLATE
    #: the symbol drawn at the plate's size (shared by every unit of that symbol and size),
    #: and the whole of its pixmap to draw from
    _symbol: QPixmap | None = None
    _symbol_src = NO_RECT
    _cache = NO_CACHE
    #: the lines of text, each at its place in units of the text scaled to the plate's
    #: size (:meth:`set_plate`), and that scale
    _lines: tuple[tuple[QPointF, QStaticText], ...] = ()
    _text_scale = 1.0
    #: the tooltip is written when it is asked for (:meth:`refresh_tooltip`): the scene
    #: asks before Qt shows it; 1,000 units wrote 1,000 on opening a battle
    _tip_stale = True
    #: the plates laid out for this unit at the last zoom (:mod:`plates`' memo)
    plate_memo: object = None
    #: counts the changes to what the plate shows (size, facing, label, symbol, state):
    #: plates made for another count are made again (1: as made)
    look_version = 1
    _opacity = 1.0
    # Given to every unit as it is made (:meth:`_apply`, :meth:`_prepare`): the unit and
    # its frame; the base (its rectangle, its front drawn white, the band's depth and the
    # notch's height), its size and longer side; whether its words are turned; the
    # strength left; the state in words (long and short: :meth:`state_words`); the
    # outline's pen and the fill; and what the label's layout reads of the base
    # (:func:`plates._twin_key`), kept as plain values (reading a Qt object from Python
    # costs).
    unit: BattleUnit
    _frame: Frame
    _body: QRectF
    _front: QPolygonF
    _band: float
    _notch_height: float
    _size: tuple[float, float]
    span: float
    _flip: bool
    _fraction: float
    words: tuple[str, str]
    _pen: QPen
    _fill: QBrush
    shape_key: tuple[object, ...]

    def __init__(
        self, unit: BattleUnit, frame: Frame, strength_unit: str, look: UnitLook | None = None
    ) -> None:
        super().__init__()
        # Qt keeps the bounds (the item's rectangle, :meth:`_bounding`) and answers for them
        # itself: the view and the scene's index ask for an item's bounds several times a
        # paint, and each answer from Python went through PySide's lookup of an override
        # (a few thousand instructions), 1,000 units at a time. No outline: the rectangle is
        # the bounds, not widened by half a pen.
        self.setPen(NO_PEN)
        self.strength_unit = strength_unit
        self.look = look or plain_look(unit)
        if Z_UNIT:  # 0, Qt's own: nothing to set (a call a unit)
            self.setZValue(Z_UNIT)
        self._apply(unit, frame, place=True, fresh=True)

    # ------------------------------------------------------------------ what it shows

    @property
    def unit_id(self) -> str:
        return self.unit.id

    @property
    def body(self) -> QRectF:
        """The base, in local coordinates (front edge up)."""
        return self._body

    @property
    def label(self) -> UnitLabel:
        return self.look.label

    @property
    def symbol(self) -> Symbol | None:
        return self.look.symbol

    @property
    def plate(self) -> Plate:
        return self._plate

    @property
    def flip(self) -> bool:
        """Whether the unit's words are turned half round to read upright (its front faces
        down the screen)."""
        return self._flip

    def front_band(self) -> float:
        """Depth of the white band along the front edge (local units)."""
        return self._band

    def notch_height(self) -> float:
        """How far the notch at the middle of the front edge stands out (local units)."""
        return self._notch_height

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
            self._tip_stale = True
            return True
        self._apply(unit, frame, place=place)
        return True

    def set_look(self, look: UnitLook) -> bool:
        if look == self.look:
            return False
        self.look = look
        self.look_version += 1
        self._tip_stale = True
        self._plate = NO_PLATE  # laid out again for the new labels and symbol
        self._symbol = None
        self._lines = ()
        self._shape_key()
        self._prepare()
        self.update()
        return True

    def set_selected(self, on: bool, primary: bool = False) -> None:
        primary = primary and on
        if (on, primary) != (self.selected, self.primary):
            self.selected, self.primary = on, primary
            self.setRect(self._bounding())  # the rotation handle's room
            self._prepare()
            self.update()

    def set_targeted(self, on: bool) -> None:
        if on != self.targeted:
            self.targeted = on
            self.setRect(self._bounding())  # the corner marks' room
            self.update()

    def set_plate(
        self,
        plate: Plate,
        lines: dict[int, tuple[tuple[QPointF, QStaticText], ...]] | None = None,
    ) -> bool:
        """Show ``plate`` (laid out by the scene for the zoom); whether it changed.
        ``lines``: the lines as drawn, by the plate they were made for (units alike are
        given one plate), shared with the other units while those plates are held. Each
        line's text is prepared for drawing once for every unit and window
        (:func:`_static`)."""
        if plate == self._plate:
            return False
        self._plate = plate
        k = plate.font / REF_PX
        self._text_scale = k
        drawn = None if lines is None else lines.get(id(plate))
        if drawn is None:
            # drawn scaled to the plate's text size: each line's place in the scaled units,
            # so one scaling draws every line (no save, move, scale and restore a line)
            drawn = tuple((QPointF(at.x() / k, at.y() / k), _static(t)) for t, at in plate.lines)
            if lines is not None:
                lines[id(plate)] = drawn
        self._lines = drawn
        symbol = self.look.symbol
        if plate.symbol is not None and symbol is not None:
            self._symbol, self._symbol_src = _symbol_drawn(symbol, *plate.symbol_size)
        else:
            self._symbol = None
        self.setRect(self._bounding())  # Qt is told first where the tag or margin changed
        self.update()
        return True

    def _apply(self, unit: BattleUnit, frame: Frame, *, place: bool, fresh: bool = False) -> None:
        """Show ``unit`` (``place``: where it stands and faces too); ``fresh``: the item is
        being made, in no scene yet (nothing to tell Qt before it is added)."""
        self.unit = unit
        self._frame = frame
        w, d = frame.length(max(unit.width, 0.05)), frame.length(max(unit.depth, 0.05))
        self._body, self._front, self._band, self._notch_height, bare = _base(w, d)
        self._size = (w, d)
        self.span = max(w, d)
        if place:
            self.setPos(frame.to_scene(unit.x, unit.y))
            self.setRotation(unit.facing % 360)
            cache = cache_mode(unit.facing % 360)
            if cache != self._cache:
                self._cache = cache
                self.setCacheMode(cache)
        self._flip = 90 < unit.facing % 360 < 270
        self._shape_key()
        st = unit.status
        full = st.strength == st.start_strength
        self._fraction = float(st.fraction_left) if st.start_strength and not full else 1.0
        if full and not (st.eliminated or st.hits or st.rings or st.dps or st.markers & SHOWN):
            self.words = ("", "")  # a fresh unit's base says nothing of its state
        else:
            self.words = (self.words_of_state(long=True), self.words_of_state(long=False))
        if not fresh:  # (a unit as made has the first count, and no tooltip yet)
            self.look_version += 1
            self._tip_stale = True
        plain = self._plate is NO_PLATE and not (self.primary or self.targeted)
        self.setRect(bare if plain else self._bounding())
        self._prepare()
        opacity = 0.35 if st.eliminated else 1.0
        if opacity != self._opacity:
            self._opacity = opacity
            self.setOpacity(opacity)
        if not fresh:
            self.update()

    def _shape_key(self) -> None:
        w, d = self._size
        self.shape_key = (-w / 2, -d / 2, w, d, self._flip, self.symbol is not None)

    def _prepare(self) -> None:
        """The outline's pen and the fill, for the look, the selection and the state."""
        self._pen = style.cosmetic_pen(
            style.SELECTED if self.selected else self.look.dark,
            3.0 if self.selected else 1.0,
            _DASHED if "disordered" in self.unit.status.markers else _SOLID,
        )
        self._fill = _brush(self.look.fill.rgba())

    # ------------------------------------------------------------------ words

    def state_text(self) -> str:
        """The unit's state in words (strength left, hits, rings, DPs, markers)."""
        st = self.unit.status
        parts = [f"{st.strength}/{st.start_strength}"] if st.start_strength > 1 else []
        parts += self._counts(long=True)
        parts += [
            MARKERS.get(m, (m.replace("_", " "),))[0] for m in sorted(st.markers & set(MARKERS))
        ]
        if st.eliminated:
            parts.append("out")
        return " · ".join(parts)

    def _counts(self, *, long: bool) -> list[str]:
        st = self.unit.status
        out = []
        for value, word, letter in ((st.hits, "hit", "h"), (st.rings, "ring", "r")):
            if value:
                out.append(
                    f"{value} {word}{'s' if value != 1 else ''}" if long else f"{value}{letter}"
                )
        if st.dps:
            out.append(f"{st.dps} DP" if long else f"{st.dps}DP")
        return out

    def state_words(self, *, long: bool) -> str:
        """:meth:`words_of_state`, made once a state."""
        return self.words[0 if long else 1]

    def words_of_state(self, *, long: bool) -> str:
        """What the base says of the unit's state: strength where some is lost, hits,
        rings, DPs and the markers that change how it fights (:data:`MARKERS`); nothing for
        a fresh unit. ``long``: in words, for a large base; else as short as can be read."""
        st = self.unit.status
        parts = []
        if st.eliminated:
            return "out"
        if st.start_strength > 1 and st.strength < st.start_strength:
            parts.append(f"{st.strength}/{st.start_strength}")
        parts += self._counts(long=long)
        parts += [MARKERS[m][0 if long else 1] for m in sorted(st.markers & SHOWN)]
        return (" · " if long else " ").join(parts)

    def refresh_tooltip(self) -> None:
        """Write the tooltip for the unit as it is now, where it changed since."""
        if self._tip_stale:
            self._tip_stale = False
            self.setToolTip(self.tooltip())

    def toolTip(self) -> str:
        self.refresh_tooltip()
        return super().toolTip()

    def tooltip(self) -> str:
        u, st = self.unit, self.unit.status
        lines = [f"<b>{u.name}</b> ({u.id})"]
        kind = ", ".join(w for w in (self.look.side, self.look.troop) if w)
        if kind:
            lines.append(kind + (f" ({WORDS[self.symbol]})" if self.symbol else ""))
        lines.append(f"{st.strength} of {st.start_strength} {self.strength_unit} left")
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

    # ------------------------------------------------------------------ geometry

    def _bounding(self) -> QRectF:
        """The base, with room for the notch, the tag, and, only when they are drawn, the
        rotation handle and the target's marks (a smaller cache to draw at each zoom)."""
        plate = self._plate
        if not (plate.tag or self.primary or self.targeted):  # (most units)
            return _margined(*self._size, plate.px)
        m = 2.5 * plate.px
        r = self._body.adjusted(-m, -m - self._notch_height, m, m)
        if self.primary:
            r.setTop(min(r.top(), self._body.top() - HANDLE_R * 3.5))
        if self._plate.tag:
            r = r.united(to_local(self, self._plate.box).adjusted(-1, -1, 1, 1))
        if self.targeted:
            t = (TARGET_OUT + 4) * self._plate.px
            r = r.united(self._body.adjusted(-t, -t, t, t))
        return r

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRect(self._body)
        if self._plate.tag:
            path.addRect(to_local(self, self._plate.box))
        return path

    def handle_centre(self) -> QPointF:
        """Where the rotation handle of the selected unit is drawn (local coordinates)."""
        return QPointF(0, self._body.top() - HANDLE_R * HANDLE_AHEAD)

    # ------------------------------------------------------------------ painting

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        st = self.unit.status
        body = self._body
        painter.setPen(self._pen)
        painter.setBrush(self._fill)
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
            painter.setPen(NO_PEN)
            painter.setBrush(QColor(0, 0, 0, 110))
            painter.drawRect(band)
        markers = st.markers
        if markers:
            if "routed" in markers or "routing" in markers:
                painter.setPen(NO_PEN)
                painter.setBrush(QBrush(QColor(255, 255, 255, 150), Qt.BrushStyle.BDiagPattern))
                painter.drawRect(body)
            if "shaken" in markers:
                painter.setPen(style.cosmetic(QColor("#ff9800"), 2.0))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(body.adjusted(1, 1, -1, -1))
        # the front edge: a white band and a notch at its middle
        painter.setPen(NO_PEN)
        painter.setBrush(FRONT)
        painter.drawPolygon(self._front)
        if self.targeted:
            self._paint_target(painter)
        if self.primary:
            self._paint_handle(painter, body)
        self._paint_plate(painter)

    def _paint_plate(self, painter: QPainter) -> None:
        """The plate the scene laid out: a tag's card, the symbol, the lines of text (in
        the reference font, scaled); turned half round for a unit facing down the screen,
        as the plate was laid out, so its words read upright."""
        plate = self._plate
        if plate.where == "none":
            return
        if self._flip:
            painter.rotate(180)
        if plate.tag:
            painter.setPen(style.cosmetic_pen(self.look.dark, 1.0))
            painter.setBrush(self.look.fill)
            r = plate.box.height() * 0.25
            painter.drawRoundedRect(plate.box, r, r)
        if self._symbol is not None and plate.symbol is not None:
            painter.drawPixmap(plate.symbol, self._symbol, self._symbol_src)
        wt = painter.worldTransform()
        if plate.font * (wt.m11() ** 2 + wt.m12() ** 2) ** 0.5 < UNREADABLE_PX:
            return  # zoomed far out in a gesture, before the labels are laid out again
        painter.setFont(ref_font())
        painter.setPen(TEXT_PEN)
        # the last drawing of the item: the painter is left scaled (the view sets every
        # item's own transform before it draws it)
        painter.scale(self._text_scale, self._text_scale)
        for at, static in self._lines:
            painter.drawStaticText(at, static)

    def _paint_target(self, painter: QPainter) -> None:
        """Red corner marks outside the base, with a thin red outline: the target."""
        px = self._plate.px
        out, length = TARGET_OUT * px, TARGET_LEN * px
        r = self._body.adjusted(-out, -out, out, out)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(style.cosmetic(style.TARGET, 1.0, Qt.PenStyle.DashLine))
        painter.drawRect(self._body)
        marks = QPainterPath()
        for corner, dx, dy in (
            (r.topLeft(), 1, 1),
            (r.topRight(), -1, 1),
            (r.bottomLeft(), 1, -1),
            (r.bottomRight(), -1, -1),
        ):
            marks.moveTo(corner + QPointF(dx * length, 0))
            marks.lineTo(corner)
            marks.lineTo(corner + QPointF(0, dy * length))
        for colour, width in ((QColor("#ffffff"), 5.0), (style.TARGET, 3.0)):
            pen = QPen(colour, width)
            pen.setCosmetic(True)
            pen.setCapStyle(Qt.PenCapStyle.SquareCap)
            pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
            painter.setPen(pen)
            painter.drawPath(marks)

    def _paint_handle(self, painter: QPainter, body: QRectF) -> None:
        c = self.handle_centre()
        r = HANDLE_R
        painter.setPen(style.cosmetic(style.SELECTED, 2.0))
        painter.drawLine(QPointF(0, body.top()), QPointF(0, c.y() + r))
        painter.setBrush(style.SELECTED)
        painter.drawEllipse(c, r, r)


@lru_cache(maxsize=4096)
def _static(text: str) -> QStaticText:
    """``text`` prepared for drawing in the reference font, once for every unit showing it
    (in any window: a battle opened again draws its labels without shaping them again)."""
    static = QStaticText(text)
    static.setTextFormat(Qt.TextFormat.PlainText)
    static.prepare(font=ref_font())
    return static
