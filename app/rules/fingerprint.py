"""A fingerprint of a ruleset folder's data, so a battle can tell whether the data it was
recorded with has changed since (a house-rules edit, or a Castra update).

The fingerprint is the SHA-256 of the five TOML files' bytes, read in the loader's fixed
order (:data:`app.rules.folder.FILES`), each framed by its name and length so that moving
bytes from one file to the next changes it too. ``data_version`` alone is not enough: a
house-rules edit rarely bumps it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from app.rules.folder import FILES, MAX_FILE_BYTES
from app.rules.inputs import InputError, read_regular_file
from app.rules.ruleset import Ruleset


def folder_fingerprint(folder: Path) -> str:
    """The hex SHA-256 of ``folder``'s ruleset files; a missing or unreadable file (or one
    that is not a regular file, or over the loader's size limit) counts as such (rulesets
    built in code, as tests do, have no folder)."""
    digest = hashlib.sha256()
    for name in FILES:
        try:
            data = read_regular_file(Path(folder) / name, MAX_FILE_BYTES)
        except InputError:
            digest.update(f"{name}\0missing\0".encode())
            continue
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def fingerprint(ruleset: Ruleset) -> str:
    """The fingerprint of the folder ``ruleset`` was loaded from, as the files are now."""
    return folder_fingerprint(ruleset.folder)
