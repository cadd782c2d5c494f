"""Editing in place: a combo box where a cell has fixed choices (the entry's allowed sizes and
grades, the roster's leaders and commands), a spin box for counts, a line edit otherwise.

The choices come from the model's ``choices(index)`` (the army list's data); the delegate
only shows them and hands the chosen value back to the model, which turns it into a core edit.
A spin box's range is the core's bound for the value (``app.core.roster``), so it offers no
number the core would refuse.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QComboBox,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from app.core.roster import MAX_COUNT, MIN_COUNT

Index = QModelIndex | QPersistentModelIndex


def _choices(index: Index) -> list[tuple[str, Any]] | None:
    model = index.model()
    get = getattr(model, "choices", None)
    return get(index) if get is not None else None


class ChoiceDelegate(QStyledItemDelegate):
    """Combo box for cells with choices, spin box for whole numbers, else Qt's line edit.

    The spin box runs from ``minimum`` to ``maximum``; the default maximum is the bound of a
    unit's count, the roster tree's one whole-number cell (Qty)."""

    def __init__(
        self, parent: QWidget | None = None, *, minimum: int = MIN_COUNT, maximum: int = MAX_COUNT
    ) -> None:
        super().__init__(parent)
        self.minimum = minimum
        self.maximum = maximum

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        choices = _choices(index)
        if choices:
            combo = QComboBox(parent)
            for label, value in choices:
                combo.addItem(label, value)
            # A choice takes effect as soon as it is picked, like a menu.
            combo.activated.connect(lambda _i, c=combo: self._commit_and_close(c))
            return combo
        value = index.data(Qt.ItemDataRole.EditRole)
        if isinstance(value, int) and not isinstance(value, bool):
            spin = QSpinBox(parent)
            spin.setRange(self.minimum, self.maximum)
            spin.setAccelerated(True)
            return spin
        return super().createEditor(parent, option, index)

    def updateEditorGeometry(
        self, editor: QWidget, option: QStyleOptionViewItem, index: Index
    ) -> None:
        """A combo or spin box in a narrow column (Size, Qty) grows to show its value."""
        super().updateEditorGeometry(editor, option, index)
        if isinstance(editor, QComboBox | QSpinBox):
            rect = editor.geometry()
            rect.setWidth(max(rect.width(), editor.sizeHint().width(), 56))
            editor.setGeometry(rect)

    def _commit_and_close(self, editor: QWidget) -> None:
        self.commitData.emit(editor)
        self.closeEditor.emit(editor, QAbstractItemDelegate.EndEditHint.NoHint)

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        value = index.data(Qt.ItemDataRole.EditRole)
        if isinstance(editor, QComboBox):
            for i in range(editor.count()):
                if editor.itemData(i) == value:
                    editor.setCurrentIndex(i)
                    return
            return
        if isinstance(editor, QSpinBox):
            editor.setValue(int(value))
            return
        super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: Index) -> None:
        if isinstance(editor, QComboBox):
            if editor.currentIndex() >= 0:
                new = editor.currentData()
                if new != index.data(Qt.ItemDataRole.EditRole):
                    model.setData(index, new, Qt.ItemDataRole.EditRole)
            return
        if isinstance(editor, QSpinBox):
            editor.interpretText()
            if editor.value() != index.data(Qt.ItemDataRole.EditRole):
                model.setData(index, editor.value(), Qt.ItemDataRole.EditRole)
            return
        super().setModelData(editor, model, index)
