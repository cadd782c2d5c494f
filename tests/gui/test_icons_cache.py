"""The bundled icons (issue 14): each is drawn by Qt's SVG icon engine from a copy in the
palette's text colour kept in the cache folder, at the size it is shown; where that folder
cannot be written the icon is drawn at once at its five sizes, as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage, QPalette
from PySide6.QtWidgets import QApplication

from app.gui import icons
from app.paths import data_dir


def _ink(icon: object, size: int) -> int:
    """How many pixels of the icon at ``size`` px are not transparent."""
    from PySide6.QtGui import QIcon

    assert isinstance(icon, QIcon)
    image = icon.pixmap(size, size).toImage().convertToFormat(QImage.Format.Format_ARGB32)
    return sum(
        1 for y in range(image.height()) for x in range(image.width()) if image.pixel(x, y) >> 24
    )


def test_an_icon_is_drawn_from_its_tinted_copy_in_the_cache(
    qapp: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(icons, "_cache", {})
    icon = icons.bundled_icon("save")
    colour = QApplication.palette().color(QPalette.ColorRole.WindowText).name()
    (copy,) = data_dir().glob("cache/icons/save-*.svg")
    text = copy.read_text(encoding="utf-8")
    assert colour in text and "currentColor" not in text
    assert not icon.isNull() and _ink(icon, 24) > 20 and _ink(icon, 48) > _ink(icon, 16)
    monkeypatch.setattr(icons, "_cache", {})
    assert not icons.bundled_icon("save").isNull()  # the next start reuses the copy
    assert list(copy.parent.glob("save-*")) == [copy]


def test_without_a_writable_cache_the_icon_is_drawn_at_once(
    qapp: QApplication, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("CASTRA_HOME", str(blocked))  # the cache folder would be under a file
    monkeypatch.setattr(icons, "_cache", {})
    icon = icons.bundled_icon("save")
    assert not icon.isNull() and len(icon.availableSizes()) == 5 and _ink(icon, 24) > 20


def test_a_missing_icon_is_empty(qapp: QApplication, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(icons, "_cache", {})
    assert icons.bundled_icon("no-such-icon").isNull()
