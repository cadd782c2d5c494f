"""The map the battle window shows: the real :class:`BattleMap` once its branch has landed,
until then a plain stand-in with the same names (one import to change)."""

from __future__ import annotations

from app.gui.battle.placeholder_map import BattleMap

__all__ = ["BattleMap"]
