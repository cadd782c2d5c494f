"""The style of the battle window's docks: the application's own, except that the icons of a
dock's title bar buttons (float and close) are made once.

Qt's style makes each of them afresh, from a set of image files (one per size, each file's
header read to learn its format), every time a dock updates its buttons: a dock does that
as it is made, titled, added, tabbed and shown. The battle window's seven docks asked for 90
icons as it opened, and reading their 540 files was 2.3% of opening a 1,000-step battle.

Imported by the battle window only: the main window's start never builds PySide's style
classes it does not need (``tests/gui/test_start_imports.py``)."""

from __future__ import annotations

import shiboken6
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QApplication,
    QProxyStyle,
    QStyle,
    QStyleFactory,
    QStyleOption,
    QWidget,
)

#: the icons kept: what a dock's title bar buttons show (they depend on no option or widget:
#: Qt's style draws them from its own image files)
KEPT = frozenset(
    {QStyle.StandardPixmap.SP_TitleBarCloseButton, QStyle.StandardPixmap.SP_TitleBarNormalButton}
)


class DockStyle(QProxyStyle):
    """The application's style, keeping the :data:`KEPT` icons once made."""

    def __init__(self, base: QStyle | None) -> None:
        if base is None:
            super().__init__()
        else:
            super().__init__(base)
        self._icons: dict[QStyle.StandardPixmap, QIcon] = {}

    def standardIcon(
        self,
        standardIcon: QStyle.StandardPixmap,
        option: QStyleOption | None = None,
        widget: QWidget | None = None,
    ) -> QIcon:
        if standardIcon not in KEPT:
            return super().standardIcon(standardIcon, option, widget)
        icon = self._icons.get(standardIcon)
        if icon is None:
            icon = self._icons[standardIcon] = super().standardIcon(standardIcon, option, widget)
        return icon


_style: list[DockStyle] = []


def dock_style() -> QStyle:
    """The docks' style, made once (on the application's style, by its name; owned by the
    application, so Qt deletes it with the application; made again for a new one)."""
    if not _style or not shiboken6.isValid(_style[0]):
        _style.clear()
        app = QApplication.instance()
        base = QStyleFactory.create(QApplication.style().name())
        style = DockStyle(base)
        style.setParent(app)
        _style.append(style)
    return _style[0]
