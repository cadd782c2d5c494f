"""The user data folder (platformdirs; ``$CASTRA_HOME`` overrides it) and the caches in it
that the core reads through: a module of its own, importing nothing of Castra's, so that the
core may find them without :mod:`app.paths` (which loads rulesets)."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir


def data_dir() -> Path:
    """The user data folder (``$CASTRA_HOME`` overrides it, for tests and portable use)."""
    override = os.environ.get("CASTRA_HOME")
    return Path(override) if override else Path(user_data_dir("castra", appauthor=False))


def scenario_cache_dir() -> Path:
    """Where validated scenario files are cached (``<data folder>/cache/scenarios``)."""
    return data_dir() / "cache" / "scenarios"
