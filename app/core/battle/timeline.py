"""A stored battle's recorded states, kept small: a digest of every step's state, the change
from the step before (a delta), and a full snapshot only every :data:`SNAPSHOT_EVERY` steps.

A battle of 1,000 units stored its whole state at every step, 427 KB a step; with deltas and
compressed snapshots a step costs a few KB, and any recorded state is rebuilt exactly from
the nearest snapshot and the deltas after it, without executing a command again -- which is
what the data-stamp rule needs (a battle whose ruleset data has changed since shows its
recorded states). The digest keeps the determinism check: executing a step again with its
recorded rolls must give a state of the recorded digest.

Everything here works on the JSON-ready dict form of a state
(:func:`app.core.battle.serialize.state_to_dict`), so the store and its migration need no
mechanics. Changing :func:`digest` or the delta format changes every stored battle: it needs
a migration.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from app.core.battle.serialize import state_from_dict, state_to_dict, unit_to_dict
from app.core.battle.state import BattleState, BattleUnit
from app.core.timeline import CACHE_SIZE as CACHE_SIZE
from app.core.timeline import StateDict as StateDict
from app.core.timeline import Timeline as _Timeline
from app.core.timeline import apply_delta as apply_delta
from app.core.timeline import canonical as canonical
from app.core.timeline import delta as _list_delta
from app.core.timeline import digest as digest
from app.core.timeline import pack_snapshot as pack_snapshot
from app.core.timeline import unpack_snapshot as unpack_snapshot

#: A full snapshot is stored after every this many steps (and the initial state always).
SNAPSHOT_EVERY = 20

_LISTS = ("units", "leaders")


def state_digest(state: BattleState) -> str:
    """:func:`digest` of the state's dict, made without building it: each unit's canonical
    JSON is made once (units the step left alone are the same objects from state to state),
    and spliced into the canonical JSON of the rest; the bytes, and so the digest, are
    exactly those of ``digest(state_to_dict(state))`` (a test holds them equal). A battle of
    1,000 units spent some 8 ms a step encoding units that had not changed."""
    return hashlib.sha256(canonical_state(state)).hexdigest()


#: stands for the units in the canonical JSON of the rest of a state, to be replaced by them
_UNITS = "\x00units\x00"
_UNITS_JSON = json.dumps(_UNITS, ensure_ascii=False)


def canonical_state(state: BattleState) -> bytes:
    """``canonical(state_to_dict(state))``, with each unit's JSON made once a unit."""
    rest = state_to_dict(replace(state, units=()))
    rest["units"] = _UNITS
    text = json.dumps(rest, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    units = "[" + ",".join(_unit_json(u) for u in state.units) + "]"
    return text.replace(_UNITS_JSON, units, 1).encode()


def _unit_json(unit: BattleUnit) -> str:
    made = unit.__dict__.get("_canonical")
    if made is None:
        made = json.dumps(
            unit_to_dict(unit), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        unit.__dict__["_canonical"] = made
    return made


def delta(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """What changed from ``before`` to ``after``: for ``units`` and ``leaders`` the changed
    entries by index (``{"units": {"17": {...}}}``, the whole list if the number changed);
    any other key whole (:func:`app.core.timeline.delta`)."""
    return _list_delta(before, after, _LISTS)


class Timeline(_Timeline[BattleState]):
    """A stored battle's recorded states (:class:`app.core.timeline.Timeline`), each built
    with :func:`~app.core.battle.serialize.state_from_dict`."""

    def build(self, n: int, data: StateDict) -> BattleState:
        return state_from_dict(data)


def step_record(
    before: BattleState, after: BattleState, n: int
) -> tuple[dict[str, Any], str, bytes | None]:
    """What to store for step ``n`` (1-based) that turned ``before`` into ``after``: its
    delta, its digest, and a compressed snapshot every :data:`SNAPSHOT_EVERY` steps. Units
    that are the same object before and after (most of them: a command replaces only the
    units it changes) are not compared field by field."""
    light_before = state_to_dict(replace(before, units=()))
    light_after = state_to_dict(replace(after, units=()))
    del light_before["units"], light_after["units"]
    change = delta(light_before, light_after)
    if len(before.units) == len(after.units):
        units = {
            str(i): unit_to_dict(new)
            for i, (old, new) in enumerate(zip(before.units, after.units, strict=True))
            if old is not new and old != new
        }
        if units:
            change["units"] = {"changed": units}
    else:
        change["units"] = {"whole": [unit_to_dict(u) for u in after.units]}
    snapshot = pack_snapshot(state_to_dict(after)) if n % SNAPSHOT_EVERY == 0 else None
    return change, state_digest(after), snapshot
