"""The Campaigns window's trees (:class:`~app.gui.campaign.trees.KeptTree`): rebuilt from
rows after every step, they keep expansion and selection by key, and the items of a
top-level row that shows what it showed."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from app.gui.campaign.trees import KEY, KeptTree, Row


def _battle(n: int, *lines: str, name: str = "") -> Row:
    children = tuple(
        Row(f"b{n}:{k}", (w,), ((0, "#6a6a6a"),) if k else (), True) for k, w in enumerate(lines)
    )
    return Row(f"b{n}", (name or f"Battle {n}", "applied"), children=children)


def _tops(tree: KeptTree) -> list[QTreeWidgetItem]:
    return [it for i in range(tree.topLevelItemCount()) if (it := tree.topLevelItem(i)) is not None]


def test_a_tree_keeps_the_items_of_rows_that_did_not_change(qtbot: QtBot) -> None:
    tree = KeptTree()
    tree.setColumnCount(2)
    qtbot.addWidget(tree)
    tree.show()
    rows = [
        _battle(1, "Rome won.", "A note."),
        _battle(2, "Carthage won."),
        _battle(3, "Rome won."),
    ]
    tree.rebuild(rows, expand_new=True)
    one, two, three = _tops(tree)
    assert all(it.isExpanded() for it in (one, two, three))
    note = tree.item_of("b1:1")
    assert note is not None and note.text(0) == "A note." and note.isFirstColumnSpanned()
    assert note.foreground(0).color().name() == "#6a6a6a"
    two.setExpanded(False)
    picked = tree.item_of("b3:0")
    assert picked is not None
    tree.setCurrentItem(picked)

    tree.rebuild([_battle(1, "Rome won.", "A note."), _battle(2, "Carthage won."), rows[2]])
    assert _tops(tree) == [one, two, three] and all(
        a is b for a, b in zip(_tops(tree), (one, two, three), strict=True)
    )  # nothing changed: the very same items
    assert not two.isExpanded()

    # the first battle changed: its items are new, the others kept as the user left them
    rows = [_battle(1, "Rome won.", "A note.", "More.", name="The Trebia"), *rows[1:]]
    tree.rebuild(rows, expand_new=True)
    first = tree.topLevelItem(0)
    assert first is not one and first is not None and first.text(0) == "The Trebia"
    assert first.isExpanded() and first.childCount() == 3
    more = tree.item_of("b1:2")
    assert more is not None and more.isFirstColumnSpanned()
    assert tree.topLevelItem(1) is two and tree.topLevelItem(2) is three
    assert not two.isExpanded()
    current = tree.currentItem()
    assert current is not None and current.data(0, KEY) == "b3:0"

    # the selected item's battle changed: the item of the same key is selected
    tree.rebuild([*rows[:2], _battle(3, "Rome won narrowly.")])
    current = tree.currentItem()
    assert current is not None and current.data(0, KEY) == "b3:0"
    assert current.text(0) == "Rome won narrowly." and tree.topLevelItem(2) is not three
    assert tree.topLevelItem(2).isExpanded()  # type: ignore[union-attr]

    # the selected item gone: nothing selected, as a whole rebuild leaves it
    tree.rebuild([*rows[:2], _battle(3)])
    assert tree.currentItem() is None

    # another battle: a whole rebuild, expansion kept by key
    tree.rebuild([*rows[:2], _battle(3), _battle(4, "Carthage won.")], expand_new=True)
    assert tree.topLevelItemCount() == 4
    assert not tree.topLevelItem(1).isExpanded()  # type: ignore[union-attr]
    assert tree.topLevelItem(3).isExpanded()  # type: ignore[union-attr]
    tree.clear()
    tree.rebuild(rows)
    assert tree.topLevelItemCount() == 3 and tree.topLevelItem(1) is not two


def test_a_cell_shows_its_text_as_its_tooltip_when_asked(
    qtbot: QtBot, qt_warnings_fail: list[str]
) -> None:
    """The pointer on a cell shows its whole text (a line cut short by its column), on an
    item made with no tooltip of its own; an empty cell shows none, and a tooltip an item
    was given is shown as it is."""
    tree = KeptTree()
    tree.setColumnCount(2)
    tree.resize(400, 300)
    qtbot.addWidget(tree)
    tree.show()
    tree.rebuild([_battle(1, "Rome won, and the consul was wounded."), _battle(2)], expand_new=True)

    def hover(item: QTreeWidgetItem, column: int) -> str:
        pos = tree.visualItemRect(item).center()
        pos.setX(tree.header().sectionViewportPosition(column) + 5)
        event = QHelpEvent(QEvent.Type.ToolTip, pos, tree.viewport().mapToGlobal(pos))
        QApplication.sendEvent(tree.viewport(), event)
        return QToolTip.text() if event.isAccepted() else ""  # not accepted: none shown

    line = tree.item_of("b1:0")
    top = tree.item_of("b1")
    assert line is not None and top is not None and line.toolTip(0) == ""  # none set
    assert hover(line, 0) == "Rome won, and the consul was wounded."
    assert hover(top, 0) == "Battle 1" and hover(top, 1) == "applied"
    top.setText(1, "")
    assert hover(top, 1) == ""
    top.setToolTip(0, "Its own tip")
    assert hover(top, 0) == "Its own tip"
    QToolTip.hideText()
    # the offscreen platform cannot raise the tooltip's window: its message, not ours
    qt_warnings_fail[:] = [m for m in qt_warnings_fail if "does not support raise()" not in m]
