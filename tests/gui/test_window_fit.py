"""The window fits 1280x720 and a 1366x768 laptop with every editor control in sight, for
every sample roster; the toolbar keeps still; only what applies is shown; Delete acts on what
the user jumped to; Help and View > Reset layout work."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QTextBrowser, QWidget
from pytestqt.qtbot import QtBot

from app.core.edits import AddUnit
from app.core.roster import unit_from_entry
from app.gui.actions import SPECS, ActionKey
from app.gui.icons import ICONS_DIR, bundled_icon
from app.gui.main_window import FRAME_ALLOWANCE, MainWindow
from app.gui.roster_model import Col
from app.rules.registry import Registry
from app.store import Store, list_rosters, seed_samples
from tests.gui.helpers import open_new, roster_of


def inside(window: MainWindow, widget: QWidget) -> bool:
    """Whether ``widget`` is shown whole inside the window."""
    if not widget.isVisible() or widget.width() <= 0 or widget.height() <= 0:
        return False
    top_left = widget.mapTo(window, widget.rect().topLeft())
    return window.rect().contains(QRect(top_left, widget.size()))


def editor_controls(window: MainWindow) -> dict[str, QWidget]:
    e = window.editor
    controls: dict[str, QWidget] = {
        "name": e.name_edit,
        "info": e.info,
        "print": e.print_button,
        "tree": e.tree,
        "add leader": e.leaders.add_button,
        "remove leader": e.leaders.remove_button,
        "leaders": e.leaders.view,
        "totals": e.totals,
        "validation": window.validation.view,
        "library": window.library.view,
        "army list": window.army_list.view,
    }
    if e.scale_combo.isVisibleTo(window):
        controls["scale"] = e.scale_combo
    return controls


@pytest.mark.parametrize("size", [(1280, 720), (1366, 768)])
def test_every_editor_control_in_sight_for_every_sample(
    qtbot: QtBot,
    make_window: object,
    registry: Registry,
    store: Store,
    size: tuple[int, int],
) -> None:
    seeded = seed_samples(store, registry=registry)
    assert len(seeded) >= 4
    window: MainWindow = make_window()  # type: ignore[operator]
    width, height = size
    window.resize(width, height)
    assert window.minimumSizeHint().width() <= width
    assert window.minimumSizeHint().height() <= height
    for summary in list_rosters(store):
        assert window.builder.open_roster(summary.id)
        QApplication.processEvents()
        assert window.width() <= width and window.height() <= height, summary.name
        for name, widget in editor_controls(window).items():
            assert inside(window, widget), f"{summary.name}: {name} not in sight"
        # the validation panel's Rule column starts inside the panel
        header = window.validation.view.header()
        assert header.sectionViewportPosition(2) < window.validation.view.viewport().width()
        # the tree's name and numbers are not squeezed out
        tree = window.editor.tree
        assert tree.header().sectionSize(Col.NAME) >= 100
        # every toolbar action is on the bar, none in the overflow
        for action in window.toolbar.actions():
            if action.isVisible() and not action.isSeparator():
                button = window.toolbar.widgetForAction(action)
                assert button is not None and inside(window, button), action.text()
        assert inside(window, window.print_tool)


def test_first_start_leaves_room_for_the_title_bar(make_window: object) -> None:
    window: MainWindow = make_window()  # type: ignore[operator]
    screen = QGuiApplication.primaryScreen()
    avail = screen.availableGeometry()
    assert window.height() <= avail.height() - FRAME_ALLOWANCE[1]
    assert window.width() <= avail.width() - FRAME_ALLOWANCE[0]


def test_toolbar_keeps_still_and_undo_says_what_in_menu_and_tooltip(
    window: MainWindow, registry: Registry
) -> None:
    window.resize(1280, 720)
    session = open_new(window, registry, "quincunx", "carthaginian", standard=True)
    undo = window.action_registry[ActionKey.UNDO]
    button = window.toolbar.widgetForAction(undo)
    delete = window.toolbar.widgetForAction(window.action_registry[ActionKey.DELETE])
    assert button is not None and delete is not None
    QApplication.processEvents()
    before = (button.width(), delete.x())
    unit = session.roster.units[0]
    assert window.editor.model is not None
    long_name = "Celtic Heavy Cavalry of the Insubres and the Boii, armoured nobles"
    index = window.editor.model.unit_index(unit.id, Col.NAME)
    assert window.editor.model.setData(index, long_name)
    QApplication.processEvents()
    assert undo.text() == f"&Undo Rename {unit.name}"
    assert f"Undo Rename {unit.name}" in undo.toolTip()
    assert undo.iconText() == "Undo"
    assert (button.width(), delete.x()) == before


def test_one_icon_set_every_action_has_its_own(window: MainWindow) -> None:
    names = [spec.icon for spec in SPECS.values() if spec.icon]
    assert len(names) == len(set(names))  # no two actions share an icon
    for name in names:
        assert (ICONS_DIR / f"{name}.svg").is_file(), name
        assert not bundled_icon(name).isNull(), name
    assert (ICONS_DIR / "LICENSE-lucide.txt").is_file()
    for action in window.toolbar.actions():
        if not action.isSeparator() and action in dict(window.action_registry.items()).values():
            assert not action.icon().isNull(), action.text()
    assert not window.print_tool.icon().isNull()


def test_only_what_applies(window: MainWindow, registry: Registry) -> None:
    a = window.action_registry
    # no roster: nothing to delete
    window.library.view.clearSelection()
    window.library.view.setCurrentIndex(window.library.view.rootIndex())
    assert not a[ActionKey.DELETE].isEnabled()
    open_new(window, registry, "d3-ancients", "roman", name="D3")
    assert not a[ActionKey.ADD_COMMAND].isVisible()
    assert a.documents["chance-cards"].isVisible()
    assert a[ActionKey.DELETE].isEnabled()
    open_new(window, registry, "quincunx", "roman", name="Q")
    assert a[ActionKey.ADD_COMMAND].isVisible()
    assert a[ActionKey.ADD_COMMAND].iconText() == "Battlegroup"
    assert not a.documents["chance-cards"].isVisible()
    open_new(window, registry, "grown-slightly-bald", "rome", name="G")
    assert not a[ActionKey.ADD_COMMAND].isVisible()


def test_delete_after_jumping_from_a_message_and_a_line_of_four(
    window: MainWindow, registry: Registry
) -> None:
    session = open_new(window, registry, "leg-vi-carthago", "roman")
    rs = registry.get("leg-vi-carthago")
    velites = unit_from_entry(rs, "roman", "velites", count=4)
    legion = unit_from_entry(rs, "roman", "roman_legion")
    assert session.apply(AddUnit(velites))
    assert session.apply(AddUnit(legion))
    # the user double-clicks a message about the velites: focus follows to the tree
    window.validation.view.setFocus()
    window.validation.subject_activated.emit("unit", velites.id)
    assert window.editor.tree.hasFocus() or QApplication.focusWidget() is window.editor.tree
    window.action_registry[ActionKey.DELETE].trigger()
    assert [u.id for u in roster_of(window).units] == [legion.id]
    assert window.action_registry[ActionKey.UNDO].text() == "&Undo Remove 4 × Velites"


def test_help_menu_and_reset_layout(window: MainWindow, registry: Registry) -> None:
    about = window.show_about()
    text = about.findChild(QTextBrowser).toPlainText()
    for rs in registry:
        assert rs.meta.data_version in text and rs.meta.name in text
    assert "ISC" in text and "LGPL" in text and "Castra" in text
    about.close()
    shortcuts = window.show_shortcuts()
    keys = shortcuts.findChild(QTextBrowser).toPlainText()
    assert "Undo" in keys and "Ctrl+Z" in keys and "Duplicate unit" in keys
    shortcuts.close()
    guide = window.show_guide()
    assert "Castra user guide" in guide.findChild(QTextBrowser).toPlainText()  # docs/guide
    guide.close()
    menu = window.menuBar().findChild(type(window.print_menu), "helpMenu")
    assert menu is not None
    assert [a.text() for a in menu.actions() if not a.isSeparator()] == [
        "User &guide",
        "&Keyboard shortcuts",
        "Ruleset &problems…",
        "&About Castra",
    ]
    # View > Reset layout brings back a closed panel and the toolbar
    window.validation_dock.close()
    window.toolbar.hide()
    window.action_registry[ActionKey.RESET_LAYOUT].trigger()
    assert window.validation_dock.isVisible() and window.toolbar.isVisible()
