"""The roster tree and the leaders table update row by row: groups the user opened stay open,
and the selection stays, through adds, moves, deletes, undo and redo; the columns follow."""

from __future__ import annotations

import random

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtTest import QAbstractItemModelTester
from pytestqt.qtbot import QtBot

from app.core.edits import AddCommand, Batch, RemoveCommand, RemoveUnits
from app.core.roster import Command, unit_from_entry
from app.gui.actions import ActionKey
from app.gui.leaders import LCol
from app.gui.main_window import MainWindow
from app.gui.roster_cells import move_units
from app.gui.roster_model import ID_ROLE, Col, RosterTreeModel
from app.rules.registry import Registry
from tests.gui.helpers import open_new, roster_of, session_of, tree_index


def expanded(window: MainWindow) -> dict[str | None, bool]:
    model = window.editor.model
    assert model is not None
    return {
        model.index(r, 0).data(ID_ROLE): window.editor.tree.isExpanded(model.index(r, 0))
        for r in range(model.rowCount())
    }


def selected_units(window: MainWindow) -> list[str]:
    return window.editor.selected_units()


def shape(model: RosterTreeModel) -> list[tuple[str | None, list[str]]]:
    out = []
    for r in range(model.rowCount()):
        group = model.index(r, 0)
        units = [model.index(k, 0, group).data(ID_ROLE) for k in range(model.rowCount(group))]
        for k in range(model.rowCount(group)):
            assert model.parent(model.index(k, 0, group)) == group
        out.append((group.data(ID_ROLE), units))
    return out


def roster_shape(window: MainWindow) -> list[tuple[str | None, list[str]]]:
    roster = roster_of(window)
    known = {c.id for c in roster.commands}
    return [(c.id, [u.id for u in roster.units_in(c.id)]) for c in roster.commands] + [
        (None, [u.id for u in roster.units if u.command not in known])
    ]


def test_expansion_and_selection_survive_add_move_delete_and_undo(
    qtbot: QtBot, window: MainWindow, registry: Registry
) -> None:
    session = open_new(window, registry, "quincunx", "carthaginian", standard=True)
    model = window.editor.model
    assert model is not None
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    tree = window.editor.tree
    roster = session.roster
    assert all(expanded(window).values()) and len(roster.commands) == 7
    # the user closes the second battlegroup
    closed = roster.commands[1].id
    tree.collapse(model.group_index(closed))
    before = expanded(window)
    assert before[closed] is False and sum(before.values()) == 7  # 6 commands + unassigned
    # a unit of the first battlegroup is selected
    keep = roster.units_in(roster.commands[0].id)[1].id
    window.editor.select_unit(keep)
    undo = window.action_registry[ActionKey.UNDO]

    # add a battlegroup: a new open group, the others as they were
    window.editor.add_command()
    window.editor.tree.closePersistentEditor(tree.currentIndex())
    new_id = roster_of(window).commands[-1].id
    state = expanded(window)
    assert state.pop(new_id) is True and state == before
    window.editor.select_unit(keep)

    # move a unit of the third battlegroup into the first
    mover = roster.units_in(roster.commands[2].id)[0].id
    assert session.apply(move_units(roster_of(window), [mover], roster.commands[0].id, None))
    state = expanded(window)
    state.pop(new_id)
    assert state == before and selected_units(window) == [keep]

    # delete a unit of the fourth
    gone = roster.units_in(roster.commands[3].id)[0].id
    assert session.apply(Batch((RemoveUnits((gone,)),), "Remove"))
    assert shape(model) == roster_shape(window)
    assert selected_units(window) == [keep]

    # undo all three: the tree is back as it was, groups and selection too
    for _ in range(3):
        undo.trigger()
        assert shape(model) == roster_shape(window)
    assert roster_of(window) == roster
    assert expanded(window) == before and selected_units(window) == [keep]
    # redo and undo again
    window.action_registry[ActionKey.REDO].trigger()
    undo.trigger()
    assert expanded(window) == before
    assert resets == []  # never a reset: rows were inserted, removed and moved


