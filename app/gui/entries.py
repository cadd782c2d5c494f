"""The army list's entries: troop type, allowed sizes, how many are taken and how many more
may be. Double-click (or Enter) adds one to the roster; entries can be dragged onto a command.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from PySide6.QtCore import QMimeData, QModelIndex, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.roster import Roster
from app.gui.roster_model import ENTRY_MIME
from app.gui.session import RosterSession
from app.rules.schema import ArmyList

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1
TROOP_ROLE = Qt.ItemDataRole.UserRole + 2

Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class Allowance:
    """How many units of an entry the roster holds, and what the list's min/max leave."""

    taken: int
    more: int | None  # None: no maximum
    short: int  # how many more the minimum still needs
    over: int = 0  # how many above the maximum

    @property
    def text(self) -> str:
        if self.short:
            return f"needs {self.short}"
        if self.over:
            return f"{self.over} over"
        if self.more is None:
            return "any"
        return "none" if self.more == 0 else str(self.more)


def allowances(army: ArmyList, roster: Roster) -> dict[str, Allowance]:
    """Per entry: units taken (counting quantities) and how many more the list allows. The
    limits are the army list's ``min``/``max``; validation (app.core) reports breaches."""
    taken: Counter[str] = Counter()
    for unit in roster.units:
        taken[unit.entry] += unit.count
    return {
        entry_id: Allowance(
            taken[entry_id],
            None if entry.max is None else max(entry.max - taken[entry_id], 0),
            max(entry.min - taken[entry_id], 0),
            0 if entry.max is None else max(taken[entry_id] - entry.max, 0),
        )
        for entry_id, entry in army.entries.items()
    }


def sizes_text(sizes: Sequence[int]) -> str:
    """Allowed sizes, short: "12", "6, 12", "2–8", "8–16 by 2"."""
    if len(sizes) >= 3:
        step = sizes[1] - sizes[0]
        if step > 0 and all(b - a == step for a, b in pairwise(sizes)):
            return f"{sizes[0]}–{sizes[-1]}" + ("" if step == 1 else f" by {step}")
    return ", ".join(str(s) for s in sizes)


class EntryDelegate(QStyledItemDelegate):
    """The entry's name, and its troop type on a second, smaller line, over the view's own
    background, selection and focus (drawn by ``QStyledItemDelegate.paint`` with the text
    left out). Nothing here touches ``QStyle``: PySide6 builds that class and all its enums
    the first time it is touched (some 6 ms of the window's start); a selected row is told
    by the view's selection, which is what its style state says."""

    #: while painting: the style option leaves the text out (this delegate draws it)
    _blank = False

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:
        super().initStyleOption(option, index)
        if self._blank:
            option.text = ""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        name = opt.text
        self._blank = True
        try:
            super().paint(painter, option, index)
        finally:
            self._blank = False
        widget = opt.widget
        rect = opt.rect.adjusted(4, 2, -4, -2)
        selected = isinstance(widget, QAbstractItemView) and widget.selectionModel().isSelected(
            index
        )
        palette = opt.palette
        painter.save()
        fm = QFontMetrics(opt.font)
        text = palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        )
        painter.setPen(text)
        painter.setFont(opt.font)
        elide = Qt.TextElideMode.ElideRight
        painter.drawText(rect.x(), rect.y() + fm.ascent(), fm.elidedText(name, elide, rect.width()))
        small = QFont(opt.font)
        small.setPointSizeF(small.pointSizeF() * 0.88)
        painter.setFont(small)
        if not selected:
            text = palette.color(QPalette.ColorRole.PlaceholderText)
        painter.setPen(text)
        sfm = QFontMetrics(small)
        troop = str(index.data(TROOP_ROLE) or "")
        painter.drawText(
            rect.x(),
            rect.y() + fm.height() + sfm.ascent(),
            sfm.elidedText(troop, elide, rect.width()),
        )
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        hint = super().sizeHint(option, index)
        fm = QFontMetrics(option.font)
        return QSize(hint.width(), fm.height() * 2 + 2)


