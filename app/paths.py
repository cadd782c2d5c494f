"""Where Castra keeps its files: the user data folder (platformdirs) and the rulesets."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from app.datadir import data_dir as data_dir
from app.datadir import scenario_cache_dir as scenario_cache_dir

if TYPE_CHECKING:
    from app.rules.registry import Registry


def user_rulesets_dir() -> Path:
    """House-rules variants: ruleset folders copied here load after the built-in ones."""
    return data_dir() / "rulesets"


def user_scenarios_dir() -> Path:
    """A club's own historical battles: TOML files here load after the built-in ones."""
    return data_dir() / "scenarios"


def cache_dir() -> Path:
    """Where parsed ruleset files are cached (``<data folder>/cache/rulesets``)."""
    return data_dir() / "cache" / "rulesets"


def load_registry(only: set[str] | None = None) -> Registry:
    """Every ruleset (built-in, then the user's house rules), or just the built-in folders
    named in ``only``; ``Registry.load_more(BUILTIN_DIR, [user_rulesets_dir()])`` adds the
    rest."""
    from app.rules.registry import BUILTIN_DIR, Registry  # pydantic: loaded when needed
    from app.rulesets import find_engine

    return Registry.load(
        find_engine, BUILTIN_DIR, [user_rulesets_dir()], only=only, cache_dir=cache_dir()
    )