def test_removing_and_restoring_a_command_keeps_it_closed_if_the_user_closed_it(
    window: MainWindow, registry: Registry
) -> None:
    session = open_new(window, registry, "quincunx", "roman", standard=True)
    model = window.editor.model
    assert model is not None
    tree = window.editor.tree
    command = session.roster.commands[0].id
    tree.collapse(model.group_index(command))
    assert session.apply(Batch((RemoveCommand(command),), "Remove"))
    assert not model.group_index(command).isValid()
    window.action_registry[ActionKey.UNDO].trigger()
    assert not tree.isExpanded(model.group_index(command))
    other = session.roster.commands[1].id
    assert tree.isExpanded(model.group_index(other))


def test_random_edits_keep_the_model_consistent(window: MainWindow, registry: Registry) -> None:
    """Qt's own model tester watches every signal while random edits, undos and redos run."""
    session = open_new(window, registry, "quincunx", "roman", standard=True)
    model = window.editor.model
    assert model is not None
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning)
    rng = random.Random(12)
    rs = registry.get("quincunx")
    for step in range(60):
        roster = session.roster
        units = [u.id for u in roster.units]
        commands = [c.id for c in roster.commands] + [None]
        kind = rng.choice(["move", "move", "add", "remove", "command", "drop", "undo", "redo"])
        if kind == "move" and units:
            ids = rng.sample(units, k=min(len(units), rng.randint(1, 4)))
            session.apply(move_units(roster, ids, rng.choice(commands), None))
        elif kind == "add":
            unit = unit_from_entry(rs, "roman", "velites", command=rng.choice(commands))
            session.apply(Batch((AddCommand(Command(f"c{step}", f"C{step}")),), "Add"))
            model.add_entry("hastati", rng.choice(commands))
            del unit
        elif kind == "remove" and units:
            session.apply(RemoveUnits(tuple(rng.sample(units, k=min(3, len(units))))))
        elif kind == "command" and len(commands) > 1:
            session.apply(RemoveCommand(str(rng.choice(commands[:-1]))))
        elif kind == "undo":
            session.undo()
        elif kind == "redo":
            session.redo()
        assert shape(model) == roster_shape(window), (step, kind)


def test_columns_fit_as_the_roster_grows(
    qtbot: QtBot, window: MainWindow, registry: Registry
) -> None:
    window.resize(1920, 1080)
    session = open_new(window, registry, "quincunx", "carthaginian")
    model = window.editor.model
    assert model is not None
    header = window.editor.tree.header()
    narrow = header.sectionSize(Col.NAME)
    model.add_entry("celtic_noble_cavalry", None)
    unit = session.roster.units[0]
    long_name = "Celtic Heavy Cavalry (armoured nobles) of the Insubres"
    index = tree_index(window, unit.id, Col.NAME)
    assert model.setData(index, long_name, Qt.ItemDataRole.EditRole)
    qtbot.waitUntil(lambda: header.sectionSize(Col.NAME) > narrow)
    metrics = window.editor.tree.fontMetrics()
    indent = window.editor.tree.indentation()  # a unit sits one level in
    assert header.sectionSize(Col.NAME) >= metrics.horizontalAdvance(long_name) + 2 * indent
    # the troop type shows whole too
    troop = index.siblingAtColumn(Col.TYPE).data()
    assert header.sectionSize(Col.TYPE) >= metrics.horizontalAdvance(troop)
    # a column the user sized is left alone
    header.resizeSection(Col.LEADER, 300)
    assert model.setData(index, "Short", Qt.ItemDataRole.EditRole)
    qtbot.wait(10)
    assert header.sectionSize(Col.LEADER) == 300


