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
from app.core.battle.group import GroupMove, GroupPlan, plan_group
from app.core.battle.leader_fate import AdjustLeader
from app.core.battle.moves import Charge, Deploy, plan_charge
from app.core.battle.session import BattleSession, LogEntry, ReplayError, Step
from app.core.battle.setup import Table, default_table, fitting_table, new_battle
from app.core.battle.state import BattleLeader, BattleState, BattleUnit, SideInfo, TerrainPiece
from app.core.battle.terrain import AddTerrain, EditTerrain, LayOutTable, RemoveTerrain, SetTable

__all__ = [
    "Act",
    "AddTerrain",
    "Adjust",
    "AdjustLeader",
    "AttachLeader",
    "BattleCommand",
    "BattleLeader",
    "BattleSession",
    "BattleState",
    "BattleUnit",
    "Charge",
    "CommandError",
    "Deploy",
    "EditTerrain",
    "EndBattle",
    "GroupMove",
    "GroupPlan",
    "LayOutTable",
    "LogEntry",
    "MoveUnit",
    "NextPhase",
    "RemoveTerrain",
    "ReplayError",
    "SetTable",
    "SideInfo",
    "StartBattle",
    "Step",
    "Table",
    "TerrainPiece",
    "command_from_dict",
    "default_table",
    "fitting_table",
    "new_battle",
    "plan_charge",
    "plan_group",
]
