"""Quincunx (Duke Seifried, 1999): the battle mechanics.

Every number comes from ``tables.toml`` through :func:`app.rulesets.quincunx.schema.tables`;
the errata (``errata.toml``) say how garbled or silent passages were read, and this module
follows them. The rules as computations without dice (the melee cast by rings and shifts,
the outcome of a difference, missile dice, losses and elephant crews, geometry for command
and the rampage path) live in :mod:`~app.rulesets.quincunx.base`,
:mod:`~app.rulesets.quincunx.melee`, :mod:`~app.rulesets.quincunx.missiles`,
:mod:`~app.rulesets.quincunx.rules` and :mod:`~app.rulesets.quincunx.geometry`; the phase
hooks in :mod:`~app.rulesets.quincunx.turn`. Every action is declared once here
(:meth:`QuincunxMechanics.declare`): its options (:mod:`~app.rulesets.quincunx.options`), a
``prepare`` without dice and a ``play`` that throws them (:mod:`~app.rulesets.quincunx.combat`,
read as :mod:`~app.rulesets.quincunx.throws` says); the base class resolves each action and
counts its exact odds from that one declaration.

State kept on units (``Status``):

- ``rings``: rounds of melee fought without rest (the melee matrix column).
- markers set by the actions for the round's rest check: ``fought``, ``fired``, ``shot_at``
  (the core adds ``moved``); chits ``evaded`` (may not move next round) and ``no_fire``
  (pass-through fire: may not fire next round); ``straggler`` (25%: no combat value),
  ``berserk`` (the last elephant), ``to_rampage`` (a berserk elephant still to rampage this
  turn), ``out_of_command`` (set by the command check).
- ``extra``: ``melee_with`` (still in contact after an undecided round), ``elephant_target``
  and ``elephant_rounds`` (rounds against the current target), ``pre_melee_penalty`` and
  ``pre_melee_rounds`` (the lost pila volley), ``volley_used``, ``peltast_volley`` (loosed
  javelins before the melee), ``evaded_rounds``, ``no_fire_rounds``, ``move_class``
  (moving with a battleline or an elephant battlegroup).

Sides' records: ``initiative_die`` (d10 or d12), ``initiative_cast``, ``won_melee`` (forced
a recoil this turn: d12 next turn) and ``moving`` (this side moves in this round).

Rounds: a Quincunx turn is two rounds (move and counter-move: ``rounds_per_turn = 2``, the
core runs the phases once per round and says which in ``TurnView.round``). The initiative
phase casts the dice only in the first round; the rest phase ends a round and hands the next
one to the other side.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar, Protocol, TypeVar

from app.rules.actions import Action, Throws
from app.rules.mechanics import (
    Combatant,
    Effects,
    Outcome,
    Resolution,
    Side,
    Situation,
    TurnView,
    Victory,
)
from app.rules.ruleset import Ruleset
from app.rules.table import TerrainKind
from app.rulesets.quincunx.combat import Dies, sides
from app.rulesets.quincunx.decisions import QuincunxDecisions
from app.rulesets.quincunx.movement import QuincunxTable
from app.rulesets.quincunx.options import (
    COMMAND_OPTIONS,
    EVADE_OPTIONS,
    ORDER_OPTIONS,
    formation_options,
    melee_options,
    shoot_options,
)
from app.rulesets.quincunx.rules import MOVE_CLASS, MOVED, MOVING, OUT_OF_COMMAND, Fight, Plan, Shot
from app.rulesets.quincunx.schema import Tables, tables
from app.rulesets.quincunx.turn import QuincunxTurn

X = TypeVar("X")


class QuincunxNeeds(Protocol):
    """What :class:`QuincunxMechanics` declares as actions of the chapters its bases bring:
    the casts and their setups of :class:`~app.rulesets.quincunx.combat.QuincunxCombat`, and
    an elephant's trample of :class:`~app.rulesets.quincunx.melee.QuincunxMelee`."""

    def _play_melee(self, _: Situation, plan: Plan[Fight | Outcome], th: Throws) -> Resolution: ...

    def _play_shoot(self, _: Situation, plan: Plan[Shot | Outcome], th: Throws) -> Resolution: ...

    def _pre_setup(self, sit: Situation) -> Dies | Outcome: ...

    def _play_pre_melee(
        self, _: Situation, plan: Plan[Dies | Outcome], th: Throws
    ) -> Resolution: ...

    def _evade_setup(self, sit: Situation) -> tuple[str, str, int]: ...

    def _play_evade(
        self, _: Situation, plan: Plan[tuple[str, str, int]], th: Throws
    ) -> Resolution: ...

    def _trample_fight(
        self, elephant: Combatant, target: Combatant, pool: Sequence[Combatant] = ()
    ) -> Fight: ...

    def _play_trample(self, _: Situation, plan: Plan[Fight], th: Throws) -> Resolution: ...

    def _rampage_setup(self, sit: Situation) -> None: ...

    def _play_rampage(self, _: Situation, plan: Plan[None], th: Throws) -> Resolution: ...


