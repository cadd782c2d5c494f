"""The built-in rulesets, for tests that walk every one of them: found where the registry
finds them (each folder of ``rulesets/`` with a ``ruleset.toml``), never listed by hand, so a
sixth ruleset is walked as soon as its folder is there. Read at collection time without
validating (``tests/rulesets/test_registry.py`` holds them equal to the loaded registry)."""

from __future__ import annotations

import tomllib
from functools import cache

from app.rules.registry import BUILTIN_DIR


@cache
def ruleset_ids() -> tuple[str, ...]:
    """Every built-in ruleset's id, sorted."""
    ids = []
    for folder in sorted(BUILTIN_DIR.iterdir()):
        head = folder / "ruleset.toml"
        if head.is_file():
            ids.append(str(tomllib.loads(head.read_text(encoding="utf-8"))["ruleset"]["id"]))
    return tuple(sorted(ids))
