"""The battle report PDF: the result and every step of the log with its rolls."""

from __future__ import annotations

import io

from pypdf import PdfReader

from app.core.battle import Act, EndBattle, MoveUnit, NextPhase
from app.core.battle.sample import sample_session
from app.core.battle.summary import battle_summary
from app.export.battle_report import render_battle_report
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry


def test_report_has_the_result_and_every_roll(registry: Registry) -> None:
    rs = registry.get("grown-slightly-bald")
    session = sample_session(rs, mechanics_for(rs))
    session.do(NextPhase())
    # a melee needs contact (GSB, Melee): A1 goes to touch B1's front, facing it
    a1, b1 = session.state.unit("A1"), session.state.unit("B1")
    assert b1.facing == 180.0
    session.do(MoveUnit(unit="A1", x=b1.x, y=b1.y - (a1.depth + b1.depth) / 2, facing=0.0))
    session.do(Act(action="activate", actor="A1"))  # only the unit activated fights
    step = session.do(Act(action="melee", actor="A1", target="B1"))
    session.do(EndBattle(winner=0, reason="Carthage withdrew"))
    result = battle_summary(session.state, session.mechanics)
    assert result.over and result.winner == 0
    assert result.headline == f"{session.state.sides[0].name} wins (Carthage withdrew)"
    data, pages = render_battle_report(session, result, None, invariant=True)
    assert pages >= 1
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
    text = " ".join(text.split())
    assert "wins (Carthage withdrew)" in text
    assert f"Log: {len(session.steps)} steps" in text
    faces = ", ".join(map(str, step.rolls[0].faces))
    assert faces in text
    assert "Grown Slightly Bald" in text  # the footer names the ruleset
    again, _ = render_battle_report(session, result, None, invariant=True)
    assert again == data
