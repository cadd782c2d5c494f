"""The Log dock: every step in words with its rolls. Clicking a step shows the table as it
was after it (rebuilt from the recorded rolls), read-only until "Return to the present".
Steps undone (the redo branch) are listed greyed after the present."""

from __future__ import annotations

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
        self.tree = QTreeWidget()
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
        self._listed: list[Step] = []  # the steps listed, to add only what is new
        controller.viewing.connect(self._viewing)
        self._viewing(-1)

    def refresh(self) -> None:
        """List the steps: a 1,000-step battle is listed once; afterwards only what changed
        is added, so a step done does not rebuild the list."""
        session = self.controller.session
        steps = session.steps
        first = 0
        while first < min(len(self._listed), len(steps)) and self._listed[first] is steps[first]:
            first += 1
        while self.tree.topLevelItemCount() > first:
            self.tree.takeTopLevelItem(self.tree.topLevelItemCount() - 1)
        del self._listed[first:]
        names = session.state  # any state names the units and leaders (names never change)
        closed = QTreeWidgetItem.ChildIndicatorPolicy.ShowIndicator  # looked up once: slow
        grey = QBrush(QColor("#999"))
        normal = QBrush()
        # the steps already listed are greyed or not as the cursor now says
        for i in range(first):
            item = self.tree.topLevelItem(i)
            if item is not None:
                item.setForeground(0, grey if i >= session.cursor else normal)
        heads = []
        for n in range(first, len(steps)):
            step = steps[n]
            title = step.command.title(names)
            head = QTreeWidgetItem([f"{n + 1}. T{step.turn} {title}"])
            head.setData(0, STEP_ROLE, n + 1)
            head.setToolTip(0, " ".join(step.lines))
            # the step's lines and dice are made when it is opened (a log of 1,000 steps made
            # 3,000 items on opening the battle)
            head.setChildIndicatorPolicy(closed)
            if n >= session.cursor:  # undone: the redo branch
                head.setForeground(0, grey)
            heads.append(head)
            self._listed.append(step)
        # added at once: the list told its view of each of 1,000 steps one by one
        self.tree.addTopLevelItems(heads)
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