def test_leaders_table_rows_and_columns(
    qtbot: QtBot, window: MainWindow, registry: Registry
) -> None:
    session = open_new(window, registry, "quincunx", "roman", standard=True)
    panel = window.editor.leaders
    view = panel.view
    model = panel.model
    assert model is not None
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    second = session.roster.leaders[1].id
    panel.select_leader(second)
    panel.add_leader()
    view.closePersistentEditor(view.currentIndex())
    header = view.horizontalHeader()
    long_name = "Gnaeus Cornelius Scipio Calvus"
    new = session.roster.leaders[-1].id
    assert model.setData(model.index(model.row_of(new), LCol.NAME), long_name)
    qtbot.waitUntil(
        lambda: header.sectionSize(LCol.NAME) >= view.fontMetrics().horizontalAdvance(long_name)
    )
    panel.select_leader(second)
    window.action_registry[ActionKey.UNDO].trigger()
    window.action_registry[ActionKey.UNDO].trigger()
    assert [ld.id for ld in session.roster.leaders][-1] != new
    assert panel.selected_leader() == second
    assert resets == []
    assert not QModelIndex().isValid()


def test_an_edit_redraws_its_own_row_and_the_groups_only(
    qtbot: QtBot, window: MainWindow, registry: Registry
) -> None:
    """One edit of one unit: the view is told of that unit's row and of the groups' rows
    (their sums), not of every unit (on a 1,000-unit roster the view asked ~1,200 questions
    an edit); a change every unit shows (the scale) still redraws them all."""
    from app.core.edits import UpdateRoster, UpdateUnit

    session = open_new(window, registry, "quincunx", "carthaginian", standard=True)
    model = window.editor.model
    assert model is not None
    told: list[tuple[str | None, int, int]] = []

    def changed(top: QModelIndex, bottom: QModelIndex) -> None:
        told.append(
            (
                top.parent().data(ID_ROLE) if top.parent().isValid() else "group",
                top.row(),
                bottom.row(),
            )
        )

    model.dataChanged.connect(changed)
    unit = session.roster.units[3]
    groups = model.rowCount()
    assert session.apply(UpdateUnit(unit.id, {"notes": "holds the ford"}))
    units = [t for t in told if t[0] != "group"]
    assert len(told) == groups + 1 and len(units) == 1
    index = tree_index(window, unit.id, Col.NOTES)
    assert (units[0][1], index.data()) == (index.row(), "holds the ford")
    told.clear()
    session.undo()
    assert len([t for t in told if t[0] != "group"]) == 1
    assert tree_index(window, unit.id, Col.NOTES).data() == ""
    told.clear()
    assert session.apply(UpdateRoster({"scale": "1:100"}))
    covered = sum(b - a + 1 for g, a, b in told if g != "group")
    assert covered == len(session.roster.units)


def test_an_empty_lines_column_gives_way_to_the_names_at_1280(
    qtbot: QtBot, window: MainWindow, registry: Registry
) -> None:
    """Leg VI's ready Roman army at 1280x720: the Lines column stood some 200 pixels wide
    for the longest lines a legion could be given ("understrength triarii (4 bases)") while
    every legion showed the standard lines (an empty cell), and the commands' and units'
    names were cut ("Centre, right: a…"). Where the tree is too narrow, the Lines column
    gives way to what it shows first."""
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    open_new(window, registry, "leg-vi-carthago", "roman", standard=True)
    editor = window.editor
    model = editor.model
    assert model is not None and not editor.tree.isColumnHidden(Col.LINES)
    header = editor.tree.header()
    metrics = editor.tree.fontMetrics()
    shown = [t for t in model.column_texts(Col.LINES, widest=False)[0] if t]
    assert shown == []  # every legion has the standard lines
    assert model.add_entry("cretan_archers", None)  # as the player did: the columns refit
    room = header.sectionSizeHint(Col.LINES) + 8
    qtbot.waitUntil(lambda: header.sectionSize(Col.LINES) <= room, timeout=2000)
    # the room went to the names: the longest command's name is cut less than before
    command = max((c.name for c in session_of(window).roster.commands), key=len)
    assert header.sectionSize(Col.NAME) >= min(metrics.horizontalAdvance(command), 250)
