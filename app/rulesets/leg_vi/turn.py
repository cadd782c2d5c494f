"""Leg VI Carthago mechanics: a unit's starting state (Unit Organisation) and what happens
as phases begin and end (Phase I initiative and markers, stopping rampages, Phase VII rally).
"""

from __future__ import annotations

from app.rules.mechanics import (
    Dice,
    Effects,
    LeaderEvent,
    Resolution,
    Scalar,
    Side,
    Situation,
    Status,
    TurnView,
    UnitChange,
)
from app.rulesets.leg_vi.base import plural
from app.rulesets.leg_vi.movement import LegVIMovement
from app.rulesets.leg_vi.units import (
    INSPIRE,
    LINES,
    PER_TURN_MARKERS,
    RAMPAGE,
    RAMPAGE_TESTED,
    SHAKEN,
    TURN_START,
    position_key,
    scalar_int,
)


class LegVITurn(LegVIMovement):
    """Leg VI, Unit Organisation and the sequence of play: set-up, initiative, the command
    phase's stop-rampage attempts and the rally phase."""

    # ------------------------------------------------------------------ set-up

    def initial_status(self, troop: str, size: int, grade: str | None) -> Status:
        """Leg VI, Unit Organisation: strength in bases. A legion (the legion lines' first
        troop type, in the legion's 10 bases) stands in quincunx with its three lines; light
        troops are always unformed; other formed troops start in line; elephants move
        freely and have no formation."""
        tt = self.troop_types[troop]
        legion = self.t.legion
        if troop == legion.lines[0].troop and size == self.t.unit_sizes.legion_bases:
            return Status(
                strength=size,
                start_strength=size,
                grade=grade,
                formation="quincunx",
                extra={LINES: len(legion.lines)},
            )
        if grade is None and tt.allowed_grades:
            grade = tt.allowed_grades[0]
        formation = {"formed": "line", "unformed": "unformed"}.get(tt.order)
        return Status(strength=size, start_strength=size, grade=grade, formation=formation)

    # ------------------------------------------------------------------ phases

    def begin_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """Leg VI, Phase I: at the start of each turn dice for initiative (errata
        'initiative-die': a D6 each, re-roll ties), clear last turn's markers, record where
        each unit stands (for the rally rule), reset leaders' actions, and bring in the
        second in command of a leader killed last turn."""
        if self._phase(view) != "command":
            return Resolution()
        die = self.t.sequence.initiative_die
        rolls: list[tuple[int, int]] = []
        for _ in range(1000):
            (a,) = dice.roll(die, f"initiative for {view.side_names[0]}")
            (b,) = dice.roll(die, f"initiative for {view.side_names[1]}")
            rolls.append((a, b))
            if a != b:
                break
        else:  # pragma: no cover - a thousand ties in a row
            raise ArithmeticError("initiative tied a thousand times")
        a, b = rolls[-1]
        winner: Side = 0 if a > b else 1
        words = [
            "Initiative: "
            + "; ".join(
                f"{view.side_names[0]} {x}, {view.side_names[1]} {y}"
                + (" (tie, roll again)" if x == y else "")
                for x, y in rolls
            ),
            f"{view.side_names[winner]} wins the initiative and chooses to move first or second.",
        ]
        others = []
        for c in view.units:
            if c.status.eliminated:
                continue
            remove = PER_TURN_MARKERS & c.status.markers
            others.append(
                UnitChange(
                    c.unit_id,
                    Effects(
                        markers_remove=frozenset(remove),
                        extra={TURN_START: position_key(c)},
                        extra_remove=frozenset({INSPIRE}) & frozenset(c.status.extra),
                    ),
                )
            )
        sides: list[dict[str, Scalar]] = [{"initiative_roll": a}, {"initiative_roll": b}]
        events = []
        for side in (0, 1):
            for key in view.sides[side]:
                if key.startswith("actions_used:"):
                    sides[side][key] = 0
                elif key.startswith("leader_did:"):
                    sides[side][key] = ""
                elif (
                    key.startswith("successor:") and scalar_int(view.sides[side], key) == view.turn
                ):
                    lid = key.split(":", 1)[1]
                    n = self.t.die_of_death.successor_actions
                    sides[side][key] = 0
                    sides[side][f"leader_actions:{lid}"] = n
                    text = f"the second in command takes over from {lid} with {plural(n, 'action')}"
                    events.append(LeaderEvent(lid, "fit", 0, text))
                    words.append(f"{view.side_names[side]}: {text}.")
        return Resolution(
            others=tuple(others),
            sides=(sides[0], sides[1]),
            initiative=winner,
            leader_events=tuple(events),
            explanation=tuple(words),
        )

    def end_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """Leg VI, Phase I ends with the attempts to stop rampaging elephants (those not yet
        tried this turn); Phase VII rallies shaken units halted all turn beyond 8" of
        unbroken enemy, leaving them 4 DPs."""
        phase = self._phase(view)
        if phase == "command":
            return self._auto_stop_rampages(view, dice)
        if phase == "rally":
            return self._auto_rally(view)
        return Resolution()

    def _auto_stop_rampages(self, view: TurnView, dice: Dice) -> Resolution:
        others: list[UnitChange] = []
        words: list[str] = []
        for c in view.units:
            if c.status.eliminated or not c.status.has(RAMPAGE) or c.status.has(RAMPAGE_TESTED):
                continue
            res = self.declared("stop_rampage").resolve(Situation(actor=c, view=view), dice)
            others.append(UnitChange(c.unit_id, res.outcome.attacker))
            words += res.explanation
        return Resolution(others=tuple(others), explanation=tuple(words))

    def _auto_rally(self, view: TurnView) -> Resolution:
        others: list[UnitChange] = []
        words: list[str] = []
        for c in view.units:
            u = self.u(c)
            if c.status.eliminated or u.elephant or not c.status.has(SHAKEN) or u.routing:
                continue
            ok, why = self._rally_check(Situation(actor=c, view=view), u)
            if ok:
                eff = self._rally_effects(u)
                others.append(UnitChange(c.unit_id, eff))
                words.append(f"{c.name} rallies with {self.t.rally.dps_after} DPs ({why}).")
        return Resolution(others=tuple(others), explanation=tuple(words))
