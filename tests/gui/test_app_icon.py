"""Castra's icon: the PNGs shipped beside ``castra.svg`` (for menus without SVG support, and
the bundle's .ico / .icns) are that SVG drawn at their sizes (``scripts/app_icons.py``)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

from app import bundled

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("size", bundled.APP_ICON_SIZES)
def test_each_png_is_the_svg_at_its_size(size: int) -> None:
    drawn = QImage(size, size, QImage.Format.Format_ARGB32)
    drawn.fill(0)
    painter = QPainter(drawn)
    QSvgRenderer(str(bundled.APP_ICON)).render(painter)
    painter.end()
    shipped = QImage(str(bundled.app_icon_png(size))).convertToFormat(QImage.Format.Format_ARGB32)
    assert (shipped.width(), shipped.height()) == (size, size)
    worst = 0
    for y in range(size):
        for x in range(size):
            a, b = QColor(drawn.pixel(x, y)), QColor(shipped.pixel(x, y))
            worst = max(
                worst,
                abs(a.red() - b.red()),
                abs(a.green() - b.green()),
                abs(a.blue() - b.blue()),
                abs(a.alpha() - b.alpha()),
            )
    assert worst <= 2, f"castra-{size}.png differs from castra.svg: run scripts/app_icons.py"
