"""A scripted headless battle per ruleset runs to a result through the command line.

Each battle is driven only through ``castra ...`` (``app.cli.main`` in-process, and the
``castra`` console script in a real process for one ruleset): two small roster files, ``battle
new`` with a seed, moves into contact computed from ``battle show --json`` (positions and
footprints), shooting, melee, ``battle next`` through phases and turns, exact odds, undo and
redo with the recorded rolls, the log in words, replay, and a result: the ruleset's own victory
rule for GSB and D3, a declared result after real losses for Quincunx, Leg VI and MWAN #90.
Also ``castra odds`` for every ruleset, and the exit codes (1 invalid input, 2 usage).
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from app.cli import main

# --------------------------------------------------------------------------- rosters


def _roster(
    name: str,
    ruleset: str,
    army: str,
    side: str,
    units: list[dict[str, Any]],
    leaders: list[dict[str, Any]] | None = None,
    commands: list[dict[str, Any]] | None = None,
    scale: str | None = None,
) -> dict[str, Any]:
    return {
        "format": "castra-roster",
        "version": 1,
        "name": name,
        "ruleset": ruleset,
        "army": army,
        "scale": scale,
        "side": side,
        "units": units,
        "leaders": leaders or [],
        "commands": commands or [],
    }


ROSTERS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "quincunx": (
        _roster(
            "Scipio's maniples",
            "quincunx",
            "roman",
            "Rome",
            [
                {"id": "u1", "entry": "hastati", "leader": "scipio"},
                {"id": "u2", "entry": "velites"},
            ],
            [{"id": "scipio", "name": "Scipio", "rank": "general", "bonus": 2}],
            scale="1:10",
        ),
        _roster(
            "Gauls and slingers",
            "quincunx",
            "carthaginian",
            "Carthage",
            [
                {"id": "u1", "entry": "celtic_swordsmen"},
                {"id": "u2", "entry": "balearic_slingers"},
            ],
            scale="1:10",
        ),
    ),
    "leg-vi-carthago": (
        _roster(
            "Legio II",
            "leg-vi-carthago",
            "roman",
            "Rome",
            [
                {
                    "id": "u1",
                    "entry": "roman_legion",
                    "grade": "B",
                    "command": "c1",
                    "leader": "varro",
                },
                {"id": "u2", "entry": "velites", "size": 4, "grade": "B", "command": "c1"},
            ],
            [{"id": "varro", "name": "Varro", "rank": "general"}],
            [{"id": "c1", "name": "Consular army", "leader": "varro", "kind": None}],
        ),
        _roster(
            "Punic centre",
            "leg-vi-carthago",
            "carthaginian",
            "Carthage",
            [
                {"id": "u1", "entry": "gauls", "size": 6, "grade": "C", "command": "c1"},
                {
                    "id": "u2",
                    "entry": "balearic_slingers",
                    "size": 4,
                    "grade": "C",
                    "command": "c1",
                },
            ],
            [{"id": "hannibal", "name": "Hannibal", "rank": "general", "exceptional": True}],
            [{"id": "c1", "name": "Centre", "leader": "hannibal", "kind": None}],
        ),
    ),
    "grown-slightly-bald": (
        _roster(
            "Rome GSB",
            "grown-slightly-bald",
            "rome",
            "Rome",
            [
                {"id": "u1", "entry": "heavy_infantry", "leader": "scipio"},
                {"id": "u2", "entry": "heavy_infantry"},
                {"id": "u3", "entry": "light_infantry"},
            ],
            [{"id": "scipio", "name": "Scipio", "rank": "general"}],
        ),
        _roster(
            "Carthage GSB",
            "grown-slightly-bald",
            "carthage",
            "Carthage",
            [
                {"id": "u1", "entry": "medium_infantry", "leader": "hannibal"},
                {"id": "u2", "entry": "elephants"},
                {"id": "u3", "entry": "light_infantry"},
            ],
            [{"id": "hannibal", "name": "Hannibal", "rank": "general"}],
        ),
    ),
    "mwan90": (
        _roster(
            "Rome MWAN",
            "mwan90",
            "roman",
            "Rome",
            [
                {"id": "u1", "entry": "hastati", "size": 12},
                {"id": "u2", "entry": "velites", "size": 8},
            ],
            scale="1:10",
        ),
        _roster(
            "Carthage MWAN",
            "mwan90",
            "carthaginian",
            "Carthage",
            [
                {"id": "u1", "entry": "gauls", "size": 12},
                {"id": "u2", "entry": "balearic_slingers", "size": 8},
            ],
            scale="1:10",
        ),
    ),
    "d3-ancients": (
        _roster(
            "D3 Rome",
            "d3-ancients",
            "roman",
            "Rome",
            [
                {"id": "u1", "entry": "legionaries", "leader": "scipio"},
                {"id": "u2", "entry": "legionaries"},
                {"id": "u3", "entry": "triarii"},
                {"id": "u4", "entry": "velites"},
                {"id": "u5", "entry": "equites"},
                {"id": "u6", "entry": "allied_cavalry"},
            ],
            [{"id": "scipio", "name": "Scipio", "rank": "general", "quality": "good"}],
        ),
        _roster(
            "D3 Carthage",
            "d3-ancients",
            "carthaginian",
            "Carthage",
            [
                {"id": "u1", "entry": "skirmishers", "count": 2},
                {"id": "u2", "entry": "numidians", "count": 2},
                {"id": "u3", "entry": "numidian_veterans"},
                {"id": "u4", "entry": "heavy_cavalry", "leader": "hannibal"},
            ],
            [{"id": "hannibal", "name": "Hannibal", "rank": "general", "quality": "poor"}],
        ),
    ),
}


# --------------------------------------------------------------------------- driving the CLI


@pytest.fixture(autouse=True)
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "castra.sqlite3"
    monkeypatch.setenv("CASTRA_DB", str(db))
    monkeypatch.setenv("CASTRA_HOME", str(tmp_path / "home"))
    return db


class Cli:
    """``castra ...`` in-process: exit code, stdout and stderr of each call."""

    def __init__(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        self.capsys = capsys
        self.tmp_path = tmp_path

    def run(self, *args: object) -> tuple[int, str, str]:
        self.capsys.readouterr()
        code = main([str(a) for a in args])
        out, err = self.capsys.readouterr()
        return code, out, err

    def ok(self, *args: object) -> str:
        code, out, err = self.run(*args)
        assert code == 0, f"castra {' '.join(map(str, args))}: exit {code}: {err}"
        return out

    def json(self, *args: object) -> Any:
        return json.loads(self.ok(*args, "--json"))

    def fails(self, *args: object, code: int = 1) -> str:
        got, out, err = self.run(*args)
        assert got == code, f"castra {' '.join(map(str, args))}: exit {got}, not {code}: {out}"
        assert err.startswith("castra: "), err
        return err

    def usage_error(self, *args: object) -> str:
        """argparse refuses the command line: exit status 2 and a usage message."""
        self.capsys.readouterr()
        with pytest.raises(SystemExit) as exc:
            main([str(a) for a in args])
        err = self.capsys.readouterr().err
        assert exc.value.code == 2, err
        assert "usage: castra" in err
        return err

    def rosters(self, ruleset: str) -> tuple[Path | str, Path | str]:
        """Two small roster files of ``ruleset`` (:data:`ROSTERS`); for a ruleset without
        them here, its two ready armies (``RULESET:ARMY``, as ``battle new`` takes them)."""
        if ruleset not in ROSTERS:
            from app.core.ready import ready_armies
            from app.paths import load_registry

            first, second = ready_armies(load_registry({ruleset}).get(ruleset))[:2]
            return first.key, second.key
        paths: list[Path | str] = []
        for i, data in enumerate(ROSTERS[ruleset]):
            path = self.tmp_path / f"{ruleset}-{'ab'[i]}.json"
            path.write_text(json.dumps(data), encoding="utf-8")
            paths.append(path)
        return paths[0], paths[1]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


class Battle:
    """One battle in the store, played through ``castra battle ...``."""

    def __init__(self, cli: Cli, bid: int) -> None:
        self.cli = cli
        self.id = bid

    @classmethod
    def new(cls, cli: Cli, roster_a: object, roster_b: object, seed: int) -> Battle:
        made = cli.json("battle", "new", roster_a, roster_b, "--seed", seed)
        assert made["seed"] == seed and made["log"][0].startswith("The battle begins")
        return cls(cli, int(made["id"]))

    def __call__(self, action: str, *args: object) -> str:
        return self.cli.ok("battle", action, self.id, *args)

    def refused(self, action: str, *args: object) -> str:
        return self.cli.fails("battle", action, self.id, *args)

    def state(self) -> dict[str, Any]:
        data: dict[str, Any] = self.cli.json("battle", "show", self.id)
        return data

    def unit(self, unit_id: str, state: dict[str, Any] | None = None) -> dict[str, Any]:
        state = state or self.state()
        return next(u for u in state["units"] if u["id"] == unit_id)

    def steps(self) -> int:
        return len(self.cli.json("battle", "log", self.id))

    def next_to(self, phase: str, limit: int = 40) -> str:
        """``battle next`` until the named phase begins (at least once), or the battle ends
        (a victory line; no new phase)."""
        out = ""
        for _ in range(limit):
            said = self("next")
            out += said
            if f": {phase}.\n" in said:
                return out
            if re.search(r"^(.+ wins|A draw): ", said, re.M):
                assert self.state()["result"] is not None, said
                return out
        raise AssertionError(f"never reached {phase!r}")

    def move_to_contact(self, mover: str, target: str, gap: float = 0.0) -> str:
        """Put ``mover`` straight in front of ``target``, front edges touching (or ``gap``
        apart), facing it: the centre from both footprints in ``battle show --json``. A
        placement by hand (``--force``: the coordinate form is checked like any move)."""
        state = self.state()
        x, y = contact_point(self.unit(mover, state), self.unit(target, state), gap)
        return self("move", mover, repr(x), repr(y), "--force")

    def undo_redo(self, action: str, *args: object) -> str:
        """Do a command that rolls dice; undo restores the state exactly; redo prints the
        same lines and the same rolls and lands on the same state."""
        before = self.state()
        out = self(action, *args)
        assert "  roll " in out, out
        after = self.state()
        assert self("undo").startswith("undid: ")
        assert self.state() == before
        redo = self("redo")
        head, _, rest = redo.partition("\n")
        assert head.startswith("redid: ") and head.endswith("(same rolls)")
        assert rest == out
        assert self.state() == after
        return out

    def snapshot(self) -> tuple[int, dict[str, Any]]:
        """The step count and the state now, to compare with a later ``replay --step``."""
        return self.steps(), self.state()

    def check_replay(self, snap: tuple[int, dict[str, Any]]) -> None:
        step, state = snap
        assert self.steps() > step
        assert self.cli.json("battle", "replay", self.id, "--step", step) == state
        text = self("replay", "--step", step)
        assert text.startswith(f"after step {step} of ")


def lead_to(battle: Battle, side: int) -> None:
    """Let ``side`` act in this phase: when the other side leads it (it has the
    initiative's first actions) and is not done, it says it is done (Leg VI, Playing the
    Game)."""
    state = battle.state()
    first = state["initiative"]
    if first is None:
        return
    record = state["sides"][first]["record"]
    if record.get("moves_second") == state["turn"]:
        first = 1 - first
    done = state["sides"][first]["record"].get("lead_done") == f"{state['turn']}.{state['phase']}"
    if first != side and not done:
        battle("act", "done", "--side", "ab"[first])


def contact_point(
    mover: dict[str, Any], target: dict[str, Any], gap: float = 0.0
) -> tuple[float, float]:
    """The centre that puts ``mover``'s front against ``target``'s front edge: the two
    sides deploy facing each other along the y axis (facing 0 is +y)."""
    ahead = math.cos(math.radians(target["facing"]))
    sign = 1.0 if ahead > 0 else -1.0
    reach = target["depth"] / 2 + mover["depth"] / 2 + gap
    return target["x"], target["y"] + sign * reach


def odds_total(outcomes: list[dict[str, Any]]) -> Fraction:
    return sum((Fraction(o["fraction"]) for o in outcomes), Fraction(0))


def expected(outcomes: list[dict[str, Any]], who: str, key: str) -> Fraction:
    return sum(
        (Fraction(o["fraction"]) * o[who].get(key, 0) for o in outcomes),
        Fraction(0),
    )


def losses(state: dict[str, Any], side: int) -> int:
    """Figures or bases lost by a side, and hits and DPs taken, as the units record them."""
    return sum(
        u["status"]["start_strength"]
        - u["status"]["strength"]
        + u["status"]["hits"]
        + u["status"]["dps"]
        for u in state["units"]
        if u["side"] == side
    )


def live_units(state: dict[str, Any], side: int) -> Iterator[dict[str, Any]]:
    return (u for u in state["units"] if u["side"] == side and not u["status"]["eliminated"])


def overlaps(a: dict[str, Any], ax: float, ay: float, b: dict[str, Any]) -> bool:
    """Would ``a`` centred at (ax, ay) overlap ``b``? (Everyone faces along y here, so the
    footprints are axis-aligned boxes.)"""
    return bool(
        abs(ax - b["x"]) < (a["width"] + b["width"]) / 2 - 1e-6
        and abs(ay - b["y"]) < (a["depth"] + b["depth"]) / 2 - 1e-6
    )


def touching(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return bool(
        abs(a["x"] - b["x"]) <= (a["width"] + b["width"]) / 2 + 1e-6
        and abs(a["y"] - b["y"]) <= (a["depth"] + b["depth"]) / 2 + 1e-6
    )


def advance(
    battle: Battle,
    state: dict[str, Any],
    mover: str,
    target: str,
    allowance: float,
    gap: float = 0.0,
) -> bool:
    """Move ``mover`` towards the point in contact with ``target``'s front (or ``gap`` short
    of it), at most its ``allowance``; True once there. The move is checked as any move is;
    where the rules refuse it (a turn towards the point costs what its ruleset charges, or it
    is the other side's move), the unit is placed by hand (``--force``, which the log says):
    these battles are about losses and results. The log gives the distance against the
    allowance and never says it was exceeded. ``state`` is kept up to date."""
    me, it = battle.unit(mover, state), battle.unit(target, state)
    x, y = contact_point(me, it, gap)
    dist = math.hypot(x - me["x"], y - me["y"])
    if dist > allowance:
        k = allowance / dist
        x, y = me["x"] + (x - me["x"]) * k, me["y"] + (y - me["y"]) * k
    code, out, err = battle.cli.run("battle", "move", battle.id, mover, repr(x), repr(y))
    if code != 0:
        assert "force it to" in err, err  # a rule to override, or the umpire's call
        out = battle("move", mover, repr(x), repr(y), "--force")
    assert f"{me['name']} ({mover}) moves" in out and "BEYOND" not in out, out
    assert " of its " not in out or f" of its {allowance:g}" in out, out
    me["x"], me["y"] = x, y
    me["status"]["markers"] = sorted({*me["status"]["markers"], "moved"})
    return dist <= allowance


def edge_gap(a: dict[str, Any], b: dict[str, Any]) -> float:
    """Distance between the facing edges of two units roughly in front of each other."""
    if abs(a["x"] - b["x"]) > (a["width"] + b["width"]) / 2:
        return math.inf
    return float(abs(a["y"] - b["y"]) - (a["depth"] + b["depth"]) / 2)


def free_front(state: dict[str, Any], mover: dict[str, Any], target: dict[str, Any]) -> bool:
    """Nobody but ``mover`` stands where ``mover`` would touch ``target``'s front."""
    x, y = contact_point(mover, target)
    return not any(
        overlaps(mover, x, y, u)
        for u in state["units"]
        if u["id"] != mover["id"] and not u["status"]["eliminated"]
    )


def check_forced_move(
    pre: dict[str, Any],
    post: dict[str, Any],
    unit_id: str,
    inches: float,
    away_from: str | None = None,
) -> None:
    """The core made the move the log orders: ``inches`` directly away from ``away_from``
    (from its centre through the unit's), or straight back to the unit's rear; the unit
    keeps its facing, its centre stays on the table, and its attached leader goes with it."""
    was = next(u for u in pre["units"] if u["id"] == unit_id)
    now = next(u for u in post["units"] if u["id"] == unit_id)
    if away_from is None:
        rad = math.radians(was["facing"] + 180)
        dx, dy = math.sin(rad), math.cos(rad)
    else:
        foe = next(u for u in pre["units"] if u["id"] == away_from)
        dx, dy = was["x"] - foe["x"], was["y"] - foe["y"]
        norm = math.hypot(dx, dy)
        dx, dy = dx / norm, dy / norm
    x = min(max(was["x"] + dx * inches, 0.0), pre["width"])
    y = min(max(was["y"] + dy * inches, 0.0), pre["height"])
    assert now["facing"] == was["facing"]
    assert math.isclose(now["x"], x, abs_tol=1e-6) and math.isclose(now["y"], y, abs_tol=1e-6)
    for leader in post["leaders"]:
        if leader["attached_to"] == unit_id:
            assert (leader["x"], leader["y"]) == (now["x"], now["y"])


def sync_positions(state: dict[str, Any], post: dict[str, Any]) -> None:
    """Bring the script's ``state`` up to date with the moves the core made."""
    for u in state["units"]:
        now = next(v for v in post["units"] if v["id"] == u["id"])
        u["x"], u["y"], u["facing"] = now["x"], now["y"], now["facing"]


RECOIL = re.compile(r"\(([AB]\d+)\) [^\n]*recoils \d+ MF \((\d+(?:\.\d+)?)\"\)([^\n]*)")


def check_story(
    battle: Battle, snap: tuple[int, dict[str, Any]], names: list[str], words: list[str]
) -> str:
    """The log in words: every step numbered with its turn, the units by name and id, the
    dice with what they were for, and what happened; replay rebuilds an earlier state."""
    log = battle("log")
    assert log.startswith("[1] turn 1: The battle begins")
    for name in names:
        assert name in log, name
    for word in words:
        assert word in log, word
    assert re.search(r"^      roll .+: \d*d\d+z? -> \d+", log, re.M), log[:2000]
    steps = battle.cli.json("battle", "log", battle.id)
    assert [s["step"] for s in steps] == list(range(1, len(steps) + 1))
    assert any(r["purpose"] and r["faces"] for s in steps for r in s["rolls"])
    quiet = battle("log", "--no-rolls")
    assert "      roll " not in quiet and quiet.count("\n") < log.count("\n")
    battle.check_replay(snap)
    return log


def check_result(battle: Battle, winner: int | None, reason: str) -> None:
    """The battle is over: ``show`` says so, nothing more can be done, the store lists it."""
    state = battle.state()
    assert state["result"] is not None and state["result"]["winner"] == winner
    assert reason in state["result"]["reason"]
    shown = battle("show")
    who = "draw" if winner is None else state["sides"][winner]["name"]
    assert f"RESULT: {who}" in shown
    assert "the battle is over" in battle.refused("next")
    assert "the battle is over" in battle.refused("move", "A1", "1", "1")
    listed = {b["id"]: b for b in battle.cli.json("battle", "list")}
    assert listed[battle.id]["winner"] == winner and reason in listed[battle.id]["result"]


def declare(battle: Battle) -> int:
    """Quincunx, Leg VI and MWAN #90 have no victory rule: the players declare the side that
    kept the larger share of its strength the winner."""
    state = battle.state()
    left = [
        Fraction(
            sum(u["status"]["strength"] for u in state["units"] if u["side"] == s),
            sum(u["status"]["start_strength"] for u in state["units"] if u["side"] == s),
        )
        for s in (0, 1)
    ]
    winner = 0 if left[0] >= left[1] else 1
    out = battle("end", "--winner", "ab"[winner], "--reason", "the enemy gives way")
    assert out.startswith(f"The battle ends: {state['sides'][winner]['name']} wins")
    check_result(battle, winner, "the enemy gives way")
    return winner


def no_adjustments(battle: Battle) -> None:
    """Every loss came from the mechanics: no step corrected a unit by hand."""
    assert all(
        s["label"] != "Adjust" and not s["label"].startswith("Adjust ")
        for s in battle.cli.json("battle", "log", battle.id)
    )


# --------------------------------------------------------------------------- Quincunx

#: Quincunx, Movement matrix (1 MF = 3"): battleline 2 MF, formed light infantry 3 MF,
#: skirmishers 4 MF.
Q_MOVE = {
    "roman_hastati": 6.0,
    "celtic_swordsmen": 6.0,
    "roman_velites": 9.0,
    "balearic_slingers": 12.0,
}


def test_quincunx_battle_fought_to_losses_then_declared(cli: Cli) -> None:
    """Quincunx: initiative each turn (two rounds, move and counter-move), moves within the
    movement matrix into contact, slings and javelins, the pila volley, melee by rings with
    recoils, rest, until a unit is badly hurt; then the players declare the result."""
    a, b = cli.rosters("quincunx")
    battle = Battle.new(cli, a, b, seed=11)
    shown = battle("show")
    assert "Quincunx, turn 1, Initiative" in shown and "Scipio" in shown
    first = battle.state()
    assert {u["id"]: u["troop"] for u in first["units"]} == {
        "A1": "roman_hastati",
        "A2": "roman_velites",
        "B1": "celtic_swordsmen",
        "B2": "balearic_slingers",
    }
    # the skirmishers' duel: who shoots at whom, and how close each comes to do it
    missile = {"B2": ("A2", 8.0), "A2": ("B2", 6.0)}
    snap = None
    melees = shots = recoils = 0
    contact = False
    for _ in range(16):  # rounds: two to a turn
        battle.next_to("Movement")
        state = battle.state()
        mover = 0 if state["sides"][0]["record"]["moving"] else 1
        moved_in = False
        for u in live_units(state, mover):
            if "straggler" in u["status"]["markers"]:
                continue
            if u["id"] in ("A1", "B1"):
                foe = battle.unit("B1" if u["id"] == "A1" else "A1", state)
                if not touching(u, foe):
                    moved_in = advance(battle, state, u["id"], foe["id"], Q_MOVE[u["troop"]])
            else:
                target, gap = missile[u["id"]]
                if edge_gap(u, battle.unit(target, state)) > gap + 2:
                    advance(battle, state, u["id"], target, Q_MOVE[u["troop"]], gap=gap)
        battle.next_to("Missilery")
        for shooter, (target, gap) in missile.items():
            if edge_gap(battle.unit(shooter, state), battle.unit(target, state)) > gap + 2:
                continue
            if shots == 0:
                odds = cli.json("battle", "odds", battle.id, "shoot", shooter, target)
                assert odds_total(odds["outcomes"]) == 1
                out = battle.undo_redo("shoot", shooter, target)
            else:
                out = battle("shoot", shooter, target)
            assert "Shoot: " in out and "Dice " in out
            shots += 1
        attacker, defender = ("A1", "B1") if mover == 0 else ("B1", "A1")
        battle.next_to("Pre-melee volley")
        if moved_in:
            out = battle("act", "pre_melee", attacker, defender)
            assert "Pre-melee volley" in out
            contact = True
        battle.next_to("Melee")
        if touching(battle.unit("A1", state), battle.unit("B1", state)):
            pre = battle.state()
            if melees == 0:
                odds = cli.json("battle", "odds", battle.id, "melee", attacker, defender)
                assert odds_total(odds["outcomes"]) == 1
                assert any("recoils" in str(o) for o in odds["outcomes"])
                snap = battle.snapshot()
                out = battle.undo_redo("melee", attacker, defender)
            else:
                out = battle("melee", attacker, defender)
            melees += 1
            assert "Melee: " in out and " casts d" in out
            assert out.count("Result: ") == 1  # said once, not again by the core
            # the loser recoils 12" directly away from the victor: the core moves it
            post = battle.state()
            for unit_id, inches, rest in RECOIL.findall(out):
                foe = "B1" if unit_id == "A1" else "A1"
                if "stragglers" not in rest:  # stragglers retire further still
                    check_forced_move(pre, post, unit_id, float(inches), away_from=foe)
                    recoils += 1
            sync_positions(state, post)
        now = battle.state()
        hurt = [
            u for u in now["units"] if u["status"]["strength"] * 2 <= u["status"]["start_strength"]
        ]
        if hurt or any(u["status"]["eliminated"] for u in now["units"]):
            break
    assert contact and melees >= 2 and shots >= 1 and recoils >= 1 and snap is not None
    # the next turn's initiative: a side that forced a recoil casts a d12
    out = battle.next_to("Initiative")
    state = battle.state()
    assert state["turn"] >= 2
    assert losses(state, 0) + losses(state, 1) > 0
    no_adjustments(battle)
    log = check_story(
        battle,
        snap,
        ["Hastati (A1)", "Celtic Swordsmen (B1)", "Balearic Slingers", "Scipio"],
        ["Initiative: Rome casts d1", "Risk to Scipio", "pre-melee volley", "casualt"],
    )
    if "will cast a d12 for the next initiative" in log:
        assert "casts d12 = " in log
    declare(battle)


# --------------------------------------------------------------------------- Leg VI Carthago

#: Leg VI, Movement: a march move of 8" for these foot.
L_MOVE = {"mi": 8.0, "li": 8.0}
FALL_BACK = re.compile(r"\(([AB]\d+)\) [^\n]*Fall back (\d+(?:\.\d+)?)\"([^\n]*)")
FOLLOW_UP = re.compile(r"\(([AB]\d+)\) [^\n]*Follow up")


def test_leg_vi_battle_fought_to_losses_then_declared(cli: Cli) -> None:
    """Leg VI: initiative, slingers shoot in the skirmish phase, the Gauls march, charge and
    fight the legion round after round (dice per engaged base, factors, result bands with DPs
    and after-combat moves, the die of death for the general), until a unit gives way."""
    a, b = cli.rosters("leg-vi-carthago")
    battle = Battle.new(cli, a, b, seed=3)
    shown = battle("show")
    assert "Leg VI, turn 1, Command" in shown and "Varro" in shown and "Hannibal" in shown
    state = battle.state()
    legion = battle.unit("A1", state)
    assert legion["status"]["formation"] == "quincunx" and legion["status"]["extra"]["lines"] == 3
    snap = None
    shots = rounds = falls = tests = 0
    # Hannibal rides with the Gauls (Varro is with the legion): they stay under control
    battle("attach", "Hannibal", "Gauls")
    for _ in range(8):  # turns
        battle.next_to("Skirmish")
        # units found out of control as the command phase ended test before they act; a
        # halt keeps them where they are all turn (Leg VI, Control)
        halted = set()
        for u in battle.state()["units"]:
            if "out_of_control" in u["status"]["markers"]:
                out = battle("act", "control_test", u["id"])
                tests += 1
                if "Halt for the rest of the turn" in out:
                    halted.add(u["id"])
        state = battle.state()
        slingers, velites = battle.unit("B2", state), battle.unit("A2", state)
        if (
            not slingers["status"]["eliminated"]
            and edge_gap(slingers, velites) > 3.5
            and "B2" not in halted
        ):
            lead_to(battle, 1)
            advance(battle, state, "B2", "A2", L_MOVE["li"], gap=3.0)
        if edge_gap(slingers, velites) <= 4 and not {"A2", "B2"} & halted:
            # the side leading the phase shoots first (Leg VI, Playing the Game)
            pairs = [("B2", "A2"), ("A2", "B2")]
            if battle.state()["initiative"] == 0:
                pairs.reverse()
            for shooter, target in pairs:
                lead_to(battle, 0 if shooter.startswith("A") else 1)
                if shots == 0:
                    odds = cli.json("battle", "odds", battle.id, "shoot", shooter, target)
                    assert odds_total(odds["outcomes"]) == 1
                out = battle("shoot", shooter, target)
                assert "Shoot: " in out and "bases in range" in out
                shots += 1
        gauls, legion = battle.unit("B1", state), battle.unit("A1", state)
        battle.next_to("Manoeuvre")
        if not touching(gauls, legion) and edge_gap(gauls, legion) > L_MOVE["mi"]:
            advance(battle, state, "B1", "A1", L_MOVE["mi"], gap=4.0)
        battle.next_to("Charge")
        if not touching(gauls, legion):
            if edge_gap(gauls, legion) > L_MOVE["mi"]:
                battle.next_to("Command")
                continue
            lead_to(battle, 1)
            out = battle("act", "charge", "B1", "A1")
            assert "Charge: Gauls (B1) against Roman legion (A1)" in out and "contact" in out
            assert advance(battle, state, "B1", "A1", L_MOVE["mi"])
            rounds = 0
        battle.next_to("Combat resolution")
        pre = battle.state()
        rounds += 1
        options = [] if rounds == 1 else ["--set", "charge=none", "--set", f"round={rounds}"]
        if snap is None:
            odds = cli.json("battle", "odds", battle.id, "melee", "B1", "A1")
            assert odds_total(odds["outcomes"]) == 1
            results = {o["result"].split(";")[0] for o in odds["outcomes"]}
            assert {"Set-back / Success", "Success / Set-back"} <= results
            snap = battle.snapshot()
            out = battle.undo_redo("melee", "B1", "A1", *options)
        else:
            out = battle("melee", "B1", "A1", *options)
        assert "Combat: Gauls (B1) against Roman legion (A1)" in out
        assert "hits on 5-6" in out and "die of death for Varro" in out
        battle.next_to("After-combat moves")
        post = battle.state()
        for unit_id, inches, rest in FALL_BACK.findall(out):
            foe = "A1" if unit_id == "B1" else "B1"
            if "may relieve ranks" in rest:
                # the legion could relieve ranks instead: falling back is the player's move
                check_forced_move(pre, post, unit_id, 0.0)
                before = battle.state()
                made = battle("act", "after_combat_move", unit_id, "--set", "move=fall_back")
                assert f'Fall back {inches}"' in made and "made with the combat" not in made
                check_forced_move(before, battle.state(), unit_id, float(inches))
            else:
                # a compulsory fall back: the combat made it, 1" directly away from the enemy
                check_forced_move(pre, post, unit_id, float(inches), away_from=foe)
            falls += 1
        sync_positions(state, battle.state())
        for unit_id in FOLLOW_UP.findall(out):
            foe = "A1" if unit_id == "B1" else "B1"
            advance(battle, state, unit_id, foe, L_MOVE["mi"])
        now = battle.state()
        gone = [
            u
            for u in now["units"]
            if u["status"]["strength"] < u["status"]["start_strength"]
            or {"shaken", "routing", "retiring"} & set(u["status"]["markers"])
        ]
        battle.next_to("Rally")
        if gone:
            break
        battle.next_to("Command")
    assert snap is not None and shots >= 2 and falls >= 1 and tests >= 1
    # odds of a one-unit action: the control test
    control = cli.json("battle", "odds", battle.id, "control_test", "B1")
    assert odds_total(control["outcomes"]) == 1
    assert {o["result"] for o in control["outcomes"]} >= {"Act as the player wishes"}
    state = battle.state()
    assert losses(state, 0) > 0 and losses(state, 1) > 0
    no_adjustments(battle)
    check_story(
        battle,
        snap,
        ["Roman legion (A1)", "Gauls (B1)", "Balearic slingers", "Varro"],
        ["Initiative: ", "combat dice for Gauls", "Hit difference", "DP"],
    )
    declare(battle)


# --------------------------------------------------------------------------- MWAN #90


def test_mwan90_battle_fought_to_losses_then_declared(cli: Cli) -> None:
    """MWAN #90: initiative, moves of 8", simultaneous missiles between the skirmishers,
    pre-melee javelins, melee with one die per figure in contact and hits by the target's
    class, turn after turn until a unit is reduced to its rout point."""
    a, b = cli.rosters("mwan90")
    battle = Battle.new(cli, a, b, seed=5)
    assert "MWAN #90, turn 1, Initiative" in battle("show")
    snap = None
    shots = melees = 0
    for _ in range(8):  # turns
        battle.next_to("Movement")
        state = battle.state()
        warband, hastati = battle.unit("B1", state), battle.unit("A1", state)
        if not touching(warband, hastati):
            advance(battle, state, "B1", "A1", 8.0)
            if not touching(warband, hastati):
                advance(battle, state, "A1", "B1", 8.0)
        slingers, velites = battle.unit("B2", state), battle.unit("A2", state)
        if edge_gap(slingers, velites) > 8.5:
            advance(battle, state, "B2", "A2", 8.0, gap=8.0)
        battle.next_to("Missiles")
        if edge_gap(slingers, velites) <= 9:
            for shooter, target in (("B2", "A2"), ("A2", "B2")):
                if shots == 0:
                    odds = cli.json("battle", "odds", battle.id, "shoot", shooter, target)
                    assert odds_total(odds["outcomes"]) == 1
                out = battle("shoot", shooter, target)
                assert "Shoot: " in out and "hitting on" in out
                shots += 1
        battle.next_to("Melee")
        if touching(warband, hastati):
            if melees == 0:
                out = battle("act", "javelins", "A1", "B1")
                assert "Pre-melee javelins" in out and "6s hit" in out
                odds = cli.json("battle", "odds", battle.id, "melee", "B1", "A1")
                assert odds_total(odds["outcomes"]) == 1
                snap = battle.snapshot()
                out = battle.undo_redo("melee", "B1", "A1")
            else:
                out = battle("melee", "B1", "A1")
            melees += 1
            assert "Melee: Gallic warband (B1) against Hastati (A1)" in out and "dice" in out
        now = battle.state()
        if any(
            u["status"]["eliminated"] or "routed" in u["status"]["markers"] for u in now["units"]
        ):
            break
        battle.next_to("Initiative")
    assert snap is not None and shots >= 2 and melees >= 1
    state = battle.state()
    assert any(u["status"]["eliminated"] for u in state["units"])
    no_adjustments(battle)
    check_story(
        battle,
        snap,
        ["Hastati (A1)", "Gallic warband (B1)", "Balearic slingers", "Velites"],
        ["initiative: ", "javelins", "hit(s)", "lose"],
    )
    declare(battle)


# --------------------------------------------------------------------------- Grown Slightly Bald

#: GSB, Movement (unit widths): HI 1, MI / LI / elephants 2, HC 3, LC 4
G_MOVE = {
    "heavy_infantry": 1.0,
    "medium_infantry": 2.0,
    "allied_infantry": 2.0,
    "light_infantry": 2.0,
    "elephants": 2.0,
    "heavy_cavalry": 3.0,
    "light_cavalry": 4.0,
}


def gsb_player(battle: Battle, side: int, counts: dict[str, int]) -> None:
    """One player's activations: two free, then the rising d10 until a roll fails; each
    activated unit closes with the nearest enemy whose front is free, and fights it (lights
    shoot from a unit width instead)."""
    state = battle.state()
    for u in list(live_units(state, side)):
        enemies = list(live_units(state, 1 - side))
        if not enemies:
            return
        out = battle("act", "activate", u["id"])
        assert f"Activate a unit: {u['name']} ({u['id']})" in out
        if "fails: play passes" in out:
            counts["failed"] += 1
            assert "play has passed" in battle.refused("act", "activate", u["id"])
            return
        foes = [e for e in enemies if touching(u, e)]
        if u["troop"] == "light_infantry" and not foes:
            near = [e for e in enemies if edge_gap(u, e) <= 1.0]
            if not near:
                goal = min(enemies, key=lambda e: math.hypot(e["x"] - u["x"], e["y"] - u["y"]))
                advance(battle, state, u["id"], goal["id"], G_MOVE[u["troop"]], gap=0.5)
                near = [e for e in enemies if edge_gap(u, e) <= 1.0]
            if near:
                out = battle("shoot", u["id"], near[0]["id"])
                assert "shoots at" in out
                counts["shots"] += 1
            continue
        if not foes:
            open_ = [e for e in enemies if free_front(state, u, e)]
            if not open_:
                continue
            goal = min(open_, key=lambda e: math.hypot(e["x"] - u["x"], e["y"] - u["y"]))
            if not advance(battle, state, u["id"], goal["id"], G_MOVE[u["troop"]]):
                continue
            foes = [goal]
        out = battle("melee", u["id"], foes[0]["id"])
        assert "attacks" in out and "hitting on" in out
        counts["melees"] += 1
        state = battle.state()
        if state["result"] is not None:
            return


def test_gsb_battle_runs_to_victory_stars(cli: Cli) -> None:
    """GSB: store rosters, initiative each turn (Carthage wins ties), the activation ladder,
    moves in unit widths, shooting, melee (general's die, elephant terror and rampage), bases
    lost and morale, until a side holds victory stars for half the enemy's units."""
    a, b = cli.rosters("grown-slightly-bald")
    for path in (a, b):
        assert "imported" in cli.ok("roster", "import", path).lower()
    battle = Battle.new(cli, "Rome GSB", "Carthage GSB", seed=5)
    start = battle.state()
    assert [s["record"]["units_at_start"] for s in start["sides"]] == [3, 3]
    # one unit width is a unit's frontage: four bases two wide and two deep
    assert (battle.unit("A1", start)["width"], battle.unit("A1", start)["depth"]) == (1.0, 0.5)
    assert "Grown Slightly Bald, turn 1, Initiative" in battle("show")
    counts = {"failed": 0, "shots": 0, "melees": 0}
    snap = None
    for _ in range(30):  # turns
        state = battle.state()
        if state["result"] is not None:
            break
        assert state["phase_name"] == "Initiative"
        first = state["initiative"]
        battle.next_to("First player's activations")
        if snap is None:
            snap = battle.snapshot()
            out = battle.undo_redo("act", "activate", "--side", "ab"[first], "--set", "nth=3")
            assert "needs 1+" in out
            assert battle.steps() == snap[0] + 1
            battle("undo")
            # a melee's odds need the two units in contact (GSB, Melee)
            me, foe = "AB"[first] + "1", "AB"[1 - first] + "1"
            err = cli.fails("battle", "odds", battle.id, "melee", me, foe)
            assert f"GSB, Melee: {battle.unit(me)['name']} ({me}) is not in contact" in err
            # odds of a side's action: the third activation needs 1+ on a d10 read 0-9
            third = cli.json(
                "battle", "odds", battle.id, "activate", "--side", "ab"[first], "--set", "nth=3"
            )
            assert {o["result"]: o["fraction"] for o in third["outcomes"]} == {
                "activated": "9/10",
                "fails: play passes": "1/10",
            }
        gsb_player(battle, first, counts)
        if battle.state()["result"] is None:
            battle.next_to("Second player's activations")
            gsb_player(battle, 1 - first, counts)
        if battle.state()["result"] is None:
            battle.next_to("Initiative")
    state = battle.state()
    result = state["result"]
    assert result is not None and result["winner"] is not None
    winner = result["winner"]
    assert state["sides"][winner]["record"]["stars"] >= 2
    assert counts["melees"] >= 3 and snap is not None
    no_adjustments(battle)
    log = check_story(
        battle,
        snap,
        ["Legionaries (heavy infantry) (A1)", "Elephant (B2)", "Scipio", "tests for death"],
        ["initiative: Rome", "activation 3", "hit(s)", "victory star"],
    )
    # a new turn clears the activation markers and says only those a unit had
    assert "general_moved" not in log
    check_result(battle, winner, "victory stars")


# --------------------------------------------------------------------------- D3 Ancients

#: D3, Movement: HI 6", LI / warband / elephants 9", cavalry 12"
D3_MOVE = {
    "heavy_infantry": 6.0,
    "veteran_heavy_infantry": 6.0,
    "warband": 9.0,
    "light_infantry": 9.0,
    "elephants": 9.0,
    "heavy_cavalry": 12.0,
    "light_cavalry": 12.0,
    "veteran_light_cavalry": 12.0,
}


def test_d3_supply_problems_are_a_side_condition(cli: Cli) -> None:
    """``--supply-problems b`` (the condition D3 declares a side may start under) puts it in
    side B's record and swaps a No Event of its deck for an Ammunition Shortage; side A
    starts without it; a side that is neither a, b nor both is a usage error."""
    a, b = cli.rosters("d3-ancients")
    made = cli.json("battle", "new", a, b, "--seed", 5, "--supply-problems", "b")
    state = cli.json("battle", "show", made["id"])
    rome, carthage = (s["record"] for s in state["sides"])
    assert (rome["supply_problems"], carthage["supply_problems"]) == (False, True)
    plain = cli.json("battle", "new", a, b, "--seed", 5)

    def deck(battle: Any, side: str) -> Counter[str]:
        line = next(ln for ln in battle["log"] if ln.startswith(f"{side}: 15 chance cards ("))
        cards = line.split("(", 1)[1].split(")", 1)[0].split(", ")
        return Counter({c.split(" ", 1)[1]: int(c.split(" ", 1)[0]) for c in cards})

    assert deck(made, "Rome") == deck(plain, "Rome")
    assert deck(made, "Carthage") - deck(plain, "Carthage") == Counter({"Ammunition Shortage": 1})
    assert deck(plain, "Carthage") - deck(made, "Carthage") == Counter({"No Event": 1})
    bad = cli.usage_error("battle", "new", a, b, "--supply-problems", "c")
    assert "argument --supply-problems: invalid choice: 'c'" in bad


def test_d3_battle_runs_to_its_own_result(cli: Cli) -> None:
    """D3: the chance-card decks, moves within the allowance into contact, shooting, combat,
    elimination past 8 hits, until army resolve (or the 15 turns) ends the battle."""
    a, b = cli.rosters("d3-ancients")
    battle = Battle.new(cli, a, b, seed=5)
    start = battle.state()
    rome, carthage = (s["record"] for s in start["sides"])
    # D3, Chance cards: 15 cards; Rome swaps an Initiative for a Rally, Carthage a Rally for
    # an Initiative, and a good commander a No Event for an Initiative.
    drawn = [str(r["cards_drawn"]) for r in (rome, carthage)]
    decks = [
        str(r["deck"]).split(",") + [c for c in d.split(",") if c]
        for r, d in zip((rome, carthage), drawn, strict=True)
    ]
    assert [len(d) for d in decks] == [15, 15]
    assert [decks[0].count(c) for c in ("no_event", "initiative", "rally")] == [4, 2, 4]
    # Carthage: a poor commander swaps an Initiative back for a No Event
    assert [decks[1].count(c) for c in ("no_event", "initiative", "rally")] == [6, 2, 2]
    shown = battle("show")
    assert "Draw chance card" in shown and "Scipio" in shown and "Hannibal" in shown

    shots = melees = 0
    snap = None
    for _ in range(40):
        state = battle.state()
        if state["result"] is not None:
            break
        side = state["initiative"]
        assert state["phase_name"] == "Draw chance card"
        record = state["sides"][side]["record"]
        battle.next_to("Movement")
        mine = list(live_units(state, side))
        enemies = list(live_units(state, 1 - side))
        for u in mine:
            if any(touching(u, e) for e in enemies):
                continue
            if record["card"] == "confusion" and u["id"] != record["commander_unit"]:
                continue  # Confusion: only the commander's unit moves
            if u["troop"] == "light_infantry":
                # skirmishers close to 8" of an enemy out of combat, then shoot from there
                free = [e for e in enemies if not any(touching(e, f) for f in mine)]
                if not free or any(edge_gap(u, e) <= 12 for e in free):
                    continue
                goal = min(free, key=lambda e: math.hypot(e["x"] - u["x"], e["y"] - u["y"]))
                advance(battle, state, u["id"], goal["id"], D3_MOVE[u["troop"]], gap=8.0)
                continue
            open_ = [e for e in enemies if free_front(state, u, e)]
            if open_:
                goal = min(open_, key=lambda e: math.hypot(e["x"] - u["x"], e["y"] - u["y"]))
                advance(battle, state, u["id"], goal["id"], D3_MOVE[u["troop"]])
        battle.next_to("Shooting")
        for u in mine:
            if u["troop"] != "light_infantry" or "moved" in u["status"]["markers"]:
                continue
            if record["card"] == "ammunition_shortage":
                continue
            targets = [
                e for e in enemies if edge_gap(u, e) <= 12 and not any(touching(e, f) for f in mine)
            ]
            if not targets:
                continue
            if shots == 0:
                odds = cli.json("battle", "odds", battle.id, "shoot", u["id"], targets[0]["id"])
                assert odds_total(odds["outcomes"]) == 1
            out = battle("shoot", u["id"], targets[0]["id"])
            assert "Shoot: " in out and u["name"] in out
            shots += 1
        battle.next_to("Melee")
        for u in mine:
            foes = [e for e in enemies if touching(u, e)]
            if not foes:
                continue
            if melees == 0:
                odds = cli.json("battle", "odds", battle.id, "melee", u["id"], foes[0]["id"])
                assert odds_total(odds["outcomes"]) == 1
                snap = battle.snapshot()
                out = battle.undo_redo("melee", u["id"], foes[0]["id"])
            else:
                out = battle("melee", u["id"], foes[0]["id"])
            assert "Combat" in out and foes[0]["name"] in out
            melees += 1
        battle.next_to("Draw chance card")
    final = battle.state()
    result = final["result"]
    assert result is not None, "the battle did not end"
    assert snap is not None and shots and melees > 5
    lost = [s["record"]["units_lost"] for s in final["sides"]]
    assert lost[1 - result["winner"]] * 10 > 6 * 7  # more than 70% of six units
    no_adjustments(battle)
    check_story(
        battle,
        snap,
        ["Hastati and principes (A1)", "Numidian cavalry 1 (B3)", "Hannibal is lost with his unit"],
        [
            "draw ",
            "chance card draw",
            "with the commander",
            "Combat: ",
            "eliminated with",
            "resolve is broken",
        ],
    )
    check_result(battle, result["winner"], "resolve is broken")


# --------------------------------------------------------------------------- castra odds


def odds(cli: Cli, ruleset: str, *args: str) -> list[dict[str, Any]]:
    data = cli.json("odds", ruleset, *args)
    assert data["ruleset"] == ruleset
    assert Fraction(data["total"]) == 1
    assert odds_total(data["outcomes"]) == 1
    assert all(0 < Fraction(o["fraction"]) <= 1 for o in data["outcomes"])
    assert all(
        math.isclose(o["probability"], float(Fraction(o["fraction"]))) for o in data["outcomes"]
    )
    outcomes: list[dict[str, Any]] = data["outcomes"]
    return outcomes


#: (ruleset, matchup, modifier, whose effects, which key, the way the expectation moves)
ODDS_MOVES = [
    # Quincunx: a ring takes the hastati down the melee matrix; a flank or a leader adds
    (
        "quincunx",
        ["--attacker", "hastati", "--defender", "celtic_swordsmen"],
        ["--rings-a", "4"],
        "defender",
        "casualties",
        -1,
    ),
    (
        "quincunx",
        ["--attacker", "hastati", "--defender", "celtic_swordsmen"],
        ["--set", "flank=yes"],
        "defender",
        "casualties",
        1,
    ),
    (
        "quincunx",
        ["--attacker", "hastati", "--defender", "celtic_swordsmen"],
        ["--leader-a", "2"],
        "defender",
        "casualties",
        1,
    ),
    (
        "quincunx",
        ["--action", "shoot", "--attacker", "balearic_slingers", "--defender", "hastati"],
        ["--set", "range=long"],
        "defender",
        "casualties",
        -1,
    ),
    # Leg VI: DPs cost dice, a better grade adds them
    (
        "leg-vi-carthago",
        ["--attacker", "gauls", "--defender", "roman_legion"],
        ["--dps-a", "3"],
        "defender",
        "dps",
        -1,
    ),
    (
        "leg-vi-carthago",
        ["--attacker", "gauls", "--defender", "roman_legion"],
        ["--grade-a", "A"],
        "defender",
        "dps",
        1,
    ),
    (
        "leg-vi-carthago",
        ["--attacker", "gauls", "--defender", "roman_legion"],
        ["--dps-d", "3"],
        "attacker",
        "dps",
        -1,
    ),
    # GSB: a flank attack adds a die
    (
        "grown-slightly-bald",
        ["--attacker", "heavy_infantry", "--defender", "medium_infantry"],
        ["--set", "attack=flank"],
        "defender",
        "hits",
        1,
    ),
    # MWAN #90: one die per figure; a heavy unit attacked in flank faces triple the dice
    (
        "mwan90",
        ["--attacker", "hastati", "--defender", "gauls"],
        ["--strength-a", "6"],
        "defender",
        "casualties",
        -1,
    ),
    (
        "mwan90",
        ["--attacker", "gauls", "--defender", "hastati"],
        ["--set", "attack=flank"],
        "defender",
        "casualties",
        1,
    ),
    # D3: +2 for a heavy unit in the rear; a commander keeps the better of two D3
    (
        "d3-ancients",
        ["--attacker", "legionaries", "--defender", "gauls"],
        ["--set", "attack_from=rear"],
        "defender",
        "hits",
        1,
    ),
    (
        "d3-ancients",
        ["--attacker", "legionaries", "--defender", "gauls"],
        ["--set", "commander=yes"],
        "defender",
        "hits",
        1,
    ),
]


@pytest.mark.parametrize(("ruleset", "matchup", "modifier", "who", "key", "way"), ODDS_MOVES)
def test_odds_sum_to_one_and_a_modifier_moves_them(
    cli: Cli, ruleset: str, matchup: list[str], modifier: list[str], who: str, key: str, way: int
) -> None:
    base = expected(odds(cli, ruleset, *matchup), who, key)
    moved = expected(odds(cli, ruleset, *matchup, *modifier), who, key)
    assert (moved - base) * way > 0, (base, moved)


def test_odds_text_output(cli: Cli) -> None:
    out = cli.ok(
        "odds",
        "d3-ancients",
        "--attacker",
        "legionaries",
        "--defender",
        "gauls",
        "--set",
        "attack_from=rear",
    )
    assert out.startswith("D3 Ancients: Combat, Heavy Infantry against Warband (Gauls)")
    assert "Options: attack_from=rear" in out
    assert "66.67%  2/3" in out and "Expected: defender hits 2.6667" in out
    listed = cli.ok(
        "odds", "quincunx", "--attacker", "hastati", "--defender", "hastati", "--list-options"
    )
    assert listed.startswith("initial_attack") and "flank" in listed


def test_odds_with_a_troop_id_takes_the_lists_size(cli: Cli) -> None:
    """A troop id (not an army-list entry) fights at the size of the first entry of that
    troop, not as a unit of one figure; a troop no list fields needs ``--size-a``."""
    by_troop = cli.json(
        "odds", "quincunx", "--attacker", "roman_hastati", "--defender", "celtic_swordsmen"
    )
    by_entry = cli.json(
        "odds", "quincunx", "--attacker", "hastati", "--defender", "celtic_swordsmen"
    )
    assert by_troop["attacker"]["strength"] == 12
    assert by_troop["outcomes"] == by_entry["outcomes"]
    err = cli.fails(
        "odds", "mwan90", "--attacker", "skirmish_bow", "--defender", "hastati", "--action", "shoot"
    )
    assert "--size-a" in err
    shot = odds(
        cli,
        "mwan90",
        "--attacker",
        "skirmish_bow",
        "--size-a",
        "6",
        "--defender",
        "hastati",
        "--action",
        "shoot",
    )
    assert max(o["defender"].get("casualties", 0) for o in shot) == 6
    grade = cli.json("odds", "leg-vi-carthago", "--attacker", "mi", "--defender", "roman_legion")
    assert grade["attacker"]["troop"] == "mi"


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (
            ["odds", "warhammer", "--attacker", "a", "--defender", "b"],
            1,
            "unknown ruleset 'warhammer'",
        ),
        (
            ["odds", "quincunx", "--attacker", "legionary", "--defender", "hastati"],
            1,
            "no entry or troop type 'legionary'",
        ),
        (
            ["odds", "quincunx", "--attacker", "nowhere:hastati", "--defender", "hastati"],
            1,
            "no army list 'nowhere'",
        ),
        (
            [
                "odds",
                "quincunx",
                "--attacker",
                "hastati",
                "--defender",
                "hastati",
                "--set",
                "nope=1",
            ],
            1,
            "has no option 'nope'",
        ),
        (
            [
                "odds",
                "quincunx",
                "--attacker",
                "hastati",
                "--defender",
                "hastati",
                "--set",
                "flank=maybe",
            ],
            1,
            "expected yes or no",
        ),
        (
            [
                "odds",
                "quincunx",
                "--attacker",
                "hastati",
                "--defender",
                "hastati",
                "--set",
                "flank",
            ],
            2,
            "KEY=VALUE",
        ),
        (
            [
                "odds",
                "quincunx",
                "--attacker",
                "hastati",
                "--defender",
                "hastati",
                "--action",
                "rampage",
            ],
            1,
            "has no odds",
        ),
        (
            [
                "odds",
                "quincunx",
                "--attacker",
                "hastati",
                "--defender",
                "hastati",
                "--action",
                "charge",
            ],
            1,
            "no action 'charge'",
        ),
        (
            [
                "odds",
                "quincunx",
                "--attacker",
                "hastati",
                "--defender",
                "hastati",
                "--strength-a",
                "13",
            ],
            1,
            "--strength-a must be 1-12",
        ),
        (
            ["odds", "quincunx", "--attacker", "hastati", "--defender", "hastati", "--size-d", "0"],
            1,
            "--size-d 0 is out of range",
        ),
        (
            [
                "odds",
                "quincunx",
                "--attacker",
                "hastati",
                "--defender",
                "hastati",
                "--rings-a",
                "-1",
            ],
            1,
            "--rings-a -1 is out of range",
        ),
        (
            [
                "odds",
                "quincunx",
                "--attacker",
                "hastati",
                "--defender",
                "hastati",
                "--grade-a",
                "A",
            ],
            1,
            "no grades",
        ),
        (
            [
                "odds",
                "leg-vi-carthago",
                "--attacker",
                "gauls",
                "--defender",
                "velites",
                "--grade-d",
                "Z",
            ],
            1,
            "not one of A, B",
        ),
    ],
)
def test_odds_exit_codes(cli: Cli, args: list[str], code: int, words: str) -> None:
    assert words in cli.fails(*args, code=code)


