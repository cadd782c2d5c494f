"""The Help menu's windows: the keyboard shortcuts (read from the actions themselves, so the
list is never out of date) and About (version, ruleset data, licences). The user guide is
:mod:`app.gui.guide`.

Each is a plain window opened without blocking (``show``), so it can stay beside the roster.
"""

from __future__ import annotations

import html
import platform
import sys
from collections.abc import Iterable

from PySide6 import __version__ as PYSIDE_VERSION
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from app import __version__
from app.rules.registry import Registry

#: what Castra ships or runs on, and the licence each comes under
LICENCES = (
    ("DejaVu fonts (bundled, embedded in PDFs)", "Bitstream Vera / DejaVu licence (free)"),
    ("Lucide icons (bundled)", "ISC licence"),
    ("Qt for Python (PySide6)", "LGPL v3"),
    ("reportlab and rl-accel", "BSD licence"),
    ("pypdfium2 and PDFium (printing)", "Apache 2.0 / BSD-3-Clause"),
    ("SQLAlchemy, sqlmodel, Alembic, pydantic, platformdirs", "MIT licence"),
)


def castra_version() -> str:
    """The version, from its one source (``app.__version__``, which the wheel's metadata is
    built from): the same in a checkout, an installed wheel and the bundle."""
    return __version__


def about_html(registry: Registry) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(rs.meta.name)}</td><td>{html.escape(rs.meta.data_version)}</td>"
        f"<td>{html.escape(rs.credit)}{'' if rs.builtin else ' (house rules)'}</td></tr>"
        for rs in sorted(registry, key=lambda r: r.meta.short_name)
    )
    licences = "".join(
        f"<tr><td>{html.escape(what)}</td><td>{html.escape(lic)}</td></tr>"
        for what, lic in LICENCES
    )
    return (
        f"<h2>Castra {html.escape(castra_version())}</h2>"
        "<p>Army builder, battle runner and campaign manager for Second Punic War miniature "
        "wargames.</p>"
        f"<p>Python {platform.python_version()} · Qt for Python {PYSIDE_VERSION} · "
        f"{html.escape(sys.platform)}</p>"
        "<h3>Rulesets and their data</h3>"
        "<p>The rules' tables of numbers are transcribed from the sources below; the prose is "
        "Castra's own summary. The rules belong to their authors.</p>"
        "<table cellpadding='3'><tr><th align='left'>Ruleset</th><th align='left'>Data</th>"
        f"<th align='left'>Source</th></tr>{rows}</table>"
        "<h3>Licences</h3>"
        f"<table cellpadding='3'>{licences}</table>"
    )


#: the keys of the roster window that are no action of their own
ROSTER_KEYS = (
    ("Edit the selected cell", "F2"),
    ("Next / previous panel", "Tab / Shift+Tab"),
)


#: keys a player types that are no letter, digit or sign
_EDITING_KEYS = {
    Qt.Key.Key_Delete,
    Qt.Key.Key_Backspace,
    Qt.Key.Key_Return,
    Qt.Key.Key_Enter,
    Qt.Key.Key_Escape,
    Qt.Key.Key_Tab,
    Qt.Key.Key_Insert,
    Qt.Key.Key_Home,
    Qt.Key.Key_End,
    Qt.Key.Key_PageUp,
    Qt.Key.Key_PageDown,
    Qt.Key.Key_Left,
    Qt.Key.Key_Right,
    Qt.Key.Key_Up,
    Qt.Key.Key_Down,
    Qt.Key.Key_Space,
}


def typed_keys(action: QAction) -> list[str]:
    """The action's keys as the platform writes them, those a PC keyboard has only: Qt's
    standard keys also bind keys of old Unix keyboards ("F14", "Undo", "Close"), which the
    list of shortcuts showed beside Ctrl+Z and Ctrl+W as if a player had them."""
    keys = []
    for seq in action.shortcuts():
        if seq.isEmpty():
            continue
        key = seq[0].key()  # type: ignore[index]  # the stubs lack QKeySequence[i]
        if (
            key.value < Qt.Key.Key_Escape.value  # a letter, digit or sign
            or Qt.Key.Key_F1.value <= key.value <= Qt.Key.Key_F12.value
            or key in _EDITING_KEYS
        ):
            keys.append(seq.toString(QKeySequence.SequenceFormat.NativeText))
    return keys


def shortcuts_html(
    actions: Iterable[QAction], more: Iterable[tuple[str, str]] = ROSTER_KEYS
) -> str:
    """Every action with a shortcut, then ``more`` keys that are no action (what a widget
    does with a key of its own)."""
    rows = []
    for action in actions:
        keys = typed_keys(action)
        if not keys:
            continue
        name = action.text().replace("&", "").rstrip("…")
        rows.append(
            f"<tr><td>{html.escape(name)}</td><td><b>{html.escape(', '.join(keys))}</b></td></tr>"
        )
    for what, key_text in more:
        rows.append(f"<tr><td>{html.escape(what)}</td><td><b>{html.escape(key_text)}</b></td></tr>")
    return "<h2>Keyboard shortcuts</h2><table cellpadding='3'>" + "".join(rows) + "</table>"


def show_text(parent: QWidget, name: str, title: str, text: str) -> QDialog:
    """A window with ``text`` (HTML) and a Close button, not blocking the roster."""
    dialog = QDialog(parent)
    dialog.setObjectName(name)
    dialog.setWindowTitle(title)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    browser = QTextBrowser()
    browser.setObjectName(f"{name}Text")
    browser.setOpenExternalLinks(True)
    browser.setHtml(text)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.close)
    layout = QVBoxLayout(dialog)
    layout.addWidget(browser)
    layout.addWidget(buttons)
    dialog.resize(620, 560)
    dialog.show()
    return dialog
