"""A campaign in play: its starting state, its steps (each with the campaign it made), and a
cursor for undo and redo. Steps hold no dice, so doing one again gives the same campaign;
a redo checks that it does."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from app.core.campaign.model import Campaign, CampaignError, CampaignSide
from app.core.campaign.steps import Step
from app.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from app.core.timeline import Timeline

#: steps one campaign may hold (undo history included)
MAX_STEPS = 5_000


class Done:
    """A step done and the campaign it made. A stored campaign gives either as a function
    that builds it: its step is decoded when first read (and kept; steps are small), its
    campaign rebuilt from the store's changes each time it is read (the store's timeline
    keeps a few), so loading a campaign decodes nothing but what is shown. ``kind`` and
    ``label`` are known without decoding the step."""

    __slots__ = ("_campaign", "_step", "kind", "label")

    def __init__(
        self,
        step: Step | Callable[[], Step],
        campaign: Campaign | Callable[[], Campaign],
        *,
        kind: str | None = None,
        label: str | None = None,
    ) -> None:
        self._step = step
        self._campaign = campaign
        if kind is None or label is None:
            made = self.step
            kind, label = made.kind, made.label
        self.kind: str = kind
        self.label: str = label

    @property
    def step(self) -> Step:
        if not isinstance(self._step, Step):
            self._step = self._step()
        return self._step

    @property
    def campaign(self) -> Campaign:
        c = self._campaign
        return c if isinstance(c, Campaign) else c()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Done):
            return NotImplemented
        return self is other or (self.step, self.campaign) == (other.step, other.campaign)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Done({self.label!r})"


class CampaignSession:
    def __init__(
        self,
        ruleset: Ruleset,
        start: Campaign,
        *,
        done: list[Done] | None = None,
        cursor: int | None = None,
        version: int | None = None,
        timeline: Timeline[Any] | None = None,
    ) -> None:
        """``version``: the stored campaign's version when it was loaded (the store refuses
        a write from a stale copy). ``timeline``: a stored campaign's recorded states (the
        store writes a new step as its change from the state before, read from here)."""
        if start.ruleset != ruleset.id:
            raise CampaignError(f"the campaign is for {start.ruleset}, not {ruleset.id}")
        self.ruleset = ruleset
        self.start = start
        self.done: list[Done] = done or []
        self.cursor = len(self.done) if cursor is None else cursor
        self.version = version
        self.timeline = timeline
        #: the sides after a stored step, without the rest of the campaign (the store's)
        self.read_sides: Callable[[int], tuple[CampaignSide, ...]] | None = None
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

    def sides_at(self, n: int) -> tuple[CampaignSide, ...]:
        """The sides after step ``n`` (what the strength chart reads of every past state):
        for a stored step, read from the store's timeline without building its battles."""
        if self.read_sides is not None and n <= self.stored:
            return self.read_sides(n)
        return self.at(n).sides

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
