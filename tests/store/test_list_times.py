"""The roster list reads each roster's time in one call (issue 14): the same time as
:func:`parse_time` gives, for every form of text a store may hold."""

from __future__ import annotations

import pytest

from app.store.read import StoreDamaged, _time_of, parse_time


@pytest.mark.parametrize(
    "text",
    [
        "2026-11-26 03:49:51.512828",  # as SQLAlchemy writes it
        "2026-11-26 03:49:51",
        "2026-11-26T03:49:51.5",
        "2026-11-26 03:49",
        "2026-11-26 03",
        "2026-11-26",
        "2026-11-26T03:49:51+02:00",  # a zone of its own
        "2026-11-26T03:49:51Z",
    ],
)
def test_a_roster_time_reads_as_parse_time_reads_it(text: str) -> None:
    assert _time_of(text, 7) == parse_time(text, "x")
    assert _time_of(text, 7).utcoffset() is not None


@pytest.mark.parametrize("value", ["yesterday", "", "2026-13-01 00:00", 12, b"2026-11-26"])
def test_a_bad_time_names_the_roster(value: object) -> None:
    with pytest.raises(StoreDamaged, match="roster 7 updated_at"):
        _time_of(value, 7)
