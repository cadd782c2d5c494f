"""Castra as the opponent and the advisor (issue 30), through the core in every ruleset.

- Every entry the advisor lists is legal: across many states of a battle in every ruleset
  (Castra against the random baseline, which goes everywhere), each entry for every unit of both
  sides is executed on a copy of the state with real dice, as a player's command is, and
  none is refused; each move's path passes ``check_move`` with no rule broken.
- A battle between two Castra opponents runs from deployment to the ruleset's result with
  no step refused (each goes through ``BattleSession.do``, as a player's) and nobody's
  input, with two seeds per ruleset; armies are cut to a few entries to keep the suite
  quick (the full ready armies are the win-rate script's: ``make opponent``).
- With the same seed the opponent gives the same commands; the battle it plays replays.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.battle import (
    Act,
    BattleSession,
    BattleState,
    MoveUnit,
    NextPhase,
    StartBattle,
    Step,
    new_battle,
)
from app.core.battle.advisor import advise
from app.core.battle.autoplay import Table, autoplay, owner
from app.core.battle.base import CommandError, Context
from app.core.battle.dice import RecordingDice
from app.core.battle.opponent import Castra
from app.core.battle.players import Player, Temperament, player_of, players_of
from app.core.ready import ready_armies, ready_roster
from app.core.roster import Roster
from app.rules.dice import SeededDice
from app.rules.mechanics import mechanics_for
from app.rules.paths import Path
from app.rules.registry import Registry

RULESETS = ["d3-ancients", "grown-slightly-bald", "leg-vi-carthago", "mwan90", "quincunx"]
#: how many of each ready army's entries a quick battle fields
ENTRIES = {"grown-slightly-bald": 2, "quincunx": 3, "d3-ancients": 4, "leg-vi-carthago": 2}


def small_rosters(
    registry: Registry, ruleset: str, entries: int | None = None
) -> tuple[Roster, Roster]:
    """The ruleset's two ready armies, each cut to its first few entries."""
    rs = registry.get(ruleset)
    k = entries or ENTRIES.get(ruleset, 6)
    a, b = (ready_roster(rs, r.army) for r in ready_armies(rs))
    return replace(a, units=a.units[:k]), replace(b, units=b.units[:k])


