"""What a data file (or a ruleset's cache) may not hold, named by its key path
(:func:`app.rules.inputs.data_problems`, walked on every ruleset load)."""

from __future__ import annotations

import datetime

from app.rules.inputs import MAX_INT, data_problems


def test_problems_are_named_by_their_key_path() -> None:
    data = {
        "a": {"b": [1, {"c": "bell\x07"}], "ok": "tab\tand\nnewline"},
        "n": [[MAX_INT + 1]],
        "f": float("nan"),
        "k\x1b": 1,
        "d": datetime.date(2020, 1, 1),
        "t": True,
    }
    found = dict(data_problems(data))
    assert set(found) == {"a.b[1].c", "n[0][0]", "f", "", "d"}
    assert "control character (U+0007" in found["a.b[1].c"]
    assert "too large" in found["n[0][0]"]
    assert "not a finite number" in found["f"]
    assert "a key holds a control character (U+001B" in found[""]
    assert "date or time" in found["d"]


def test_nesting_is_bounded_and_a_list_at_the_top_is_indexed() -> None:
    assert data_problems([{"x": [[["deep"]]]}], max_depth=3) == [
        ("[0].x[0][0]", "nested more than 3 levels deep")
    ]
    assert data_problems({"a": [1, "fine", 2.5, False, None]}) == []
