"""The umpire's leader action: a leader's fate set by hand (the table is the authority, as
for units with ``Adjust``): wounded (one wound more, or a number of wounds), killed, captured,
escaped (he got away: fit, with the wounds he had, no longer with a unit) or fit again. It is
a step like any other (undo, redo, replay); the battle's result, and so the campaign, takes
the leader's fate from the final state.

Its own module so the commands module stays as it is; it registers itself in
:data:`app.core.battle.commands.COMMANDS` (imported by ``app.core.battle``), so a stored
battle holding it reads back."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Literal, get_args

from app.core.battle.base import leader_words
from app.core.battle.commands import COMMANDS, BattleCommand, CommandError, Context, Executed
from app.core.battle.state import BattleState
from app.core.roster import MAX_WOUNDS

Status = Literal["fit", "wounded", "killed", "captured"]
Fate = Literal["fit", "wounded", "killed", "captured", "escaped"]
FATES: tuple[Fate, ...] = get_args(Fate)
#: the umpire's calls as the window offers them
FATE_WORDS: dict[Fate, str] = {
    "fit": "Fit (unhurt)",
    "wounded": "Wounded (one wound more)",
    "killed": "Killed",
    "captured": "Captured",
    "escaped": "Escaped (detached, fit)",
}


@dataclass(frozen=True)
class AdjustLeader(BattleCommand):
    kind: ClassVar[str] = "leader-fate"
    leader: str = ""
    status: Fate = "fit"
    wounds: int | None = None

    @property
    def label(self) -> str:
        return f"Set {self.leader} {self.status}"

    def title(self, state: BattleState) -> str:
        return f"Set {leader_words(state, self.leader)} {self.status}"

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        if state.result is not None:
            raise CommandError(f"the battle is over ({state.result.reason}); undo to go back")
        if self.status not in FATES:
            raise CommandError(f"{self.status!r} is not {', '.join(FATES[:-1])} or {FATES[-1]}")
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
        status: Status = "fit" if self.status == "escaped" else self.status
        text = f"By hand: {leader.name} is {self.status}"
        if wounds:
            text += f" ({wounds} wound{'s' if wounds != 1 else ''})"
        deadly = ctx.mechanics.ruleset.leaders.wounds_to_kill
        if status == "wounded" and deadly is not None and wounds >= deadly:
            status = "killed"
            text += f": the wound that kills ({_nth(deadly)} wound)"
        keep = status in ("fit", "wounded")
        new = replace(
            leader, status=status, wounds=wounds, attached_to=leader.attached_to if keep else None
        )
        return Executed(state.replace_leader(new), (text + ".",))


def _nth(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


COMMANDS[AdjustLeader.kind] = AdjustLeader