@pytest.mark.parametrize(
    "args",
    [
        ["odds", "quincunx", "--attacker", "hastati"],
        ["odds", "--attacker", "hastati", "--defender", "hastati"],
        ["odds", "quincunx", "--attacker", "hastati", "--defender", "hastati", "--rings-a", "two"],
        ["battle", "melee", "1", "A1"],
        ["battle", "new", "only-one.json"],
        ["battle", "end", "1"],
        ["battle", "show", "first"],
    ],
)
def test_usage_errors_exit_2(cli: Cli, args: list[str]) -> None:
    cli.usage_error(*args)


# --------------------------------------------------------------------------- refusals


def test_battle_refusals_change_nothing(cli: Cli, tmp_path: Path) -> None:
    """Invalid battle commands exit 1 with a one-line reason and leave the battle as it was."""
    a, b = cli.rosters("grown-slightly-bald")
    q, _ = cli.rosters("quincunx")
    battle = Battle.new(cli, a, b, seed=1)
    assert "activate [side] (odds): Activate a unit" in battle("actions")
    steps, state = battle.snapshot()
    for args, words in [
        (("melee", "A1", "Z9"), "no unit 'Z9'"),
        (("move", "A1", "999", "1"), "would leave the table"),
        (("act", "charge", "A1", "B1"), "no action 'charge'"),
        (("melee", "A1", "B1", "--set", "nope=1"), "has no option 'nope'"),
        (("act", "activate", "A1", "--side", "b"), "is not of Carthage"),
        (("adjust", "A1", "hits", "many"), "whole number"),
        (("adjust", "A1", "marker", "shaken"), "+name or -name"),
        (("attach", "B-nobody", "B1"), "no leader 'B-nobody'"),
        (("attach", "A-scipio", "B1"), "cannot join an enemy unit"),
        (("redo",), "nothing to redo"),
        (("odds", "activate"), "needs a side (0 or 1) or a unit"),
        (("odds", "melee", "A1"), "needs a target unit"),
        (("replay", "--step", "99"), "outside 0-"),
    ]:
        assert words in battle.refused(*args), args
    assert battle.snapshot() == (steps, state)
    # GSB, Turn order: the side's activation may name its unit, which then acts once a turn
    first = "ab"[state["initiative"]]
    battle.next_to("First player's activations")
    unit = "A1" if first == "a" else "B1"
    assert f"({unit}) become activated" in battle("act", "activate", unit)
    assert "activated" in battle.unit(unit)["status"]["markers"]
    assert "has already acted this turn" in battle.refused("act", "activate", unit)
    # undo back to before the start, and the battle has not begun
    while battle("undo"):
        if not battle.state()["started"]:
            break
    assert "the battle has not started" in battle.refused("next")
    assert "nothing to undo" in battle.refused("undo")
    assert battle("redo").startswith("redid: Start battle (same rolls)")
    assert "no battle with id 999" in cli.fails("battle", "show", "999")
    assert "different rulesets" in cli.fails("battle", "new", a, q)
    assert "no roster 'Nobody'" in cli.fails("battle", "new", a, "Nobody")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert "castra: " in cli.fails("battle", "new", bad, b)


