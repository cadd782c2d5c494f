"""The Actions dock shows the odds of big units as the plain Fraction arithmetic gives them
(issue 26: sorting, summing and ``float`` of thousands of chances of hundreds of digits
were made quick): MWAN #90's greek heavy infantry of 72 figures each, meeting from the rear,
4,900 outcomes, each row, bar, expectation and tooltip line the same. The tooltip lists
the likeliest outcomes and says how many more there are (a line each for thousands was
taller than any screen)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.core.battle.sample import sample_session
from app.core.battle.session import BattleSession
from app.gui.battle.acting import TOOLTIP_OUTCOMES, odds_tooltip
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from tests.core.battle.test_odds_summary import plain_bars, plain_expected, plain_rows
from tests.gui.battle.test_window import meet, open_window

pytestmark = pytest.mark.gui


def _greek_melee(registry: Registry, figures: int) -> BattleSession:
    """MWAN #90's sample battle with its A1 and B1 made Greek heavy infantry of ``figures``
    each, in contact."""
    rs = registry.get("mwan90")
    mech = mechanics_for(rs)
    state = sample_session(rs, mech).state
    status = mech.initial_status("greek_heavy_infantry", figures, None)
    state = state.replace_units(
        {
            uid: replace(state.unit(uid), troop="greek_heavy_infantry", status=status)
            for uid in ("A1", "B1")
        }
    )
    session = BattleSession(rs, mech, state, seed=1, name=f"melee of {figures}")
    meet(session, "A1", "B1")
    return session


def test_the_dock_shows_the_biggest_melee_as_the_plain_way(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    session = _greek_melee(registry, 72)
    window = open_window(qtbot, session, settings)
    window.resize(1280, 720)
    acting = window.acting
    acting.set_pair("A1", "B1")
    acting.choose_action("melee")
    acting.set_option("attack", "rear")
    odds = acting.odds
    assert odds is not None and len(odds) == 4900, acting.summary.text()
    assert acting.summary.text() == "Melee: 4900 possible outcomes (exact)."
    rows = plain_rows(odds)
    assert [tuple(r) for r in acting.rows] == rows
    assert list(acting.expected.items()) == list(plain_expected(odds).items())
    assert acting.chart.bars == plain_bars(odds, 6)
    # the tooltip: the likeliest outcomes, then one line for the thousands left
    lines = acting.summary.toolTip().split("\n")
    assert lines[:-1] == [
        f"{float(p) * 100:6.2f}%  {result}: attacker {a}; defender {d}"
        for result, a, d, p, _ in rows[:TOOLTIP_OUTCOMES]
    ]
    rest = sum((p for _, _, _, p, _ in rows[TOOLTIP_OUTCOMES:]), Fraction(0))
    assert lines[-1] == (
        f"{float(rest) * 100:6.2f}%  4,870 less likely outcomes (castra odds lists every one)"
    )


def test_the_tooltip_lists_every_outcome_of_small_odds(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """Odds with no more outcomes than the tooltip lists: a line each, and no line of
    others."""
    session = _greek_melee(registry, 4)
    window = open_window(qtbot, session, settings)
    acting = window.acting
    acting.set_pair("A1", "B1")
    acting.choose_action("melee")
    rows = acting.rows
    assert 0 < len(rows) <= TOOLTIP_OUTCOMES, len(rows)
    assert acting.summary.toolTip() == odds_tooltip(rows)
    lines = acting.summary.toolTip().split("\n")
    assert len(lines) == len(rows) and "less likely" not in lines[-1]
