"""The registry of engines is the folder ``app/rulesets/``: every package there is found
(declaring its ``ENGINE`` named after it), each built-in ruleset folder's engine is among
them, and a name that is not a package there is refused without importing anything."""

from __future__ import annotations

import sys
import tomllib

import pytest

from app.rules.registry import BUILTIN_DIR, Registry
from app.rulesets import engines, find_engine, package_names
from tests.builtin import ruleset_ids


def test_every_package_is_an_engine_named_after_it() -> None:
    found = engines()
    assert [e.package_name for e in found] == package_names()
    for engine in found:
        assert engine.name.replace("-", "_") == engine.package_name
        assert find_engine(engine.name) is engine
        assert engine.package == f"app.rulesets.{engine.package_name}"


def test_each_builtin_folder_names_a_found_engine_and_back() -> None:
    heads = {
        folder.name: tomllib.loads((folder / "ruleset.toml").read_text(encoding="utf-8"))
        for folder in sorted(BUILTIN_DIR.iterdir())
        if (folder / "ruleset.toml").is_file()
    }
    assert heads
    for folder, head in heads.items():
        assert find_engine(head["ruleset"]["engine"]).builtin_folder == folder
    for engine in engines():
        assert heads[engine.builtin_folder]["ruleset"]["engine"] == engine.name


@pytest.mark.parametrize("name", ["os", "../d3", "app.rulesets.d3", "D3", "d3 ", "", "leg_vi"])
def test_a_name_not_a_package_here_is_refused(name: str) -> None:
    before = set(sys.modules)
    with pytest.raises(LookupError, match=r"unknown engine .* \(known: "):
        find_engine(name)
    assert not {m for m in set(sys.modules) - before if not m.startswith("app.rulesets.")}


def test_the_tests_walk_every_ruleset_the_registry_loads(registry: Registry) -> None:
    assert ruleset_ids() == tuple(sorted(registry.rulesets))
    assert {rs.engine for rs in registry} == set(engines())
