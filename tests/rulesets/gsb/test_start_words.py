"""GSB's opening line, read where a campaign shows a fought battle's log beside its result:
"Rome wins with 5 victory stars" and "Carthage wins with 5 victory stars" read as two
results of a battle one side won; the line says what each side needs."""

from __future__ import annotations

from app.core.battle import BattleSession, StartBattle, new_battle
from app.core.battle.sample import sample_roster
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry


def test_the_opening_line_says_the_stars_each_side_needs(registry: Registry) -> None:
    rs = registry.get("grown-slightly-bald")
    mech = mechanics_for(rs)
    armies = list(rs.armies)
    rosters = (sample_roster(rs, armies[0]), sample_roster(rs, armies[-1]))
    session = BattleSession(rs, mech, new_battle(rs, mech, rosters), seed=1)
    step = session.do(StartBattle())
    text = " ".join(step.lines)
    assert "wins with" not in text
    for side in session.state.sides:
        assert f"{side.name} needs " in text and " victory stars to win" in text
