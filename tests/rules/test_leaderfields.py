"""Leader fields as engines declare them (app.rules.leaderfields): a leader's values kept
immutable and only when set, checked against the declaration in one line naming the field,
and written where formats had three keys of their own (app.core.leaderkeys) with any other
field under ``fields``."""

from __future__ import annotations

import pytest

from app.core.leaderkeys import BATTLE_KEYS, ROSTER_KEYS, battle_fields, flat, unflat
from app.rules.leader_bonus import BONUS
from app.rules.leaderfields import FieldValues, LeaderField
from app.rules.registry import Registry
from app.rulesets.d3 import QUALITY
from app.rulesets.leg_vi import EXCEPTIONAL

VETERAN = LeaderField("veteran", "Veteran", "yes/no", help="h", cli_help="c", default=False)


def test_values_keep_only_what_is_set_and_are_hashable() -> None:
    values = FieldValues({"bonus": 0, "exceptional": False, "quality": None, "veteran": True})
    assert dict(values) == {"bonus": 0, "veteran": True}
    assert values == {"bonus": 0, "veteran": True} and values == FieldValues(dict(values))
    assert hash(values) == hash(FieldValues({"veteran": True, "bonus": 0}))
    assert values.set("bonus", None) == {"veteran": True}
    with pytest.raises(TypeError):
        values["bonus"] = 1  # type: ignore[index]


def test_a_value_is_checked_against_its_declaration() -> None:
    assert BONUS.problem(6) == "bonus 6 is out of range (-5 to 5)"
    assert BONUS.problem(True) == "bonus True is not a whole number"
    assert BONUS.problem(None) is None and BONUS.problem(-5) is None
    assert EXCEPTIONAL.problem("yes") == "exceptional 'yes' is not yes or no"
    assert QUALITY.problem("great") == "quality 'great' is not one of good, average, poor"
    with pytest.raises(ValueError, match="a yes/no field is no unless set"):
        LeaderField("x", "X", "yes/no", help="", cli_help="", default=True)
    with pytest.raises(ValueError, match="a number needs a minimum and maximum"):
        LeaderField("x", "X", "number", help="", cli_help="")


def test_a_value_by_the_rules_and_in_words(registry: Registry) -> None:
    rs = registry.get("quincunx")
    assert BONUS.value(rs, "Hannibal Barca", {}) == 2
    assert BONUS.value(rs, "Mago", {}) == 1
    assert BONUS.value(rs, "Hannibal Barca", {"bonus": 0}) == 0
    assert (BONUS.shown(2), BONUS.shown(None), BONUS.shown(None, blank="-")) == ("+2", "", "-")
    assert QUALITY.shown(None) == "average" and EXCEPTIONAL.shown(True) == "yes"
    assert BONUS.undo_text("Mago", None) == "Set bonus of Mago to by the rules"
    assert EXCEPTIONAL.undo_text("Mago", False) == "Make Mago not exceptional"
    assert QUALITY.undo_text("Mago", "poor") == "Make Mago a poor commander"


def test_formats_write_the_three_keys_as_before_and_others_apart() -> None:
    values = FieldValues({"quality": "poor", "veteran": True})
    written = flat(values, ROSTER_KEYS)
    assert written == {
        "bonus": None,
        "exceptional": False,
        "quality": "poor",
        "fields": {"veteran": True},
    }
    assert unflat(written, ROSTER_KEYS, written["fields"]) == values
    # nothing but the three keys when no other field is set (old files byte for byte)
    assert flat(FieldValues({"bonus": 2}), ROSTER_KEYS) == {
        "bonus": 2,
        "exceptional": False,
        "quality": None,
    }
    # a battle wrote 0 for no bonus: 0 reads back as unset, as the battle's setup makes it
    assert flat(FieldValues(), BATTLE_KEYS)["bonus"] == 0
    assert unflat({"bonus": 0, "exceptional": False, "quality": None}, BATTLE_KEYS) == {}
    assert battle_fields(FieldValues({"bonus": 0, "quality": "good"})) == {"quality": "good"}
