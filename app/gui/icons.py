"""Icons: the actions' icons are bundled SVGs of one set (Lucide, ISC licence, in
``resources/icons`` with its licence), drawn in the palette's text colour so they suit light
and dark themes; the validation severities use Qt's standard message icons."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QIcon, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication, QStyle

from app.core.validation import Severity

_cache: dict[object, QIcon] = {}

ICONS_DIR = Path(__file__).resolve().parents[2] / "resources" / "icons"


def bundled_icon(name: str) -> QIcon:
    """The bundled icon ``name`` (``resources/icons/<name>.svg``) at 16-48 px; Qt derives
    the disabled look from it. A missing file gives an empty icon, never an error."""
    icon = _cache.get(name)
    if icon is not None:
        return icon
    icon = QIcon()
    path = ICONS_DIR / f"{name}.svg"
    if path.is_file():
        colour = QApplication.palette().color(QPalette.ColorRole.WindowText).name()
        svg = path.read_text(encoding="utf-8").replace("currentColor", colour)
        renderer = QSvgRenderer(QByteArray(svg.encode()))
        for size in (16, 20, 24, 32, 48):
            pixmap = QPixmap(size, size)
            pixmap.fill(Qt.GlobalColor.transparent)
            painter = QPainter(pixmap)
            renderer.render(painter)
            painter.end()
            icon.addPixmap(pixmap)
    _cache[name] = icon
    return icon


def standard_icon(pixmap: QStyle.StandardPixmap) -> QIcon:
    icon = _cache.get(pixmap)
    if icon is None:
        icon = QApplication.style().standardIcon(pixmap)
        _cache[pixmap] = icon
    return icon


def severity_icon(severity: Severity) -> QIcon:
    # QStyle's pixmap enum is built on first use (some milliseconds), not at start-up
    pixmap = {
        Severity.ERROR: QStyle.StandardPixmap.SP_MessageBoxCritical,
        Severity.WARNING: QStyle.StandardPixmap.SP_MessageBoxWarning,
        Severity.NOTE: QStyle.StandardPixmap.SP_MessageBoxInformation,
    }[severity]
    return standard_icon(pixmap)


def worst(severities: list[Severity]) -> Severity | None:
    """The most serious of ``severities`` (error > warning > note), or None."""
    for s in (Severity.ERROR, Severity.WARNING, Severity.NOTE):
        if s in severities:
            return s
    return None


def number(value: int | None) -> str:
    """A count for display: thousands separated; a value the ruleset does not define is a
    dash, never a guess."""
    return "—" if value is None else f"{value:,}"
