"""Recorded states kept small, for anything stored as a history of steps (a battle, a
campaign): a digest of every step's state, the change from the step before (a delta), and a
full snapshot only every so many steps. Any recorded state is rebuilt exactly from the
nearest snapshot and the deltas after it, without doing a step again.

Everything here works on JSON-ready dicts (a battle's :func:`app.core.battle.serialize.
state_to_dict`, a campaign's :func:`app.core.campaign.serialize.campaign_to_dict`), so the
store and its migrations need no rules. Changing :func:`digest` or the delta format changes
every stored battle and campaign: it needs a migration.

Two delta forms, read by the one :func:`apply_delta`:

- :func:`delta` (battles): for the named list keys the changed entries by index, each whole
  (``{"units": {"changed": {"17": {...}}}}``), any other key whole (``{"whole": ...}``);
- :func:`diff` (campaigns): the same, but nested all the way down: a dict's changed keys
  (``{"keys": {...}, "drop": [...]}``), a list's changed or added items (``{"items":
  {...}, "length": n}``), so a change deep in a large state stays as small as it is.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

#: Rebuilt states kept in memory per history (a replay or a redo walks a few neighbours).
CACHE_SIZE = 6
#: A state is rebuilt from one in memory at most this many steps before it rather than
#: from a nearer snapshot.
WALK = 20

StateDict = dict[str, Any]
T = TypeVar("T")


class Packed:
    """A part of a stored state (a value somewhere inside its dict) kept as its JSON text
    until it is first read (:meth:`value`): a state read back from the store holds these
    where its parts were stored apart from its head, and everything here that reads a
    state whole (:func:`canonical`, :func:`digest`, :func:`diff`, :func:`apply_delta`)
    reads them as the values they hold. ``summary``: what the reader of the head may know of
    the part without reading it (stored with the head). Text that is not JSON is
    :class:`ValueError` when read."""

    __slots__ = ("_end", "_start", "_text", "_value", "summary")

    def __init__(
        self, text: bytes | Callable[[], bytes], start: int, end: int, summary: Any = None
    ) -> None:
        """``text[start:end]`` is the part's JSON; ``text`` may be a function giving it
        (called when the part is first read)."""
        self._text: bytes | Callable[[], bytes] | None = text
        self._start = start
        self._end = end
        self._value: Any = None
        self.summary = summary

    @property
    def read(self) -> bool:
        """Whether the part was read (decoded) already."""
        return self._text is None

    def value(self) -> Any:
        """The part, decoded when first read (the same object every read after)."""
        text = self._text
        if text is not None:
            if callable(text):
                text = text()
            if self._end > len(text):
                raise ValueError("a part of a whole state stored is cut short")
            self._value = load_json(text[self._start : self._end])
            self._text = None  # the state's text is no longer held for it
        return self._value


def _packed_value(obj: object) -> Any:
    if type(obj) is Packed:
        return obj.value()
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def canonical(state: Any) -> bytes:
    """The state dict as canonical JSON bytes (sorted keys, no spaces), a :class:`Packed`
    part as the value it holds."""
    return json.dumps(
        state,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=_packed_value,
    ).encode()


def digest(state: Mapping[str, Any]) -> str:
    """The SHA-256 of the state's canonical JSON: equal states, equal digests."""
    return hashlib.sha256(canonical(state)).hexdigest()


def delta(
    before: Mapping[str, Any], after: Mapping[str, Any], lists: Sequence[str]
) -> dict[str, Any]:
    """What changed from ``before`` to ``after``: for the keys in ``lists`` the changed
    entries by index (``{"units": {"changed": {"17": {...}}}}``, the whole list if the number
    changed); any other key whole."""
    out: dict[str, Any] = {}
    for key, value in after.items():
        old = before.get(key)
        if key in lists and isinstance(old, list) and len(old) == len(value):
            changed = {str(i): v for i, (o, v) in enumerate(zip(old, value, strict=True)) if o != v}
            if changed:
                out[key] = {"changed": changed}
        elif old != value or key not in before:
            out[key] = {"whole": value}
    return out


def diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """What changed from ``before`` to ``after``, nested: the top level maps each changed
    key to its change (as :func:`delta` does), each change as small as :func:`_change`
    makes it (a key gone: ``{"gone": true}``). ``apply_delta(before, diff(before, after))
    == after``."""
    change = _change(dict(before), dict(after))
    if change is None:
        return {}
    out: dict[str, Any] = change["keys"]
    for key in change.get("drop", ()):
        out[key] = {"gone": True}
    return out


def _change(old: Any, new: Any) -> dict[str, Any] | None:
    """The change from ``old`` to ``new`` (None: equal). Dicts by their changed keys, lists
    by their changed items; a value of another kind whole. Values that are the same object
    are equal without a look."""
    if old is new:
        return None
    if type(old) is Packed:  # (checked here, not by a call: diff visits every value)
        old = old.value()
    if type(new) is Packed:
        new = new.value()
    if isinstance(old, dict) and isinstance(new, dict):
        keys = {}
        for k, v in new.items():
            if k not in old:
                keys[k] = {"whole": v}
            else:
                c = _change(old[k], v)
                if c is not None:
                    keys[k] = c
        drop = [k for k in old if k not in new]
        if not keys and not drop:
            return None
        return {"keys": keys, **({"drop": drop} if drop else {})}
    if isinstance(old, list) and isinstance(new, list):
        items = {}
        for i, v in enumerate(new):
            if i >= len(old):
                items[str(i)] = {"whole": v}
            else:
                c = _change(old[i], v)
                if c is not None:
                    items[str(i)] = c
        if not items and len(old) == len(new):
            return None
        return {"items": items, "length": len(new)}
    if isinstance(old, str) and isinstance(new, str):
        # a str enum (a scale, a status) is its text in JSON
        return None if old == new else {"whole": new}
    if type(old) is type(new) and old == new and (type(old) is not float or repr(old) == repr(new)):
        return None  # (0.0 and -0.0 are equal, but not in JSON: whole)
    return {"whole": new}


def apply_delta(before: Mapping[str, Any], change: Mapping[str, Any]) -> StateDict:
    """``before`` with ``change`` (from :func:`delta` or :func:`diff`) applied; ``before``
    is not changed, and what the change leaves alone is shared with it, not copied."""
    out = dict(before)
    for key, what in change.items():
        if "gone" in what:
            del out[key]
        else:
            out[key] = _apply(out.get(key), what)
    return out


def _apply(value: Any, what: Mapping[str, Any]) -> Any:
    if "whole" in what:
        return what["whole"]
    if type(value) is Packed:  # a change inside a part stored apart: the part is read
        value = value.value()
    if "changed" in what:  # delta's list form: changed entries whole
        items = list(value)
        for index, v in what["changed"].items():
            items[int(index)] = v
        return items
    if "items" in what:
        length = int(what["length"])
        items = list(value[:length])
        for index, c in what["items"].items():
            i = int(index)
            if not 0 <= i <= len(items):
                raise ValueError(f"a list change names item {i} of {len(items)}")
            if i == len(items):
                items.append(_apply(None, c))
            else:
                items[i] = _apply(items[i], c)
        if len(items) != length:
            raise ValueError(f"a list change leaves {len(items)} items, not {length}")
        return items
    if "keys" in what:
        d = dict(value)
        for k in what.get("drop", ()):
            del d[k]
        for k, c in what["keys"].items():
            d[k] = _apply(d.get(k), c)
        return d
    raise ValueError(f"not a change: {sorted(what)}")


def pack_snapshot(state: Mapping[str, Any]) -> bytes:
    return zlib.compress(canonical(state), 6)


#: bytes to what a number's digits are: a digit stays one ("0"), anything else is a space
_DIGITS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
#: nineteen digits in a row: an integer that may be past 64 bits, which orjson reads as a
#: float (json as the integer it is)
_LONG = b"0" * 19
#: nineteen bytes in a row hold at least three bytes six apart at a multiple of six: text
#: whose every sixth byte has no three digits in a row has no nineteen in a row
_STRIDE, _NEAR = 6, b"0" * 3


def _may_hold_long(data: bytes) -> bool:
    """Whether ``data`` may have nineteen digits in a row: false when it has none for
    sure, as told from every sixth byte (a sixth of the work of looking at every byte, the
    whole of a campaign's state, 1 MB at 50 battles); else whether it has."""
    if _NEAR not in data[::_STRIDE].translate(_DIGITS):
        return False
    return _LONG in data.translate(_DIGITS)


