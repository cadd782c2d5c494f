"""The army list's entry delegate paints its two lines over the item view's own background,
selection and focus (``QStyledItemDelegate.paint`` with the text left out) and tells a selected
row by the view's selection, without touching ``QStyle`` (PySide6 builds that class and all
its enums, some 6 ms of a start, the first time it is touched): the rows look as they did
when it drew them through ``QStyle`` itself."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from app.gui.entries import TROOP_ROLE, EntriesView, EntryDelegate


def drawn_by_style(view: EntriesView, index: QModelIndex, option: QStyleOptionViewItem) -> QImage:
    """The row's background, selection and focus as the delegate drew them before: through
    QStyle, with the option's state."""
    image = QImage(option.rect.size(), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.translate(-option.rect.topLeft())
    delegate = view.itemDelegateForColumn(0)
    assert isinstance(delegate, EntryDelegate)
    opt = QStyleOptionViewItem(option)
    delegate.initStyleOption(opt, index)
    opt.text = ""
    view.style().drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, view)
    painter.end()
    return image


def drawn(delegate: EntryDelegate, index: QModelIndex, option: QStyleOptionViewItem) -> QImage:
    image = QImage(option.rect.size(), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.translate(-option.rect.topLeft())
    delegate.paint(painter, option, index)
    painter.end()
    return image


def test_rows_are_painted_with_the_views_background_and_selection(qtbot: QtBot) -> None:
    view = EntriesView()
    qtbot.addWidget(view)
    view.setColumnCount(1)
    delegate = EntryDelegate(view)
    view.setItemDelegateForColumn(0, delegate)
    for name in ("Triarii", "Principes"):
        item = QTreeWidgetItem([name])
        item.setData(0, TROOP_ROLE, f"Roman {name}")
        view.addTopLevelItem(item)
    view.resize(300, 200)
    view.show()
    qtbot.waitExposed(view)
    first = view.topLevelItem(0)
    assert first is not None
    view.setCurrentItem(first)
    backgrounds = {}
    for row in (0, 1):
        index = view.model().index(row, 0)
        option = QStyleOptionViewItem()
        option.initFrom(view)
        option.rect = view.visualRect(index)
        option.widget = view
        if view.selectionModel().isSelected(index):
            option.state |= QStyle.StateFlag.State_Selected
        mine = drawn(delegate, index, option)
        before = drawn_by_style(view, index, option)
        # the background and selection: the row's left edge holds no text
        backgrounds[row] = mine.pixelColor(1, 1)
        assert mine.pixelColor(1, 1) == before.pixelColor(1, 1)
        assert mine.pixelColor(option.rect.width() - 2, 1) == before.pixelColor(
            option.rect.width() - 2, 1
        )
    assert backgrounds[0] != backgrounds[1]  # the selected row is drawn selected


def test_severity_icons_are_qts_message_icons(qtbot: QtBot) -> None:
    """QStyle is imported where the severity icons are made (not as the module loads)."""
    from app.core.validation import Severity
    from app.gui.icons import severity_icon

    view = EntriesView()
    qtbot.addWidget(view)
    style = QStyle.StandardPixmap
    for severity, pixmap in (
        (Severity.ERROR, style.SP_MessageBoxCritical),
        (Severity.WARNING, style.SP_MessageBoxWarning),
        (Severity.NOTE, style.SP_MessageBoxInformation),
    ):
        icon = severity_icon(severity)
        assert not icon.isNull()
        assert icon.cacheKey() == severity_icon(severity).cacheKey()  # kept
        expected = view.style().standardIcon(pixmap).pixmap(16).toImage()
        assert icon.pixmap(16).toImage() == expected
