"""The recorded-states machinery shared by battles and campaigns (app/core/timeline.py):
a nested diff rebuilds exactly what it was taken from, stays small for a small change deep
in a large state, and shares what it leaves alone."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.timeline import Timeline, apply_delta, delta, diff, digest

scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-2, 2) | st.text(max_size=3)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner, max_size=4)
    ),
    max_leaves=25,
)
states = st.dictionaries(st.text(max_size=3), values, max_size=5)


@given(states, states)
@settings(max_examples=300, deadline=None)
def test_a_diff_rebuilds_the_state_it_was_taken_from(
    before: dict[str, Any], after: dict[str, Any]
) -> None:
    change = diff(before, after)
    rebuilt = apply_delta(before, change)
    assert rebuilt == after and digest(rebuilt) == digest(after)
    assert json.loads(json.dumps(change)) == change  # stored as JSON


def test_a_small_change_deep_in_a_large_state_is_small() -> None:
    side = {"id": "rome", "army": {"units": [{"id": f"u{i}", "size": 12} for i in range(500)]}}
    before = {"name": "Italy", "sides": [side, {**side, "id": "carthage"}], "battles": []}
    units = list(side["army"]["units"])  # type: ignore[index]
    units[7] = {"id": "u7", "size": 9}
    after = {
        **before,
        "sides": [{**side, "army": {"units": units}}, before["sides"][1]],
        "battles": [{"id": "b1", "name": "Trebia"}],
    }
    change = diff(before, after)
    assert len(json.dumps(change)) < 300
    rebuilt = apply_delta(before, change)
    assert rebuilt == after
    assert rebuilt["sides"][1] is before["sides"][1]  # shared, not copied
    assert rebuilt["sides"][0]["army"]["units"][8] is units[8]
    assert diff(after, after) == {}


def test_the_battles_flat_delta_still_reads() -> None:
    before = {"units": [{"x": 1}, {"x": 2}], "turn": 1}
    after = {"units": [{"x": 1}, {"x": 3}], "turn": 2}
    change = delta(before, after, ("units",))
    assert change == {"units": {"changed": {"1": {"x": 3}}}, "turn": {"whole": 2}}
    assert apply_delta(before, change) == after


def test_a_list_change_that_does_not_add_up_is_refused() -> None:
    with pytest.raises(ValueError, match="leaves 1 items, not 3"):
        apply_delta({"a": [1]}, {"a": {"items": {}, "length": 3}})
    with pytest.raises(ValueError, match="not a change"):
        apply_delta({"a": 1}, {"a": {"what": 2}})


def test_a_timeline_builds_only_the_states_it_is_asked_for() -> None:
    states_ = [{"n": 0, "log": []}]
    for k in range(1, 30):
        states_.append({"n": k, "log": [*states_[-1]["log"], k]})
    built: list[int] = []

    def build(n: int, d: dict[str, Any]) -> int:
        built.append(n)
        return int(d["n"])

    deltas = [diff(a, b) for a, b in itertools.pairwise(states_)]
    timeline = Timeline(states_[0], deltas, {20: lambda: states_[20]}, build=build)
    assert timeline.state(29) == 29 and built == [29]
    assert timeline.state_dict(25) == states_[25]
    assert timeline.nearest_snapshot(25) == 20
    timeline.truncate(10)
    assert len(timeline) == 10 and timeline.nearest_snapshot(25) == 0
    timeline.append(diff(states_[10], states_[11]), states_[11])
    assert timeline.state_dict(11) == states_[11]


def test_changes_given_as_json_text_are_read_only_when_needed() -> None:
    """A stored history hands its changes over as the JSON texts it read: each is decoded
    the first time a state needs it (a damaged one only then refuses), and the states are
    those the decoded changes give. A step's loader gives the state after that step."""
    states_ = [{"n": 0, "log": []}]
    for k in range(1, 8):
        states_.append({"n": k, "log": [*states_[-1]["log"], k]})
    texts: list[str] = [json.dumps(diff(a, b)) for a, b in itertools.pairwise(states_)]
    texts[5] = "{not json"  # the change made by step 6
    decoded: list[str] = []

    class Counting(Timeline[int]):
        def decode_delta(self, text: str | bytes) -> Any:
            decoded.append(str(text))
            return super().decode_delta(text)

    timeline = Counting(states_[0], texts, {}, build=lambda n, d: int(d["n"]))
    assert decoded == []
    assert timeline.state_dict(3) == states_[3] and len(decoded) == 3
    load = timeline.loader(5)
    assert load() == 5 and timeline.state(5) == 5 and len(decoded) == 5
    assert timeline.state_dict(2) == states_[2] and len(decoded) == 5  # each read once
    with pytest.raises(ValueError):
        timeline.state(6)
    assert timeline.state_dict(4) == states_[4]  # the steps before it still read


