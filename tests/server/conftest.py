"""The club (players ann and bob, umpire uma) is the ``club`` fixture of tests/conftest.py;
the store tests' roster is here too."""

from __future__ import annotations

from tests.conftest import Club
from tests.store.conftest import full_roster  # noqa: F401  (a fixture here too)

__all__ = ["Club"]
