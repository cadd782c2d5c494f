"""Where each unit's label goes at a given zoom: its *plate* -- the troop symbol, the longest
of its labels that fits (full name, short name, abbreviation, id) and its state -- inside
its base where the base is large enough on screen, else on a small tag of its side's colour
just behind or in front of the base, never over another unit's base or tag.

The layout is computed for a zoom (device pixels per scene unit) when the zoom or the
units change, never while painting: each item then paints the plate it was given. Text
widths are measured once per string (:func:`advance`) in a reference font and scaled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Literal, cast

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QFont, QFontMetricsF, QStaticText

if TYPE_CHECKING:
    from app.gui.battle.map.unit_item import UnitItem

#: Pixel size of the font text is measured in (and drawn in, scaled).
REF_PX = 100
#: Smallest and largest text on the map, in device pixels (times the layout's scale).
MIN_PX, MAX_PX = 8.0, 13.0
#: Room around text, in device pixels.
PAD = 2.0
#: Gap between a base and its tag, in device pixels.
GAP = 1.0
#: Height of a symbol on a tag, in font heights.
TAG_SYMBOL = 0.85
#: The smallest symbol drawn on a base, in device pixels.
MIN_SYMBOL = 5.0

Where = Literal["inside", "rear", "front", "centre", "none"]
#: Where a tag is tried, in turn: behind the base, in front of it, each shifted to one of
#: the base's sides, then over the base itself (hiding its symbol where the tag has no
#: room for it).
PLACES: tuple[tuple[Where, int], ...] = (
    ("rear", 0),
    ("front", 0),
    ("rear", -1),
    ("rear", 1),
    ("front", -1),
    ("front", 1),
    ("centre", 0),
)
#: Where a tag placed is tried again with a longer label.
GROW: tuple[tuple[Where, int], ...] = (("rear", 0), ("front", 0))


@cache
def ref_font() -> QFont:
    font = QFont()
    font.setPixelSize(REF_PX)
    font.setWeight(QFont.Weight.DemiBold)
    # narrower letters where the family has them (DejaVu Sans Condensed): more labels fit
    font.setStretch(QFont.Stretch.SemiCondensed)
    return font


@cache
def _metrics() -> QFontMetricsF:
    return QFontMetricsF(ref_font())


@cache
def advance(text: str) -> float:
    """Width of ``text`` per pixel of font size (measured once per string)."""
    return _metrics().horizontalAdvance(text) / REF_PX


#: Side of the cells overlaps are looked for in, in device pixels (about a tag's size).
CELL_PX = 32.0
#: A base smaller than this on the screen (its longer side, device pixels) carries no
#: label: too small to tell which unit a label would be for (zoom in).
TINY_PX = 7.0
#: Height of a line of text, and of a tag, in font sizes.
LINE, TAG_H = 1.15, 1.2


@dataclass(frozen=True)
class Plate:
    """A unit's label as laid out, in its item's local units as read: turned half round
    for a unit whose front faces down the screen (:func:`to_local`), so its words read
    upright. ``where`` it is (inside the base, a tag behind or in front of it); ``box`` the
    room inside the base or the tag itself; ``font`` the text's pixel size; ``lines`` each
    line's text and the top left of its box (one :data:`LINE` high); ``symbol`` the
    symbol's box, on the plate or, beside a tag, on the base."""

    where: Where
    box: QRectF
    font: float
    lines: tuple[tuple[str, QPointF], ...]
    symbol: QRectF | None
    #: local units per device pixel at the zoom it was laid out for
    px: float = 1.0
    #: the label shown (one of the unit's :attr:`~app.core.battle.look.UnitLabel.variants`)
    label: str = ""
    #: the symbol's size in device pixels (its pixmap's), where there is one
    symbol_size: tuple[int, int] = field(init=False, compare=False, default=(0, 0))

    def __post_init__(self) -> None:
        if self.symbol is not None:
            size = (round(self.symbol.width() / self.px), round(self.symbol.height() / self.px))
            object.__setattr__(self, "symbol_size", size)

    @property
    def text(self) -> str:
        return " ".join(t for t, _ in self.lines)

    @property
    def tag(self) -> bool:
        return self.where in ("rear", "front", "centre")


