"""The map as an image (File > Export map, and the battle report's map)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter

from app.gui.battle.map.legend import legend_size, paint_legend
from app.gui.battle.map.scene import MapScene

#: The exported image's longer side (pixels), and the width of the map view whose labels
#: it shows, scaled up (labels about 2 mm high when the battle report prints it).
EXPORT_LONG_SIDE, EXPORT_VIEW = 2400.0, 600.0


def map_image(scene: MapScene) -> QImage | None:
    """The whole table (not just what a view shows) with the legend under it, its labels
    laid out for the image -- as large beside the table as on a map :data:`EXPORT_VIEW`
    pixels wide, so they stay readable printed in the battle report -- then again for the
    screen; None without a table."""
    rect = scene.table_rect.adjusted(-4, -4, 4, 4)
    if not rect.isValid():
        return None
    scale = max(1.0, EXPORT_LONG_SIDE / max(rect.width(), rect.height()))
    width, height = int(rect.width() * scale), int(rect.height() * scale)
    text_scale = max(1.0, max(width, height) / EXPORT_VIEW)
    look = scene.look
    legend = legend_size(look, text_scale, width) if look is not None else None
    extra = legend.height() + int(8 * text_scale) if legend is not None else 0
    image = QImage(width, height + extra, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.white)
    screen = (scene.ppu, scene.text_scale)
    scene.ppu, scene.text_scale = scale, text_scale
    scene.lay_out_labels()
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        scene.render(painter, QRectF(0, 0, width, height), rect)
        if look is not None:
            paint_legend(painter, QPointF(0, height + 4 * text_scale), look, text_scale, width)
    finally:
        painter.end()
        scene.ppu, scene.text_scale = screen
        scene.lay_out_labels()
    return image
