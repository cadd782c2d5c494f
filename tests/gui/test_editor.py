"""The roster editor driven through its real widgets: add units, totals and validation, undo
and redo, scale, in-place edits, drag and drop, leaders, keyboard."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication, QComboBox
from pytestqt.qtbot import QtBot

from app.core.validation import Severity
from app.gui.actions import ActionKey
from app.gui.leaders import LCol
from app.gui.main_window import MainWindow
from app.gui.roster_model import ENTRY_MIME, Col
from app.rules.registry import Registry
from app.store import Store, load_roster
from tests.gui.helpers import (
    double_click_item,
    find_item,
    open_new,
    roster_of,
    tree_index,
    unit_names,
)


def test_add_units_from_the_list_updates_totals_and_validation(
    qtbot: QtBot, window: MainWindow, registry: Registry, store: Store
) -> None:
    session = open_new(window, registry, "mwan90", "roman")
    assert "<b>0</b> units" in window.editor.totals.text()
    assert "no units yet" in window.validation.view.topLevelItem(0).text(1)
    entries = window.army_list.view
    hastati = find_item(entries, "Hastati")
    double_click_item(qtbot, entries, hastati)
    assert unit_names(window) == ["Hastati"]
    double_click_item(qtbot, entries, hastati)
    double_click_item(qtbot, entries, find_item(entries, "Velites"))
    assert unit_names(window) == ["Hastati", "Hastati", "Velites"]
    # totals come from the core: 12 + 12 + 8 figures at 1:10
    text = window.editor.totals.text()
    assert "<b>3</b> units" in text and "<b>32</b> figures" in text and "<b>320</b> men" in text
    assert hastati.text(2) == "2"  # taken
    # validation follows every edit: no "no units yet" note any more
    messages = [m.code for m in session.report.messages]
    assert "army.empty" not in messages
    shown = [
        window.validation.view.topLevelItem(i).text(1)
        for i in range(window.validation.view.topLevelItemCount())
    ]
    assert len(shown) == max(len(session.report.messages), 1)
    assert not any("no units yet" in t for t in shown)
    assert "Valid" in window.validation.summary.text()
    # every edit is already in the store
    assert window.save_label.text().startswith("Saved ")
    assert session.roster_id is not None
    assert len(load_roster(store, roster_id=session.roster_id).units) == 3


def test_undo_and_redo_with_menu_text(qtbot: QtBot, window: MainWindow, registry: Registry) -> None:
    open_new(window, registry, "mwan90", "roman")
    undo = window.action_registry[ActionKey.UNDO]
    redo = window.action_registry[ActionKey.REDO]
    assert not undo.isEnabled() and undo.text() == "&Undo"
    double_click_item(qtbot, window.army_list.view, find_item(window.army_list.view, "Triarii"))
    assert undo.isEnabled() and undo.text() == "&Undo Add Triarii"
    undo.trigger()
    assert unit_names(window) == []
    assert redo.isEnabled() and redo.text() == "&Redo Add Triarii"
    assert "<b>0</b> units" in window.editor.totals.text()
    redo.trigger()
    assert unit_names(window) == ["Triarii"]
    assert "<b>6</b> figures" in window.editor.totals.text()


def test_switch_scale_changes_men_not_figures(window: MainWindow, registry: Registry) -> None:
    open_new(window, registry, "quincunx", "roman", standard=True)
    editor = window.editor
    assert editor.scale_combo.isVisibleTo(window)
    assert "<b>504</b> figures" in editor.totals.text()
    assert "<b>5,040</b> men at 1:10" in editor.totals.text()
    combo = editor.scale_combo
    combo.setCurrentIndex(combo.findData("1:100"))
    combo.activated.emit(combo.currentIndex())
    assert roster_of(window).scale == "1:100"
    assert "<b>504</b> figures" in editor.totals.text()
    assert "<b>50,400</b> men at 1:100" in editor.totals.text()
    unit = roster_of(window).units[0]
    assert tree_index(window, unit.id, Col.MEN).data() == f"{unit.count * unit.size * 100:,}"
    window.action_registry[ActionKey.UNDO].trigger()
    assert "<b>5,040</b> men at 1:10" in editor.totals.text()
    assert combo.currentData() == "1:10"


def test_scale_switch_hidden_where_the_ruleset_counts_bases(
    window: MainWindow, registry: Registry
) -> None:
    open_new(window, registry, "leg-vi-carthago", "roman")
    assert not window.editor.scale_combo.isVisibleTo(window)
    assert window.editor.tree.isColumnHidden(Col.FIGURES)  # Leg VI gives no figures per base


def test_edit_size_grade_count_and_name_in_place(
    qtbot: QtBot, window: MainWindow, registry: Registry
) -> None:
    session = open_new(window, registry, "leg-vi-carthago", "roman")
    window.editor.add_entry("velites")
    unit = roster_of(window).units[0]
    tree = window.editor.tree
    # size through the real combo-box delegate: only the entry's allowed sizes are offered
    index = tree_index(window, unit.id, Col.SIZE)
    tree.setCurrentIndex(index)
    tree.edit(index)
    combo = tree.findChild(QComboBox)
    assert combo is not None
    assert [combo.itemData(i) for i in range(combo.count())] == [2, 3, 4, 5, 6, 7, 8]
    combo.setCurrentIndex(combo.findData(4))
    combo.activated.emit(combo.currentIndex())
    qtbot.waitUntil(lambda: roster_of(window).units[0].size == 4)
    assert window.action_registry[ActionKey.UNDO].text() == "&Undo Set size of Velites"
    model = window.editor.model
    assert model is not None
    assert model.choices(tree_index(window, unit.id, Col.GRADE)) == [("A", "A"), ("B", "B")]
    assert model.setData(tree_index(window, unit.id, Col.GRADE), "B")
    assert model.setData(tree_index(window, unit.id, Col.QTY), 3)
    assert model.setData(tree_index(window, unit.id, Col.NAME), "Skirmish screen")
    assert model.setData(tree_index(window, unit.id, Col.NOTES), "left flank")
    assert not model.setData(tree_index(window, unit.id, Col.NAME), "   ")  # refused
    u = roster_of(window).units[0]
    assert (u.grade, u.count, u.name, u.notes, u.size) == (
        "B",
        3,
        "Skirmish screen",
        "left flank",
        4,
    )
    assert session.totals.bases == 12
    assert tree_index(window, unit.id, Col.BASES).data() == "12"


def test_drag_a_unit_to_another_command(window: MainWindow, registry: Registry) -> None:
    session = open_new(window, registry, "quincunx", "roman", standard=True)
    model = window.editor.model
    assert model is not None
    roster = session.roster
    first, second = roster.commands[0], roster.commands[1]
    unit = roster.units_in(first.id)[0]
    data = model.mimeData([tree_index(window, unit.id)])
    target = model.group_index(second.id)
    assert model.canDropMimeData(data, Qt.DropAction.MoveAction, 0, 0, target)
    assert model.dropMimeData(data, Qt.DropAction.MoveAction, 0, 0, target)
    moved = roster_of(window).unit(unit.id)
    assert moved.command == second.id
    assert roster_of(window).units_in(second.id)[0].id == unit.id  # dropped at row 0
    assert model.data(target.siblingAtColumn(Col.QTY)) == str(
        sum(u.count for u in roster_of(window).units_in(second.id))
    )
    assert window.action_registry[ActionKey.UNDO].text() == "&Undo Move unit"
    # the moved unit stays selected after the tree is rebuilt
    window.action_registry[ActionKey.UNDO].trigger()
    assert roster_of(window).unit(unit.id).command == first.id
    # drop on "Unassigned"
    data = model.mimeData([tree_index(window, unit.id)])
    assert model.dropMimeData(data, Qt.DropAction.MoveAction, -1, 0, model.group_index(None))
    assert roster_of(window).unit(unit.id).command is None


def test_drop_an_entry_on_a_command_adds_a_unit_there(
    window: MainWindow, registry: Registry
) -> None:
    session = open_new(window, registry, "quincunx", "roman", standard=True)
    model = window.editor.model
    assert model is not None
    command = session.roster.commands[2]
    data = QMimeData()
    data.setData(ENTRY_MIME, b"equites")
    n = len(session.roster.units)
    assert model.dropMimeData(data, Qt.DropAction.CopyAction, -1, 0, model.group_index(command.id))
    assert len(session.roster.units) == n + 1
    assert session.roster.units_in(command.id)[-1].entry == "equites"
    # the army list's drag carries the entry
    view = window.army_list.view
    mime = view.mimeData([find_item(view, "Hastati")])
    assert bytes(mime.data(ENTRY_MIME).data()) == b"hastati"


def test_leaders_added_assigned_and_attached(window: MainWindow, registry: Registry) -> None:
    session = open_new(window, registry, "d3-ancients", "roman")
    window.editor.add_entry("legionaries")
    window.editor.add_command()
    QApplication.processEvents()
    window.action_registry[ActionKey.ADD_LEADER].trigger()
    leaders = window.editor.leaders
    model = leaders.model
    assert model is not None and model.rowCount() == 1
    leader = session.roster.leaders[0]
    assert leader.rank == "general"
    # D3: every commander must be attached to a heavy unit
    assert "leader.unattached" in session.report.codes()
    unit = session.roster.units[0]
    assert model.setData(model.index(0, model.column(LCol.ATTACHED)), unit.id)
    assert session.roster.unit(unit.id).leader == leader.id
    assert "leader.unattached" not in session.report.codes()
    assert model.setData(model.index(0, model.column(LCol.LEADS)), session.roster.commands[0].id)
    assert session.roster.commands[0].leader == leader.id
    assert model.setData(model.index(0, LCol.NAME), "Scipio")
    assert tree_index(window, unit.id, Col.LEADER).data() == "Scipio"
    # a leader stands with one unit: made a line of three, his unit is refused, as is
    # attaching him to another line of two (issue 25), and the roster keeps him where he was
    refused: list[str] = []
    session.refused.connect(refused.append)
    tree_model = window.editor.model
    assert tree_model is not None
    assert not tree_model.setData(tree_index(window, unit.id, Col.QTY), 3)
    assert refused and "split one off first" in refused[-1]
    window.editor.add_entry("legionaries")
    pair = session.roster.units[-1]
    assert tree_model.setData(tree_index(window, pair.id, Col.QTY), 2)
    assert not model.setData(model.index(0, model.column(LCol.ATTACHED)), pair.id)
    assert "Scipio stands with one unit" in refused[-1] and "a line of 2" in refused[-1]
    assert session.roster.unit(unit.id).leader == leader.id
    leaders.select_leader(leader.id)
    leaders.remove_selected()
    assert session.roster.leaders == ()
    assert session.roster.unit(unit.id).leader is None


def test_clicking_a_message_selects_its_unit(window: MainWindow, registry: Registry) -> None:
    session = open_new(window, registry, "leg-vi-carthago", "roman")
    window.editor.add_entry("velites")
    unit = session.roster.units[0]
    model = window.editor.model
    assert model is not None
    model.setData(tree_index(window, unit.id, Col.QTY), 9)  # more than the list's max of 8
    view = window.validation.view
    items = [view.topLevelItem(i) for i in range(view.topLevelItemCount())]
    item = next(i for i in items if i is not None and "at most 8" in i.text(1))
    window.editor.tree.clearSelection()
    window.editor.tree.setCurrentIndex(model.group_index(None))
    view.itemClicked.emit(item, 1)
    assert window.editor.tree.currentIndex() == tree_index(window, unit.id)
    assert window.editor.selected_units() == [unit.id]
    assert item.icon(0).cacheKey() != 0
    assert any(m.severity is Severity.ERROR for m in session.report.for_subject("unit", unit.id))


def test_keyboard_delete_and_duplicate(
    qtbot: QtBot, window: MainWindow, registry: Registry
) -> None:
    open_new(window, registry, "mwan90", "roman")
    window.editor.add_entry("hastati")
    window.editor.add_entry("velites")
    tree = window.editor.tree
    window.activateWindow()
    tree.setFocus()
    qtbot.waitUntil(tree.hasFocus)
    first = roster_of(window).units[0]
    window.editor.select_unit(first.id)
    qtbot.keyClick(tree, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert unit_names(window) == ["Hastati", "Hastati", "Velites"]
    copy = roster_of(window).units[1]
    assert window.editor.selected_units() == [copy.id]  # the copy is selected
    qtbot.keyClick(tree, Qt.Key.Key_Delete)
    assert unit_names(window) == ["Hastati", "Velites"]
    qtbot.keyClick(tree, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert unit_names(window) == ["Hastati", "Hastati", "Velites"]


def test_split_off_one_unit(window: MainWindow, registry: Registry) -> None:
    session = open_new(window, registry, "mwan90", "roman")
    window.editor.add_entry("velites")
    unit = session.roster.units[0]
    model = window.editor.model
    assert model is not None
    model.setData(tree_index(window, unit.id, Col.QTY), 3)
    window.editor.select_unit(unit.id)
    window.action_registry[ActionKey.SPLIT_UNIT].trigger()
    assert [u.count for u in session.roster.units] == [2, 1]
    assert session.totals.units == 3


def test_add_and_remove_a_command(qtbot: QtBot, window: MainWindow, registry: Registry) -> None:
    session = open_new(window, registry, "quincunx", "roman", standard=True)
    assert window.action_registry[ActionKey.ADD_COMMAND].text() == "Add &battlegroup"
    n = len(session.roster.commands)
    window.action_registry[ActionKey.ADD_COMMAND].trigger()
    assert len(session.roster.commands) == n + 1
    new = session.roster.commands[-1]
    QApplication.processEvents()
    window.editor.tree.closePersistentEditor(window.editor.tree.currentIndex())
    model = window.editor.model
    assert model is not None
    assert model.setData(model.group_index(new.id), "Reserve")
    assert session.roster.commands[-1].name == "Reserve"
    victim = session.roster.commands[0]
    units = session.roster.units_in(victim.id)
    window.editor._select([model.group_index(victim.id)])
    assert window.editor.remove_selected()
    assert victim not in session.roster.commands
    assert all(session.roster.unit(u.id).command is None for u in units)  # units are kept


def test_del_elsewhere_removes_nothing_and_tab_order(
    qtbot: QtBot, window: MainWindow, registry: Registry
) -> None:
    open_new(window, registry, "mwan90", "roman")
    window.editor.add_entry("hastati")
    window.activateWindow()
    view = window.army_list.view
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert unit_names(window) == ["Hastati"]  # the focus is on the army list, not the roster
    # Tab walks from the army list into the roster editor
    editor = window.editor
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert editor.name_edit.hasFocus()
    window.library.search.setFocus()
    qtbot.waitUntil(window.library.search.hasFocus)
    qtbot.keyClick(window.library.search, Qt.Key.Key_Tab)
    assert window.library.view.hasFocus()


def test_drop_units_on_the_view(window: MainWindow, registry: Registry) -> None:
    """A drop as the tree view receives it: the view works out the target command."""
    session = open_new(window, registry, "quincunx", "roman", standard=True)
    model = window.editor.model
    tree = window.editor.tree
    assert model is not None
    first, last = session.roster.commands[0], session.roster.commands[-1]
    unit = session.roster.units_in(first.id)[0]
    data = model.mimeData([tree_index(window, unit.id)])
    target = model.group_index(last.id)
    tree.scrollTo(target)
    pos = tree.visualRect(target).center()
    event = QDropEvent(
        QPointF(pos),
        Qt.DropAction.MoveAction,
        data,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    tree.dropEvent(event)
    assert session.roster.unit(unit.id).command == last.id
    assert session.roster.units_in(last.id)[-1].id == unit.id  # on the command: at its end
