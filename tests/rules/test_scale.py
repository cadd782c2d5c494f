"""The figure scale as a value: read once from its text, written back as the same text."""

from __future__ import annotations

import json

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


@pytest.mark.parametrize("bad", ["1:50", "10", "", "1:10 "])
def test_unknown_scales_are_refused_naming_the_scales(bad: str) -> None:
    with pytest.raises(ValueError, match=r"is not one of 1:10, 1:100"):
        Scale.parse(bad)
