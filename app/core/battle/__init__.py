"""Battles: state, commands with undo/redo/replay, recorded dice (no Qt, no database)."""

from app.core.battle.commands import (
    Act,
    Adjust,
    AttachLeader,
    BattleCommand,
    CommandError,
    EndBattle,
    MoveUnit,
    NextPhase,
    StartBattle,
    command_from_dict,
)
from app.core.battle.leader_fate import AdjustLeader
from app.core.battle.session import BattleSession, LogEntry, ReplayError, Step
from app.core.battle.setup import Table, default_table, new_battle
from app.core.battle.state import BattleLeader, BattleState, BattleUnit, SideInfo, TerrainPiece

__all__ = [
    "Act",
    "Adjust",
    "AdjustLeader",
    "AttachLeader",
    "BattleCommand",
    "BattleLeader",
    "BattleSession",
    "BattleState",
    "BattleUnit",
    "CommandError",
    "EndBattle",
    "LogEntry",
    "MoveUnit",
    "NextPhase",
    "ReplayError",
    "SideInfo",
    "StartBattle",
    "Step",
    "Table",
    "TerrainPiece",
    "command_from_dict",
    "default_table",
    "new_battle",
]
