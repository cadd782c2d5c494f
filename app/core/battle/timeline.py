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
import zlib
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from app.core.battle.serialize import state_from_dict, state_to_dict
from app.core.battle.state import BattleState

#: A full snapshot is stored after every this many steps (and the initial state always).
SNAPSHOT_EVERY = 20
#: Rebuilt states kept in memory per battle (a replay or a redo walks a few neighbours).
CACHE_SIZE = 6

StateDict = dict[str, Any]
_LISTS = ("units", "leaders")


def canonical(state: Mapping[str, Any]) -> bytes:
    """The state dict as canonical JSON bytes (sorted keys, no spaces)."""
    return json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def digest(state: Mapping[str, Any]) -> str:
    """The SHA-256 of the state's canonical JSON: equal states, equal digests."""
    return hashlib.sha256(canonical(state)).hexdigest()


def state_digest(state: BattleState) -> str:
    return digest(state_to_dict(state))


def delta(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """What changed from ``before`` to ``after``: for ``units`` and ``leaders`` the changed
    entries by index (``{"units": {"17": {...}}}``, the whole list if the number changed);
    any other key whole."""
    out: dict[str, Any] = {}
    for key, value in after.items():
        old = before.get(key)
        if key in _LISTS and isinstance(old, list) and len(old) == len(value):
            changed = {str(i): v for i, (o, v) in enumerate(zip(old, value, strict=True)) if o != v}
            if changed:
                out[key] = {"changed": changed}
        elif old != value or key not in before:
            out[key] = {"whole": value}
    return out


def apply_delta(before: Mapping[str, Any], change: Mapping[str, Any]) -> StateDict:
    """``before`` with ``change`` (from :func:`delta`) applied; ``before`` is not changed."""
    out = dict(before)
    for key, what in change.items():
        if "whole" in what:
            out[key] = what["whole"]
        else:
            items = list(out[key])
            for index, value in what["changed"].items():
                items[int(index)] = value
            out[key] = items
    return out


def pack_snapshot(state: Mapping[str, Any]) -> bytes:
    return zlib.compress(canonical(state), 6)


def unpack_snapshot(blob: bytes) -> StateDict:
    data: StateDict = json.loads(zlib.decompress(blob))
    return data


class Timeline:
    """The recorded states of a battle, rebuilt on demand from snapshots and deltas with a
    small cache, so a battle of a thousand steps is never held whole in memory.

    ``initial``: the state before the first step. ``deltas[n]``: the change made by step
    ``n + 1`` (0-based list). ``snapshots``: step number (1-based, the state after that
    step) to a function giving its dict; any step may have one."""

    def __init__(
        self,
        initial: StateDict,
        deltas: Sequence[Mapping[str, Any] | Callable[[], Mapping[str, Any]]],
        snapshots: Mapping[int, Callable[[], StateDict]],
        *,
        cache_size: int = CACHE_SIZE,
    ) -> None:
        self._initial = initial
        self._deltas = list(deltas)
        self._snapshots = dict(snapshots)
        self._dicts: OrderedDict[int, StateDict] = OrderedDict()
        self._states: OrderedDict[int, BattleState] = OrderedDict()
        self._cache_size = cache_size

    def __len__(self) -> int:
        return len(self._deltas)

    @property
    def cached(self) -> int:
        """How many rebuilt states are held in memory (at most the cache size)."""
        return len(self._states)

    def _delta(self, n: int) -> Mapping[str, Any]:
        d = self._deltas[n - 1]
        if callable(d):
            d = d()
            self._deltas[n - 1] = d
        return d

    def state_dict(self, n: int) -> StateDict:
        """The recorded state after step ``n`` (0: the initial state) as a dict."""
        if not 0 <= n <= len(self._deltas):
            raise IndexError(f"step {n} is outside 0-{len(self._deltas)}")
        if n in self._dicts:
            self._dicts.move_to_end(n)
            return self._dicts[n]
        start = max(
            [0, *(k for k in self._snapshots if k <= n), *(k for k in self._dicts if k <= n)]
        )
        if start in self._dicts:
            current = self._dicts[start]
        elif start in self._snapshots:
            current = self._snapshots[start]()
        else:
            current = self._initial
        for k in range(start + 1, n + 1):
            current = apply_delta(current, self._delta(k))
        self._remember(self._dicts, n, current)
        return current

    def state(self, n: int) -> BattleState:
        """The recorded state after step ``n`` (0: the initial state)."""
        if n in self._states:
            self._states.move_to_end(n)
            return self._states[n]
        state = state_from_dict(self.state_dict(n))
        self._remember(self._states, n, state)
        return state

    def loader(self, n: int) -> Callable[[], BattleState]:
        return lambda: self.state(n)

    def _remember(self, cache: OrderedDict[int, Any], n: int, value: Any) -> None:
        cache[n] = value
        cache.move_to_end(n)
        while len(cache) > self._cache_size:
            cache.popitem(last=False)

    def nearest_snapshot(self, n: int) -> int:
        """The last step at or before ``n`` whose state is stored whole (0: the initial)."""
        return max([0, *(k for k in self._snapshots if k <= n)])


def step_record(
    before: BattleState, after: BattleState, n: int
) -> tuple[dict[str, Any], str, bytes | None]:
    """What to store for step ``n`` (1-based) that turned ``before`` into ``after``: its
    delta, its digest, and a compressed snapshot every :data:`SNAPSHOT_EVERY` steps. Units
    that are the same object before and after (most of them: a command replaces only the
    units it changes) are not compared field by field."""
    a = state_to_dict(after)
    light_before = state_to_dict(replace(before, units=()))
    light_after = {k: v for k, v in a.items() if k != "units"}
    change = delta(light_before, light_after)
    if len(before.units) == len(after.units):
        units = {
            str(i): a["units"][i]
            for i, (old, new) in enumerate(zip(before.units, after.units, strict=True))
            if old is not new and old != new
        }
        if units:
            change["units"] = {"changed": units}
    else:
        change["units"] = {"whole": a["units"]}
    snapshot = pack_snapshot(a) if n % SNAPSHOT_EVERY == 0 else None
    return change, digest(a), snapshot
