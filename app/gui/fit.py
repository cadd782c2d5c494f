"""Fitting a view's columns to what they show, cheaply and on every change.

Qt's own fitting (``sizeHintForColumn``, ``resizeColumnsToContents``) asks the delegate for
the size of every row: on a 1,000-unit roster that was 84% of the time to open it. Here the
model names the texts a column can show (a sample of rows plus the widest values it knows:
the longest name, the largest total, every troop type of the army list) and the width is
measured from those with the font's metrics. Fitting runs once per burst of changes (the
event loop's next turn), and leaves alone a column the user has resized by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QHeaderView, QWidget

#: room a cell needs around its text (the style's margins and the focus frame)
CELL_PADDING = 16


def text_width(font: QFont, texts: Iterable[str], *, bold: bool = False) -> int:
    """The width of the widest of ``texts`` in ``font`` (bold if asked)."""
    if bold:
        font = QFont(font)
        font.setBold(True)
    metrics = QFontMetrics(font)
    return max((metrics.horizontalAdvance(t) for t in texts if t), default=0)


class ColumnFitter(QObject):
    """Calls ``fit`` once the current burst of changes is over; remembers which sections
    the user resized (``user_sized``), which ``fit`` should leave as they are."""

    def __init__(self, header: QHeaderView, fit: Callable[[], None], parent: QWidget) -> None:
        super().__init__(parent)
        self.header = header
        self._fit = fit
        self._pending = False
        self._fitting = False
        self.user_sized: set[int] = set()
        header.sectionResized.connect(self._resized)

    def _resized(self, section: int, old: int, new: int) -> None:
        # Our own resizes, the stretched last section and hiding or showing a column (a
        # size of 0) do not count.
        if not self._fitting and old > 0 and new > 0 and section != self._last():
            self.user_sized.add(section)

    def _last(self) -> int:
        return self.header.logicalIndex(self.header.count() - 1)

    def reset(self) -> None:
        """A new model: every column is fitted again."""
        self.user_sized.clear()

    def schedule(self) -> None:
        if not self._pending:
            self._pending = True
            QTimer.singleShot(0, self, self.fit_now)

    def fit_now(self) -> None:
        self._pending = False
        self._fitting = True
        try:
            self._fit()
        finally:
            self._fitting = False

    def resize(self, section: int, width: int) -> None:
        """Resize ``section`` unless the user sized it."""
        if section not in self.user_sized and self.header.sectionSize(section) != width:
            self.header.resizeSection(section, width)


def short_name(name: str, most: int = 40) -> str:
    """``name`` cut to ``most`` characters with an ellipsis, for a status line or a label
    whose reason must still show after it."""
    return name if len(name) <= most else name[: most - 1] + "…"
