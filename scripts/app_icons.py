"""Render Castra's icon (``resources/app/castra.svg``) into the PNG sizes that desktop menus
and window managers look for (``resources/app/castra-<size>.png``); run again after the SVG
changes. ``tests/cli/test_desktop.py`` checks the PNGs still match the SVG.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/app_icons.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.bundled import APP_ICON, APP_ICON_SIZES, app_icon_png  # noqa: E402


def render(size: int) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    QSvgRenderer(str(APP_ICON)).render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def main() -> int:
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication([])
    for size in APP_ICON_SIZES:
        app_icon_png(size).write_bytes(render(size))
        print(f"wrote {app_icon_png(size).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
