"""The figure scale as a value: read once from its text, written back as the same text."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.rules.scale import Scale


@pytest.mark.parametrize(("text", "men"), [("1:10", 10), ("1:100", 100)])
def test_men_per_figure(text: str, men: int) -> None:
    scale = Scale.parse(text)
    assert scale.men_per_figure == men
    # written as its text wherever a string goes: f-strings, JSON, comparisons, repr
    assert scale == text and f"{scale}" == text and str(scale) == text
    assert json.dumps({"scale": scale}) == json.dumps({"scale": text})
    assert repr(scale) == repr(text)


@pytest.mark.parametrize(
    "bad", ["10", "", "1:10 ", "1:0", "1:010", "2:10", "1:100001", "1:" + "9" * 5000, "1:10\n"]
)
def test_texts_that_are_no_scale_are_refused_saying_what_a_scale_is(bad: str) -> None:
    with pytest.raises(ValueError, match=r"is not a figure scale \(1:N, .*N from 1 to 100,000"):
        Scale.parse(bad)


def test_any_one_to_n_is_a_scale_once_made() -> None:
    """A ruleset's data may offer any 1:N (a house-rules copy at 1:20 or 1:50): such a scale
    is made on first use and is the same object each time; the two the built-in rulesets use
    are the named ones."""
    fifty = Scale.parse("1:50")
    assert fifty.men_per_figure == 50 and fifty == "1:50" and Scale("1:50") is fifty
    assert Scale.parse("1:10") is Scale.ONE_TO_TEN
    assert Scale.parse("1:100000").men_per_figure == 100_000


def test_a_house_rules_copy_may_offer_its_own_scale(tmp_path: Path) -> None:
    """A copy of Quincunx offering 1:20 (its data's ``scales``) loads, makes a roster at
    1:20 and counts its men at 20 a figure: the scales a ruleset offers are its data's,
    not a list in the code."""
    from app.core.roster import new_roster
    from app.core.totals import roster_totals
    from app.rulesets import load_ruleset

    folder = tmp_path / "quincunx-at-20"
    shutil.copytree(Path(__file__).resolve().parents[2] / "rulesets" / "quincunx", folder)
    toml = folder / "ruleset.toml"
    text = toml.read_text(encoding="utf-8")
    assert 'scales = ["1:10", "1:100"]' in text
    toml.write_text(
        text.replace('id = "quincunx"', 'id = "quincunx-at-20"', 1).replace(
            'scales = ["1:10", "1:100"]', 'scales = ["1:10", "1:20"]'
        ),
        encoding="utf-8",
    )
    rs = load_ruleset(folder, builtin=False)
    assert rs.meta.scales == ("1:10", "1:20")
    roster = new_roster(rs, "roman", name="At 1:20", scale="1:20", standard=True)
    totals = roster_totals(rs, roster)
    assert roster.scale == "1:20" and totals.men == totals.figures * 20
    with pytest.raises(ValueError, match=r"scale '1:100' is not one of 1:10, 1:20"):
        new_roster(rs, "roman", name="x", scale="1:100")
