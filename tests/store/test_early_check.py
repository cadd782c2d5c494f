"""The store's quick check started ahead of opening it (issue 14): the window's start runs
it on a thread while it builds the window, and opening the store waits for its answer
instead of checking again; a damaged file is refused in the same words, untouched."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from app.core.roster import Roster
from app.store import StoreError, engine, open_store, save_roster
from app.store.engine import EarlyCheck, start_check


def _store_with_rosters(path: Path, n: int = 30) -> None:
    with open_store(path) as store:
        for i in range(n):
            save_roster(
                store,
                roster=Roster(name=f"R{i}" * 50, ruleset="r", army="a", side="s", scale=None),
            )


def _count_checks(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    checks: list[Path] = []
    real = engine._quick_check
    monkeypatch.setattr(engine, "_quick_check", lambda p: checks.append(p) or real(p))
    return checks


def test_opening_takes_the_early_checks_answer(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _store_with_rosters(db_path, 3)
    checks = _count_checks(monkeypatch)
    early = start_check(db_path)
    assert isinstance(early, EarlyCheck)
    open_store(db_path, early=early).close()
    assert checks == [db_path]  # once, on the thread
    open_store(db_path, early=start_check(db_path.with_name("other.sqlite3"))).close()
    assert checks == [db_path, db_path]  # an answer for no file, or another: checked here


def test_a_damaged_file_is_refused_in_the_same_words_untouched(db_path: Path) -> None:
    _store_with_rosters(db_path)
    data = bytearray(db_path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page : 3 * page] = os.urandom(2 * page)  # pages 2 and 3: garbage
    db_path.write_bytes(bytes(data))
    with pytest.raises(StoreError) as plain:
        open_store(db_path)
    early = start_check(db_path)
    assert early is not None
    with pytest.raises(StoreError) as ahead:
        open_store(db_path, early=early)
    assert str(ahead.value) == str(plain.value) and "not changed" in str(ahead.value)
    assert db_path.read_bytes() == bytes(data)


def test_no_early_check_where_opening_makes_none(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert start_check(db_path) is None  # no file yet: opening creates it
    text = tmp_path / "notes.txt"
    text.write_text("SQLite format 2 is not what you think\n", encoding="utf-8")
    assert start_check(text) is None  # opening says it is not a Castra database
    assert start_check("postgresql://club.example/castra") is None  # a club server
    _store_with_rosters(db_path, 1)
    monkeypatch.setattr(engine, "QUICK_CHECK_MAX_BYTES", 0)  # a big store, shut cleanly
    assert start_check(db_path) is None
    with open_store(db_path):  # this process has it open: no check when reopened
        monkeypatch.setattr(engine, "QUICK_CHECK_MAX_BYTES", 10**9)
        assert start_check(db_path) is None


def test_opening_reads_the_file_only_once_the_early_check_has_ended(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The early check's connection is not one ``_OPEN_HERE`` counts: opening reads the
    file's header (and closes that descriptor, which drops every lock the process holds on
    the file) only after the check has ended, so a slow check keeps its lock to the end."""
    _store_with_rosters(db_path, 3)
    events: list[str] = []
    real_check, real_refuse = engine._quick_check, engine._refuse_read_only

    def slow_check(path: Path) -> None:
        time.sleep(0.2)
        real_check(path)
        events.append("check ended")

    def probe(path: Path, what: Path) -> None:
        events.append("file read")
        real_refuse(path, what)

    monkeypatch.setattr(engine, "_quick_check", slow_check)
    early = start_check(db_path)
    assert early is not None
    monkeypatch.setattr(engine, "_refuse_read_only", probe)
    open_store(db_path, early=early).close()
    assert events[0] == "check ended" and "file read" in events
