"""A campaign in play: its starting state, its steps (each with the campaign it made), and a
cursor for undo and redo. Steps hold no dice, so doing one again gives the same campaign;
a redo checks that it does."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.core.campaign.model import Campaign, CampaignError
from app.core.campaign.steps import Step
from app.rules.ruleset import Ruleset

#: steps one campaign may hold (undo history included)
MAX_STEPS = 5_000


@dataclass(frozen=True)
class Done:
    step: Step
    campaign: Campaign


class CampaignSession:
    def __init__(
        self,
        ruleset: Ruleset,
        start: Campaign,
        *,
        done: list[Done] | None = None,
        cursor: int | None = None,
        version: int | None = None,
    ) -> None:
        """``version``: the stored campaign's version when it was loaded (the store refuses
        a write from a stale copy)."""
        if start.ruleset != ruleset.id:
            raise CampaignError(f"the campaign is for {start.ruleset}, not {ruleset.id}")
        self.ruleset = ruleset
        self.start = start
        self.done: list[Done] = done or []
        self.cursor = len(self.done) if cursor is None else cursor
        self.version = version
        #: steps as the store has them (the first ``stored`` of ``done``); a step done after
        #: an undo drops the stored redo branch from there
        self.stored = len(self.done)
        self.listeners: list[Callable[[CampaignSession], None]] = []

    @property
    def campaign(self) -> Campaign:
        return self.done[self.cursor - 1].campaign if self.cursor else self.start

    def at(self, n: int) -> Campaign:
        """The campaign after step ``n`` (0: as it started)."""
        return self.done[n - 1].campaign if n else self.start

    def preview(self, step: Step) -> Campaign:
        """The campaign ``step`` would make, without doing it."""
        return step.apply(self.campaign, self.ruleset)

    def do(self, step: Step) -> Campaign:
        if len(self.done) >= MAX_STEPS and self.cursor == len(self.done):
            raise CampaignError(f"a campaign holds at most {MAX_STEPS:,} steps")
        after = step.apply(self.campaign, self.ruleset)
        self.stored = min(self.stored, self.cursor)
        del self.done[self.cursor :]
        self.done.append(Done(step, after))
        self.cursor += 1
        self._notify()
        return after

    def can_undo(self) -> bool:
        return self.cursor > 0

    def can_redo(self) -> bool:
        return self.cursor < len(self.done)

    def undo_label(self) -> str | None:
        """What Undo would take back, in words (battles and leaders by name)."""
        return self.done[self.cursor - 1].step.title(self.campaign) if self.can_undo() else None

    def redo_label(self) -> str | None:
        return self.done[self.cursor].step.title(self.campaign) if self.can_redo() else None

    def undo(self) -> Step:
        if not self.can_undo():
            raise CampaignError("nothing to undo")
        self.cursor -= 1
        self._notify()
        return self.done[self.cursor].step

    def redo(self) -> Step:
        if not self.can_redo():
            raise CampaignError("nothing to redo")
        entry = self.done[self.cursor]
        again = entry.step.apply(self.campaign, self.ruleset)
        if again != entry.campaign:
            raise CampaignError(f"redoing {entry.step.label} gave another campaign (a bug)")
        self.cursor += 1
        self._notify()
        return entry.step

    def _notify(self) -> None:
        for listener in list(self.listeners):
            listener(self)
