"""The campaign view's two trees: the timeline of battles and each side's army. They are
rebuilt from the core's values after every step; each item has a stable key (a battle's id,
a side's id and a unit's or leader's id), so expansion and selection survive edits and
undo."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

from app.core.campaign.chronicle import Entry
from app.core.campaign.diff import leader_state
from app.core.campaign.model import Campaign
from app.core.campaign.template import historical_fate
from app.rules.ruleset import Ruleset

KEY = Qt.ItemDataRole.UserRole
SPAN = Qt.ItemDataRole.UserRole + 1
MUTED = QBrush(QColor("#6A6A6A"))
LOST = QBrush(QColor("#8B1E1E"))


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
    """A tree rebuilt whole that keeps which keys were expanded and which was selected."""

    def rebuild(self, fill: list[QTreeWidgetItem], *, expand_new: bool = False) -> None:
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
        self.clear()
        self.addTopLevelItems(fill)
        # the new items, walked once (before the tree lays them out: expanding an item
        # first, then spanning, lays the tree out once, not once an item)
        items = _below(list(fill))
        chosen = None
        for it in items:
            key = it.data(0, KEY)
            if key in expanded or (expand_new and key not in known and it.childCount()):
                it.setExpanded(True)
            if key is not None and key == selected:
                chosen = it
        for it in items:
            if it.data(0, SPAN):
                it.setFirstColumnSpanned(True)  # only once the item is in the tree
        if chosen is not None:
            self.setCurrentItem(chosen)
        self.setUpdatesEnabled(True)
        self.verticalScrollBar().setValue(scroll)

    def item_of(self, key: str) -> QTreeWidgetItem | None:
        return next((it for it in _walk(self) if it.data(0, KEY) == key), None)


def _item(key: str | None, *texts: str) -> QTreeWidgetItem:
    item = QTreeWidgetItem(list(texts))
    item.setData(0, KEY, key)
    for col, text in enumerate(texts):
        if text:
            item.setToolTip(col, text)
    return item


def timeline_items(entries: list[Entry]) -> list[QTreeWidgetItem]:
    out = []
    for e in entries:
        b = e.battle
        when = ", ".join(x for x in (b.date, b.place) if x)
        item = _item(f"battle:{b.id}", b.name, e.state, e.winner or "", when)
        for n, w in enumerate((*e.words, *e.history, *e.notes)):
            child = _item(f"battle:{b.id}:{n}", w)
            child.setData(0, SPAN, True)
            if n >= len(e.words):
                child.setForeground(0, MUTED)
            item.addChild(child)
        out.append(item)
    return out


def army_items(rs: Ruleset, campaign: Campaign, size_word: str) -> list[QTreeWidgetItem]:
    out = []
    for side in campaign.sides:
        top = _item(f"side:{side.id}", side.name, f"{side.army.unit_count()} units")
        leaders = _item(f"leaders:{side.id}", "Leaders", f"{len(side.army.leaders)}")
        for ld in side.army.leaders:
            history = historical_fate(rs, campaign, side.id, ld.id)
            name = f"{ld.name} (general)" if ld.rank == "general" else ld.name
            it = _item(f"leader:{side.id}:{ld.id}", name, leader_state(ld), history or "")
            if not ld.status.can_field:
                it.setForeground(1, LOST)
            leaders.addChild(it)
        units = _item(f"units:{side.id}", "Units", f"{len(side.army.units)} lines")
        for u in side.army.units:
            size = f"{u.size} {size_word}" if u.count == 1 else f"{u.count} x {u.size} {size_word}"
            units.addChild(_item(f"unit:{side.id}:{u.id}", u.name, size, u.grade or ""))
        top.addChild(leaders)
        top.addChild(units)
        if side.lost:
            lost = _item(f"lost:{side.id}", "Lost", f"{len(side.lost)}")
            for n, x in enumerate(side.lost):
                at = next((b.name for b in campaign.battles if b.id == x.battle), x.battle)
                it = _item(f"lost:{side.id}:{n}", x.unit.name, x.reason, f"at {at}")
                it.setForeground(1, LOST)
                lost.addChild(it)
            top.addChild(lost)
        out.append(top)
    return out
