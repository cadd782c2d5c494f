"""Leg VI Carthago mechanics: march and dice moves with fatigue (Move Distances, Fatigue),
redress and rally, reforming, relieving ranks, manoeuvres and rough terrain, and the moves
after a combat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.rules.actions import Throws, Total
from app.rules.mechanics import (
    Combatant,
    Effects,
    Outcome,
    Resolution,
    Scalar,
    Situation,
    TurnView,
)
from app.rulesets.leg_vi.base import LegVIBase, Pending, flag, inches, plural
from app.rulesets.leg_vi.combat_rules import may_relieve, reliefs_left
from app.rulesets.leg_vi.units import (
    EVADING,
    HALTING_MARKERS,
    MOVED,
    OPEN_RANKS,
    PURSUING,
    RAMPAGE,
    REDRESSED,
    REFORMED,
    RELIEFS,
    RELIEVED,
    RETIRING,
    ROLLED_KIND,
    ROLLED_MOVE,
    ROLLED_TURN,
    ROUTING,
    SHAKEN,
    TURN_START,
    IllegalAction,
    LegUnit,
    count_at_least,
    position_key,
    scalar_int,
    take_dps,
)


@dataclass(frozen=True)
class DiceMovePlan:
    """A dice move before the dice: the unit, the kind of move, the dice it rolls (one
    recorded roll each) and whether it is a first rout or retire move."""

    u: LegUnit
    kind: str
    specs: tuple[str, ...]
    first: bool


class LegVIMovement(LegVIBase):
    """Leg VI, Movement: march and dice moves, fatigue, redress, rally, reform, relieve
    ranks, manoeuvres, rough terrain and after-combat moves."""

    # ------------------------------------------------------------------ movement

    def move_allowance(self, unit: Combatant, view: TurnView | None = None) -> float | None:
        """Leg VI, Move Distances: a march move (8" infantry and elephants, 12" cavalry) for
        units beyond 8" of enemy, which must also end beyond 8"; otherwise dice decide
        (``dice_move``). Units halted by a control test, steadied or redressing do not move."""
        u = self.u(unit)
        if unit.status.markers & HALTING_MARKERS:
            return 0.0
        if unit.status.markers & {ROUTING, PURSUING, RAMPAGE}:
            return None
        if self._enemy_within(view, unit, self.t.movement.march_beyond):
            return None
        return self.t.movement.classes[u.troop.movement_class].march_move

    # ------------------------------------------------------------------ dice moves

    def _move_dice(self, sit: Situation, u: LegUnit, kind: str) -> list[str]:
        """Leg VI, Move Distances: AvD plus an optional D6; cavalry a third optional D6 only
        if it moved earlier this turn. Evade, rout, retire and pursue (and a charge carried
        on past evaders) roll every die the unit may use (errata 'maximum-dice')."""
        maximum = kind != "move"
        moved = u.c.status.has(MOVED) or sit.flag("moved_earlier")
        out = []
        for i, d in enumerate(self.t.movement.classes[u.troop.movement_class].dice):
            if not d.optional:
                out.append(d.dice)
            elif d.condition is not None:
                if moved and (maximum or sit.flag("third_d6")):
                    out.append(d.dice)
            elif maximum or flag(sit, "extra_d6", True) or i == 0:
                out.append(d.dice)
        return out

    def _fatigue_on(self, u: LegUnit, kind: str) -> tuple[int, ...]:
        """Leg VI, Fatigue: HI in line (not triarii) a DP for each move die of 5-6; other
        formed troops in line or quincunx on a 6; none for elephants, unformed troops,
        columns, or unformed moves (evade, rout, retire, pursue)."""
        if kind not in ("move", "charge_on") or u.elephant or u.unformed or u.column:
            return ()
        return self.t.fatigue.rules[u.troop.fatigue].on_results

    def _move_distance(self, kind: str, rolled: Sequence[int], first: bool) -> float:
        """The pips, plus 1" a die for a first rout or retire move."""
        mv = self.t.movement
        bonus = mv.bonus_per_die * len(rolled) if kind in mv.bonus_moves and first else 0.0
        return sum(rolled) + bonus

    def _move_outcome(self, u: LegUnit, kind: str, rolled: Sequence[int], first: bool) -> Outcome:
        dist = self._move_distance(kind, rolled, first)
        tired = count_at_least(rolled, self._fatigue_on(u, kind))
        dp = take_dps(u, tired, "fatigue")
        eff = Effects(
            dps=dp.dps,
            markers_add=frozenset({MOVED}) - u.c.status.markers,
            move=f"{kind.replace('_', ' ')} {inches(dist)}",
        )
        result = f"{inches(dist)}" + (f", {plural(dp.dps, 'fatigue DP')}" if dp.dps else "")
        return Outcome(attacker=eff, result=result)

    def _dice_move_prepare(self, sit: Situation) -> DiceMovePlan:
        u = self.u(sit.attacker)
        kind = sit.choice("kind", "move")
        if kind == "move" and sit.attacker.status.markers & HALTING_MARKERS:
            raise IllegalAction(f"{u.name} must stay halted this turn")
        specs = tuple(self._move_dice(sit, u, kind))
        return DiceMovePlan(u, kind, specs, flag(sit, "first", True))

    def _dice_move_play(self, sit: Situation, plan: DiceMovePlan, th: Throws) -> Resolution:
        """Leg VI, Non-March Moves: rolled and moved in full (halting 4" from formed enemy);
        formed units take fatigue DPs, never past 3 DPs in all; first rout and retire moves
        add 1" a die. The distance rolled is recorded in the unit's state as the allowance of
        its move on the table this turn (``LegVITable.move_allowance_for``)."""
        u, kind, specs = plan.u, plan.kind, plan.specs
        what = kind.replace("_", " ")
        rolled = [th.throw(Total(s, f"{what} die for {u.name}"))[0] for s in specs]
        out = self._move_outcome(u, kind, rolled, plan.first)
        if not th.rolling:
            return Resolution(outcome=out)  # the odds count the outcome alone
        if sit.view is not None:
            # the rolled distance is the allowance of the move made on the table this turn
            # (errata 'rolled-move-on-the-table')
            dist = self._move_distance(kind, rolled, plan.first)
            record: dict[str, Scalar] = {
                ROLLED_MOVE: u.c.moved + dist,
                ROLLED_TURN: sit.view.turn,
                ROLLED_KIND: kind,
            }
            out = replace(out, attacker=replace(out.attacker, extra=record))
        dice_words = " + ".join(
            f"{'AvD' if s == 'avd' else s.upper()} {r}" for s, r in zip(specs, rolled, strict=True)
        )
        words = [f"{u.name} {what}: {dice_words} = {out.attacker.move}"]
        if out.attacker.dps:
            words.append(f"fatigue: {plural(out.attacker.dps, 'DP')}")
        return Resolution(outcome=out, explanation=("; ".join(words),))

    # ------------------------------------------------------------------ redress, rally

    def _redress(self, sit: Situation, plan: None, th: Throws) -> Resolution:
        """Leg VI, Redress Ranks: a non-shaken unit standing still (not in combat) removes
        DPs: A grade 1, +1 beyond 4" of enemy; B grade 1; C and D 1 only beyond 4"."""
        c = sit.attacker
        u = self.u(c)
        if u.shaken:
            raise IllegalAction("Leg VI, Rallying: a shaken unit cannot redress ranks")
        if sit.flag("in_combat"):
            raise IllegalAction("Leg VI, Redress Ranks: not while in combat")
        if u.elephant:
            raise IllegalAction("Elephants take no DPs")
        rd = self.t.redress
        beyond = self._auto(
            sit, "enemy_near", lambda: self._enemy_distance(sit.view, c) <= rd.enemy_distance
        )
        beyond = not beyond
        row = next((r for r in rd.rows.values() if u.grade in r.grades), None)
        n = 0 if row is None else row.removed + (row.extra_beyond_enemy if beyond else 0)
        n = min(n, c.status.dps)
        eff = Effects(dps=-n, markers_add=frozenset({REDRESSED}))
        where = "beyond" if beyond else "within"
        return Resolution(
            outcome=Outcome(attacker=eff, result=f"{plural(n, 'DP')} removed"),
            explanation=(
                f"{c.name} ({u.grade} grade, {where} {inches(rd.enemy_distance)} of enemy) "
                f"redresses ranks: {plural(n, 'DP')} removed; it stays halted but may charge.",
            ),
        )

    def _rally_check(self, sit: Situation, u: LegUnit) -> tuple[bool, str]:
        c = u.c
        start = c.status.extra.get(TURN_START)
        halted = self._auto(
            sit,
            "halted_all_turn",
            lambda: not c.status.has(MOVED) and (start is None or start == position_key(c)),
        )
        beyond = self._auto(
            sit,
            "enemy_beyond",
            lambda: (
                self._enemy_distance(sit.view, c, unbroken_only=True) > self.t.rally.halted_beyond
            ),
        )
        far = inches(self.t.rally.halted_beyond)
        if not halted:
            return False, "it did not stay halted all turn"
        if not beyond:
            return False, f"unbroken enemy within {far}"
        return True, f"halted all turn beyond {far} of unbroken enemy"

    def _rally_effects(self, u: LegUnit) -> Effects:
        return Effects(
            dps=self.t.rally.dps_after - u.c.status.dps, markers_remove=frozenset({SHAKEN})
        )

    def _rally(self, sit: Situation, plan: None, th: Throws) -> Resolution:
        """Leg VI, Rallying Shaken Units: a shaken unit halted for the whole turn beyond 8"
        of visible unbroken enemy rallies in the rally phase, left with 4 DPs (errata
        'rally-with-4-dps'). The end of the rally phase does this for every such unit."""
        c = sit.attacker
        u = self.u(c)
        if not c.status.has(SHAKEN) or u.routing:
            raise IllegalAction(f"{c.name} is not a shaken unit that has stopped routing")
        ok, why = self._rally_check(sit, u)
        if not ok:
            return Resolution(
                outcome=Outcome(result="does not rally"),
                explanation=(f"{c.name} cannot rally: {why}.",),
            )
        n = self.t.rally.dps_after
        return Resolution(
            outcome=Outcome(attacker=self._rally_effects(u), result="rallies"),
            explanation=(f"{c.name} rallies with {n} DPs ({why}).",),
        )

    def _reform(self, sit: Situation, plan: None, th: Throws) -> Resolution:
        """Leg VI, Reform unformed troops: one full move once the cause has passed, in any
        formation and facing; not light troops; the unit may not charge this turn."""
        c = sit.attacker
        u = self.u(c)
        if u.light or u.elephant:
            raise IllegalAction("Light troops are always unformed; elephants have no formation")
        lasting = {SHAKEN, ROUTING, PURSUING} & c.status.markers
        if lasting:
            raise IllegalAction(f"{c.name} cannot reform while {', '.join(sorted(lasting))}")
        formation = sit.choice("formation", "line")
        if formation == "quincunx" and not u.legion:
            raise IllegalAction("Only legions form quincunx")
        eff = Effects(
            formation=formation,
            markers_add=frozenset({REFORMED}),
            markers_remove=frozenset({EVADING, RETIRING}) & c.status.markers,
        )
        return Resolution(
            outcome=Outcome(attacker=eff, result=f"reformed in {formation}"),
            explanation=(f"{c.name} reforms in {formation}; it may not charge this turn.",),
        )

    def _relieve_ranks(self, sit: Situation, plan: None, th: Throws) -> Resolution:
        """Leg VI, Relieve Ranks: a legion in quincunx, on a halt, fall-back or follow-up,
        removes 1 DP and gets the charge bonus if the combat goes on; once per line beyond
        the first."""
        c = sit.attacker
        u = self.u(c)
        if not u.quincunx or not reliefs_left(u):
            raise IllegalAction(f"{c.name} has no fresh line left to relieve ranks")
        move = self.t.after_combat_moves.moves["relieve_ranks"]
        n = min(move.dps_removed, c.status.dps)
        eff = Effects(
            dps=-n,
            markers_add=frozenset({RELIEVED}),
            extra={RELIEFS: scalar_int(c.status.extra, RELIEFS) + 1},
        )
        return Resolution(
            outcome=Outcome(attacker=eff, result="ranks relieved"),
            explanation=(
                f"{c.name} relieves ranks: {plural(n, 'DP')} removed, charge bonus next round.",
            ),
        )

    def _manoeuvre(self, sit: Situation, plan: None, th: Throws) -> Resolution:
        """Leg VI, Manoeuvre and Rough Terrain. Within 8" of enemy formed troops take a DP to
        wheel (HI not in column; triarii manoeuvre as MI), change formation, about face
        (formed cavalry) or pass through friends (unless one unit is unformed or stationary
        and none routs, errata 'passage-of-lines'). Side-steps are for A and B grade formed
        infantry; open ranks for legions in quincunx. Rough terrain and light cover cost the
        troop's row (blank: impassable). None of these once the unit has 3 DPs. A wheel or an
        about face made on the table takes its DP with the move (errata
        'manoeuvres-on-the-table'): this action is for the manoeuvres not made there."""
        c = sit.attacker
        u = self.u(c)
        kind = sit.choice("kind", "wheel")
        mv = self.t.manoeuvres
        near = self._auto(
            sit, "enemy_near", lambda: self._enemy_distance(sit.view, c) <= mv.dp_range
        )
        n = 0
        formation: str | None = None
        add: frozenset[str] = frozenset()
        remove: frozenset[str] = frozenset()
        if kind in ("rough_terrain", "light_cover"):
            row_id = "unformed_infantry" if u.infantry and u.unformed else u.troop.rough_terrain
            row = self.t.rough_terrain.rows[row_id]
            cost = row.dps if kind == "rough_terrain" else row.light_cover_dps
            if cost is None:
                raise IllegalAction(f"Leg VI, Rough Terrain: impassable to {c.name}")
            n = cost
        elif kind == "side_step":
            if u.grade not in u.troop.side_step_grades or not u.formed_infantry:
                raise IllegalAction("Leg VI, Side-step: A and B grade formed infantry only")
        elif kind == "open_ranks":
            if not u.quincunx:
                raise IllegalAction("Leg VI, Open ranks: legions in quincunx only")
            if c.status.has(OPEN_RANKS):
                remove = frozenset({OPEN_RANKS})
            else:
                add = frozenset({OPEN_RANKS})
        elif kind in mv.items:
            hi_like = u.heavy_infantry and u.troop.manoeuvres_as is None
            charged = {
                "wheel": hi_like and not u.column,
                "change_formation": u.formed,
                "about_face": u.formed and u.cavalry,
                "passage_of_lines": u.formed and not sit.flag("exempt"),
            }.get(kind, False)
            n = mv.items[kind].dps if near and charged else 0
            if kind == "change_formation":
                formation = "column" if c.status.formation != "column" else "line"
                if u.legion and formation == "line":
                    formation = "quincunx"
        else:
            raise IllegalAction(f"unknown manoeuvre {kind!r}")
        dp = take_dps(u, n, "fatigue")
        eff = Effects(dps=dp.dps, formation=formation, markers_add=add, markers_remove=remove)
        label = kind.replace("_", " ")
        return Resolution(
            outcome=Outcome(attacker=eff, result=f"{label}: {plural(dp.dps, 'DP')}"),
            explanation=(f"{c.name}: {label}, {plural(dp.dps, 'DP')}.",),
        )

    def _after_combat_move(self, sit: Situation, plan: None, th: Throws) -> Resolution:
        """Leg VI, After Combat Moves: the move the player chose (or was told) to make.
        Fall-back and retire blocked: stay and lose a base; rout blocked: surrender to enemy
        within 4". Retire, rout and pursue leave the unit unformed; morale DPs to friends
        within 4" come from a retirement or rout not already marked by the combat.

        On the table: the combat itself made a compulsory fall back, pass-through or
        retirement behind the triarii (``after_combat_shift``), so this moves only what it
        left to the player: a legion that could relieve ranks and chose to fall back goes
        1" back (to its rear, still facing the enemy). Moves of dice (retire, rout, pursue)
        are rolled with ``dice_move``, which records the roll as the allowance of the move
        the player then makes on the table (reason ``forced`` for a retirement, ``rout``,
        ``pursuit``): checked against that distance, in full, and away from the enemy."""
        c = sit.attacker
        u = self.u(c)
        key = sit.choice("move", "halt")
        moves = self.t.after_combat_moves.moves
        if key not in moves or key == "relieve_ranks":
            raise IllegalAction(f"unknown after-combat move {key!r}")
        move = moves[key]
        blocked = sit.flag("blocked")
        add: set[str] = set()
        casualties, eliminated = 0, False
        if key == "retire_behind_triarii" and not (
            u.quincunx and u.lines >= len(self.t.legion.lines)
        ):
            raise IllegalAction("Only a legion in three lines retires behind its triarii")
        if key == "retire":
            add.add(RETIRING)
        elif key == "rout":
            add |= {ROUTING, SHAKEN}
        elif key == "pursue":
            add.add(PURSUING)
        if blocked and move.blocked_casualties:
            casualties = move.blocked_casualties
        if blocked and key == "rout":
            within = move.surrender_within or 0.0
            eliminated = self._enemy_distance(sit.view, c) <= within or sit.view is None
        fresh = frozenset(add) - c.status.markers
        text = f"{move.name} {inches(move.distance)}" if move.distance else move.name
        shift = None
        made = key in ("fall_back", "pass_through") or (
            key == "retire_behind_triarii" and c.depth > 0
        )
        if key == "fall_back" and move.distance is not None and may_relieve(u, (key,)):
            made = False
            if not blocked:
                shift = ((c.facing + 180.0) % 360, move.distance)
        if made:
            text += " (made with the combat)"
        eff = Effects(
            casualties=casualties,
            eliminated=eliminated,
            markers_add=fresh,
            formation="unformed" if (add and not move.formed and not u.light) else None,
            move=text + (" blocked" if blocked else ""),
            shift=shift,
        )
        words = [f"{c.name}: {eff.move}"]
        if made and blocked:
            words.append("the combat has already moved it: put it back where it stood")
        if casualties:
            words.append(f"unable to move, loses {plural(casualties, 'base')}")
        if eliminated:
            words.append("unable to rout away, it surrenders")
        changes: dict[str, Pending] = {}
        self._loss_morale(sit.view, c, eff, changes, words)
        return Resolution(
            outcome=Outcome(attacker=eff, result=eff.move or key),
            others=self._finish(sit.view, changes),
            explanation=("; ".join(words),),
        )
