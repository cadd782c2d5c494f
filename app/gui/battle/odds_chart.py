"""The exact odds before rolling, drawn with pyqtgraph: one bar a possible outcome (its
chance) and one bar an expected loss (its exact expectation). The numbers come from the
core (:mod:`app.core.battle.odds_summary`); this only draws them."""

from __future__ import annotations

from fractions import Fraction

import pyqtgraph as pg
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.core.battle.odds_summary import OutcomeRow, chance_bars

#: outcomes drawn (the rest are summed as "other outcomes")
MOST_BARS = 6
#: height of one bar and its words, in pixels
ROW_PX = 19
pg.setConfigOptions(antialias=True, background="w", foreground="k")


class OddsChart(QWidget):
    """The two plots are made when odds are first shown (pyqtgraph's plots cost some 20 ms
    of a battle window's opening, before any action is chosen)."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("oddsChart")
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._outcomes: pg.PlotWidget | None = None
        self._losses: pg.PlotWidget | None = None
        self.loss_caption = QLabel("Expected losses")
        self.loss_caption.setVisible(False)
        self.empty = QLabel()
        self.empty.setWordWrap(True)
        self._layout.addWidget(self.loss_caption)
        self._layout.addWidget(self.empty)
        self._layout.addStretch(1)
        #: what is drawn, for tests and the tooltip: (label, chance) and (loss, expectation)
        self.bars: list[tuple[str, Fraction]] = []
        self.loss_bars: list[tuple[str, Fraction]] = []

    @staticmethod
    def _plot(name: str) -> pg.PlotWidget:
        plot = pg.PlotWidget()
        plot.setObjectName(name)
        plot.setMenuEnabled(False)
        plot.setMouseEnabled(x=False, y=False)
        plot.hideButtons()
        plot.hideAxis("bottom")
        return plot

    @property
    def outcomes(self) -> pg.PlotWidget:
        """The plot of the outcomes' chances (made on first use, above the caption)."""
        if self._outcomes is None:
            self._outcomes = self._plot("outcomePlot")
            self._layout.insertWidget(0, self._outcomes)
        return self._outcomes

    @property
    def losses(self) -> pg.PlotWidget:
        """The plot of the expected losses (made on first use, below the caption)."""
        if self._losses is None:
            self._losses = self._plot("lossPlot")
            self._layout.insertWidget(self._layout.indexOf(self.loss_caption) + 1, self._losses)
        return self._losses

    def clear(self, text: str = "") -> None:
        self.bars, self.loss_bars = [], []
        for plot in (self._outcomes, self._losses):
            if plot is not None:
                plot.clear()
                plot.setVisible(False)
        self.loss_caption.setVisible(False)
        self.empty.setText(text)
        self.empty.setVisible(bool(text))

    def show_odds(self, rows: list[OutcomeRow], expected: dict[str, Fraction]) -> None:
        self.empty.setVisible(False)
        self.bars = bars = chance_bars(rows, MOST_BARS)
        self._hbars(self.outcomes, [(label, float(p) * 100) for label, p in bars], "#2e5fa8", True)
        self.loss_bars = list(expected.items())
        if self._losses is not None or expected:
            self.losses.setVisible(bool(expected))
        self.loss_caption.setVisible(bool(expected))
        if expected:
            self._hbars(
                self.losses,
                [(k.replace("_", " "), float(v)) for k, v in expected.items()],
                "#b03a2e",
            )
        self.outcomes.setVisible(True)

    @staticmethod
    def _hbars(
        plot: pg.PlotWidget, bars: list[tuple[str, float]], colour: str, percent: bool = False
    ) -> None:
        """One light bar a row with its value and its whole name written over it, left to
        right across the plot (names on an axis had to be cut to a few letters, and
        outcomes that differ only at the end all read the same)."""
        plot.clear()
        n = len(bars)
        ys = list(range(n))
        brush = pg.mkColor(colour)
        brush.setAlpha(70)
        item = pg.BarGraphItem(
            x0=[0.0] * n, y=ys, height=0.8, width=[v for _, v in bars], brush=brush, pen=None
        )
        plot.addItem(item)
        for y, (label, v) in zip(ys, bars, strict=True):
            value = f"{v:.1f}" if v >= 10 else f"{v:.2f}"
            text = pg.TextItem(f"{value}{'%' if percent else ''}  {label}", anchor=(0, 0.5))
            text.setColor("#111")
            text.setPos(0, y)
            plot.addItem(text)
        plot.hideAxis("left")
        plot.getAxis("bottom").enableAutoSIPrefix(False)
        top = max((v for _, v in bars), default=1.0) or 1.0
        plot.setXRange(0, top * 1.05, padding=0)
        plot.setYRange(-0.5, n - 0.5, padding=0)
        plot.getViewBox().invertY(True)
        # a row a line of text: the chart is as tall as its rows, never squeezed
        plot.setFixedHeight(n * ROW_PX + 8)
