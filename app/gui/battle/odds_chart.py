"""The exact odds before rolling, drawn with pyqtgraph: one bar a possible outcome (its
chance) and one bar an expected loss (its exact expectation). The numbers come from the
core (:mod:`app.core.battle.odds_summary`); this only draws them."""

from __future__ import annotations

from fractions import Fraction

import pyqtgraph as pg
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.core.battle.odds_summary import OutcomeRow

#: outcomes drawn (the rest are summed as "other outcomes")
MOST_BARS = 6
#: height of one bar and its words, in pixels
ROW_PX = 19
pg.setConfigOptions(antialias=True, background="w", foreground="k")


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
        self.outcomes.hideAxis("bottom")
        self.losses = pg.PlotWidget()
        self.losses.setObjectName("lossPlot")
        self.losses.setMenuEnabled(False)
        self.losses.setMouseEnabled(x=False, y=False)
        self.losses.hideButtons()
        self.losses.hideAxis("bottom")
        self.loss_caption = QLabel("Expected losses")
        self.empty = QLabel()
        self.empty.setWordWrap(True)
        layout.addWidget(self.outcomes)
        layout.addWidget(self.loss_caption)
        layout.addWidget(self.losses)
        layout.addWidget(self.empty)
        layout.addStretch(1)
        #: what is drawn, for tests and the tooltip: (label, chance) and (loss, expectation)
        self.bars: list[tuple[str, Fraction]] = []
        self.loss_bars: list[tuple[str, Fraction]] = []

    def clear(self, text: str = "") -> None:
        self.bars, self.loss_bars = [], []
        self.outcomes.clear()
        self.losses.clear()
        self.outcomes.setVisible(False)
        self.losses.setVisible(False)
        self.loss_caption.setVisible(False)
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
        self._hbars(self.outcomes, [(label, float(p) * 100) for label, p in bars], "#2e5fa8", True)
        self.loss_bars = list(expected.items())
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
