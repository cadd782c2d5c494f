"""``castra battle new`` with each ruleset's ready armies, named on the command line with no
roster in the store (``RULESET:ARMY`` by ids or by names), fought through ``castra battle``
exactly as through the core: the same commands land on the same state. A name that is no
ready army, or two armies of different rulesets, is refused in one line."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from app.core.battle import BattleState
from app.core.battle.serialize import state_from_dict
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from tests.cli.test_battle_cli import Cli
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path
from tests.core.battle.ready_fight import DUELS, fight
from tests.core.battle.test_ready_battles import CoreFront, ready_session


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


class CliFront:
    """The fight's front end on ``castra battle``: each command a command line."""

    def __init__(self, cli: Cli, battle: int) -> None:
        self.cli = cli
        self.id = battle

    def _run(self, *args: object) -> str | None:
        code, out, err = self.cli.run("battle", args[0], self.id, *args[1:])
        if code != 0:
            assert code == 1 and err.startswith("castra: ") and err.count("\n") == 1, err
            return None
        return out

    def state(self) -> BattleState:
        shown: dict[str, Any] = self.cli.json("battle", "show", self.id)
        return state_from_dict(shown)

    def move(self, unit: str, distance: float) -> str | None:
        return self._run("move", unit, "--path", f"forward {distance!r}")

    def charge(self, unit: str, target: str) -> str | None:
        return self._run("charge", unit, target)

    def act(self, action: str, actor: str, target: str | None = None) -> str | None:
        if action == "melee" and target is not None:
            return self._run("melee", actor, target)
        return self._run("act", action, actor, *([target] if target else []))

    def odds(self, actor: str, target: str) -> list[tuple[str, Fraction]] | None:
        out = self._run("odds", "melee", actor, target, "--json")
        if out is None:
            return None
        rows = json.loads(out)["outcomes"]
        return [(r["result"], Fraction(r["fraction"])) for r in rows]

    def attach(self, leader: str, unit: str) -> str | None:
        return self._run("attach", leader, unit)

    def next(self) -> str:
        out = self._run("next")
        assert out is not None
        return out


@pytest.mark.parametrize("ruleset", sorted(DUELS))
def test_ready_armies_fight_through_the_command_line(
    cli: Cli, registry: Registry, ruleset: str
) -> None:
    rs = registry.get(ruleset)
    roman, carthaginian = (f"{ruleset}:{army}" for army in rs.armies)
    duel = DUELS[ruleset]
    made = cli.json("battle", "new", roman, carthaginian, "--seed", duel.seed)
    front = CliFront(cli, int(made["id"]))
    start = front.state()
    assert [s.roster for s in start.sides] == [
        f"{rs.meta.short_name}: {army.name}" for army in rs.armies.values()
    ]
    assert made["table"] == {"width": start.width, "height": start.height}
    fought = fight(front, mechanics_for(rs), duel)
    assert fought.moves and fought.charges and fought.melee.startswith(("Melee", "Combat"))
    assert sum(p for _, p in fought.odds) == 1
    # the core, given the same rosters and seed and driven the same way, is where we are
    session = ready_session(registry, ruleset)
    core = fight(CoreFront(session), session.mechanics, duel)
    assert (len(core.moves), len(core.charges), core.phases) == (
        len(fought.moves),
        len(fought.charges),
        fought.phases,
    )
    assert sorted(core.odds) == sorted(fought.odds)
    ours = front.state()
    assert [(u.id, u.x, u.y, u.facing, u.status) for u in ours.units] == [
        (u.id, u.x, u.y, u.facing, u.status) for u in session.state.units
    ]
    # the battle's log has it all, and replay rebuilds it from the recorded rolls
    steps = len(cli.json("battle", "log", front.id))
    replayed = cli.json("battle", "replay", front.id, "--step", steps)
    assert state_from_dict(replayed) == ours


def test_ready_armies_by_name_and_the_table_they_need(cli: Cli) -> None:
    out = cli.ok(
        "battle",
        "new",
        "Quincunx: Republican Roman model legion",
        "quincunx:Carthaginian army of Hannibal",
        "--seed",
        3,
    )
    assert out.splitlines()[1] == (
        'Table 108 x 72", larger than Quincunx\'s 72 x 48": the armies stand in their '
        "deployment zones only on the larger one."
    )
    made = cli.json("battle", "new", "leg-vi-carthago:roman", "LEG VI: carthaginian", "--seed", 3)
    assert made["table"] == {"width": 72.0, "height": 48.0}
    shown = cli.json("battle", "show", made["id"])
    leaders = {ld["name"]: ld["attached_to"] for ld in shown["leaders"]}
    assert leaders["Hannibal"] is not None and leaders["C. Terentius Varro"] is not None
    # a layout is laid on the larger table the armies need
    made = cli.json(
        "battle", "new", "quincunx:roman", "quincunx:carthaginian", "--layout", "river crossing"
    )
    assert made["table"] == {"width": 108.0, "height": 72.0}
    table = cli.json("battle", "table", made["id"])
    assert max(x for p in table["terrain"] for x, _ in p["points"]) > 72


def test_a_stored_roster_of_that_name_comes_first(cli: Cli) -> None:
    """A roster in the store named like a ready army is the one fought with."""
    cli.ok("roster", "new", "--ruleset", "mwan90", "--army", "roman", "--name", "MWAN #90: Roman")
    made = cli.json("battle", "new", "MWAN #90: Roman", "mwan90:carthaginian", "--seed", 1)
    shown = cli.json("battle", "show", made["id"])
    assert [u for u in shown["units"] if u["side"] == 0] == []  # the empty stored roster


@pytest.mark.parametrize(
    ("a", "b", "says"),
    [
        ("leg-vi-carthago:gauls", "leg-vi-carthago:roman", "no roster 'leg-vi-carthago:gauls'"),
        ("leg-vi:roman", "leg-vi-carthago:roman", "a ready army is RULESET:ARMY"),
        ("d3-ancients:roman", "leg-vi-carthago:roman", "for different rulesets"),
    ],
)
def test_what_is_no_ready_army_is_refused_in_one_line(
    cli: Cli, store_file: Path, a: str, b: str, says: str
) -> None:
    err = cli.fails("battle", "new", a, b)
    assert says in err and err.count("\n") == 1
    assert cli.json("battle", "list") == []


def test_castra_armies_names_each_ready_army(cli: Cli) -> None:
    out = cli.ok("armies", "leg-vi-carthago")
    assert (
        "  ready army leg-vi-carthago:roman: Consular army, commanded as at Cannae "
        "(built by Castra, 8 units)"
    ) in out
    data = cli.json("armies", "quincunx")
    ready = {a["id"]: a["ready"] for a in data["armies"]}
    assert ready["roman"] == {
        "key": "quincunx:roman",
        "name": "Quincunx: Republican Roman model legion",
        "army": "Model legion in five battlegroups (12-player game)",
        "origin": "source",
        "units": 41,
    }


def test_a_roster_from_a_ready_army_says_where_it_comes_from(cli: Cli) -> None:
    from app.store import find_roster, load_roster, open_store

    cli.ok(
        "roster",
        "new",
        "--ruleset",
        "leg-vi-carthago",
        "--army",
        "roman",
        "--name",
        "Cannae",
        "--standard",
    )
    with open_store() as st:
        roster = load_roster(st, roster_id=find_roster(st, key="Cannae"))
    assert roster.unit_count() == 8 and roster.leader("varro").rank == "general"
    assert roster.notes.startswith("Ready army: Consular army, commanded as at Cannae. Built by")
