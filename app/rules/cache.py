"""A cache of ruleset folders' parsed TOML, so that loading a ruleset does not parse its
TOML again while its files are unchanged (tomllib is pure Python: about 15 ms a ruleset).

The cache is plain JSON, one file per folder state, named by the folder's fingerprint
(:func:`app.rules.fingerprint.folder_fingerprint`, the SHA-256 of its five files): a changed
file is a new fingerprint and a miss. It is written only after the folder loaded without a
problem, and what it gives back is checked exactly as TOML would be (bounded read, the data
checks of :mod:`app.rules.inputs`); the models are rebuilt from their validated dumps with
typed checks (:mod:`app.rules.construct`) and anything that does not fit sends the loader
back to the TOML. Nothing in it is executed: no pickle.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from app.rules.inputs import InputError, data_problems, decode_utf8, loads_json, read_regular_file

FORMAT = "castra-ruleset-cache"
VERSION = 1
MAX_CACHE_BYTES = 8_000_000


def read_doc(path: Path, kind: str, version: int, max_bytes: int) -> dict[str, Any] | None:
    """The JSON object of the cache file ``path`` when it is one Castra wrote as ``kind``
    at ``version`` (:func:`write_doc`): read within ``max_bytes`` as a regular file and
    passing the data checks of :mod:`app.rules.inputs`; else None (a miss, or a file that
    does not pass: it is then ignored and rewritten)."""
    try:
        doc = loads_json(decode_utf8(read_regular_file(path, max_bytes)))
    except InputError:
        return None
    if (
        not isinstance(doc, dict)
        or doc.get("format") != kind
        or doc.get("version") != version
        or data_problems(doc, max_depth=48)
    ):
        return None
    return doc


def write_doc(path: Path, doc: dict[str, Any]) -> None:
    """Write ``doc`` as the JSON cache file ``path``, atomically (a temporary file then a
    rename); a failure to write is not an error, and leaves no temporary file."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)
    except (OSError, TypeError, ValueError):
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def read_cache(cache_dir: Path, fingerprint: str, files: tuple[str, ...]) -> dict[str, Any] | None:
    """The cache of the folder state ``fingerprint``: ``files`` (the parsed TOML) and, when
    the rebuild was proven equal, ``validated`` (the validated models' dumps); or None (a
    miss, or a cache that does not pass the checks: it is then ignored and rewritten)."""
    doc = read_doc(cache_dir / f"{fingerprint}.json", FORMAT, VERSION, MAX_CACHE_BYTES)
    if doc is None or not isinstance(doc.get("files"), dict) or set(doc["files"]) != set(files):
        return None
    return doc


def write_cache(
    cache_dir: Path, fingerprint: str, raw: dict[str, Any], validated: dict[str, Any] | None
) -> None:
    """Keep the parsed files of a folder that loaded cleanly, and the dumps of its validated
    models (atomically; a failure to write is not an error: the next load parses the TOML
    again)."""
    write_doc(
        cache_dir / f"{fingerprint}.json",
        {"format": FORMAT, "version": VERSION, "files": raw, "validated": validated},
    )