# --------------------------------------------------------------------------- the console script


def test_console_script_plays_in_a_real_process(cli: Cli, tmp_path: Path, store_file: Path) -> None:
    """The installed ``castra`` script, in its own process, shares the store with the
    in-process calls: a battle made there is played here, fought there, and read back."""
    exe = Path(sys.executable).with_name("castra")
    assert exe.exists(), "the castra console script is not installed (pip install -e .)"
    env = {**os.environ, "CASTRA_DB": str(store_file), "CASTRA_HOME": str(tmp_path / "home")}

    def castra(*args: object) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(exe), *map(str, args)], capture_output=True, text=True, env=env, timeout=60
        )

    a, b = cli.rosters("mwan90")
    made = castra("battle", "new", a, b, "--seed", "9", "--json")
    assert made.returncode == 0, made.stderr
    bid = json.loads(made.stdout)["id"]
    battle = Battle(cli, bid)
    battle.next_to("Movement")
    battle.move_to_contact("B1", "A1")
    battle.next_to("Melee")
    fought = castra("battle", "melee", bid, "B1", "A1")
    assert fought.returncode == 0, fought.stderr
    assert "Melee: Gallic warband (B1) against Hastati (A1)" in fought.stdout
    assert "  roll Gallic warband melee: 12d6 -> " in fought.stdout
    log = battle("log")
    assert fought.stdout.splitlines()[0] in log
    refused = castra("odds", "mwan90", "--attacker", "nobody", "--defender", "hastati")
    assert refused.returncode == 1 and refused.stderr.startswith("castra: ")
    usage = castra("battle", "melee", bid)
    assert usage.returncode == 2 and "usage: castra battle melee" in usage.stderr