NO_PLATE = Plate("none", QRectF(), 1.0, (), None)


#: a plate not laid out yet (told apart by identity)
_UNSET = Plate("none", QRectF(), 0.0, (), None)


class _Memo:
    """An item's plates as laid out in its own coordinates for one zoom, text scale, state
    and facing: they depend on nothing else, so a unit that only moved reuses them. Plain
    slots, and a dict of tags only once a tag is tried: a memo is made for every unit at
    every zoom, and most units never need a tag."""

    __slots__ = ("inside", "inside_ids", "key", "on_base", "placed", "tags")

    def __init__(self, key: tuple[object, ...]) -> None:
        self.key = key
        #: the tag the last layout gave the item at this zoom
        self.placed: Plate | None = None
        #: the plate inside the base, without and with the unit's id among its labels
        #: (:data:`_UNSET` until laid out)
        self.inside: Plate | None = _UNSET
        self.inside_ids: Plate | None = _UNSET
        self.on_base: tuple[QRectF | None] | None = None
        self.tags: dict[tuple[str, Where, int], Plate] | None = None


def _memo(item: UnitItem, ppu: float, scale: float) -> _Memo:
    memo = item.plate_memo
    if isinstance(memo, _Memo) and memo.key == (ppu, scale, item.look_version):
        return memo
    memo = _Memo((ppu, scale, item.look_version))
    item.plate_memo = memo
    return memo


#: plates laid out once for every unit alike (:func:`_twin_key`), within one layout
Twins = dict[tuple[object, ...], "Plate | None"]


def _twin_key(item: UnitItem, *words: object) -> tuple[object, ...]:
    """What a unit's plate depends on besides its zoom: its base, whether its words are
    turned, whether it has a symbol, and ``words`` (its labels, its state, where the tag
    goes). Units alike in all of these (the ten "Ha1" bases of a big battle's legions) are
    given the same plate, laid out once."""
    return item.shape_key + words


def to_local(item: UnitItem, r: QRectF) -> QRectF:
    """A plate's rectangle in the item's local coordinates (turned back half round for a
    unit whose words are turned)."""
    return QRectF(-r.right(), -r.bottom(), r.width(), r.height()) if item.flip else r


#: A rectangle in scene units as its edges: left, top, right, bottom (``QRectF.getCoords``,
#: the same numbers Qt's ``left()``, ``top()``, ``right()`` and ``bottom()`` give). The
#: layout keeps its rectangles so, read from Qt once: it asks thousands of questions of
#: them as a big battle's labels are laid out, and each asked of a ``QRectF`` from Python is
#: a call into Qt.
Edges = tuple[float, float, float, float]


def crosses(a: Edges, b: Edges) -> bool:
    """Whether ``a`` and ``b`` overlap with some area, as ``QRectF.intersects`` decides it
    (edges that only touch do not; a rectangle with no width or height crosses nothing)."""
    al, at, ar, ab = a
    bl, bt, br, bb = b
    return (
        al < br
        and bl < ar
        and at < bb
        and bt < ab
        and al != ar
        and at != ab
        and bl != br
        and bt != bb
    )


def edges(r: QRectF) -> Edges:
    """``r``'s edges, read from Qt in one call."""
    return cast(Edges, r.getCoords())


def _scene(item: UnitItem, r: QRectF) -> Edges:
    """``r`` (a plate's rectangle, as read) in scene units, as its edges."""
    return edges(item.mapRectToScene(to_local(item, r)))


