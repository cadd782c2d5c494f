"""Quincunx: missilery as computations (Missilery, Pre-Melee Missilery): who may fire and
with what, the dice and modifiers, and the casualties of a difference.
"""

from __future__ import annotations

from app.rules.mechanics import Combatant, Effects, Outcome, Scalar, Situation
from app.rulesets.quincunx.base import QuincunxRules
from app.rulesets.quincunx.geometry import in_arc
from app.rulesets.quincunx.rules import (
    BERSERK,
    FIRED,
    MELEE_WITH,
    NO_FIRE,
    NO_FIRE_ROUNDS,
    OUT_OF_COMMAND,
    PELTAST_VOLLEY,
    PENALTY,
    PENALTY_ROUNDS,
    SHOT_AT,
    STRAGGLER,
    VOLLEY_USED,
    Shot,
    missile_band,
    missile_dice,
)


def no_fire(reason: str) -> Outcome:
    """A shot that is not made, and why."""
    return Outcome(result=f"no fire: {reason}")


class QuincunxMissiles(QuincunxRules):
    """Quincunx, Missilery: weapons, firing strength, the pair of dice and their modifiers,
    and the pre-melee volley."""

    def _weapon(self, unit: Combatant, choice: str) -> str:
        tr = self.troop(unit.troop)
        carried = [w.name for w in tr.weapons]
        if self.is_elephant(unit):
            carried = [self.t.elephants.missile_weapon]
        if not tr.shoots or not carried:
            raise ValueError(f"{unit.name} have no missile weapons")
        if choice == "auto":
            return carried[0]
        if choice not in carried:
            raise ValueError(f"{unit.name} do not carry a {choice} ({', '.join(carried)})")
        return choice

    def firing_strength(self, unit: Combatant) -> int:
        """Figures that can fire: the whole unit; an elephant unit shoots as 12 light
        javelin figures at full strength, then by its remaining casualty points (errata
        "elephant-missile-strength")."""
        st = unit.status
        if self.is_elephant(unit) and st.strength >= st.start_strength:
            return self.t.elephants.missile_as_figures
        return st.strength

    def _shot_setup(self, sit: Situation) -> Shot | Outcome:
        """Quincunx, Missilery: the pair of dice by number firing (4-6, 7-9, 10-12, 13+) and
        column (short range, long range, or overhead / wall / cover); a target crossing a
        stream reads one step up the dice ladder (errata "stream-missile-level"). Modifiers
        to the difference: shielded battleline infantry, armoured heavy cavalry and
        skirmishers -1, flank +1 (skirmishers cannot be outflanked), leader +1/+2."""
        t = self.t
        a, d = sit.attacker, sit.defender
        if a.side == d.side:
            raise ValueError("missiles are shot at an enemy unit")
        if d.status.eliminated or a.status.eliminated:
            raise ValueError("both units must be on the table")
        if a.status.has(STRAGGLER) or a.status.has(BERSERK):
            raise ValueError(f"{a.name} cannot shoot (stragglers or a rampaging elephant)")
        if a.status.has(OUT_OF_COMMAND) and not sit.flag("pass_through"):
            raise ValueError(f"{a.name} are out of command: no aggressive act")
        weapon = self._weapon(a, sit.choice("weapon"))
        if a.status.has(NO_FIRE):
            return no_fire("fired in passing last round (chit)")
        if MELEE_WITH in d.status.extra:
            return no_fire("no fire into a melee")
        arc = t.missile_ranges.arc_degrees
        if a.footprint.has_size and d.footprint.has_size and not in_arc(a, d, arc):
            return no_fire(f"outside the {arc}-degree arc of fire to the front")
        rng = t.missile_ranges.weapons[weapon]
        distance = sit.number("distance")
        column = sit.choice("range")
        if distance > 0:
            if distance <= rng.short_max:
                column = "short"
            elif distance <= rng.long_max:
                column = "long"
            else:
                return no_fire(f'out of range ({distance}" for {rng.name.lower()})')
        firing = min(sit.number("firing") or self.firing_strength(a), self.firing_strength(a))
        band = missile_band(t, firing)
        if band is None:
            return no_fire(f"{firing} firing: {t.missile_dice.below_minimum}")
        cover = sit.flag("cover")
        where = "cover / overhead" if cover else f"{column} range"
        die = missile_dice(band, column, cover, 0, t.missile_dice.dice_ladder)
        words = [f"{firing} firing ({band.label}), {weapon} at {where}: {die or 'no fire'}"]
        if sit.flag("crossing"):
            step = t.terrain.streams.missile_level_shift
            die = missile_dice(band, column, cover, step, t.missile_dice.dice_ladder)
            words.append(f"target crossing a stream: {die or 'no fire'}")
        if die is None:
            return no_fire(f"{band.label} firing into cover")
        modifier = 0
        mods = t.missile_modifiers.modifiers
        skirmish_target = self.skirmishing(d)
        for cls in self.troop(d.troop).missile_target:
            if cls == "skirmisher" and not skirmish_target:
                continue
            modifier += mods[cls].modifier
            words.append(f"{mods[cls].modifier:+d} {mods[cls].situation.lower()}")
        if sit.flag("flank"):
            if skirmish_target:
                words.append("skirmishers cannot be outflanked")
            else:
                modifier += mods["flank"].modifier
                words.append(f"{mods['flank'].modifier:+d} flank")
        bonus = self.leader_bonus(a.leader, sit.choice("leader"))
        if bonus:
            modifier += bonus
            words.append(f"{bonus:+d} leader")
        markers = {FIRED}
        extra: dict[str, Scalar] = {}
        if sit.flag("pass_through"):
            markers.add(NO_FIRE)
            extra[NO_FIRE_ROUNDS] = t.missile_modifiers.pass_through_blocks_rounds
        if sit.flag("before_melee"):
            if self.troop(a.troop).light_class != "peltast":
                raise ValueError(f"{a.name} are not peltasts: no javelins before a melee")
            extra[PELTAST_VOLLEY] = True
        effects = Effects(markers_add=frozenset(markers), extra=extra)
        return Shot(die, modifier, tuple(words), a, d, effects, self.pool(sit))

    def _shot_outcome(self, shot: Shot, difference: int) -> tuple[Outcome, tuple[str, ...]]:
        """Quincunx, Missilery: each two points of the modified difference is a casualty,
        remainders dropped."""
        value = max(0, difference + shot.modifier)
        cas = value // self.t.missile_dice.casualty_divisor
        loss = self.loss(shot.target, cas)
        label = f"{loss.casualties} casualt{'ies' if loss.casualties != 1 else 'y'}"
        if BERSERK in loss.markers:
            label += "; last elephant goes berserk"
        if loss.straggler:
            label += "; target disintegrates"
        if loss.eliminated:
            label += "; target destroyed"
        move = None
        shift = None
        if loss.straggler:
            shift, retired = self.forced_move(shot.target, retire=True, pool=shot.pool)
            move = f"retires as stragglers ({self._retire_words(retired)})"
        target = Effects(
            casualties=loss.casualties,
            markers_add=frozenset({SHOT_AT}) | loss.markers,
            eliminated=loss.eliminated,
            move=move,
            shift=shift,
        )
        return Outcome(shot.attacker_effects, target, label), loss.words

    def volley_die(self, unit: Combatant) -> str | None:
        """The unit's pre-melee volley die (pila d12, javelins d10), or None when it has none
        or has already cast it (errata "pre-melee-volley": one volley per unit)."""
        tr = self.troop(unit.troop)
        if tr.volley is None or unit.status.extra.get(VOLLEY_USED):
            return None
        return self.t.pre_melee.volley_dice[tr.volley].die

    def _pre_outcome(self, dies: tuple[str | None, str | None], diff: int) -> Outcome:
        """Quincunx, Pre-Melee Missilery: the lower cast (``diff``: the attacker's cast
        minus the defender's) applies -1 to its melee die in the first round only; a side
        without a volley loses automatically; equal casts have no effect."""
        pm = self.t.pre_melee
        if dies[0] is None:
            loser = "attacker"
        elif dies[1] is None:
            loser = "defender"
        elif diff == 0:
            loser = ""
        else:
            loser = "attacker" if diff < 0 else "defender"
        effects = []
        for role, die in (("attacker", dies[0]), ("defender", dies[1])):
            extra: dict[str, Scalar] = {}
            if die is not None:
                extra[VOLLEY_USED] = True
            if role == loser:
                extra[PENALTY] = pm.loser_modifier
                extra[PENALTY_ROUNDS] = pm.rounds_affected
            effects.append(Effects(extra=extra))
        if not loser:
            result = "equal casts: no effect"
        else:
            auto = " (no volley)" if dies[0 if loser == "attacker" else 1] is None else ""
            result = f"{loser} loses the volley{auto}: {pm.loser_modifier:+d} in the first round"
        return Outcome(effects[0], effects[1], result)
