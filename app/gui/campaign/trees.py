"""The campaign view's two trees: the timeline of battles and each side's army. They are
rebuilt from the core's values after every step, as rows (:class:`Row`); each row has a stable
key (a battle's id, a side's id and a unit's or leader's id), so expansion and selection
survive edits and undo, and a top-level row that shows what it showed keeps its items (a step
changes a battle or a side, not the fifty others)."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QEvent, QRect, Qt
from PySide6.QtGui import QBrush, QColor, QHelpEvent
from PySide6.QtWidgets import QToolTip, QTreeWidget, QTreeWidgetItem, QWidget

from app.core.campaign.chronicle import Entry
from app.core.campaign.diff import leader_state
from app.core.campaign.model import Campaign
from app.core.campaign.template import historical_fate
from app.rules.ruleset import Ruleset

KEY = Qt.ItemDataRole.UserRole
MUTED = QBrush(QColor("#6A6A6A"))
LOST = QBrush(QColor("#8B1E1E"))


class Row(NamedTuple):
    """A tree item as plain values: its key, its texts (a column each), the columns drawn
    in a colour (``#rrggbb``), whether its first column spans the row, and its children."""

    key: str | None
    texts: tuple[str, ...]
    colours: tuple[tuple[int, str], ...] = ()
    span: bool = False
    children: tuple[Row, ...] = ()


_BRUSHES = {b.color().name().upper(): b for b in (MUTED, LOST)}


def _brush(colour: str) -> QBrush:
    got = _BRUSHES.get(colour.upper())
    if got is None:
        got = _BRUSHES[colour.upper()] = QBrush(QColor(colour))
    return got


def _make(row: Row, made: list[tuple[QTreeWidgetItem, Row]]) -> QTreeWidgetItem:
    """The item of ``row`` with its children's, each item added to ``made`` with its row
    (what the tree then expands and spans is read from the rows, not asked of the items:
    a timeline of 50 battles has some 250 items)."""
    item = QTreeWidgetItem(list(row.texts))
    if row.key is not None:
        item.setData(0, KEY, row.key)
    for col, colour in row.colours:
        item.setForeground(col, _brush(colour))
    made.append((item, row))
    if row.children:
        item.addChildren([_make(child, made) for child in row.children])
    return item


def _keys(row: Row) -> list[str | None]:
    out = [row.key]
    for child in row.children:
        out += _keys(child)
    return out


def _walk(tree: QTreeWidget) -> list[QTreeWidgetItem]:
    return _below([tree.topLevelItem(i) for i in range(tree.topLevelItemCount())])


def _below(roots: list[QTreeWidgetItem | None]) -> list[QTreeWidgetItem]:
    """``roots`` and every item under them."""
    out: list[QTreeWidgetItem] = []
    stack = list(roots)
    while stack:
        item = stack.pop()
        if item is None:
            continue
        out.append(item)
        stack += [item.child(i) for i in range(item.childCount())]
    return out


class KeptTree(QTreeWidget):
    """A tree rebuilt from rows that keeps which keys were expanded and which was selected,
    and the items of a top-level row that shows what it showed.

    The pointer resting on a cell shows the cell's text as its tooltip (a long line cut
    short by the column is read whole there), written when Qt asks for it rather than set
    on every item (a timeline of 50 battles has some 500 cells, and setting their tooltips
    was a tenth of opening the window)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        #: the top-level rows shown, as :meth:`rebuild` put them in the tree
        self._rows: list[Row] = []

    def clear(self) -> None:
        self._rows = []
        super().clear()

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            index = self.indexAt(event.pos())
            if index.isValid() and index.data(Qt.ItemDataRole.ToolTipRole) is None:
                # as the item delegate shows a tooltip, the cell's text standing for it
                text = index.data(Qt.ItemDataRole.DisplayRole)
                shown = str(text) if text else ""
                r = self.visualRect(index)
                rect = QRect(self.viewport().mapToGlobal(r.topLeft()), r.size())
                QToolTip.showText(event.globalPos(), shown, self, rect)
                event.setAccepted(bool(shown))
                return True
        return super().viewportEvent(event)

    def rebuild(self, rows: list[Row], *, expand_new: bool = False) -> None:
        shown = self._rows
        if (
            len(shown) == len(rows) == self.topLevelItemCount()
            and all(a.key == b.key for a, b in zip(shown, rows, strict=True))
            and self._replace(
                [i for i, (a, b) in enumerate(zip(shown, rows, strict=True)) if a != b],
                rows,
                expand_new=expand_new,
            )
        ):
            self._rows = list(rows)
            return
        made: list[tuple[QTreeWidgetItem, Row]] = []
        self._rebuild([_make(row, made) for row in rows], made, expand_new=expand_new)
        self._rows = list(rows)

    def _replace(self, changed: list[int], rows: list[Row], *, expand_new: bool) -> bool:
        """Put new items for the top-level rows at ``changed`` in place of the old ones,
        the others kept as they are. False, with nothing done, when the selected item is
        among those replaced and its key is not among the new ones (the whole rebuild then
        leaves nothing selected, as it always did)."""
        if not changed:
            return True
        gone = _below([self.topLevelItem(i) for i in changed])
        current = self.currentItem()
        selected = current.data(0, KEY) if current is not None else None
        if not any(it is current for it in gone):
            selected = None
        elif not any(selected in _keys(rows[i]) for i in changed):
            return False
        known: set[object] = {key for row in self._rows for key in _keys(row)}
        expanded = {it.data(0, KEY) for it in gone if it.isExpanded()}
        made: list[tuple[QTreeWidgetItem, Row]] = []
        tops = [_make(rows[i], made) for i in changed]
        scroll = self.verticalScrollBar().value()
        self.setUpdatesEnabled(False)
        for i, item in zip(changed, tops, strict=True):
            self.takeTopLevelItem(i)
            self.insertTopLevelItem(i, item)
        self._settle(made, expanded, known, selected, expand_new=expand_new)
        self.setUpdatesEnabled(True)
        self.verticalScrollBar().setValue(scroll)
        return True

    def _rebuild(
        self,
        fill: list[QTreeWidgetItem],
        made: list[tuple[QTreeWidgetItem, Row]],
        *,
        expand_new: bool,
    ) -> None:
        expanded: set[object] = set()
        known: set[object] = set()
        for it in _walk(self):
            key = it.data(0, KEY)
            known.add(key)
            if it.isExpanded():
                expanded.add(key)
        current = self.currentItem()
        selected = current.data(0, KEY) if current is not None else None
        scroll = self.verticalScrollBar().value()
        self.setUpdatesEnabled(False)
        super().clear()
        self.addTopLevelItems(fill)
        self._settle(made, expanded, known, selected, expand_new=expand_new)
        self.setUpdatesEnabled(True)
        self.verticalScrollBar().setValue(scroll)

    def _settle(
        self,
        made: list[tuple[QTreeWidgetItem, Row]],
        expanded: set[object],
        known: set[object],
        selected: object,
        *,
        expand_new: bool,
    ) -> None:
        """Expand, span and select the new items (in the tree, each with its row) as the
        old ones were."""
        # expanding the items first, then spanning, lays the tree out once, not once an item
        chosen = None
        for it, row in made:
            key = row.key
            if key in expanded or (expand_new and key not in known and row.children):
                it.setExpanded(True)
            if key is not None and key == selected:
                chosen = it
        for it, row in made:
            if row.span:
                it.setFirstColumnSpanned(True)  # only once the item is in the tree
        if chosen is not None:
            self.setCurrentItem(chosen)

    def item_of(self, key: str) -> QTreeWidgetItem | None:
        return next((it for it in _walk(self) if it.data(0, KEY) == key), None)


def timeline_rows(entries: list[Entry]) -> list[Row]:
    muted = MUTED.color().name()
    out = []
    for e in entries:
        b = e.battle
        when = ", ".join(x for x in (b.date, b.place) if x)
        lines = (*e.words, *e.history, *e.notes)
        children = tuple(
            Row(f"battle:{b.id}:{n}", (w,), ((0, muted),) if n >= len(e.words) else (), True)
            for n, w in enumerate(lines)
        )
        out.append(
            Row(f"battle:{b.id}", (b.name, e.state, e.winner or "", when), (), False, children)
        )
    return out


def army_rows(rs: Ruleset, campaign: Campaign, size_word: str) -> list[Row]:
    lost_colour = ((1, LOST.color().name()),)
    out = []
    for side in campaign.sides:
        leaders = []
        for ld in side.army.leaders:
            history = historical_fate(rs, campaign, side.id, ld.id)
            name = f"{ld.name} (general)" if ld.rank == "general" else ld.name
            leaders.append(
                Row(
                    f"leader:{side.id}:{ld.id}",
                    (name, leader_state(ld), history or ""),
                    () if ld.status.can_field else lost_colour,
                )
            )
        units = []
        for u in side.army.units:
            size = f"{u.size} {size_word}" if u.count == 1 else f"{u.count} x {u.size} {size_word}"
            units.append(Row(f"unit:{side.id}:{u.id}", (u.name, size, u.grade or "")))
        parts = [
            Row(
                f"leaders:{side.id}",
                ("Leaders", f"{len(side.army.leaders)}"),
                children=tuple(leaders),
            ),
            Row(
                f"units:{side.id}",
                ("Units", f"{len(side.army.units)} lines"),
                children=tuple(units),
            ),
        ]
        if side.lost:
            lost = []
            for n, x in enumerate(side.lost):
                at = next((b.name for b in campaign.battles if b.id == x.battle), x.battle)
                lost.append(
                    Row(f"lost:{side.id}:{n}", (x.unit.name, x.reason, f"at {at}"), lost_colour)
                )
            parts.append(
                Row(f"lost:{side.id}", ("Lost", f"{len(side.lost)}"), children=tuple(lost))
            )
        out.append(
            Row(
                f"side:{side.id}",
                (side.name, f"{side.army.unit_count()} units"),
                children=tuple(parts),
            )
        )
    return out
