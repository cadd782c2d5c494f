"""The battle core: commands, undo/redo with recorded rolls, replay, serialisation."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.battle import (
    Act,
    Adjust,
    AttachLeader,
    BattleSession,
    CommandError,
    EndBattle,
    MoveUnit,
    NextPhase,
    StartBattle,
    new_battle,
)
from app.core.battle import dice as battle_dice
from app.core.battle.serialize import state_from_dict, state_to_dict
from app.core.battle.session import step_from_dict, step_to_dict
from app.core.edits import AddLeader, AddUnit
from app.core.roster import Leader, Roster, new_roster, unit_from_entry
from app.rules.registry import Registry
from tests.core.battle.toy import ToyMechanics


def roster(registry: Registry, army: str) -> Roster:
    rs = registry.get("d3-ancients")
    r = new_roster(rs, army, name=army)
    entry = next(iter(rs.army(army).entries))
    r = AddUnit(unit_from_entry(rs, army, entry, count=3)).apply(r)
    r = AddLeader(Leader(id="cmdr", name=f"{army} commander", rank="general")).apply(r)
    # a roster file may hold a leader on a line of identical units (the editor refuses it,
    # validation flags it): the battle stands him with the first of them
    return replace(r, units=(replace(r.units[0], leader="cmdr"), *r.units[1:]))


@pytest.fixture
def session(registry: Registry) -> BattleSession:
    rs = registry.get("d3-ancients")
    mech = ToyMechanics(rs)
    state = new_battle(rs, mech, (roster(registry, "roman"), roster(registry, "carthaginian")))
    s = BattleSession(rs, mech, state, seed=42)
    s.do(StartBattle())
    return s


def test_new_battle_deploys_both_sides(session: BattleSession) -> None:
    st0 = session.initial
    assert [u.id for u in st0.units] == ["A1", "A2", "A3", "B1", "B2", "B3"]
    assert [u.name for u in st0.units[:3]] == [f"{st0.units[0].name[:-2]} {i}" for i in (1, 2, 3)]
    for u in st0.units:
        assert 0 < u.x < st0.width and 0 < u.y < st0.height
        assert u.facing == (0.0 if u.side == 0 else 180.0)
        assert u.width == pytest.approx(12.0)  # D3: 3 bases of 4 inches
    a_units = [u for u in st0.units if u.side == 0]
    b_units = [u for u in st0.units if u.side == 1]
    assert max(u.y for u in a_units) < min(u.y for u in b_units)
    assert st0.leader("A-cmdr").attached_to == "A1"
    assert st0.sides[1].record["army"] == "carthaginian"


def test_start_rolls_initiative_and_logs(session: BattleSession) -> None:
    assert session.state.started and session.state.initiative in (0, 1)
    (entry,) = session.log()
    assert entry.label == "Start battle"
    assert [r.purpose for r in entry.rolls] == ["initiative side A", "initiative side B"]
    assert any("Initiative:" in line for line in entry.lines)


def test_undo_restores_exactly_and_redo_reuses_rolls(
    session: BattleSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = session.state
    step = session.do(Act(action="melee", actor="A1", target="B1"))
    after = session.state
    assert len(step.rolls) == 2
    session.undo()
    assert session.state == before

    def no_fresh_dice(*a: object) -> object:
        raise AssertionError("redo must not roll again")

    monkeypatch.setattr(battle_dice, "fresh_dice", no_fresh_dice)
    session.redo()
    assert session.state == after
    assert session.steps[-1].rolls == step.rolls


def test_new_command_after_undo_gets_new_dice(session: BattleSession) -> None:
    first = session.do(Act(action="melee", actor="A1", target="B1"))
    session.undo()
    rolls = set()
    for _ in range(6):
        rolls.add(session.do(Act(action="melee", actor="A1", target="B1")).rolls)
        session.undo()
    assert len(rolls | {first.rolls}) > 1  # the generator moves on; no free re-roll of one die


def test_replay_steps_forward_and_back(session: BattleSession) -> None:
    session.do(MoveUnit(unit="A2", x=30, y=15, facing=10))
    session.do(Act(action="melee", actor="A1", target="B1", options={"bonus": 2}))
    session.do(NextPhase())
    session.do(Act(action="rally", side=0))
    states = [session.initial] + [s.state for s in session.steps]
    for k in range(len(states)):
        assert session.replay(k) == states[k]


def test_move_logs_distance_against_allowance(session: BattleSession) -> None:
    unit = session.state.unit("A2")
    step = session.do(MoveUnit(unit="A2", x=unit.x + 3, y=unit.y + 4))
    assert 'moves 5.0" of its 6"' in step.lines[0]
    step = session.do(MoveUnit(unit="A2", x=unit.x + 3, y=unit.y + 14))
    assert "BEYOND its allowance" in step.lines[0]
    assert "moved" in session.state.unit("A2").status.markers


def test_leader_moves_with_his_unit_and_can_be_reattached(session: BattleSession) -> None:
    session.do(MoveUnit(unit="A1", x=10, y=10))
    assert (session.state.leader("A-cmdr").x, session.state.leader("A-cmdr").y) == (10, 10)
    session.do(AttachLeader(leader="A-cmdr", unit="A2"))
    assert session.state.leader_of("A2") is not None
    with pytest.raises(CommandError, match="enemy"):
        session.do(AttachLeader(leader="A-cmdr", unit="B1"))


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (Act(action="melee", actor="A1", target="Z9"), "no unit 'Z9'"),
        (Act(action="melee", actor="A1"), "needs a target"),
        (Act(action="melee", actor="A1", target="B1", options={"frenzy": True}), "no option"),
        (Act(action="charge", actor="A1", target="B1"), "no action 'charge'"),
        (MoveUnit(unit="A1", x=-5, y=3), "off the table"),
        (Adjust(unit="A1", field="dps", value="-2"), "negative"),
        (Adjust(unit="A1", field="marker", value="shaken"), r"\+name"),
        (StartBattle(), "already started"),
    ],
)
def test_bad_commands_change_nothing(session: BattleSession, command: object, words: str) -> None:
    before, n = session.state, len(session.steps)
    with pytest.raises(CommandError, match=words):
        session.do(command)  # type: ignore[arg-type]
    assert session.state == before and len(session.steps) == n


def test_victory_ends_the_battle(session: BattleSession) -> None:
    for uid in ("B1", "B2", "B3"):
        session.do(Adjust(unit=uid, field="strength", value="0"))
    session.do(NextPhase())
    assert session.state.result is not None and session.state.result.winner == 0
    with pytest.raises(CommandError, match="over"):
        session.do(NextPhase())
    session.undo()
    assert session.state.result is None


def test_declared_end(session: BattleSession) -> None:
    session.do(EndBattle(winner=1, reason="Rome withdraws"))
    assert "Carthage wins" in session.log()[-1].lines[0]


def test_odds_sum_to_one_and_follow_options(session: BattleSession) -> None:
    plain = session.odds("melee", "A1", "B1")
    bonus = session.odds("melee", "A1", "B1", {"bonus": 3})
    assert sum(plain.values()) == 1 == sum(bonus.values())
    p_plain = sum(p for o, p in plain.items() if o.result.startswith("defender"))
    p_bonus = sum(p for o, p in bonus.items() if o.result.startswith("defender"))
    assert p_bonus > p_plain


def test_flank_option_is_derived_from_positions(session: BattleSession) -> None:
    target = session.state.unit("B1")
    # Put A1 beside B1's right flank.
    session.do(MoveUnit(unit="A1", x=target.x - target.width / 2 - 4, y=target.y))
    act = Act(action="melee", actor="A1", target="B1")
    assert act.situation(session.state, session.mechanics).options["flank"] is True
    front = Act(action="melee", actor="A2", target="B1")
    assert front.situation(session.state, session.mechanics).options["flank"] is False
    forced = Act(action="melee", actor="A1", target="B1", options={"flank": False})
    assert forced.situation(session.state, session.mechanics).options["flank"] is False


def test_state_and_steps_survive_json(session: BattleSession) -> None:
    session.do(Act(action="melee", actor="A1", target="B1"))
    session.do(Adjust(unit="B2", field="marker", value="+shaken"))
    for step in session.steps:
        again = step_from_dict(json.loads(json.dumps(step_to_dict(step))))
        assert again == step
    assert state_from_dict(json.loads(json.dumps(state_to_dict(session.state)))) == session.state


COMMANDS = st.one_of(
    st.builds(
        lambda a, b, k: Act(action="melee", actor=f"A{a}", target=f"B{b}", options={"bonus": k}),
        st.integers(1, 3),
        st.integers(1, 3),
        st.integers(0, 3),
    ),
    st.builds(
        lambda a, x, y: MoveUnit(unit=f"A{a}", x=x, y=y),
        st.integers(1, 3),
        st.integers(1, 70),
        st.integers(1, 46),
    ),
    st.just(NextPhase()),
    st.builds(lambda s: Act(action="rally", side=s), st.sampled_from([0, 1])),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(COMMANDS, min_size=1, max_size=12), st.integers(0, 10_000))
def test_property_undo_redo_replay(registry: Registry, commands: list[object], seed: int) -> None:
    """undo(do(x)) restores x; redo reproduces the same rolls and state; replay rebuilds every
    state from the recorded rolls."""
    rs = registry.get("d3-ancients")
    mech = ToyMechanics(rs)
    s = BattleSession(
        rs,
        mech,
        new_battle(rs, mech, (roster(registry, "roman"), roster(registry, "carthaginian"))),
        seed=seed,
    )
    s.do(StartBattle())
    for cmd in commands:
        before = s.state
        try:
            step = s.do(cmd)  # type: ignore[arg-type]
        except CommandError:
            assert s.state == before
            continue
        s.undo()
        assert s.state == before
        s.redo()
        assert s.state == step.state and s.steps[s.cursor - 1].rolls == step.rolls
    assert s.replay() == s.state


def test_an_action_s_log_names_its_options_in_words(session: BattleSession) -> None:
    """The first line of an action's log (and its result card) named the options changed
    from the action's defaults by their data keys: "[charge=none]", "[flank=True]". They
    are named by their labels, as the Actions dock shows them."""
    step = session.do(Act(action="melee", actor="A1", target="B1", options={"flank": True}))
    head = step.lines[0]
    assert "[Flank: yes]" in head and "flank=" not in head
    step = session.do(Act(action="melee", actor="A1", target="B1", options={"bonus": 2}))
    assert "[Bonus: 2]" in step.lines[0]


def test_an_option_s_hint_stays_in_the_dock(registry: Registry) -> None:
    """Leg VI's "Attacker engaged bases (0 = from formation)" is logged as "Attacker
    engaged bases: 6": the hint in brackets is for the one choosing it."""
    from app.core.battle.commands import _option_words
    from app.rules.mechanics import mechanics_for

    rs = registry.get("leg-vi-carthago")
    spec = mechanics_for(rs).action("melee")
    label = spec.option("a_bases").label
    assert label.endswith("(0 = from formation)")
    assert _option_words(spec, "a_bases", 6) == "Attacker engaged bases: 6"
