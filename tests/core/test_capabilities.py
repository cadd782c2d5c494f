"""What each ruleset's rosters use: the window and the command line show only that."""

from __future__ import annotations

from app.core.capabilities import (
    has_chance_cards,
    leader_fields,
    line_choices,
    lines_label,
    uses_commands,
)
from app.rules.registry import Registry


def test_each_ruleset_says_what_applies(registry: Registry) -> None:
    got = {
        rs.id: (has_chance_cards(rs), uses_commands(rs), sorted(leader_fields(rs)))
        for rs in registry
    }
    assert got == {
        "quincunx": (False, True, ["bonus"]),
        "leg-vi-carthago": (False, True, ["exceptional"]),
        "grown-slightly-bald": (False, False, ["bonus"]),
        "mwan90": (False, False, []),
        "d3-ancients": (True, False, ["quality"]),
    }


def test_legion_lines(registry: Registry) -> None:
    legion = registry.get("leg-vi-carthago").army("roman").entries["roman_legion"]
    choices = line_choices(legion)
    assert [value for _, value in choices] == [None, {"Triarii": 4}]
    assert choices[0][0] == "standard (Hastati 4, Principes 4, Triarii 2)"
    assert lines_label(legion, {"Triarii": 4}) == "understrength triarii (4 bases)"
    assert lines_label(legion, None) == ""
    assert lines_label(legion, {"Hastati": 3}) == "Hastati 3"  # not a choice: shown as it is
    velites = registry.get("leg-vi-carthago").army("roman").entries["velites"]
    assert line_choices(velites) == []
