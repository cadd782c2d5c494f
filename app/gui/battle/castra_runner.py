"""Castra playing its side in the battle window (issue 30): each of its commands goes through
the controller as a player's does (checked, saved, logged, undoable), one at a time on a
timer so the player can follow it on the map. "Play its turn now" plays on until it is the
player's turn; "Step" gives one command; with "plays by itself" on, Castra starts as soon as
it is its turn (after the player's Next phase), but not after an undo or a redo (the player
is looking back). Any change the player makes stops it; the next command is always worked
out afresh from the battle as it stands."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from app.core.battle.autoplay import Table
from app.core.battle.opponent import Choice
from app.core.battle.players import players_of
from app.gui.battle.controller import BattleController

#: milliseconds between two of Castra's commands, by pace
PACES = {"fast": 150, "normal": 600, "slow": 1500}


class CastraRunner(QObject):
    #: a command Castra gave (the choice, with its reason in words)
    acted = Signal(object)
    #: Castra started (True) or stopped (False) playing
    running = Signal(bool)
    #: one line for the status bar
    message = Signal(str)

    def __init__(self, controller: BattleController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.table = Table.from_battle(controller.session.state)
        self.pace = "normal"
        #: start by itself when it becomes Castra's turn
        self.auto = True
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._tick)
        # starts once the window has shown the change (its own timer: it goes with the
        # runner, and with it the hold it has on the runner)
        self._start_later = QTimer(self)
        self._start_later.setSingleShot(True)
        self._start_later.setInterval(0)
        self._start_later.timeout.connect(self._auto_start)
        self._playing = False
        self._acting = False
        self.last: Choice | None = None
        #: an undo or redo holds Castra back until the player plays on or asks it to
        self._held = False
        controller.done.connect(self._done)
        controller.changed.connect(self._changed)

    @property
    def plays(self) -> bool:
        """Whether Castra plays a side of this battle."""
        return bool(self.table.players)

    @property
    def playing(self) -> bool:
        return self._playing

    def words(self) -> str:
        """Who Castra plays, in words."""
        state = self.controller.session.state
        players = players_of(state)
        if not players:
            return "Castra plays no side of this battle"
        parts = [f"{state.sides[s].name}: {p.words()}" for s, p in sorted(players.items())]
        return "; ".join(parts)

    def plan_words(self) -> str:
        """The plan of each side Castra plays, as last chosen."""
        out = []
        state = self.controller.session.state
        for side, player in sorted(self.table.players.items()):
            plan = player.plan
            if plan is not None:
                out.append(f"{state.sides[side].name}: {plan.words}")
        return "; ".join(out)

    def next_choice(self) -> Choice | None:
        c = self.controller
        if c.read_only or not self.plays:
            return None
        return self.table.next(c.session)

    # ------------------------------------------------------------------ playing

    def play_turn(self) -> bool:
        """Play on, a command at a time at the pace set, until it is the player's turn or
        the battle ends. False when there is nothing for Castra to do now."""
        self._held = False
        if self.next_choice() is None:
            self.message.emit("Castra has nothing to do now: it is your turn")
            return False
        self._set_playing(True)
        self.timer.start(0)
        return True

    def step(self) -> Choice | None:
        """Give Castra's next command at once (and stop playing on)."""
        self.pause()
        self._held = False
        return self._act()

    def pause(self) -> None:
        self.timer.stop()
        self._set_playing(False)

    def set_pace(self, pace: str) -> None:
        if pace in PACES:
            self.pace = pace

    def _set_playing(self, on: bool) -> None:
        if on != self._playing:
            self._playing = on
            self.running.emit(on)

    def _tick(self) -> None:
        if not self._playing:
            return
        if self._act() is None:
            self._set_playing(False)
            return
        self.timer.start(PACES[self.pace])

    def _act(self) -> Choice | None:
        choice = self.next_choice()
        if choice is None:
            return None
        self._acting = True
        try:
            step = self.controller.execute(choice.command)
        finally:
            self._acting = False
        if step is None:  # refused: the rules said no (the controller said why)
            self.table.refused(choice)
            return choice
        self.last = choice
        self.acted.emit(choice)
        return choice

    def _done(self, step: object, _before: object) -> None:
        if not self._acting:
            self._held = step is None

    def _changed(self) -> None:
        """The battle changed: by the player (Castra stops), or by Castra itself; with
        ``auto`` on, Castra starts when it becomes its turn."""
        if self._acting:
            return
        if self._playing:
            self.pause()
            self.message.emit("Castra stopped: the battle changed")
            return
        if self.auto and self.plays and not self._held and not self.controller.read_only:
            self._start_later.start()

    def _auto_start(self) -> None:
        if self._playing or not self.auto:
            return
        if self.next_choice() is not None:
            self._set_playing(True)
            self.timer.start(PACES[self.pace])