def test_quincunx_berserk_elephant_rampages_across_the_table(cli: Cli, tmp_path: Path) -> None:
    """Quincunx, Rampage chart: a berserk elephant is marked to rampage each turn, casts a
    d8 for the direction and a d6 for move factors, and the core moves it along that path
    (stopping at the table's edge)."""
    a, _ = cli.rosters("quincunx")
    punic = _roster(
        "Elephants",
        "quincunx",
        "carthaginian",
        "Carthage",
        [{"id": "u1", "entry": "elephants"}],
        scale="1:10",
    )
    b = tmp_path / "elephants.json"
    b.write_text(json.dumps(punic), encoding="utf-8")
    battle = Battle.new(cli, a, b, seed=4)
    # the last elephant goes berserk when hit in melee; set by hand to start the rampage
    assert "adds marker berserk" in battle("adjust", "B1", "marker", "+berserk")
    out = battle.next_to("Rampaging elephants")
    assert "is berserk and must rampage this turn" in out
    before = battle.unit("B1")
    assert "to_rampage" in before["status"]["markers"]
    out = battle("act", "rampage", "B1")
    m = re.search(r"d8 = (\d) \((\w+)\), d6 = (\d) MF \((\d+)\"\)", out)
    assert m is not None, out
    after = battle.state()
    moved = battle.unit("B1", after)
    extra = moved["status"]["extra"]
    assert extra["rampage_inches"] == int(m.group(4)) == 3 * int(m.group(3))
    bearing = math.radians(extra["rampage_bearing"])
    x = before["x"] + math.sin(bearing) * extra["rampage_inches"]
    y = before["y"] + math.cos(bearing) * extra["rampage_inches"]
    x, y = min(max(x, 0.0), after["width"]), min(max(y, 0.0), after["height"])
    if moved["status"]["eliminated"]:
        assert (moved["x"], moved["y"]) == (before["x"], before["y"])
    else:
        assert math.isclose(moved["x"], x) and math.isclose(moved["y"], y)
        assert (moved["x"], moved["y"]) != (before["x"], before["y"])
    assert "to_rampage" not in moved["status"]["markers"]