def load_json(text: bytes | str) -> Any:
    """What :func:`json.loads` reads from ``text``, read by orjson (a whole campaign of 50
    battles, 1 MB of JSON, in about half json's time). Where orjson would not read it as
    json does, json reads it, so what is accepted, its values and the error raised are
    json's: text orjson refuses (NaN or Infinity, a lone surrogate, a byte-order mark, text
    that is not JSON), and text with nineteen digits in a row (an integer past 64 bits is a
    float to orjson; Castra writes none, its numbers are bounded). Without orjson
    installed (a checkout whose environment predates it), json reads everything: slower,
    the same values; a state is never called damaged for want of the faster reader."""
    try:
        from orjson import JSONDecodeError, loads  # imported when a state is first read
    except ImportError:
        return json.loads(text)
    try:
        data = text.encode() if isinstance(text, str) else text
    except UnicodeEncodeError:  # a lone surrogate
        return json.loads(text)
    if not _may_hold_long(data):
        try:
            return loads(data)
        except JSONDecodeError:
            pass
    return json.loads(text)


def unpack_snapshot(blob: bytes) -> StateDict:
    data: StateDict = load_json(zlib.decompress(blob))
    return data


class StateAt(Generic[T]):
    """:meth:`Timeline.loader`: the state after one step of a timeline, read when called.
    One small object a step (a stored battle of 1,000 steps makes 1,000 of them when it is
    opened), where a closure made four for the cyclic collector to walk."""

    __slots__ = ("_n", "_timeline")

    def __init__(self, timeline: Timeline[T], n: int) -> None:
        self._timeline = timeline
        self._n = n

    def __call__(self) -> T:
        return self._timeline.state(self._n)


