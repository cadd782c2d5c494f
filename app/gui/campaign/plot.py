"""The strength plot of the campaign view: pyqtgraph (made for Qt; axes, grid and legend
are its own), fed with the core's :func:`~app.core.campaign.chronicle.strength`."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QComboBox, QVBoxLayout, QWidget

from app.core.campaign.chronicle import Strength, named_points

COLOURS = (
    "#8B1E1E", "#1F4E79", "#C77C0E", "#2E7D32", "#6A1B9A", "#00838F",
    "#AD1457", "#5D4037", "#558B2F", "#283593", "#EF6C00", "#37474F",
)  # fmt: skip


class StrengthPlot(QWidget):
    """Men per side over the campaign, or one side's men by troop type (the combo)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        pg.setConfigOptions(antialias=True, background="w", foreground="#1E1E1E")
        self.view = QComboBox()
        self.view.setObjectName("plotView")
        self.plot = pg.PlotWidget()
        self.plot.setObjectName("strengthPlot")
        self.plot.showGrid(x=False, y=True, alpha=0.25)
        self.plot.setMinimumSize(260, 180)
        self.legend = self.plot.addLegend(offset=(-10, 10))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        layout.addWidget(self.plot, 1)
        self.data: Strength | None = None
        self.view.currentIndexChanged.connect(lambda _: self._draw())

    def show_strength(self, data: Strength) -> None:
        self.data = data
        current = self.view.currentText()
        self.view.blockSignals(True)
        self.view.clear()
        self.view.addItem(f"Each side ({data.unit})")
        for side, _ in data.troops:
            self.view.addItem(f"{side} by troop type")
        index = self.view.findText(current)
        self.view.setCurrentIndex(max(index, 0))
        self.view.blockSignals(False)
        self._draw()

    def series(self) -> list[tuple[str, tuple[int, ...]]]:
        """What is plotted now: a name and its values at each point of the campaign."""
        if self.data is None:
            return []
        i = self.view.currentIndex()
        if i <= 0:
            return list(self.data.sides)
        _, per = self.data.troops[i - 1]
        return sorted(per.items(), key=lambda kv: -kv[1][0])

    def _draw(self) -> None:
        self.plot.clear()
        self.legend.clear()
        if self.data is None:
            return
        xs = list(range(len(self.data.labels)))
        own = self.data.colours if self.view.currentIndex() <= 0 else ()
        for n, (name, values) in enumerate(self.series()):
            colour = (own[n] if n < len(own) else None) or COLOURS[n % len(COLOURS)]
            self.plot.plot(
                xs,
                list(values),
                name=name,
                pen=pg.mkPen(colour, width=2),
                symbol="o",
                symbolSize=6,
                symbolBrush=colour,
            )
        self.plot.getAxis("bottom").setTicks(ticks(self.data.labels))
        self.plot.setLabel("left", self.data.unit)
        self.plot.setXRange(-0.35, max(len(xs) - 1, 1) + 0.35, padding=0)
        self.plot.setYRange(0, max([1, *(max(v) for _, v in self.series())]) * 1.08)


#: battle names the bottom axis shows at most (more overlap at the window's width)
MAX_LABELS = 10


def ticks(labels: tuple[str, ...]) -> list[list[tuple[int, str]]]:
    """The bottom axis's ticks: the points :func:`~app.core.campaign.chronicle.named_points`
    names with their names, the others ticked without one."""
    shown = set(named_points(len(labels), MAX_LABELS))
    return [
        [(i, text) for i, text in enumerate(labels) if i in shown],
        [(i, "") for i in range(len(labels)) if i not in shown],
    ]
