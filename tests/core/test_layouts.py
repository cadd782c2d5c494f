"""User layouts kept as files: saved by name, listed, a same-named one kept unless replaced,
another layout's file never overwritten, and a bad or special file reported in one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.core.layouts import file_name, save_layout, saved_layouts
from app.rules.layouts import READY_MADE, Layout, LayoutError


def test_save_list_and_replace(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    assert saved_layouts(folder) == ([], [])
    mine = Layout("My Ford!", READY_MADE[1].pieces)
    path = save_layout(folder, mine)
    assert path.name == "my-ford.json" == file_name(mine.name)
    assert saved_layouts(folder) == ([mine], [])
    with pytest.raises(LayoutError, match="already a saved layout 'My Ford!'"):
        save_layout(folder, Layout("my ford!", ()))
    save_layout(folder, Layout("my ford!", ()), replace=True)
    assert saved_layouts(folder)[0] == [Layout("my ford!", ())]
    # another name that makes the same file name gets a file of its own
    other = save_layout(folder, Layout("My ford?", ()))
    assert other.name == "my-ford-2.json"
    assert [lay.name for lay in saved_layouts(folder)[0]] == ["my ford!", "My ford?"]
    assert not list(folder.glob("*.tmp"))


def test_a_ready_made_table_name_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    for name in ("Hills and woods", "OPEN PLAIN"):
        with pytest.raises(LayoutError, match="is the name of a ready-made table"):
            save_layout(folder, Layout(name, READY_MADE[2].pieces), replace=True)
    assert not folder.exists()


def test_bad_files_are_reported_and_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    save_layout(folder, Layout("good", ()))
    (folder / "broken.json").write_text("{nope", encoding="utf-8")
    (folder / "binary.json").write_bytes(b"\xff\xfe\x00")
    os.mkfifo(folder / "pipe.json")
    layouts, problems = saved_layouts(folder)
    assert [lay.name for lay in layouts] == ["good"]
    assert len(problems) == 3 and all("\n" not in p for p in problems)
    assert any("pipe.json" in p and "not a regular file" in p for p in problems)