class Timeline(Generic[T]):
    """The recorded states of a history, rebuilt on demand from snapshots and deltas with a
    small cache, so a history of a thousand steps is never held whole in memory.

    ``initial``: the state before the first step. ``deltas[n]``: the change made by step
    ``n + 1`` (0-based list): a dict, a function giving it, or its JSON text, decoded
    (:meth:`decode_delta`) when first read. ``snapshots``: step number (1-based, the state
    after that step) to a function giving its dict; any step may have one. ``build`` turns
    a state dict into the state object (:meth:`state`); a subclass may override
    :meth:`build` instead."""

    def __init__(
        self,
        initial: StateDict | Callable[[], StateDict],
        deltas: Sequence[Mapping[str, Any] | Callable[[], Mapping[str, Any]] | str | bytes],
        snapshots: Mapping[int, Callable[[], StateDict]],
        *,
        cache_size: int = CACHE_SIZE,
        build: Callable[[int, StateDict], T] | None = None,
        digests: Sequence[str] | None = None,
    ) -> None:
        """``initial``: the state before the first step, or a function that reads it (once,
        when a state before the first snapshot is asked for). ``digests``: the recorded
        digest of the state after each step, when kept here (:meth:`check`)."""
        self._initial = initial
        self._deltas = list(deltas)
        self._snapshots = dict(snapshots)
        self._dicts: OrderedDict[int, StateDict] = OrderedDict()
        self._states: OrderedDict[int, T] = OrderedDict()
        self._parts: dict[str, OrderedDict[int, Any]] = {}
        self._cache_size = cache_size
        self._build = build
        self._digests = None if digests is None else list(digests)

    def __len__(self) -> int:
        return len(self._deltas)

    @property
    def cached(self) -> int:
        """How many rebuilt states are held in memory (at most the cache size)."""
        return len(self._states)

    def build(self, n: int, data: StateDict) -> T:
        """The state object of step ``n`` from its dict."""
        if self._build is None:
            raise NotImplementedError("a Timeline needs build=, or a subclass's build()")
        return self._build(n, data)

    def _initial_dict(self) -> StateDict:
        if callable(self._initial):
            self._initial = self._initial()
        return self._initial

    def decode_delta(self, text: str | bytes) -> Mapping[str, Any]:
        """A change given as its JSON text, read (a subclass may say more when it is not
        JSON)."""
        change: Mapping[str, Any] = json.loads(text)
        return change

    def _delta(self, n: int) -> Mapping[str, Any]:
        d = self._deltas[n - 1]
        if isinstance(d, (str, bytes)):
            d = self.decode_delta(d)
            self._deltas[n - 1] = d
        elif callable(d):
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
        near = max((k for k in self._dicts if n - WALK <= k <= n), default=None)
        if near is not None:
            # walking on from a state in memory shares what the steps left alone (a
            # snapshot is a new copy of everything) and reads no snapshot
            start = near
        if start in self._dicts:
            current = self._dicts[start]
        elif start in self._snapshots:
            current = self._snapshots[start]()
        else:
            current = self._initial_dict()
        for k in range(start + 1, n + 1):
            current = apply_delta(current, self._delta(k))
        self._remember(self._dicts, n, current)
        return current

    def state(self, n: int) -> T:
        """The recorded state after step ``n`` (0: the initial state)."""
        if n in self._states:
            self._states.move_to_end(n)
            return self._states[n]
        state = self.build(n, self.state_dict(n))
        self._remember(self._states, n, state)
        return state

    def part(self, n: int, key: str, leaves: Callable[[int], bool]) -> Any:
        """The top-level ``key`` of the state after step ``n``, rebuilt from that key's
        changes alone: a step ``k`` for which ``leaves(k)`` (it leaves the key as it was)
        is not read at all, its change not even decoded. Kept in the cache as states are."""
        if not 0 <= n <= len(self._deltas):
            raise IndexError(f"step {n} is outside 0-{len(self._deltas)}")
        parts = self._parts.setdefault(key, OrderedDict())
        if n in parts:
            parts.move_to_end(n)
            return parts[n]
        near = [k for k in (*parts, *self._dicts) if n - WALK <= k <= n]
        start = max(near) if near else max([0, *(k for k in self._snapshots if k <= n)])
        if start in parts:
            value = parts[start]
        elif start in self._dicts:
            value = self._dicts[start].get(key)
        elif start in self._snapshots:
            value = self._snapshots[start]().get(key)
        else:
            value = self._initial_dict().get(key)
        for k in range(start + 1, n + 1):
            if leaves(k):
                continue
            change = self._delta(k).get(key)
            if change is not None:
                value = None if "gone" in change else _apply(value, change)
        self._remember(parts, n, value)
        return value

    def loader(self, n: int) -> Callable[[], T]:
        """A function giving the state after step ``n`` when called (:meth:`state`)."""
        return StateAt(self, n)

    def _remember(self, cache: OrderedDict[int, Any], n: int, value: Any) -> None:
        cache[n] = value
        cache.move_to_end(n)
        while len(cache) > self._cache_size:
            cache.popitem(last=False)

    def nearest_snapshot(self, n: int) -> int:
        """The last step at or before ``n`` whose state is stored whole (0: the initial)."""
        return max([0, *(k for k in self._snapshots if k <= n)])

    def check(self, n: int) -> None:
        """Refuse (ValueError) the state after step ``n`` when it is not the one recorded
        (its digest differs: the stored changes were damaged)."""
        if n and self._digests is not None and digest(self.state_dict(n)) != self._digests[n - 1]:
            raise ValueError(f"the state after step {n} does not match its digest")

    def truncate(self, n: int) -> None:
        """Forget the steps after ``n`` (a new step after an undo drops the redo branch)."""
        del self._deltas[n:]
        if self._digests is not None:
            del self._digests[n:]
        caches: list[dict[int, Any]] = [self._snapshots, self._dicts, self._states]
        for cache in [*caches, *self._parts.values()]:
            for k in [k for k in cache if k > n]:
                del cache[k]

    def append(
        self,
        change: Mapping[str, Any],
        state: StateDict | None = None,
        *,
        snapshot: bool = False,
        digest: str | None = None,
    ) -> None:
        """Add the next step's change (and, when known, its state dict, to the cache; with
        ``snapshot``, as that step's snapshot too; its ``digest``, when digests are kept)."""
        self._deltas.append(change)
        if self._digests is not None:
            if digest is None:
                raise ValueError("this timeline keeps digests: give the step's")
            self._digests.append(digest)
        n = len(self._deltas)
        if state is not None:
            self._remember(self._dicts, n, state)
            if snapshot:
                self._snapshots[n] = lambda: state