def test_battle_odds_of_actions_without_odds_are_refused(cli: Cli) -> None:
    a, b = cli.rosters("quincunx")
    battle = Battle.new(cli, a, b, seed=1)
    assert "Rampage has no odds in Quincunx" in battle.refused("odds", "rampage", "B1")
    assert "has no action 'charge'" in battle.refused("odds", "charge", "B1", "A1")
    assert "is not in contact with" in battle.refused("odds", "melee", "B1", "A1")
    battle.move_to_contact("B1", "A1")  # a melee needs contact (Quincunx, Melee)
    text = battle("odds", "melee", "B1", "A1")
    assert "Expected: " in text and "recoils" in text


def test_battle_new_warns_about_an_invalid_roster(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An invalid roster still plays (the players decide), but `battle new` says why."""
    from app.cli import main

    small = {
        "format": "castra-roster",
        "version": 1,
        "name": "Small",
        "ruleset": "d3-ancients",
        "army": "roman",
        "units": [{"entry": "legionaries", "count": 3}],
    }
    paths = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({**small, "name": name}), encoding="utf-8")
        paths.append(str(path))
    assert main(["battle", "new", *paths, "--seed", "1"]) == 0
    err = capsys.readouterr().err
    assert "warning: a:" in err and "at least 6" in err


# --------------------------------------------------------------------------- recorded data


def _house_rules(cli: Cli, home: Path) -> tuple[Path, Path, Path]:
    """A house-rules copy of Quincunx (id ``house-q``) in the user folder, and two rosters."""
    import shutil

    from app.rules.loader import FILES
    from app.rules.registry import BUILTIN_DIR

    folder = home / "rulesets" / "house-q"
    folder.mkdir(parents=True)
    for name in FILES:
        shutil.copyfile(BUILTIN_DIR / "quincunx" / name, folder / name)
    head = folder / "ruleset.toml"
    head.write_text(
        head.read_text(encoding="utf-8").replace('id = "quincunx"', 'id = "house-q"', 1),
        encoding="utf-8",
    )
    paths = []
    for i, data in enumerate(ROSTERS["quincunx"]):
        path = cli.tmp_path / f"house-{'ab'[i]}.json"
        path.write_text(json.dumps({**data, "ruleset": "house-q"}), encoding="utf-8")
        paths.append(path)
    return folder, paths[0], paths[1]


def test_a_battle_whose_house_rules_changed_keeps_its_recorded_states(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Editing the house rules after a battle was recorded: show, log, redo and replay say so
    in one line, and redo and replay keep the recorded rolls and states (what happened)."""
    import app.cli.common as common

    monkeypatch.setattr(common, "_registry", None)  # this test's user folder, loaded afresh
    folder, a, b = _house_rules(cli, tmp_path / "home")
    battle = Battle.new(cli, a, b, seed=3)
    battle("next")
    battle("next")
    code, _, err = cli.run("battle", "show", battle.id)
    assert code == 0 and "warning" not in err
    states = [cli.json("battle", "replay", battle.id, "--step", k) for k in range(4)]
    log = battle("log")
    for _ in range(3):
        battle("undo")
    # the players change their initiative die; a new run of castra reads the new data
    tables = folder / "tables.toml"
    text = tables.read_text(encoding="utf-8")
    die = '[initiative]\ntitle = "Initiative"\nrounds_per_turn = 2\ndie = "d10"\n'
    assert text.count(die) == 1
    tables.write_text(text.replace(die, die.replace("d10", "d8")), encoding="utf-8")
    monkeypatch.setattr(common, "_registry", None)

    import tomllib

    # the version the copied data says (Quincunx's), which the edit leaves as it was
    version = tomllib.loads((folder / "ruleset.toml").read_text(encoding="utf-8"))["ruleset"][
        "data_version"
    ]
    warning = f"castra: warning: this battle was recorded with house-q data {version} (fingerprint "
    for args in (("show",), ("log",), ("log", "--json"), ("replay", "--step", "0")):
        code, _, err = cli.run("battle", args[0], battle.id, *args[1:])
        assert code == 0, err
        [line] = err.splitlines()
        assert line.startswith(warning) and line.endswith(
            f"the data has changed since (now {version}, "
            + line.split(f"(now {version}, ")[1].split(")")[0]
            + "): redo and replay use the recorded states"
        )
    # redo: the start casts a d8 now, but the d10 that was cast is what happened
    code, out, err = cli.run("battle", "redo", battle.id)
    assert code == 0, err
    assert out.startswith("redid: Start battle (same rolls)\n")
    assert err.startswith(warning) and err.count("\n") == 2
    assert "redo of step 1 (Start battle)" in err and "kept the recorded state" in err
    assert battle.state() == states[1]
    battle("redo")
    battle("redo")
    assert battle.state() == states[3]
    assert battle("log") == log
    # replay returns the recorded states rather than executing with the new data
    for k in range(4):
        assert cli.json("battle", "replay", battle.id, "--step", k) == states[k]
    assert battle("replay", "--step", 2).startswith("after step 2 of 3:")


def test_a_divergence_with_unchanged_data_is_one_line_not_a_traceback(
    cli: Cli, store_file: Path
) -> None:
    """Unchanged data that no longer reproduces a recorded step is a bug: exit 1, one line,
    and the battle as it was."""
    import sqlite3

    a, b = cli.rosters("grown-slightly-bald")
    battle = Battle.new(cli, a, b, seed=2)
    battle("next")
    battle("undo")
    battle("undo")
    before = battle.state()
    con = sqlite3.connect(store_file)
    # the recorded digest of step 1 no longer matches what executing it again gives
    con.execute(
        "UPDATE battle_step SET digest = ? WHERE battle_id = ? AND n = 0", ("f" * 64, battle.id)
    )
    con.commit()
    for args in (("redo",), ("replay", "--step", "1")):
        code, out, err = cli.run("battle", args[0], battle.id, *args[1:])
        assert code == 1 and out == ""
        [line] = err.splitlines()
        assert line.startswith("castra: ") and "diverged" in line and "Traceback" not in err
        assert "the ruleset data is unchanged, so this is a bug in Castra" in line
        assert line.endswith("(the battle is unchanged)")
    assert battle.state() == before
    # a battle stored before Castra recorded its data cannot tell a change from a bug
    con.execute(
        "UPDATE battle SET data_version = NULL, data_fingerprint = NULL WHERE id = ?",
        (battle.id,),
    )
    con.commit()
    con.close()
    err = battle.refused("redo")
    assert "predates Castra recording its ruleset data" in err and err.count("\n") == 1
    assert battle.state() == before


@pytest.mark.parametrize("error", ["NotImplementedRule", "ValueError", "CommandError"])
def test_a_battle_that_cannot_start_is_not_stored(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, error: str
) -> None:
    """``battle new`` starts the battle before it stores anything, then stores it with its
    first step in one transaction: a start that fails leaves no empty battle."""
    from app.core.battle import CommandError, StartBattle
    from app.rules.mechanics import NotImplementedRule

    a, b = cli.rosters("mwan90")
    kind = {
        "NotImplementedRule": NotImplementedRule,
        "ValueError": ValueError,
        "CommandError": CommandError,
    }[error]

    def refuse(self: object, state: object, ctx: object) -> object:
        raise kind("the start of this battle is not implemented")

    with monkeypatch.context() as patch:
        patch.setattr(StartBattle, "execute", refuse)
        err = cli.fails("battle", "new", a, b, "--seed", "1")
    assert err == "castra: the start of this battle is not implemented\n"
    assert cli.json("battle", "list") == []
    assert Battle.new(cli, a, b, seed=1).id == 1  # nothing was left behind, not even an id


def test_battle_rosters_from_files_and_the_store(cli: Cli, tmp_path: Path) -> None:
    """ROSTER: an existing path is a file; otherwise a stored id or name; a missing *.json is
    a missing file, never looked up in the store."""
    a, b = cli.rosters("quincunx")
    made = cli.json("roster", "import", b, "--name", "ghost.json")
    code, _, err = cli.run("battle", "new", a, "ghost.json")
    assert code == 1 and err == "castra: no roster file ghost.json: no such file\n"
    (tmp_path / "folder.json").mkdir()
    assert "folder.json is not a roster file" in cli.fails(
        "battle", "new", a, tmp_path / "folder.json"
    )
    assert "no roster file no/such/army" in cli.fails("battle", "new", a, "no/such/army")
    battle = Battle.new(cli, a, made["id"], seed=5)
    assert [s["name"] for s in battle.state()["sides"]] == ["Rome", "Carthage"]
