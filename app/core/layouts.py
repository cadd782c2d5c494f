"""The user's own table layouts: JSON files in a folder (the data folder's ``tables/``), one
per layout, written atomically; a bad file is skipped with a one-line message naming it."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from app.rules.inputs import InputError, decode_utf8, read_regular_file
from app.rules.layouts import (
    MAX_FILE,
    READY_MADE,
    Layout,
    LayoutError,
    layout_from_json,
    layout_to_json,
)

#: Most layout files read from the folder (the rest are ignored, with a message).
MAX_FILES = 500


def file_name(name: str) -> str:
    """The file a layout called ``name`` is saved in: its name in lower case, letters and
    digits kept, the rest as dashes."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:60] or "layout"
    return f"{slug}.json"


def read_layout(path: Path) -> Layout:
    """One layout file (:class:`LayoutError` naming the file and what is wrong)."""
    try:
        text = decode_utf8(read_regular_file(path, MAX_FILE, what="layout file"))
        return layout_from_json(text)
    except (InputError, LayoutError) as exc:
        raise LayoutError(f"{path}: {exc}") from None


def saved_layouts(folder: Path) -> tuple[list[Layout], list[str]]:
    """The layouts saved in ``folder`` (by name) and a line for each file that could not be
    read; no folder is no layouts."""
    try:
        paths = sorted(p for p in folder.iterdir() if p.suffix == ".json")
    except (FileNotFoundError, NotADirectoryError):
        return [], []
    except OSError as exc:
        return [], [f"{folder}: {exc.strerror or exc}"]
    layouts: list[Layout] = []
    problems: list[str] = []
    if len(paths) > MAX_FILES:
        problems.append(f"{folder}: more than {MAX_FILES} layout files; the rest are ignored")
    for path in paths[:MAX_FILES]:
        try:
            layouts.append(read_layout(path))
        except LayoutError as exc:
            problems.append(str(exc))
    return sorted(layouts, key=lambda lay: lay.name.casefold()), problems


def save_layout(folder: Path, layout: Layout, *, replace: bool = False) -> Path:
    """Save ``layout`` in ``folder`` (made if need be); a layout of the same name is kept
    unless ``replace`` (:class:`LayoutError`), and a file of another layout is never
    overwritten; the name of a ready-made table is refused (a layout so named could never be
    chosen, since the ready-made one is found first). Written to a temporary file first, so
    a failure leaves no partial file."""
    taken = next((r.name for r in READY_MADE if r.name.casefold() == layout.name.casefold()), None)
    if taken is not None:
        raise LayoutError(f"{taken!r} is the name of a ready-made table; choose another name")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file_name(layout.name)
    n = 1
    while path.exists():
        try:
            there = read_layout(path).name
        except LayoutError:
            there = None
        if there is not None and there.casefold() == layout.name.casefold():
            if not replace:
                raise LayoutError(f"there is already a saved layout {there!r}")
            break
        n += 1
        path = folder / file_name(f"{layout.name} {n}")
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(layout_to_json(layout), encoding="utf-8")
        tmp.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise
    return path
