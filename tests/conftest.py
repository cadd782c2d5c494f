"""Shared fixtures: the real rulesets, loaded once per test session."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from app.rules.registry import BUILTIN_DIR, Registry
from app.rulesets import find_engine


@pytest.fixture(scope="session")
def registry() -> Registry:
    reg = Registry.load(find_engine, BUILTIN_DIR, [])
    assert not reg.failures, reg.failure_lines()
    return reg
