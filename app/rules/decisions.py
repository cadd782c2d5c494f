"""Decisions a side takes that are not a unit's move or fight, and the umpire's default
result, as the mechanics state them for whoever plays a side (a player reading the Turn
dock, or Castra playing the side: issue 30).

Every ruleset's turn has choices besides moving and fighting units: GSB's activation rolls,
MWAN #90's move order and the end of the first side's move, Quincunx's move or counter-move,
D3's Rally and Initiative cards, Leg VI's control tests and its leaders' actions. Each is one
of the ruleset's own actions (an ``Act`` the core resolves and logs like any other); the
mechanics say which are due now through
:meth:`~app.rules.mechanics.Mechanics.side_decisions`, each with the choice Castra takes by
default (documented there) and the others the rules allow. Nothing here knows a rule.

Three rulesets have no victory rule (Quincunx, Leg VI, MWAN #90): the players declare the
result. Where Castra plays a side it takes the umpire's call by a documented default instead
(:class:`UmpireDefault`, in the ruleset's ``tables.toml`` with an errata entry), through
:meth:`~app.rules.mechanics.Mechanics.umpire_result`, and the log says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Literal

from app.rules.record import Field
from app.rules.schema import Strict, Text

if TYPE_CHECKING:  # a ruleset's schema loads this module; the battle's values load with play
    from app.rules.values import Scalar, Side, TurnView, Victory

#: When a decision is taken: ``now``, before the side's units act in this phase (the move
#: order); ``before``, before ``unit`` moves or fights (GSB's activation, Leg VI's control
#: test); ``done``, once the side has done all it will in this phase (MWAN #90's end of move).
When = Literal["now", "before", "done"]


@dataclass(frozen=True)
class SideDecision:
    """A decision the rules leave to ``side`` now: the ruleset's action ``action`` taken as
    an ``Act`` for ``unit`` (and ``target``) or for the side, with ``options``, the choice
    Castra takes by default. ``choices`` are every choice the rules allow (the default among
    them; empty when there is only the default); ``optional`` decisions may be left alone (a
    card's extra action), the others are taken. ``rule`` says why, citing the rule."""

    side: Side
    action: str
    when: When
    rule: str
    unit: str | None = None
    target: str | None = None
    options: Mapping[str, Scalar] = field(default_factory=dict)
    choices: tuple[Mapping[str, Scalar], ...] = ()
    optional: bool = False

    def all_choices(self) -> tuple[Mapping[str, Scalar], ...]:
        """The choices to pick from: ``choices``, or the default alone."""
        return self.choices or (self.options,)


class UmpireDefault(Strict):
    """The result Castra declares where a ruleset has no victory rule (errata
    ``umpire-default`` of each such ruleset): a side that has lost ``lost_share`` of its
    units or more loses (both at once: the larger share loses, equal shares a draw); after
    ``turns`` turns the side that has lost the smaller share of its units wins, equal shares
    a draw. What counts as a unit lost is the ruleset's (destroyed, routed, dispersed, ...)."""

    title: Text
    lost_share: Annotated[float, Field(strict=True, gt=0, le=1, allow_inf_nan=False)]
    turns: Annotated[int, Field(strict=True, ge=1, le=1000)]
    note: str | None = None


def losses_result(
    rule: UmpireDefault,
    view: TurnView,
    lost: Sequence[int],
    started: Sequence[int],
    what: str,
) -> Victory | None:
    """The umpire's default result of :class:`UmpireDefault` with ``lost[s]`` units lost of
    the ``started[s]`` each side began with (``what``: the ruleset's words for a unit lost),
    or None to play on. The reason names the default so the log says it was Castra's call."""
    from app.rules.values import Victory

    share = [lost[s] / started[s] if started[s] else 0.0 for s in (0, 1)]
    names = view.side_names
    head = f"the umpire's call by Castra's default ({rule.title})"

    def tally(s: int) -> str:
        return f"{names[s]} lost {lost[s]} of {started[s]} units"

    broken = [s for s in (0, 1) if started[s] and share[s] >= rule.lost_share - 1e-9]
    if broken:
        if len(broken) == 2 and abs(share[0] - share[1]) < 1e-9:
            return Victory(None, f"{head}: both sides lost {share[0]:.0%} of their units: a draw")
        loser = max(broken, key=lambda s: share[s])
        winner: Side = 1 if loser == 0 else 0
        return Victory(
            winner,
            f"{head}: {tally(loser)} ({what}), at least {rule.lost_share:.0%}: "
            f"{names[winner]} wins",
        )
    if view.turn > rule.turns:
        if abs(share[0] - share[1]) < 1e-9:
            return Victory(None, f"{head}: after {rule.turns} turns {tally(0)}, {tally(1)}: a draw")
        winner = 0 if share[0] < share[1] else 1
        return Victory(
            winner,
            f"{head}: after {rule.turns} turns {tally(0)}, {tally(1)}: "
            f"{names[winner]} lost the smaller share and wins",
        )
    return None
