"""What every ruleset's tests start from: the engine whose package the test module sits in
(``tests/rulesets/<package>/``), its built-in folder, that folder loaded, and its tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.rules.engine import Engine
from app.rules.registry import BUILTIN_DIR
from app.rules.ruleset import Ruleset
from app.rulesets import engines, load_ruleset


@pytest.fixture(scope="module")
def engine(request: pytest.FixtureRequest) -> Engine:
    """The engine of the test module's folder (``tests/rulesets/gsb/...``: ``gsb``)."""
    package = Path(request.path).parent.name
    found = [e for e in engines() if e.package_name == package]
    assert found, f"no engine has the package {package!r}"
    return found[0]


@pytest.fixture(scope="module")
def builtin_folder(engine: Engine) -> Path:
    """The engine's built-in ruleset folder (its TOML data)."""
    return BUILTIN_DIR / engine.builtin_folder


@pytest.fixture(scope="module")
def rs(builtin_folder: Path) -> Ruleset:
    """The built-in ruleset, loaded afresh for the module."""
    return load_ruleset(builtin_folder)


@pytest.fixture(scope="module")
def t(rs: Ruleset) -> Any:
    """The ruleset's tables, as its engine's own tables model (each module annotates it)."""
    assert isinstance(rs.tables, rs.engine.tables_model)
    return rs.tables
