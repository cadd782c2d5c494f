"""A status bar whose message never runs off the window: a message wider than the bar is cut
with an ellipsis where it is drawn, the whole of it in the bar's tooltip (at 1280 pixels long
messages were clipped at the right edge). ``currentMessage()`` keeps the whole text."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QStatusBar, QWidget


class ElidingStatusBar(QStatusBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.messageChanged.connect(self.setToolTip)

    def paintEvent(self, event: QPaintEvent) -> None:
        message = self.currentMessage()
        if not message:
            super().paintEvent(event)
            return
        painter = QPainter(self)
        rect = self.rect().adjusted(6, 0, -20, 0)  # the size grip's room on the right
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        shown = self.fontMetrics().elidedText(message, Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, shown)
