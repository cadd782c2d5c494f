"""The Log dock: every step in words with its rolls. Clicking a step shows the table as it
was after it (rebuilt from the recorded rolls), read-only until "Return to the present".
Steps undone (the redo branch) are listed greyed after the present.

A step's line is written when the view asks for it (its title, tooltip and colour are the
item's data, answered from the step): the view asks only for the lines it shows, so a
1,000-step battle opens without writing 1,000 titles and tooltips."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.battle import Step
from app.gui.battle.controller import BattleController

STEP_ROLE = Qt.ItemDataRole.UserRole
#: the colour of a step undone (the redo branch)
UNDONE = QColor("#999")
_DISPLAY = Qt.ItemDataRole.DisplayRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_FOREGROUND = Qt.ItemDataRole.ForegroundRole
#: a line has one column (a line of none would tell the view of no change)
_ONE_COLUMN = [""]


class StepLine(QTreeWidgetItem):
    """Step ``n``'s line (``n`` its place in the log): ``n. Tturn title``, all its lines in
    its tooltip, greyed while the step is undone. Written from the step when Qt asks (for
    the lines shown), the title once; the lines and dice under it are made when it is
    opened. A line keeps nothing of its own (1,000 lines are made as a battle opens)."""

    def data(self, column: int, role: int) -> Any:
        if role in _ASKED:
            tree = self.treeWidget()
            if isinstance(tree, LogTree):
                n = tree.indexOfTopLevelItem(self) + 1
                if role == _DISPLAY:
                    return tree.title(n)
                if role == _TOOLTIP:
                    return " ".join(tree.steps[n - 1].lines)
                if role == _FOREGROUND:
                    return tree.grey if n > tree.done else None
                return n
        return super().data(column, role)


_ASKED = frozenset((_DISPLAY, _TOOLTIP, _FOREGROUND, STEP_ROLE))


class LogTree(QTreeWidget):
    """The log's tree: the steps listed (a :class:`StepLine` each) and the cursor they are
    greyed by."""

    def __init__(self, controller: BattleController) -> None:
        super().__init__()
        #: its battle's state names the units and leaders in the titles (names never change)
        self._controller = controller
        #: the steps listed, a line each, and how many are done (the cursor: the rest are
        #: undone)
        self.steps: list[Step] = []
        self.done = 0
        self.grey = QBrush(UNDONE)
        self._titles: dict[int, str] = {}

    def title(self, n: int) -> str:
        """Step ``n``'s line: its number, turn and command in words."""
        title = self._titles.get(n)
        if title is None:
            step = self.steps[n - 1]
            names = self._controller.session.state
            title = f"{n}. T{step.turn} {step.command.title(names)}"
            self._titles[n] = title
        return title

    def follow(self, steps: list[Step], cursor: int) -> None:
        """List ``steps`` with ``cursor`` the present: the lines of the steps listed before
        (the same objects) stay, greyed again only where the cursor passed over them; the
        lines after them are taken away, and the new steps' lines added at once."""
        listed = self.steps
        first = 0
        most = min(len(listed), len(steps))
        while first < most and listed[first] is steps[first]:
            first += 1
        while self.topLevelItemCount() > first:
            self.takeTopLevelItem(self.topLevelItemCount() - 1)
        del listed[first:]
        for n in [n for n in self._titles if n > first]:
            del self._titles[n]
        low, high = sorted((self.done, cursor))
        self.done = cursor
        for i in range(low, min(high, first)):
            item = self.topLevelItem(i)
            if isinstance(item, StepLine):
                item.emitDataChanged()
        closed = QTreeWidgetItem.ChildIndicatorPolicy.ShowIndicator  # looked up once: slow
        lines = []
        for _n in range(first, len(steps)):
            line = StepLine(_ONE_COLUMN)  # its column's data is answered by the step
            # the step's lines and dice are made when it is opened (a log of 1,000 steps
            # made 3,000 items on opening the battle)
            line.setChildIndicatorPolicy(closed)
            lines.append(line)
        listed.extend(steps[first:])
        # added at once: the list told its view of each of 1,000 steps one by one
        self.addTopLevelItems(lines)


class LogPanel(QWidget):
    def __init__(self, controller: BattleController) -> None:
        super().__init__()
        self.controller = controller
        self.setObjectName("logPanel")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.banner = QLabel()
        self.banner.setObjectName("pastBanner")
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("background:#fff3c4; color:#5a4500; padding:3px;")
        self.present_button = QPushButton("Return to the present")
        self.present_button.setObjectName("presentButton")
        self.present_button.clicked.connect(controller.return_to_present)
        self.tree = LogTree(controller)
        self.tree.setObjectName("logTree")
        self.tree.setHeaderHidden(True)
        # lines wrap to the dock's width (the column follows the viewport; a line never runs
        # off to the right), and each says all of itself in its tooltip
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.header().setStretchLastSection(True)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.itemExpanded.connect(self._fill)
        layout.addWidget(self.banner)
        layout.addWidget(self.present_button)
        layout.addWidget(self.tree, 1)
        controller.viewing.connect(self._viewing)
        self._viewing(-1)

    def refresh(self) -> None:
        """List the steps: a 1,000-step battle is listed once; afterwards only what changed
        is added, taken away or greyed again, so a step done does not rebuild the list."""
        session = self.controller.session
        self.tree.follow(session.steps, session.cursor)
        current = self.tree.topLevelItem(session.cursor - 1) if session.cursor else None
        if current is not None:
            self.tree.scrollToItem(current)

    def item_for_step(self, n: int) -> QTreeWidgetItem:
        """Step ``n``'s line in the log, with its lines and dice under it."""
        item = self.tree.topLevelItem(n - 1)
        if item is None:
            raise IndexError(f"no step {n} in the log")
        self._fill(item)
        return item

    def _fill(self, head: QTreeWidgetItem) -> None:
        """A step's lines (each whole, wrapped, in its tooltip too) and its dice, under it."""
        if head.childCount():
            return
        n = int(head.data(0, STEP_ROLE))
        step = self.controller.session.steps[n - 1]
        text = " ".join(step.lines)
        for line in (text, *(f"Dice: {roll}" for roll in step.rolls)):
            child = QTreeWidgetItem(head, [line])
            child.setData(0, STEP_ROLE, n)
            child.setToolTip(0, line)

    def _clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        n = item.data(0, STEP_ROLE)
        if n is not None:
            self.controller.show_step(int(n))

    def _viewing(self, n: int) -> None:
        past = n >= 0
        if not past:  # no step stays highlighted as if it were shown
            self.tree.clearSelection()
        self.banner.setVisible(past)
        self.present_button.setVisible(past)
        if past:
            self.banner.setText(
                f"Showing the table after step {n} of {self.controller.session.cursor} (read-only)."
            )