def test_a_text_enum_is_its_text() -> None:
    """A scale or a status read back is plain text, written it is a str enum: the same JSON,
    so no change (a campaign's first step after a load stored every army's scale again)."""
    from app.rules.scale import Scale

    assert diff({"scale": "1:10"}, {"scale": Scale("1:10")}) == {}
    assert diff({"n": 1}, {"n": True}) == {"n": {"whole": True}}  # JSON tells these apart


def test_one_part_of_a_state_reads_only_the_changes_that_may_touch_it() -> None:
    """The strength chart reads each past state's sides: the changes of steps that leave
    the sides alone (a battle's result, the largest changes of a campaign) are not even
    decoded."""
    states_ = [{"sides": [0], "battles": []}]
    for k in range(1, 30):
        last = states_[-1]
        if k % 3:
            states_.append({**last, "battles": [*last["battles"], k]})
        else:
            states_.append({**last, "sides": [last["sides"][0] + k]})
    decoded: list[int] = []

    def lazy(k: int) -> Any:
        change = diff(states_[k - 1], states_[k])

        def load() -> Any:
            decoded.append(k)
            return change

        return load

    timeline: Timeline[int] = Timeline(
        states_[0], [lazy(k) for k in range(1, 30)], {}, build=lambda n, d: n
    )
    for n in range(30):
        assert timeline.part(n, "sides", lambda k: k % 3 != 0) == states_[n]["sides"]
    assert decoded and all(k % 3 == 0 for k in decoded)
    assert timeline.state_dict(29) == states_[29]  # the whole state still reads


# what json itself reads (NaN, big integers, lone surrogates) and what it refuses
_JSON_TEXTS = [
    "NaN",
    "[Infinity, -Infinity, 1e400, 1e-400]",
    str(2**70),
    str(-(2**64)),
    str(-(2**63) - 1),
    str(2**64 - 1),
    '{"size": 18446744073709551616, "notes": "x"}',
    '"\\ud800"',
    '"\ud800"',
    '{"a": 1, "a": 2}',
    "\ufeff{}",
    b"\xef\xbb\xbf{}",
    b"\xff",
    b'"\xc3\x28"',
    "[1,]",
    "",
    '{"a": 1} x',
    '"\x01"',
    "{not json",
    "-0.0",
    '"\\u0000 \u00e9"',
    b'"\xc3\xa9"',
]


def _read(load: Any, text: bytes | str) -> tuple[str, str]:
    try:
        return "read", repr(load(text))
    except ValueError as exc:
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize("text", _JSON_TEXTS)
def test_stored_json_is_read_as_json_reads_it(text: bytes | str) -> None:
    """A stored state is decoded by orjson, but what is read is json's: the same values
    (an integer past 64 bits stays the integer, not orjson's float; NaN and a lone surrogate
    are read), and the same error for text json refuses (the store's one line quotes it)."""
    from app.core.timeline import load_json

    assert _read(load_json, text) == _read(json.loads, text)


