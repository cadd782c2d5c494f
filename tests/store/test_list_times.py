"""The roster list, made faster for thousands of rosters (issue 14): it reads each roster's
time in one call, the same time as :func:`parse_time` gives for every form of text a store
may hold, and makes each summary at once, the same as ``RosterSummary(...)`` makes it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from app.core.roster import Roster
from app.store import RosterSummary, list_rosters, open_store, save_roster
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


def test_the_list_makes_whole_summaries(tmp_path: Path) -> None:
    """The list makes its summaries without their __init__: each equals, hashes and stays
    frozen as the one __init__ makes, with every field."""
    with open_store(tmp_path / "c.sqlite3") as store:
        rid = save_roster(store, roster=Roster("One", "r", "a", "s", "1:100"))
        (made,) = list_rosters(store)
    fields = {f.name: getattr(made, f.name) for f in dataclasses.fields(RosterSummary)}
    assert set(vars(made)) == set(fields)
    reference = RosterSummary(**fields)
    assert made == reference and hash(made) == hash(reference) and made.id == rid
    assert made.units == 0 and made.scale is not None and made.updated_at.tzinfo is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.name = "Two"  # type: ignore[misc]
    assert dataclasses.replace(made, name="Two").name == "Two"