class QuincunxMechanics(QuincunxDecisions, QuincunxTable, QuincunxTurn, QuincunxNeeds):
    """Quincunx: initiative, missilery, pre-melee volleys, melee by rings, rest, attrition,
    evasion, elephants and their rampage, leaders' bonus and risk, command range, and the
    table (:mod:`~app.rulesets.quincunx.movement`)."""

    engine = "quincunx"
    sequence_rule = "Quincunx, Sequence"
    #: the source's words for the kinds of terrain it names
    terrain_terms: ClassVar[Mapping[TerrainKind, str]] = {
        "woods": "woods",
        "stream": "streams",
        "river": "rivers",
        "road": "roads",
        "hill": "hills",
        "town": "towns",
    }
    strength_unit = "figures"
    #: Quincunx, Sequence: each turn is two rounds, move and counter-move.
    rounds_per_turn = 2

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.t: Tables = tables(ruleset)

    def figure_ranks(self, troop: str) -> int:
        """Quincunx, Formations: a unit stands on the map in the deepest of the ranks its
        troop type forms in (two where the data gives none)."""
        formed = self.troop(troop).ranks_formed
        if formed:
            return max(1, max(int(r) for r in formed))
        return super().figure_ranks(troop)

    # ------------------------------------------------------------------ actions

    def declare(self) -> tuple[Action[Any], ...]:
        """Every Quincunx action, declared once; options labelled from the tables."""
        t = self.t
        plan = self._planned
        return (
            Action(
                "melee",
                "Melee",
                "pair",
                play=self._play_melee,
                prepare=plan("melee", self._melee_setup),
                options=melee_options(t),
                help="Each side casts its die by rings plus modifiers; each 2 points of "
                "difference is a casualty to the lower side, which recoils 4 MF.",
            ),
            Action(
                "shoot",
                "Shoot",
                "pair",
                play=self._play_shoot,
                prepare=plan("shoot", self._shot_setup),
                options=shoot_options(t),
                help="A pair of dice by number firing and range; casualties are the "
                "difference (with modifiers) halved.",
            ),
            Action(
                "pre_melee",
                "Pre-melee volley",
                "pair",
                play=self._play_pre_melee,
                prepare=plan("pre_melee", self._pre_setup),
                help="Pila (d12) against javelins (d10) before the first melee round: the "
                "lower cast is -1 on its melee die in that round; no volley loses.",
            ),
            Action(
                "evade",
                "Evade",
                "pair",
                play=self._play_evade,
                prepare=plan("evade", self._evade_setup),
                options=EVADE_OPTIONS,
                help="Skirmishers (actor) contacted by a formed unit (target): d10 against d6.",
            ),
            Action(
                "trample",
                "Trample",
                "pair",
                play=self._play_trample,
                prepare=plan(
                    "trample",
                    lambda s: self._trample_fight(s.attacker, s.defender, self.pool(s)),
                ),
                help="A berserk elephant (actor) fights a unit in its path with d12+2.",
            ),
            Action(
                "rampage",
                "Rampage",
                "unit",
                play=self._play_rampage,
                prepare=plan("rampage", self._rampage_setup),
                odds=False,
                help="A berserk elephant casts d8 for direction and d6 for move factors and "
                "tramples every unit in its path.",
            ),
            Action(
                "command_check",
                "Command check",
                "unit",
                play=self._play_command,
                prepare=plan("command_check", lambda s: None),
                options=COMMAND_OPTIONS,
                odds=False,
                help="Within 4 MF of the commander or a 2 MF chain of the battlegroup's "
                "units (the others); otherwise out of command and unable to move.",
            ),
            Action(
                "formation",
                "Change formation",
                "unit",
                play=self._play_formation,
                prepare=plan("formation", lambda s: None),
                options=formation_options(t),
                odds=False,
            ),
            Action(
                "order",
                "Move or counter-move",
                "side",
                play=self._play_order,
                prepare=plan("order", lambda s: None),
                options=ORDER_OPTIONS,
                odds=False,
                help="The initiative winner chooses to move first or second.",
            ),
        )

    def _filled(self, action: str, sit: Situation) -> Situation:
        """The situation with every option filled in (defaults) and checked: an option the
        action does not have is a ``KeyError`` naming the options it has."""
        spec = self.declared(action).spec
        merged = spec.defaults()
        for key, value in sit.options.items():
            spec.option(key)
            merged[key] = value
        return replace(sit, options=merged)

    def _planned(
        self, action: str, setup: Callable[[Situation], X]
    ) -> Callable[[Situation], Plan[X]]:
        """A ``prepare`` step: fill in the options, then ``setup`` (no dice)."""

        def prepare(sit: Situation) -> Plan[X]:
            filled = self._filled(action, sit)
            return Plan(filled, setup(filled))

        return prepare

    def victory(self, view: TurnView) -> Victory | None:
        """Quincunx has no victory rule: the players declare the result."""
        return None

    # ------------------------------------------------------------------ actions without dice

    def _play_command(self, _: Situation, plan: Plan[None], th: Throws) -> Resolution:
        """Quincunx, Commanders: a unit out of command cannot move (it may still defend
        itself). ``others`` are the other units of the battlegroup."""
        sit = plan.sit
        unit = sit.attacker
        at = None
        if sit.flag("commander_detached"):
            at = (float(sit.number("commander_x")), float(sit.number("commander_y")))
        ok = self._command(unit, sit.others, at)
        if ok:
            eff = Effects(markers_remove=frozenset({OUT_OF_COMMAND}))
            result = "in command"
        else:
            eff = Effects(markers_add=frozenset({OUT_OF_COMMAND}))
            result = "out of command: cannot move"
        return Resolution(
            outcome=Outcome(attacker=eff, result=result), explanation=(f"{unit.name} is {result}.",)
        )

    def _play_formation(self, _: Situation, plan: Plan[None], th: Throws) -> Resolution:
        """Quincunx, Movement and Formations: peltasts are formed (three ranks) or skirmish
        (one or two ranks); units may move with a battleline or an elephant battlegroup."""
        sit = plan.sit
        unit = sit.attacker
        tr = self.troop(unit.troop)
        to = sit.choice("to")
        if to != unit.status.formation and tr.formation != "either":
            raise ValueError(f"{unit.name} are always {tr.formation}")
        cls = sit.choice("move_class")
        changed = to != unit.status.formation
        eff = Effects(
            formation=to,
            markers_add=frozenset({MOVED}) if changed else frozenset(),
            extra={} if cls == "own" else {MOVE_CLASS: cls},
            extra_remove=frozenset({MOVE_CLASS}) if cls == "own" else frozenset(),
        )
        text = f"{unit.name}: {to}" + ("" if cls == "own" else f", moving as {cls}")
        return Resolution(outcome=Outcome(attacker=eff, result=text), explanation=(text + ".",))

    def _play_order(self, _: Situation, plan: Plan[None], th: Throws) -> Resolution:
        """Quincunx, Sequence: the higher initiative cast chooses move or counter-move."""
        sit = plan.sit
        if sit.side is None:
            raise ValueError("say which side chooses")
        side: Side = sit.side
        if sit.view is not None and sit.view.initiative not in (None, side):
            raise ValueError("only the side with the initiative chooses")
        first = sit.choice("choose") == "move"
        names = sit.view.side_names if sit.view is not None else ("side 0", "side 1")
        mover = names[side] if first else names[1 - side]
        return Resolution(
            sides=sides(side, {MOVING: first}, {MOVING: not first}),
            explanation=(
                f"{names[side]} chooses to {'move' if first else 'counter-move'}: "
                f"{mover} moves first.",
            ),
        )
