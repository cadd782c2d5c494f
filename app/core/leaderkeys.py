"""How a leader's fields are written where formats made before engines declared their fields
(:mod:`app.rules.leaderfields`) gave each of the first three a key of its own: the roster file,
a battle state (hashed into its steps' digests), a campaign's stored state and a standard army
in an army list. Those keys are written as before, with the value each format wrote for a
leader without one, so an old file, battle or campaign loads, verifies its digests and is
written again byte for byte; any other field an engine declares goes under one ``fields`` key,
written only when a leader has one.

This is the one place in the common code that names those three fields (Quincunx's and GSB's
``bonus``, Leg VI's ``exceptional``, D3's ``quality``): as keys of the formats, not as rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.leaderfields import FieldValue, FieldValues

#: the keys of their own, each with what a roster file, a campaign state or an army list
#: wrote for a leader without one
ROSTER_KEYS: Mapping[str, FieldValue | None] = {
    "bonus": None,
    "exceptional": False,
    "quality": None,
}
#: the same keys in a battle state, where a leader without a bonus had 0
BATTLE_KEYS: Mapping[str, FieldValue | None] = {"bonus": 0, "exceptional": False, "quality": None}
#: the key the other fields are written under
OTHERS = "fields"


def flat(fields: Mapping[str, FieldValue], keys: Mapping[str, FieldValue | None]) -> dict[str, Any]:
    """``fields`` as the format's keys: each of ``keys`` always, the others under
    :data:`OTHERS` when there are any."""
    out: dict[str, Any] = {k: fields.get(k, default) for k, default in keys.items()}
    others = {k: v for k, v in fields.items() if k not in keys}
    if others:
        out[OTHERS] = dict(sorted(others.items()))
    return out


def unflat(
    data: Mapping[str, Any], keys: Mapping[str, FieldValue | None], others: Any = None
) -> FieldValues:
    """The fields written by :func:`flat` (``others``: what was under :data:`OTHERS`), a
    key holding its format's default being unset."""
    values: dict[str, FieldValue | None] = dict(others or {})
    for k, default in keys.items():
        value = data.get(k, default)
        values[k] = None if value == default and type(value) is type(default) else value
    return FieldValues(values)


def battle_unflat(data: Mapping[str, Any]) -> FieldValues:
    """A stored battle leader's fields: the three keys every state has (each required and
    read as before: the bonus a whole number, exceptional a truth value) and the others."""
    others = data.get(OTHERS) or {}
    if not isinstance(others, Mapping):
        raise ValueError(f"a leader's fields must be a mapping, not {others!r}")
    given = {
        "bonus": int(data["bonus"]),
        "exceptional": bool(data["exceptional"]),
        "quality": data["quality"],
    }
    return unflat(given, BATTLE_KEYS, others)


def battle_fields(fields: Mapping[str, FieldValue]) -> FieldValues:
    """A roster leader's fields as a battle holds them: a value a battle state writes as its
    default is unset (a bonus of 0 is the rules' bonus, as when none is set)."""
    return FieldValues(
        {k: None if k in BATTLE_KEYS and v == BATTLE_KEYS[k] else v for k, v in fields.items()}
    )
