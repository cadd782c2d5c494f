"""What is made by the thousand as a stored state is read (its units and their statuses)
and shown (each unit's combatant) is made without the frozen dataclasses' ``__init__``
(:func:`app.rules.values.frozen_made`): each is the object the plain constructor makes,
field for field, with nothing more and nothing missing."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

import pytest

from app.core.battle.look import UnitLabel, unit_labels
from app.core.battle.serialize import state_from_dict, state_to_dict
from app.core.battle.state import BattleUnit
from app.rules.mechanics import Combatant, LeaderView, Status
from app.rules.registry import Registry
from tests.builtin import ruleset_ids
from tests.core.battle.test_ready_battles import ready_session


def same(made: Any, plain: Any) -> None:
    assert type(made) is type(plain)
    assert made == plain
    try:
        hashed = hash(plain)
    except TypeError:  # a status holds a dict: neither hashes
        with pytest.raises(TypeError):
            hash(made)
    else:
        assert hash(made) == hashed
    assert set(vars(made)) == {f.name for f in fields(plain)}
    for f in fields(plain):
        assert getattr(made, f.name) == getattr(plain, f.name)
        assert type(getattr(made, f.name)) is type(getattr(plain, f.name))


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_a_state_read_back_is_made_as_the_constructors_make_it(
    registry: Registry, ruleset: str
) -> None:
    state = ready_session(registry, ruleset).state
    first = state.units[0]
    hurt = replace(
        first,
        moved=2.5,
        status=replace(first.status, hits=2, markers=frozenset({"shaken"}), extra={"n": 1}),
    )
    state = state.replace_unit(hurt)
    read = state_from_dict(state_to_dict(state))
    assert read == state
    for unit, plain in zip(read.units, state.units, strict=True):
        same(unit, BattleUnit(**{f.name: getattr(plain, f.name) for f in fields(BattleUnit)}))
        same(unit.status, Status(**{f.name: getattr(plain.status, f.name) for f in fields(Status)}))
    leader = LeaderView("L1", "Scipio", "general")
    for unit in read.units[:5]:
        got = unit.as_combatant(leader, "rome")
        same(
            got,
            Combatant(
                unit_id=unit.id,
                name=unit.name,
                troop=unit.troop,
                side=unit.side,
                status=unit.status,
                leader=leader,
                army="rome",
                x=unit.x,
                y=unit.y,
                facing=unit.facing,
                width=unit.width,
                depth=unit.depth,
                moved=unit.moved,
                command=unit.command,
            ),
        )


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_a_units_labels_are_made_as_the_constructor_makes_them(
    registry: Registry, ruleset: str
) -> None:
    state = ready_session(registry, ruleset).state
    labels = unit_labels(state, registry.get(ruleset))
    assert set(labels) == {u.id for u in state.units}
    for label in labels.values():
        same(label, UnitLabel(label.id, label.full, label.short, label.code))
        assert label.variants[-1] == label.id  # its cached property is kept on it as before
