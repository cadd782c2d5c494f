"""Icons: the actions' icons are bundled SVGs of one set (Lucide, ISC licence, in
``resources/icons`` with its licence), drawn in the palette's text colour so they suit light
and dark themes; the validation severities use Qt's standard message icons."""

from __future__ import annotations

import contextlib
import os
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QIcon, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

from app import bundled
from app.core.validation import Severity

if TYPE_CHECKING:
    from PySide6.QtWidgets import QStyle

_cache: dict[object, QIcon] = {}

ICONS_DIR = bundled.ICONS_DIR


def bundled_icon(name: str) -> QIcon:
    """The bundled icon ``name`` (``resources/icons/<name>.svg``), drawn in the palette's text
    colour at whatever size it is shown; Qt derives the disabled look from it. A missing file
    gives an empty icon, never an error."""
    icon = _cache.get(name)
    if icon is not None:
        return icon
    icon = QIcon()
    path = ICONS_DIR / f"{name}.svg"
    if path.is_file():
        colour = QApplication.palette().color(QPalette.ColorRole.WindowText).name()
        svg = path.read_text(encoding="utf-8").replace("currentColor", colour)
        tinted = _tinted_file(name, svg)
        if tinted is not None:
            icon = QIcon(str(tinted))
        if icon.isNull():
            icon = _rendered(svg)
    _cache[name] = icon
    return icon


def _tinted_file(name: str, svg: str) -> Path | None:
    """The icon's SVG in its colour, as a file in the cache folder (written once per colour
    and content): Qt's SVG icon engine then draws it when and at the size it is shown, where
    drawing all 23 of the window's icons at five sizes took ~10 ms of its start. None when
    the cache folder cannot be written."""
    from app.paths import data_dir

    digest = zlib.crc32(svg.encode()) & 0xFFFFFFFF
    target = data_dir() / "cache" / "icons" / f"{name}-{digest:08x}.svg"
    if target.is_file():
        return target
    part = target.with_name(f"{target.name}.{os.getpid()}.part")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        part.write_text(svg, encoding="utf-8")
        part.replace(target)  # whole or not at all, even with two windows starting
    except OSError:
        with contextlib.suppress(OSError):
            part.unlink(missing_ok=True)
        return None
    return target


def _rendered(svg: str) -> QIcon:
    """The icon drawn from ``svg`` at 16-48 px (when its SVG cannot be cached)."""
    icon = QIcon()
    renderer = QSvgRenderer(QByteArray(svg.encode()))
    for size in (16, 20, 24, 32, 48):
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        renderer.render(painter)
        painter.end()
        icon.addPixmap(pixmap)
    return icon


def standard_icon(pixmap: QStyle.StandardPixmap) -> QIcon:
    icon = _cache.get(pixmap)
    if icon is None:
        icon = QApplication.style().standardIcon(pixmap)
        _cache[pixmap] = icon
    return icon


def severity_icon(severity: Severity) -> QIcon:
    from PySide6.QtWidgets import QStyle  # PySide6 builds it, all its enums, on first touch

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