@given(values)
@settings(max_examples=300, deadline=None)
def test_what_castra_writes_is_read_back_as_json_reads_it(value: Any) -> None:
    from app.core.timeline import load_json

    for text in (json.dumps(value, ensure_ascii=False), json.dumps(value)):
        assert repr(load_json(text)) == repr(json.loads(text))
        assert repr(load_json(text.encode())) == repr(json.loads(text))


@given(st.floats(allow_nan=False) | st.integers(-(2**80), 2**80))
@settings(max_examples=500, deadline=None)
def test_every_number_is_read_back_exactly(number: float) -> None:
    from app.core.timeline import load_json

    text = json.dumps({"n": [number]})
    got = load_json(text)["n"][0]
    assert type(got) is type(number) and got == number


def test_without_orjson_json_reads_every_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """orjson only speeds reading: an environment without it reads the same values, and
    a state is not called damaged for want of it (a snapshot said "No module named
    'orjson'" as the store's damaged-data line)."""
    import sys

    from app.core.timeline import load_json, pack_snapshot, unpack_snapshot

    state = {"units": [{"id": "A1", "x": 1.5}], "turn": 3, "name": "Cannæ"}
    monkeypatch.setitem(sys.modules, "orjson", None)  # importing it raises ImportError
    assert unpack_snapshot(pack_snapshot(state)) == state
    for text in _JSON_TEXTS:
        assert _read(load_json, text) == _read(json.loads, text)


@given(st.text(alphabet="0123456789 ,:", max_size=120))
@settings(max_examples=500, deadline=None)
def test_long_numbers_are_found_from_every_sixth_byte_as_from_every_byte(text: str) -> None:
    """The quick look for nineteen digits in a row (every sixth byte first) says what a
    look at every byte says."""
    from app.core.timeline import _DIGITS, _LONG, _may_hold_long

    data = text.encode()
    assert _may_hold_long(data) == (_LONG in data.translate(_DIGITS))


@pytest.mark.parametrize("digits", [18, 19, 20, 25])
def test_an_integer_past_64_bits_is_read_exactly_wherever_it_stands(digits: int) -> None:
    """At every place in the text a long integer may start (relative to the quick look's
    every sixth byte), it is read as json reads it, not as orjson's float."""
    from app.core.timeline import load_json

    number = int("9" * digits)
    for pad in range(13):
        text = json.dumps({"a": "x" * pad, "n": [number]})
        got = load_json(text)["n"][0]
        assert type(got) is int and got == number


def test_a_packed_part_is_the_value_it_holds_to_everything_that_reads_a_state() -> None:
    """A state read back with a part stored apart (:class:`Packed`) digests, diffs and
    takes changes as the same state with the part in place; the part is read only when
    something needs its value, and a part that is not JSON is refused when read."""
    from app.core.timeline import Packed, canonical

    part = {"units": [{"id": "a", "end": 3}, {"id": "b", "end": 0}]}
    whole = {"name": "c", "battles": [{"id": "x", "result": part}]}
    text = b"....." + canonical(part) + b"..."

    def packed() -> Packed:
        return Packed(text, 5, len(text) - 3)

    held = packed()
    state = {"name": "c", "battles": [{"id": "x", "result": held}]}
    assert canonical(state) == canonical(whole) and digest(state) == digest(whole)
    assert held.read and held.value() == part and held.value() is held.value()
    lazy = packed()
    same = {"name": "d", "battles": state["battles"]}
    assert diff(state, same) == {"name": {"whole": "d"}} and not lazy.read
    other = {"name": "c", "battles": [{"id": "x", "result": lazy}]}
    changed = {"name": "c", "battles": [{"id": "x", "result": {"units": part["units"][:1]}}]}
    change = diff(other, changed)
    assert lazy.read and change == diff(whole, changed)
    assert apply_delta({"name": "c", "battles": [{"id": "x", "result": packed()}]}, change) == (
        changed
    )
    assert apply_delta(state, {"name": {"whole": "e"}})["battles"] is state["battles"]
    with pytest.raises(ValueError):
        Packed(b"[1,", 0, 3).value()
    with pytest.raises(TypeError):
        canonical({"x": object()})