class EntriesView(QTreeWidget):
    """A tree of entries whose drag carries the entry id."""

    def mimeData(self, items: Sequence[QTreeWidgetItem]) -> QMimeData:
        data = QMimeData()
        if items:
            data.setData(ENTRY_MIME, str(items[0].data(0, ENTRY_ROLE)).encode())
        return data

    def mimeTypes(self) -> list[str]:
        return [ENTRY_MIME]


class ArmyListPanel(QWidget):
    """Dock contents: the open roster's army list."""

    add_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session: RosterSession | None = None
        self._items: list[QTreeWidgetItem] = []
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.view = EntriesView()
        self.view.setObjectName("entriesView")
        self.view.setColumnCount(4)
        self.view.setHeaderLabels(["Entry / troop type", "Sizes", "Taken", "More"])
        self.view.headerItem().setToolTip(3, "How many more the army list allows")
        self.view.headerItem().setToolTip(
            1, "Allowed unit sizes (figures or bases, as the ruleset counts)"
        )
        self.view.setItemDelegateForColumn(0, EntryDelegate(self.view))
        self.view.setRootIsDecorated(False)
        self.view.setAlternatingRowColors(True)
        self.view.setUniformRowHeights(True)
        self.view.setDragEnabled(True)
        self.view.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.itemActivated.connect(self._activated)
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.hint = QLabel("Double-click an entry, or drag it onto a command, to add a unit.")
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: palette(mid);")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.view)
        layout.addWidget(self.hint)
        self.set_session(None)

    def set_session(self, session: RosterSession | None) -> None:
        if self.session is not None:
            self.session.changed.disconnect(self.refresh)
        self.session = session
        self.view.clear()
        self._items = []
        if session is None:
            self.title.setText("No roster open.")
            self.view.setEnabled(False)
            return
        session.changed.connect(self.refresh)
        army = session.army
        self.title.setText(f"<b>{army.name}</b> ({army.side}) — {session.ruleset.meta.short_name}")
        self.title.setToolTip(army.description or "")
        self.view.setEnabled(True)
        size_word = "figures" if session.ruleset.counts_figures else "bases"
        for entry_id, entry in army.entries.items():
            troop = session.ruleset.troops.get(entry.troop)
            item = QTreeWidgetItem([entry.name, sizes_text(entry.sizes), "", ""])
            item.setData(0, ENTRY_ROLE, entry_id)
            item.setData(0, TROOP_ROLE, troop.name if troop is not None else entry.troop)
            tip = [f"{entry.name}: {', '.join(map(str, entry.sizes))} {size_word}"]
            limits = f"min {entry.min}" + (f", max {entry.max}" if entry.max is not None else "")
            tip.append(limits)
            if entry.grades:
                tip.append("grades: " + ", ".join(entry.grades))
            for extra in (entry.note, entry.warning, entry.source):
                if extra:
                    tip.append(extra)
            for col in range(4):
                item.setToolTip(col, "\n".join(tip))
            for col in (1, 2, 3):
                item.setTextAlignment(
                    col, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                )
            self._items.append(item)
        self.view.addTopLevelItems(self._items)
        self.refresh()
        if self._items:
            self.view.setCurrentItem(self._items[0])

    def refresh(self) -> None:
        if self.session is None:
            return
        allowed = allowances(self.session.army, self.session.roster)
        for item in self._items:
            a = allowed[str(item.data(0, ENTRY_ROLE))]
            item.setText(2, str(a.taken))
            item.setText(3, a.text)

    def selected_entry(self) -> str | None:
        item = self.view.currentItem()
        return str(item.data(0, ENTRY_ROLE)) if item is not None else None

    def _activated(self, item: QTreeWidgetItem, _column: int) -> None:
        self.add_requested.emit(str(item.data(0, ENTRY_ROLE)))
