"""Issue 23: ``castra battle move B UNIT X Y`` is the path ``to X,Y`` (facing as it stands, or
``--facing``): in every ruleset it refuses exactly what ``--path "to X,Y facing F"`` refuses
(a move far beyond its allowance, a move by the side not in play), in one line, unless
``--force``, which the log records. It accepted a move 6.9 unit widths beyond a 1 UW GSB
allowance, and a move by the side not in play, only noting "BEYOND its allowance"."""

from __future__ import annotations

import pytest

from tests.builtin import ruleset_ids
from tests.cli.test_battle_cli import Battle, Cli
from tests.cli.test_battle_cli import cli as cli  # the CLI in-process
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_the_coordinate_form_refuses_what_the_path_form_refuses(cli: Cli, ruleset: str) -> None:
    a, b = cli.rosters(ruleset)
    battle = Battle.new(cli, a, b, seed=5)
    for _ in range(3):  # into the turn's first moves
        battle("next")
    state = battle.state()
    steps = battle.steps()
    refused: list[tuple[str, float, float]] = []
    for unit in state["units"]:
        # three table lengths straight ahead of the unit: too far for anyone, anywhere
        far = 3 * max(state["width"], state["height"])
        x, y = unit["x"], unit["y"] + (far if unit["facing"] == 0 else -far) / 3
        x, y = round(x, 3), round(max(0.5, min(state["height"] - 0.5, y)), 3)
        code, _, path_err = cli.run(
            "battle", "move", battle.id, unit["id"], "--path", f"to {x},{y} facing {unit['facing']}"
        )
        code2, _, xy_err = cli.run("battle", "move", battle.id, unit["id"], x, y)
        assert code == code2
        if code != 0:
            refused.append((unit["id"], x, y))
            assert xy_err == path_err and xy_err.count("\n") == 1
            assert "force it to" in xy_err
        else:
            battle("undo")
            battle("undo")
    assert refused  # the probe found something the rules forbid
    assert battle.steps() == steps  # nothing changed
    # --force overrides and says so in the log
    unit_id, x, y = refused[0]
    out = battle("move", unit_id, x, y, "--force")
    assert "forced" in out.lower() or "overrid" in out.lower(), out
    assert battle.steps() == steps + 1
