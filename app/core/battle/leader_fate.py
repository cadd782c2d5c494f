"""Correct a leader's fate by hand (the table is the authority, as for units with
``Adjust``): wounded with a number of wounds, killed, captured, or fit again. The battle's
result, and so the campaign, takes the leader's fate from the final state.

Its own module so the commands module stays as it is; it registers itself in
:data:`app.core.battle.commands.COMMANDS` (imported by ``app.core.battle``), so a stored
battle holding it reads back."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Literal

from app.core.battle.commands import COMMANDS, BattleCommand, CommandError, Context, Executed
from app.core.battle.state import BattleState
from app.core.roster import MAX_WOUNDS


@dataclass(frozen=True)
class AdjustLeader(BattleCommand):
    kind: ClassVar[str] = "leader-fate"
    leader: str = ""
    status: Literal["fit", "wounded", "killed", "captured"] = "fit"
    wounds: int | None = None

    @property
    def label(self) -> str:
        return f"Set {self.leader} {self.status}"

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        if state.result is not None:
            raise CommandError(f"the battle is over ({state.result.reason}); undo to go back")
        if self.status not in ("fit", "wounded", "killed", "captured"):
            raise CommandError(f"{self.status!r} is not fit, wounded, killed or captured")
        try:
            leader = state.leader(self.leader)
        except KeyError:
            known = ", ".join(ld.id for ld in state.leaders) or "none"
            raise CommandError(
                f"no leader {self.leader!r} in this battle (leaders: {known})"
            ) from None
        wounds = leader.wounds if self.wounds is None else self.wounds
        if self.status == "wounded" and self.wounds is None:
            wounds = leader.wounds + 1
        if not 0 <= wounds <= MAX_WOUNDS:
            raise CommandError(f"wounds must be from 0 to {MAX_WOUNDS}")
        attached = leader.attached_to if self.status in ("fit", "wounded") else None
        new = replace(leader, status=self.status, wounds=wounds, attached_to=attached)
        text = f"By hand: {leader.name} is {self.status}"
        if wounds:
            text += f" ({wounds} wound{'s' if wounds != 1 else ''})"
        return Executed(state.replace_leader(new), (text + ".",))


COMMANDS[AdjustLeader.kind] = AdjustLeader
