"""``castra battle advise`` and ``castra battle autoplay`` (issue 30): the advisor's list on
the command line, each entry a command the battle then accepts; Castra playing a side of a
stored battle, each step saved as it is taken, until it is the other side's turn, the battle
ends or the turns asked for have passed; bad input refused in one line, nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.battle.commands import command_from_dict
from app.core.battle.session import BattleSession
from app.paths import load_registry
from app.store import open_store
from app.store.battles import load_battle
from tests.cli.test_battle_cli import Cli
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def stored(db: Path, battle: int) -> BattleSession:
    store = open_store(db)
    try:
        return load_battle(store, battle_id=battle, registry=load_registry())
    finally:
        store.close()


def test_autoplay_plays_a_side_and_saves_each_step(cli: Cli, store_file: Path) -> None:
    cli.ok("battle", "new", "mwan90:roman", "mwan90:carthaginian", "--seed", "5")
    for _ in range(10):  # Castra plays Carthage; the player (Rome) passes each time
        out = cli.ok("battle", "autoplay", "1", "--side", "Carthage")
        assert "Castra stops after" in out
        again = cli.json("battle", "autoplay", "1", "--side", "b")  # nothing more to do
        assert again["stopped"] == "person" and again["steps"] == 0
        session = stored(store_file, 1)
        view = session.state.view()
        if session.mechanics.side_to_move(view) == 0 and session.mechanics.side_decisions(view, 0):
            cli.ok("battle", "act", "1", "end_move", "--side", "a")
        else:
            cli.ok("battle", "next", "1")
    session = stored(store_file, 1)
    assert session.state.turn >= 2
    units = {
        getattr(s.command, "unit", None) or getattr(s.command, "actor", None) for s in session.steps
    }
    assert any(isinstance(u, str) and u.startswith("B") for u in units)  # Castra's moves
    assert not any(isinstance(u, str) and u.startswith("A") for u in units)


def test_autoplay_both_sides_for_some_turns(cli: Cli, store_file: Path) -> None:
    cli.ok("battle", "new", "mwan90:roman", "mwan90:carthaginian", "--seed", "2")
    found = cli.json(
        "battle", "autoplay", "1", "--side", "both", "--temperament", "bold", "--seed", "3",
        "--turns", "2",
    )  # fmt: skip
    assert found["stopped"] == "turns" and found["refused"] == [] and found["turn"] == 3
    session = stored(store_file, 1)
    assert session.state.turn == 3 and len(session.steps) == found["steps"] + 1
    assert session.replay() == session.state


def test_advise_lists_what_the_battle_accepts(cli: Cli, store_file: Path) -> None:
    cli.ok("battle", "new", "d3-ancients:roman", "d3-ancients:carthaginian", "--seed", "4")
    entries: list[dict[str, object]] = []
    for _ in range(10):  # on to a phase in which the side whose turn it is may act
        cli.ok("battle", "next", "1")
        side = stored(store_file, 1).state.initiative or 0
        entries = cli.json("battle", "advise", "1", "--side", "ab"[side], "--limit", "50")
        if entries:
            break
    assert entries and all(str(e["unit"]).startswith("AB"[side]) for e in entries)
    scores = [e["score"] for e in entries]
    assert scores == sorted(scores, reverse=True)
    best = command_from_dict(entries[0]["command"])  # type: ignore[arg-type]
    session = stored(store_file, 1)
    session.do(best)  # the battle accepts it, as a player's command
    text = cli.ok("battle", "advise", "1", str(entries[0]["unit"]))
    assert "score" in text


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--side", "Numidia"), "no side 'Numidia'"),
        (("--side", "b", "--turns", "0"), "--turns 0 is out of range"),
        (("--side", "b", "--turns", "nan"), "--turns must be a whole number"),
        (("--side", "b", "--turns", "-3"), "--turns -3 is out of range"),
        (("--side", "b", "--turns", "1" + "0" * 60), "is too large"),
        (("--side", "b", "--turns", "1e9"), "--turns must be a whole number"),
        (("--side", "b", "--seed", "-1"), "--seed -1 is out of range"),
        (("--side", "b\x07"), "control"),
    ],
)
def test_autoplay_refuses_bad_input_in_one_line(
    cli: Cli, store_file: Path, args: tuple[str, ...], says: str
) -> None:
    cli.ok(
        "battle", "new", "grown-slightly-bald:rome", "grown-slightly-bald:carthage", "--seed", "1"
    )
    before = stored(store_file, 1).cursor
    err = cli.fails("battle", "autoplay", "1", *args)
    assert says in err and err.count("\n") == 1
    assert stored(store_file, 1).cursor == before


def test_a_missing_battle_is_refused(cli: Cli, store_file: Path) -> None:
    assert "no battle with id 9" in cli.fails("battle", "autoplay", "9", "--side", "a")
    assert "no battle with id 9" in cli.fails("battle", "advise", "9", "--side", "a")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--side", "Numidia"), "no side 'Numidia'"),
        (("--side", "a\x1b"), "control"),
        (("Z99",), "no unit 'Z99'"),
        (("A1\x00",), "control"),
        (("--limit", "0"), "--limit 0 is out of range"),
        (("--limit", "inf"), "--limit must be a whole number"),
    ],
)
def test_advise_refuses_bad_input_in_one_line(
    cli: Cli, store_file: Path, args: tuple[str, ...], says: str
) -> None:
    cli.ok("battle", "new", "d3-ancients:roman", "d3-ancients:carthaginian", "--seed", "1")
    before = stored(store_file, 1).cursor
    err = cli.fails("battle", "advise", "1", *args)
    assert says in err and err.count("\n") == 1
    assert stored(store_file, 1).cursor == before
