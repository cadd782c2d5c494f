"""The exact odds before rolling, drawn with pyqtgraph: one bar a possible outcome (its
chance) and one bar an expected loss (its exact expectation). The numbers come from the
core (:mod:`app.core.battle.odds_summary`); this only draws them."""

from __future__ import annotations

from fractions import Fraction

import pyqtgraph as pg
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.core.battle.odds_summary import OutcomeRow

#: longest outcome name on the axis (the full text is in the tooltip and the list)
LABEL_CHARS = 15
#: room for the outcome names left of the bars, in pixels
AXIS_WIDTH = 124
#: outcomes drawn (the rest are summed as "other outcomes")
MOST_BARS = 6
pg.setConfigOptions(antialias=True, background="w", foreground="k")


def _short(text: str) -> str:
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


class OddsChart(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("oddsChart")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.outcomes = pg.PlotWidget()
        self.outcomes.setObjectName("outcomePlot")
        self.outcomes.setMenuEnabled(False)
        self.outcomes.setMouseEnabled(x=False, y=False)
        self.outcomes.hideButtons()
        self.outcomes.setLabel("bottom", "chance, %")
        self.outcomes.setMinimumHeight(140)
        self.losses = pg.PlotWidget()
        self.losses.setObjectName("lossPlot")
        self.losses.setMenuEnabled(False)
        self.losses.setMouseEnabled(x=False, y=False)
        self.losses.hideButtons()
        self.losses.setLabel("bottom", "expected losses")
        self.losses.setMinimumHeight(80)
        self.empty = QLabel()
        self.empty.setWordWrap(True)
        layout.addWidget(self.outcomes, 3)
        layout.addWidget(self.losses, 2)
        layout.addWidget(self.empty)
        #: what is drawn, for tests and the tooltip: (label, chance) and (loss, expectation)
        self.bars: list[tuple[str, Fraction]] = []
        self.loss_bars: list[tuple[str, Fraction]] = []

    def clear(self, text: str = "") -> None:
        self.bars, self.loss_bars = [], []
        self.outcomes.clear()
        self.losses.clear()
        self.outcomes.setVisible(False)
        self.losses.setVisible(False)
        self.empty.setText(text)
        self.empty.setVisible(bool(text))

    def show_odds(self, rows: list[OutcomeRow], expected: dict[str, Fraction]) -> None:
        self.empty.setVisible(False)
        shown = rows[:MOST_BARS]
        bars = [(r.result, r.chance) for r in shown]
        rest = sum((r.chance for r in rows[MOST_BARS:]), Fraction(0))
        if rest:
            bars.append((f"{len(rows) - MOST_BARS} other outcomes", rest))
        self.bars = bars
        self._hbars(self.outcomes, [(label, float(p) * 100) for label, p in bars], "#2e5fa8")
        self.loss_bars = list(expected.items())
        self.losses.setVisible(bool(expected))
        if expected:
            self._hbars(
                self.losses,
                [(k.replace("_", " "), float(v)) for k, v in expected.items()],
                "#b03a2e",
            )
        self.outcomes.setVisible(True)

    @staticmethod
    def _hbars(plot: pg.PlotWidget, bars: list[tuple[str, float]], colour: str) -> None:
        plot.clear()
        n = len(bars)
        ys = list(range(n))
        item = pg.BarGraphItem(
            x0=[0.0] * n, y=ys, height=0.7, width=[v for _, v in bars], brush=colour
        )
        plot.addItem(item)
        for y, (_, v) in zip(ys, bars, strict=True):
            text = pg.TextItem(f"{v:.1f}" if v >= 10 else f"{v:.2f}", anchor=(0, 0.5), color="#222")
            text.setPos(v, y)
            plot.addItem(text)
        axis = plot.getAxis("left")
        axis.setWidth(AXIS_WIDTH)
        axis.setTicks([[(y, _short(label)) for y, (label, _) in zip(ys, bars, strict=True)]])
        top = max((v for _, v in bars), default=1.0) or 1.0
        plot.setXRange(0, top * 1.25, padding=0)
        plot.setYRange(-0.6, n - 0.4, padding=0)
        plot.getViewBox().invertY(True)
