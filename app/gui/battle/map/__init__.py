"""The battle map: the table, its terrain and units drawn at their real size, with the
mouse and keyboard ways of moving, measuring and editing (:class:`BattleMap`)."""

from app.gui.battle.map.view import OVERLAYS, TOOLS, BattleMap

__all__ = ["OVERLAYS", "TOOLS", "BattleMap"]
