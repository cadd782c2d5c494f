"""Icons: Qt's standard icons, so the app ships no image files yet."""

from __future__ import annotations

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QStyle

from app.core.validation import Severity

_SEVERITY_PIXMAP = {
    Severity.ERROR: QStyle.StandardPixmap.SP_MessageBoxCritical,
    Severity.WARNING: QStyle.StandardPixmap.SP_MessageBoxWarning,
    Severity.NOTE: QStyle.StandardPixmap.SP_MessageBoxInformation,
}
_cache: dict[object, QIcon] = {}


def standard_icon(pixmap: QStyle.StandardPixmap) -> QIcon:
    icon = _cache.get(pixmap)
    if icon is None:
        icon = QApplication.style().standardIcon(pixmap)
        _cache[pixmap] = icon
    return icon


def severity_icon(severity: Severity) -> QIcon:
    return standard_icon(_SEVERITY_PIXMAP[severity])


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