def session_for(
    registry: Registry, ruleset: str, seed: int, rosters: tuple[Roster, Roster] | None = None
) -> BattleSession:
    rs = registry.get(ruleset)
    mech = mechanics_for(rs)
    rosters = rosters or small_rosters(registry, ruleset)
    session = BattleSession(rs, mech, new_battle(rs, mech, rosters), seed=seed)
    session.do(StartBattle())
    return session


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_entry_the_advisor_gives_is_legal(registry: Registry, ruleset: str) -> None:
    session = session_for(registry, ruleset, 3, small_rosters(registry, ruleset, 4))
    rs, mech = session.ruleset, session.mechanics
    # Castra closes with the enemy, the baseline goes anywhere: between them the battle
    # passes through moves, charges, shots and melees
    table = Table.of({0: Player(0, Temperament.BOLD, seed=5)}, baseline={1: Player(1, seed=6)})
    states: list[BattleState] = []

    def sample(choice: object, step: Step) -> None:
        # every few steps, and after a unit's own decision (an activation, a dice move):
        # the unit may then move, shoot and fight
        cmd = step.command
        own = isinstance(cmd, Act) and cmd.actor is not None and cmd.target is None
        if len(session.steps) % 6 == 0 or own:
            states.append(step.state)

    autoplay(session, table, max_steps=150, on_step=sample)
    checked = 0
    seen: set[str] = set()
    for state in states[:: max(1, len(states) // 20)]:  # about 20, spread over the battle
        if state.result is not None:
            continue
        turn = owner(state, session)
        for side in (0, 1) if turn is None else (turn,):
            for entry in advise(state, rs, mech, side=side):
                cmd = entry.command
                if isinstance(cmd, MoveUnit):
                    check = mech.check_move(state.view(), cmd.unit, Path(cmd.legs))
                    assert not check.breaches, (entry.title, check.breaches)
                dice = RecordingDice(SeededDice(f"check:{checked}"))
                try:
                    cmd.execute(state, Context(rs, mech, dice))
                except CommandError as exc:  # pragma: no cover - the failure's message
                    pytest.fail(f"{ruleset}: {entry.title} ({entry.unit}) refused: {exc}")
                checked += 1
                seen.add(entry.kind)
    assert checked >= 20, checked
    assert len(seen) >= 2, seen


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_two_castra_opponents_fight_to_the_result(
    registry: Registry, ruleset: str, seed: int
) -> None:
    rs = registry.get(ruleset)
    mech = mechanics_for(rs)
    rosters = small_rosters(registry, ruleset)
    state = new_battle(
        rs,
        mech,
        rosters,
        records=(Player(0, seed=seed).record(), Player(1, Temperament.BOLD, seed=seed).record()),
    )
    session = BattleSession(rs, mech, state, seed=seed)
    table = Table.from_battle(session.state)
    assert set(table.players) == {0, 1}
    report = autoplay(session, table, turns=40)
    assert report.refused == []
    assert report.stopped == "result", report
    result = session.state.result
    assert result is not None
    assert session.steps[0].command.kind == "start"  # Castra started it too
    if mech.umpire_default() is not None:
        assert "Castra's default" in result.reason
        assert session.steps[-1].command.kind == "end"
    else:
        assert result == mech.victory(session.state.view())
    # the battle replays from its log, step for step
    assert session.replay() == session.state


def test_the_same_seed_gives_the_same_battle(registry: Registry) -> None:
    def play(seed: int) -> list[dict[str, object]]:
        session = session_for(registry, "mwan90", seed=4)
        table = Table.of({0: Player(0, seed=seed), 1: Player(1, Temperament.CAUTIOUS, seed=seed)})
        autoplay(session, table, turns=2)
        return [s.command.to_dict() for s in session.steps]

    first = play(11)
    assert len(first) > 10
    assert play(11) == first


def test_castra_plays_its_side_and_leaves_the_other_to_the_player(registry: Registry) -> None:
    session = session_for(registry, "grown-slightly-bald", seed=2)
    table = Table.of({1: Player(1, Temperament.BOLD, seed=3)})
    for _ in range(6):
        report = autoplay(session, table)
        assert report.stopped == "person"
        state = session.state
        view = state.view()
        turn = session.mechanics.side_in_play(view)
        assert turn != 1  # Castra never stops in its own side's activations
        session.do(NextPhase())
    moved = {s.command.to_dict().get("unit") for s in session.steps if s.command.kind == "move"}
    assert moved and all(str(u).startswith("B") for u in moved)


def test_a_side_given_to_castra_is_kept_in_the_battle(registry: Registry) -> None:
    session = session_for(
        registry, "d3-ancients", seed=1, rosters=small_rosters(registry, "d3-ancients")
    )
    assert players_of(session.state) == {}
    rs = registry.get("d3-ancients")
    mech = mechanics_for(rs)
    player = Player(1, Temperament.CAUTIOUS, {"left": Temperament.BOLD}, seed=9)
    state = new_battle(
        rs, mech, small_rosters(registry, "d3-ancients"), records=({}, player.record())
    )
    assert player_of(state, 1) == player
    assert player_of(state, 0) is None
    assert player.words() == "Castra (cautious; left bold)"


def test_each_command_is_weighed_by_its_own_temperament(registry: Registry) -> None:
    # Quincunx's Carthaginian ready army has seven commands: one of them bold, then the same
    # one cautious; the rest of the side steady both times
    rs = registry.get("quincunx")
    mech = mechanics_for(rs)
    a, b = (ready_roster(rs, r.army) for r in ready_armies(rs))
    session = BattleSession(rs, mech, new_battle(rs, mech, (a, b)), seed=2)
    session.do(StartBattle())
    autoplay(session, Table.of({0: Player(0, seed=1)}))  # on to Carthage's turn
    state = session.state
    assert owner(state, session) == 1
    mine = [u for u in state.units if u.side == 1]

    def scores(wing: str | None, temper: Temperament, unit: str) -> list[tuple[str, float]]:
        castra = Castra(Player(1, Temperament.STEADY, {wing or "": temper}, seed=3))
        found = castra.advisor(state, rs, mech, state.unit(unit)).unit(unit)
        return [(e.title, round(e.score, 9)) for e in found]

    advised = [u for u in mine if scores(None, Temperament.STEADY, u.id)]
    wing = next(u.command for u in advised if u.command is not None)
    theirs = next(u.id for u in advised if u.command == wing)
    other = next(u.id for u in advised if u.command != wing)
    # the wing's unit weighs the same choices differently; a unit of another command not
    bold, cautious = Temperament.BOLD, Temperament.CAUTIOUS
    assert scores(wing, bold, theirs) != scores(wing, cautious, theirs)
    assert scores(wing, bold, other) == scores(wing, cautious, other)


@pytest.mark.parametrize("ruleset", ["d3-ancients", "quincunx"])
def test_after_an_undo_castra_works_its_phase_out_afresh(registry: Registry, ruleset: str) -> None:
    session = session_for(registry, ruleset, seed=2)
    table = Table.of({1: Player(1, Temperament.BOLD, seed=3)})
    moved: list[MoveUnit] = []
    for _ in range(400):  # Castra plays (the player passes) until it has moved in a phase
        choice = table.next(session)
        if choice is None or isinstance(choice.command, NextPhase):
            if moved:  # its phase is done, with moves in it: stop there
                break
            session.do(NextPhase())
            continue
        session.do(choice.command)
        if isinstance(choice.command, MoveUnit):
            moved.append(choice.command)
    assert moved
    # the player takes back Castra's steps to its last move: Castra gives that move again
    while session.steps[session.cursor - 1].command != moved[-1]:
        session.undo()
    session.undo()
    again = table.next(session)
    assert again is not None and again.command == moved[-1]


def test_what_a_unit_has_left_after_a_move_is_no_move(registry: Registry) -> None:
    # a move found by halving leaves a unit a few thousandths of an inch: the advisor (and
    # so Castra) offers no move of that length ("costs 0.0 of 0.0 left")
    rs = registry.get("d3-ancients")
    mech = mechanics_for(rs)
    a, b = (ready_roster(rs, r.army) for r in ready_armies(rs))
    session = BattleSession(rs, mech, new_battle(rs, mech, (a, b)), seed=1)
    session.do(StartBattle())
    session.do(NextPhase())  # Rome's movement
    state = session.state
    unit = next(u for u in state.units if advise(state, rs, mech, unit=u.id))
    full = mech.move_allowance_for(state.view(), state.view().unit(unit.id), "move")
    assert full is not None
    assert any(e.kind == "move" for e in advise(state, rs, mech, unit=unit.id))
    for left in (0.008, 0.05):
        tired = state.replace_unit(replace(unit, moved=full - left))
        found = [e for e in advise(tired, rs, mech, unit=unit.id) if e.kind == "move"]
        assert found == [], [e.title for e in found]