class _Grid:
    """Rectangles in scene units (bases and tags, each with its unit's id), bucketed by
    cell, to find overlaps fast. (:meth:`add` and :meth:`hits`, asked a thousand times
    and more as a big battle's labels are laid out, walk the cells a rectangle covers
    themselves, as :meth:`_keys` lists them.)"""

    def __init__(self, cell: float) -> None:
        self.cell = max(cell, 1e-6)
        self.cells: dict[tuple[int, int], list[tuple[Edges, str, bool]]] = {}

    def _keys(self, r: Edges) -> list[tuple[int, int]]:
        c = self.cell
        left, top, right, bottom = r
        rows = range(int(top // c), int(bottom // c) + 1)
        return [(i, j) for i in range(int(left // c), int(right // c) + 1) for j in rows]

    def add(self, r: Edges, owner: str, tag: bool = False) -> None:
        entry = (r, owner, tag)
        cells = self.cells
        c = self.cell
        left, top, right, bottom = r
        first, last = int(top // c), int(bottom // c) + 1
        for i in range(int(left // c), int(right // c) + 1):
            for j in range(first, last):
                cell = cells.get((i, j))
                if cell is None:
                    cells[(i, j)] = [entry]
                else:
                    cell.append(entry)

    def remove(self, r: Edges, owner: str) -> None:
        for k in self._keys(r):
            cell = self.cells.get(k)
            if cell:
                self.cells[k] = [e for e in cell if not (e[1] == owner and e[0] == r)]

    def hits(self, r: Edges, owner: str) -> bool:
        """Whether ``r`` crosses a rectangle of another unit (:func:`crosses`, written out:
        a rectangle with no width or height crosses nothing)."""
        left, top, right, bottom = r
        if left == right or top == bottom:
            return False
        cells = self.cells
        c = self.cell
        first, last = int(top // c), int(bottom // c) + 1
        for i in range(int(left // c), int(right // c) + 1):
            for j in range(first, last):
                for (o_left, o_top, o_right, o_bottom), who, _ in cells.get((i, j), ()):
                    if (
                        o_left < right
                        and left < o_right
                        and o_top < bottom
                        and top < o_bottom
                        and o_left != o_right
                        and o_top != o_bottom
                        and who != owner
                    ):
                        return True
        return False

    def tags_over(self, r: Edges) -> set[str]:
        """The units whose tags cross ``r``."""
        out = set()
        for k in self._keys(r):
            for other, who, tag in self.cells.get(k, ()):
                if tag and crosses(other, r):
                    out.add(who)
        return out


class _Room:
    """A base's room for a label at a zoom, in device pixels."""

    def __init__(self, item: UnitItem, ppu: float, scale: float) -> None:
        body = item.body
        self.k = 1.0 / ppu
        self.pad = PAD * scale
        self.edge = item.front_band() * ppu
        self.w = body.width() * ppu - 2 * self.pad
        self.h = body.height() * ppu - self.edge - self.pad
        self.lo = MIN_PX * scale
        #: the largest text the base takes
        self.hi = max(self.lo, min(MAX_PX * scale, self.h * 0.55))
        self.has_symbol = item.symbol is not None
        self.sym_gap = self.pad if self.has_symbol else 0.0
        self.size(self.hi)
        k = self.k
        # the front band is at the top of the base as read, or its bottom for a turned unit
        top = body.top() + (self.pad * 0.5 if item.flip else self.edge) * k
        self.box = QRectF(
            body.left() + self.pad * k,
            top,
            body.width() - 2 * self.pad * k,
            body.height() - (self.edge + self.pad * 0.5) * k,
        )

    def size(self, font: float) -> None:
        """Text of ``font`` pixels, and the symbol to go with it."""
        self.font = font
        self.line = font * LINE
        self.sym_h = min(font * 1.1, self.h * 0.8) if self.has_symbol else 0.0
        self.sym_w = self.sym_h * 1.5

    def fonts(self, text: str) -> list[float]:
        """Text sizes to try for ``text``, largest first: the base's largest, the one at
        which ``text`` just fits beside the symbol, the smallest."""
        fit = (self.w - self.sym_gap) / (advance(text) + (1.65 if self.has_symbol else 0.0))
        sizes = {self.hi, self.lo}
        if self.lo < fit < self.hi:
            sizes.add(fit)
        return sorted(sizes, reverse=True)

    def row(self, lines: tuple[str, ...], label: str, *, block: bool = False) -> Plate:
        """The symbol then the first line, centred; the second line under them (or, for a
        ``block`` of two lines, beside the symbol too)."""
        k, c, font = self.k, self.box.center(), self.font
        line = font * LINE
        block_top = c.y() - line * k * len(lines) / 2
        first = max(advance(t) for t in lines) if block else advance(lines[0])
        head = self.sym_w + self.sym_gap + first * font
        left = c.x() - head * k / 2
        text_left = left + (self.sym_w + self.sym_gap) * k
        placed = [(lines[0], QPointF(text_left, block_top))]
        if len(lines) > 1:
            w = advance(lines[1]) * font
            x = text_left if block else c.x() - w * k / 2
            placed.append((lines[1], QPointF(x, block_top + line * k)))
        symbol = None
        if self.sym_w > 0:
            height = line * (len(lines) if block else 1)
            top = block_top + (height - self.sym_h) * k / 2
            symbol = QRectF(left, top, self.sym_w * k, self.sym_h * k)
        return Plate("inside", self.box, font * k, tuple(placed), symbol, k, label)

    def stack(self, lines: tuple[str, ...], label: str) -> Plate:
        """The symbol above the lines, all centred."""
        k, c, font = self.k, self.box.center(), self.font
        line = font * LINE
        top = c.y() - (self.sym_h + len(lines) * line) * k / 2
        symbol = QRectF(c.x() - self.sym_w * k / 2, top, self.sym_w * k, self.sym_h * k)
        placed = tuple(
            (t, QPointF(c.x() - advance(t) * font * k / 2, top + (self.sym_h + i * line) * k))
            for i, t in enumerate(lines)
        )
        return Plate("inside", self.box, font * k, placed, symbol, k, label)


def _halves(text: str) -> tuple[str, str]:
    """``text`` cut in two lines at the space nearest its middle."""
    spaces = [i for i, c in enumerate(text) if c == " "]
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    return text[:cut], text[cut + 1 :]


def _inside(
    item: UnitItem, ppu: float, scale: float, *, ids: bool = False, twins: Twins | None = None
) -> Plate | None:
    """The plate inside the base with the longest label that fits there with the unit's
    state (its id only where ``ids``), as large as it fits; or None. ``twins``: the plates
    already laid out for units alike (:func:`_twin_key`), shared with them."""
    memo = _memo(item, ppu, scale)
    plate = memo.inside_ids if ids else memo.inside
    if plate is _UNSET:
        if twins is None:
            plate = _inside_plate(item, ppu, scale, ids)
        else:
            variants = item.label.variants
            # (the unit's state, long and short, is ``item.words``)
            key = (*item.shape_key, "inside", variants if ids else variants[:-1], item.words)
            plate = twins.get(key, _UNSET)
            if plate is _UNSET:
                plate = twins[key] = _inside_plate(item, ppu, scale, ids)
        if ids:
            memo.inside_ids = plate
        else:
            memo.inside = plate
    return plate


def _inside_plate(item: UnitItem, ppu: float, scale: float, ids: bool) -> Plate | None:
    room = _Room(item, ppu, scale)
    if room.h < room.lo * 1.05 or room.w <= 0:
        return None
    states = [s for s in (item.state_words(long=True), item.state_words(long=False)) if s]
    variants = item.label.variants if ids else item.label.variants[:-1]
    for text in variants:
        for font in room.fonts(text):
            room.size(font)
            plate = _fit(room, text, states)
            if plate is not None:
                return plate
    return None


def _fit(room: _Room, text: str, states: Sequence[str]) -> Plate | None:
    """``text`` and the state in the base at the room's text size: in a row beside the
    symbol (the state on a line of its own, or after the label), else under the symbol."""
    font = room.font
    tw = advance(text) * font
    head = room.sym_w + room.sym_gap + tw
    if head <= room.w:
        if not states:
            return room.row((text,), text)
        for st in states:
            if room.h >= 2 * room.line and advance(st) * font <= room.w:
                return room.row((text, st), text)
        if head + advance(" " + states[-1]) * font <= room.w:
            return room.row((f"{text} {states[-1]}",), text)
    elif not states and " " in text and room.h >= 2 * room.line:
        # on two lines beside the symbol ("Libyans and" / "Carthaginians")
        halves = _halves(text)
        if room.sym_w + room.sym_gap + max(advance(t) for t in halves) * font <= room.w:
            return room.row(halves, text, block=True)
    if room.sym_h > 0 and tw <= room.w:
        for st in states or [""]:
            lines = (text, st) if st else (text,)
            fits = all(advance(t) * font <= room.w for t in lines)
            if fits and room.h >= room.sym_h + len(lines) * room.line:
                return room.stack(lines, text)
    return None


def symbol_on_base(item: UnitItem, ppu: float, scale: float) -> QRectF | None:
    """Where the base shows its symbol when its label is on a tag: centred, as tall as the
    base allows, where that is at least :data:`MIN_SYMBOL` pixels (else the tag carries
    it)."""
    memo = _memo(item, ppu, scale)
    if memo.on_base is None:
        memo.on_base = (_symbol_on_base(item, ppu, scale),)
    return memo.on_base[0]


def _symbol_on_base(item: UnitItem, ppu: float, scale: float) -> QRectF | None:
    if item.symbol is None:
        return None
    body = item.body
    k = 1.0 / ppu
    room_h = (body.height() - item.front_band()) * ppu - 1.0 * scale
    h = min(room_h, (body.width() * ppu - 2 * scale) / 1.5, MAX_PX * scale)
    if h < MIN_SYMBOL * scale:
        return None
    c = body.center()
    return QRectF(
        c.x() - h * 0.75 * k, c.y() - h * k / 2 + item.front_band() / 2, h * 1.5 * k, h * k
    )


def _tag(
    item: UnitItem,
    text: str,
    state: str,
    ppu: float,
    scale: float,
    where: Where,
    align: int = 0,
    twins: Twins | None = None,
) -> Plate:
    """:func:`_make_tag`, made once an item and zoom (and once for units alike, given
    their ``twins``)."""
    memo = _memo(item, ppu, scale)
    if memo.tags is None:
        memo.tags = {}
    plate = memo.tags.get((text, where, align))
    if plate is None:
        key = _twin_key(item, "tag", text, state, where, align)
        shared = twins.get(key) if twins is not None else None
        plate = shared or _make_tag(item, text, state, ppu, scale, where, align)
        if twins is not None:
            twins[key] = plate
        memo.tags[(text, where, align)] = plate
    return plate


def _make_tag(
    item: UnitItem,
    text: str,
    state: str,
    ppu: float,
    scale: float,
    where: Where,
    align: int = 0,
) -> Plate:
    """A tag behind (``rear``) or in front of the base, centred on it (``align`` -1: its
    left edge on the base's, 1: its right edge), with the symbol where the base has no room
    for it; or, last of all, over the base (``centre``), with the symbol where the base is
    wide enough for both."""
    k = 1.0 / ppu
    font = MIN_PX * scale
    pad = PAD * scale
    h = font * TAG_H
    words = f"{text} {state}" if state else text
    body = item.body
    on_base = symbol_on_base(item, ppu, scale) if where != "centre" else None
    sym_h = font * TAG_SYMBOL if item.symbol is not None and on_base is None else 0.0
    sym_w = sym_h * 1.5 + (pad if sym_h else 0.0)
    w = advance(words) * font + 2 * pad + sym_w
    if where == "centre" and sym_h and w > body.width() * ppu + 2 * pad:
        sym_h = sym_w = 0.0
        w = advance(words) * font + 2 * pad
    behind = body.bottom() + GAP * scale * k
    ahead = body.top() - item.notch_height() - GAP * scale * k - h * k
    if item.flip:  # as read, a turned unit's rear is above it and its front below
        behind, ahead = (
            body.top() - GAP * scale * k - h * k,
            body.bottom() + (item.notch_height() + GAP * scale) * k,
        )
    if where == "rear":
        top = behind
    elif where == "front":
        top = ahead
    else:
        top = body.center().y() - h * k / 2
    left = -w * k / 2
    if align < 0:
        left = body.left()
    elif align > 0:
        left = body.right() - w * k
    box = QRectF(left, top, w * k, h * k)
    symbol = on_base
    if sym_h:
        symbol = QRectF(box.left() + pad * k, top + (h - sym_h) * k / 2, sym_h * 1.5 * k, sym_h * k)
    at = QPointF(box.left() + (pad + sym_w) * k, top + (h - font * LINE) * k / 2)
    return Plate(where, box, font * k, ((words, at),), symbol, k, text)


class Layout:
    """The labels of a scene's units laid out for one zoom (``ppu`` device pixels per
    scene unit) and text ``scale`` (a printed image's labels are larger): :meth:`full`
    lays every label out; :meth:`update`, after some units changed, only theirs and those
    of the units whose tags their new places cross.

    Labels inside a base come first; a base too small to see (:data:`TINY_PX`) has none.
    Then tags, row by row across the table: first every unit's abbreviation (or, where even
    that finds no room, its id) at the first place (:data:`PLACES`) where it crosses no
    base and no tag already placed; then each tag grows to the longest label that still
    crosses nothing. A unit with no room anywhere shows its id inside its base, or, last,
    on a tag behind it."""

    def __init__(self, ppu: float, scale: float = 1.0) -> None:
        self.ppu, self.scale = ppu, scale
        self.grid = _Grid(CELL_PX / ppu)
        #: plates laid out for units alike, shared (:func:`_twin_key`)
        self.twins: Twins = {}
        #: what each unit put in the grid: its base and leader, and its tag
        self.rects: dict[str, list[Edges]] = {}
        self.tags: dict[str, Edges] = {}

    def full(self, items: Sequence[UnitItem], *, keep: bool = False) -> int:
        """Lay every label out; returns how many changed. ``keep``: a unit whose tag, laid
        out at this zoom, still crosses nothing where it now stands keeps it."""
        tiny = TINY_PX * self.scale / self.ppu
        if all(max(it.body.width(), it.body.height()) < tiny for it in items):
            # every base too small to label (a big battle seen whole): nothing to place
            return sum(1 for it in items if it.set_plate(NO_PLATE))
        for item in items:
            self._add_base(item)
        return self._place(items, keep=keep)

    def update(self, items: Sequence[UnitItem], changed: Sequence[UnitItem]) -> int:
        """``changed`` moved or changed state (``items`` are all the units, the same as
        when laid out): lay out theirs again, and the tags their new places cross."""
        ids = {it.unit_id for it in changed}
        for item in changed:
            self._forget(item.unit_id)
            self._add_base(item)
        crossed: set[str] = set()
        for item in changed:
            for r in self.rects.get(item.unit_id, ()):
                crossed |= self.grid.tags_over(r)
        again = [it for it in items if it.unit_id in ids or it.unit_id in crossed]
        for item in again:
            tag = self.tags.pop(item.unit_id, None)
            if tag is not None:
                self.grid.remove(tag, item.unit_id)
        return self._place(again, keep=False)

    def _add_base(self, item: UnitItem) -> None:
        unit = item.unit
        uid = unit.id
        if unit.status.eliminated:
            self.rects[uid] = []
            return
        rects = [edges(item.mapRectToScene(item.body))]
        children = item.childItems()
        if children:
            # a leader's marker on the base: drawn over its own unit's label, never to be
            # covered by another's
            rects += [edges(child.sceneBoundingRect()) for child in children]
        self.rects[uid] = rects
        add = self.grid.add
        for r in rects:
            add(r, uid)

    def _forget(self, uid: str) -> None:
        for r in self.rects.pop(uid, ()):
            self.grid.remove(r, uid)
        tag = self.tags.pop(uid, None)
        if tag is not None:
            self.grid.remove(tag, uid)

    def _add_tag(self, item: UnitItem, plate: Plate) -> None:
        r = _scene(item, plate.box)
        self.tags[item.unit_id] = r
        self.grid.add(r, item.unit_id, tag=True)

    def _place(self, items: Sequence[UnitItem], *, keep: bool) -> int:
        ppu, scale = self.ppu, self.scale
        plates: dict[str, Plate] = {}
        waiting: list[UnitItem] = []
        tiny = TINY_PX * scale / ppu
        for item in items:
            uid = item.unit.id
            if item.span < tiny:
                plates[uid] = NO_PLATE
                continue
            inside = _inside(item, ppu, scale, twins=self.twins)
            if inside is not None:
                plates[uid] = inside
            elif item.unit.status.eliminated:
                plates[uid] = _inside(item, ppu, scale, ids=True, twins=self.twins) or NO_PLATE
            else:
                waiting.append(item)
        if keep:
            waiting = [it for it in waiting if not self._kept(it, plates)]
        waiting.sort(key=lambda it: (round(it.pos().y(), 1), it.pos().x()))
        homeless: list[UnitItem] = []
        for item in waiting:
            variants = item.label.variants
            found = self._first_fit(item, variants[-2:] if len(variants) > 1 else variants)
            if found is None:
                homeless.append(item)
            else:
                plates[item.unit_id] = found
        for item in waiting:
            plate = plates.get(item.unit_id)
            if plate is None or not plate.tag:
                continue
            longer = item.label.variants[: item.label.variants.index(plate.label)]
            if not longer:
                continue
            self.grid.remove(self.tags.pop(item.unit_id), item.unit_id)
            grown = self._first_fit(item, longer, GROW)
            if grown is None:
                self._add_tag(item, plate)
            else:
                plates[item.unit_id] = grown
        for item in homeless:
            plate = _inside(item, ppu, scale, ids=True, twins=self.twins) or _tag(
                item, item.label.id, item.state_words(long=False), ppu, scale, "rear", 0, self.twins
            )
            if plate.tag:
                self._add_tag(item, plate)
            plates[item.unit_id] = plate
        changed = 0
        # the lines as drawn, made once a plate (units alike share theirs): by the plate's
        # identity, which holds while ``plates`` holds every plate
        lines: dict[int, tuple[tuple[QPointF, QStaticText], ...]] = {}
        for item in items:
            plate = plates[item.unit.id]
            if plate.tag:
                _memo(item, ppu, scale).placed = plate
            else:
                # no tag placed (a memo of another zoom is made afresh when next read)
                memo = item.plate_memo
                if isinstance(memo, _Memo) and memo.placed is not None:
                    memo.placed = None
            if item.set_plate(plate, lines):
                changed += 1
        return changed

    def _kept(self, item: UnitItem, plates: dict[str, Plate]) -> bool:
        """Whether ``item`` keeps the tag it has (laid out at this zoom for the state it
        is in, and still crossing nothing)."""
        plate = _memo(item, self.ppu, self.scale).placed
        if plate is None or plate is not item.plate:
            return False
        if self.grid.hits(_scene(item, plate.box), item.unit_id):
            return False
        self._add_tag(item, plate)
        plates[item.unit_id] = plate
        return True

    def _first_fit(
        self,
        item: UnitItem,
        labels: Sequence[str],
        places: Sequence[tuple[Where, int]] = PLACES,
    ) -> Plate | None:
        """The first tag with one of ``labels`` (in order) at one of ``places`` that
        crosses nothing, added to the grid; None where none does."""
        ppu, scale = self.ppu, self.scale
        state = item.state_words(long=False)
        cap = max(item.body.width() * ppu * 1.6, 34.0 * scale) + 2 * PAD * scale
        for text in labels:
            for where, align in places:
                plate = _tag(item, text, state, ppu, scale, where, align, self.twins)
                if plate.box.width() * ppu > cap and text != item.label.id:
                    break
                if not self.grid.hits(_scene(item, plate.box), item.unit_id):
                    self._add_tag(item, plate)
                    return plate
        return None


def lay_out(items: Sequence[UnitItem], ppu: float, scale: float = 1.0) -> Layout:
    """A fresh :class:`Layout` of ``items`` at ``ppu`` and ``scale``."""
    layout = Layout(ppu, scale)
    layout.full(items)
    return layout


def overlaps(items: Sequence[UnitItem]) -> list[tuple[str, str]]:
    """Pairs of units whose labels (tags, or labels inside bases) cross another unit's
    base or label: what :class:`Layout` avoids; for the tests."""
    rects: list[tuple[str, QRectF, bool]] = []
    for item in items:
        if item.unit.status.eliminated:
            continue
        rects.append((item.unit_id, item.mapRectToScene(item.body), False))
        if item.plate.tag:
            rects.append((item.unit_id, item.mapRectToScene(to_local(item, item.plate.box)), True))
    out = []
    for i, (a, ra, tag_a) in enumerate(rects):
        for b, rb, tag_b in rects[i + 1 :]:
            if a != b and (tag_a or tag_b) and ra.intersects(rb):
                out.append((a, b))
    return out
