"""``castra campaign new --template``: the templates a ruleset ships are found in the
registry (issue 27), and the command reads as it did when the Hannibal in Italy template and
its ruleset were constants in the code."""

from __future__ import annotations

import pytest

from tests.cli.test_cli import run, store_file  # noqa: F401 (autouse fixture)

#: ``castra campaign new --help`` at 80 columns, as the code printed it before the template
#: became Quincunx's data (recorded from main)
HELP = """\
usage: castra campaign new [-h] [--side NAME=ROSTER]
                           [--template {hannibal-italy,spain,africa,metaurus}]
                           [--ruleset RULESET]
                           [--recovery {ruleset,none,half,all}]
                           name

positional arguments:
  name

options:
  -h, --help            show this help message and exit
  --side NAME=ROSTER
  --template {hannibal-italy,spain,africa,metaurus}
                        a historical campaign: Hannibal in Italy (Quincunx),
                        Scipio in Spain, Scipio in Africa, the Metaurus (every
                        ruleset; on the historical battles' fields)
  --ruleset RULESET     with --template (default quincunx)
  --recovery {ruleset,none,half,all}
"""


@pytest.fixture(autouse=True)
def columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")


def test_the_help_reads_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        run(capsys, "campaign", "new", "--help")
    assert info.value.code == 0
    assert capsys.readouterr().out == HELP


def test_an_unknown_template_lists_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        run(capsys, "campaign", "new", "X", "--template", "nope")
    assert info.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "castra campaign new: error: argument --template: invalid choice: 'nope' "
        "(choose from 'hannibal-italy', 'spain', 'africa', 'metaurus')"
    )


def test_the_template_is_made_in_the_ruleset_that_ships_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "campaign", "new", "Italy", "--template", "hannibal-italy")
    assert (code, err) == (0, "") and "campaign 1" in out
    code, out, _ = run(capsys, "campaign", "show", "Italy")
    assert code == 0
    assert out.splitlines()[0].startswith("Italy (Quincunx), step 3 of 3")
    assert "C. Flaminius" in out and "b3  Cannae  2 August 216 BC" in out


def test_a_historical_battles_template_defaults_to_the_same_ruleset(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "campaign", "new", "Spain", "--template", "spain")
    assert (code, err) == (0, "")
    _, out, _ = run(capsys, "campaign", "show", "Spain")
    assert out.startswith("Spain (Quincunx)")


def test_a_ruleset_whose_armies_are_others_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "campaign", "new", "X", "--template", "hannibal-italy", "--ruleset", "mwan90"
    )
    assert (code, out) == (1, "")
    assert err == (
        "castra: the Hannibal in Italy template is built on Quincunx's model armies, their "
        "battlegroups and named leaders; MWAN #90's ready armies are others (make a campaign "
        "from your own rosters instead)\n"
    )
    code, out, _ = run(capsys, "campaign", "list")
    assert "X" not in out
