"""Roster validation against the ruleset's army lists and organisation rules.

Validation never blocks editing or saving: it returns messages, each with a severity, the
unit, leader, command or roster it concerns, and the rule it cites. Limits come from the
ruleset data; the conditions are here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from app.core.roster import Command, Leader, LeaderStatus, Roster, Unit
from app.rules.ruleset import Ruleset
from app.rules.schema import ArmyEntry, ArmyList, Category, CommandRule


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True)
class Subject:
    kind: str  # "unit" | "leader" | "command" | "roster"
    id: str | None
    name: str

    def __str__(self) -> str:
        return self.name if self.kind == "roster" else f"{self.kind} {self.name}"


@dataclass(frozen=True)
class Message:
    severity: Severity
    subject: Subject
    rule: str
    text: str
    code: str

    def as_dict(self) -> dict[str, str | None]:
        return {
            "severity": self.severity.value,
            "subject": str(self.subject),
            "subject_kind": self.subject.kind,
            "subject_id": self.subject.id,
            "rule": self.rule,
            "text": self.text,
            "code": self.code,
        }


@dataclass(frozen=True)
class Report:
    messages: tuple[Message, ...]

    @property
    def valid(self) -> bool:
        return not any(m.severity is Severity.ERROR for m in self.messages)

    def count(self, severity: Severity) -> int:
        return sum(1 for m in self.messages if m.severity is severity)

    def for_subject(self, kind: str, subject_id: str) -> tuple[Message, ...]:
        return tuple(
            m for m in self.messages if m.subject.kind == kind and m.subject.id == subject_id
        )

    def codes(self) -> set[str]:
        return {m.code for m in self.messages}


def _unit(u: Unit) -> Subject:
    return Subject("unit", u.id, u.name)


def _leader(ld: Leader) -> Subject:
    return Subject("leader", ld.id, ld.name)


def _command(c: Command) -> Subject:
    return Subject("command", c.id, c.name)


class _Checker:
    """Runs every check once over a roster; each ``_check_*`` yields messages."""

    def __init__(self, rs: Ruleset, roster: Roster) -> None:
        self.rs = rs
        self.roster = roster
        self.army: ArmyList | None = rs.armies.get(roster.army)
        self.cite = rs.meta.short_name
        self.roster_subject = Subject("roster", None, roster.name)
        self.leaders = {ld.id: ld for ld in roster.leaders}
        self.commands = {c.id: c for c in roster.commands}

    def run(self) -> tuple[Message, ...]:
        out: list[Message] = []
        if self.army is None:
            out.append(
                self._msg(
                    Severity.ERROR,
                    self.roster_subject,
                    "army lists",
                    f"ruleset {self.rs.meta.short_name} has no army list {self.roster.army!r}",
                    "army.unknown",
                )
            )
            return tuple(out)
        for check in (
            self._check_scale,
            self._check_version,
            self._check_units,
            self._check_entry_counts,
            self._check_groups,
            self._check_army_size,
            self._check_commands,
            self._check_leaders,
        ):
            out.extend(check())
        return tuple(out)

    def _msg(
        self, severity: Severity, subject: Subject, rule: str, text: str, code: str
    ) -> Message:
        cited = rule if rule.startswith(self.cite) else f"{self.cite}: {rule}"
        return Message(severity, subject, cited, text, code)

    def _entry(self, unit: Unit) -> ArmyEntry | None:
        assert self.army is not None
        return self.army.entries.get(unit.entry)

    def _category(self, unit: Unit) -> Category | None:
        entry = self._entry(unit)
        troop = self.rs.troops.get(entry.troop) if entry is not None else None
        return troop.category if troop is not None else None

    # ------------------------------------------------------------------ roster-wide

    def _check_scale(self) -> Iterator[Message]:
        scales = self.rs.meta.scales
        if self.rs.counts_figures and self.roster.scale not in scales:
            yield self._msg(
                Severity.ERROR,
                self.roster_subject,
                "figure scale",
                f"scale {self.roster.scale!r} is not one of {', '.join(scales)}",
                "scale.invalid",
            )
        elif not self.rs.counts_figures and self.roster.scale is not None:
            yield self._msg(
                Severity.NOTE,
                self.roster_subject,
                "figure scale",
                f"{self.rs.meta.short_name} counts bases; the scale {self.roster.scale} is ignored",
                "scale.ignored",
            )

    def _check_version(self) -> Iterator[Message]:
        have, now = self.roster.data_version, self.rs.meta.data_version
        if have is not None and have != now:
            yield self._msg(
                Severity.NOTE,
                self.roster_subject,
                "data version",
                f"roster was made with {self.rs.meta.short_name} data {have}; "
                f"the data now is {now}",
                "data.version",
            )

    def _check_army_size(self) -> Iterator[Message]:
        assert self.army is not None
        n = self.roster.unit_count()
        lo, hi = self.army.min_units, self.army.max_units
        rule = self.army.units_rule or "army size"
        if n == 0:
            yield self._msg(
                Severity.NOTE,
                self.roster_subject,
                "roster",
                "the roster has no units yet",
                "army.empty",
            )
        if lo is not None and n < lo:
            yield self._msg(
                Severity.ERROR,
                self.roster_subject,
                rule,
                f"{n} units; the army needs at least {lo}",
                "army.min_units",
            )
        if hi is not None and n > hi:
            yield self._msg(
                Severity.ERROR,
                self.roster_subject,
                rule,
                f"{n} units; the army may have at most {hi}",
                "army.max_units",
            )

    # ------------------------------------------------------------------ units

    def _check_units(self) -> Iterator[Message]:
        seen: set[str] = set()
        for unit in self.roster.units:
            subject = _unit(unit)
            if unit.id in seen:
                yield self._msg(
                    Severity.ERROR,
                    subject,
                    "roster",
                    f"unit id {unit.id!r} appears twice",
                    "unit.duplicate_id",
                )
            seen.add(unit.id)
            if unit.count < 1:
                yield self._msg(
                    Severity.ERROR,
                    subject,
                    "roster",
                    f"count {unit.count} must be at least 1",
                    "unit.count",
                )
            entry = self._entry(unit)
            if entry is None:
                yield self._msg(
                    Severity.ERROR,
                    subject,
                    "army lists",
                    f"entry {unit.entry!r} is not in the current "
                    f"{self.rs.meta.short_name} list {self.roster.army!r}; it is kept as it "
                    "was but cannot be checked",
                    "entry.unknown",
                )
                continue
            yield from self._check_unit_against(unit, entry, subject)

    def _check_unit_against(
        self, unit: Unit, entry: ArmyEntry, subject: Subject
    ) -> Iterator[Message]:
        src = entry.source or "army list"
        size_word = "figures" if self.rs.counts_figures else "bases"
        if unit.size not in entry.sizes:
            allowed = ", ".join(str(s) for s in entry.sizes)
            yield self._msg(
                Severity.ERROR,
                subject,
                src,
                f"size {unit.size} {size_word}; {entry.name} may be {allowed}",
                "unit.size",
            )
        if entry.grades:
            if unit.grade is None:
                yield self._msg(
                    Severity.WARNING,
                    subject,
                    src,
                    f"no grade; {entry.name} may be {', '.join(entry.grades)}",
                    "unit.grade_missing",
                )
            elif unit.grade not in entry.grades:
                yield self._msg(
                    Severity.ERROR,
                    subject,
                    src,
                    f"grade {unit.grade}; {entry.name} may be {', '.join(entry.grades)}",
                    "unit.grade",
                )
        elif unit.grade is not None:
            yield self._msg(
                Severity.NOTE,
                subject,
                src,
                f"{self.rs.meta.short_name} gives {entry.name} no grades; grade {unit.grade} "
                "is ignored",
                "unit.grade_ignored",
            )
        if entry.warning:
            yield self._msg(Severity.WARNING, subject, src, entry.warning, "entry.warning")
        if entry.lines:
            yield from self._check_lines(unit, entry, subject, src)
        if unit.command is not None and unit.command not in self.commands:
            yield self._msg(
                Severity.ERROR,
                subject,
                "organisation",
                f"command {unit.command!r} does not exist",
                "unit.command_unknown",
            )

    def _check_lines(
        self, unit: Unit, entry: ArmyEntry, subject: Subject, src: str
    ) -> Iterator[Message]:
        shape = ", ".join(f"{ln.name} {ln.bases}" for ln in entry.lines)
        given = dict(unit.lines or {})
        for name in given:
            if name not in {ln.name for ln in entry.lines}:
                yield self._msg(
                    Severity.ERROR,
                    subject,
                    src,
                    f"{entry.name} has no line {name!r} ({shape})",
                    "unit.lines",
                )
        for line in entry.lines:
            bases = given.get(line.name, line.bases)
            if bases not in (line.bases, line.alternative_bases):
                alt = (
                    f" or {line.alternative_bases} understrength" if line.alternative_bases else ""
                )
                yield self._msg(
                    Severity.ERROR,
                    subject,
                    src,
                    f"{line.name} has {bases} bases; a {entry.name} has "
                    f"{line.bases}{alt} ({shape})",
                    "unit.lines",
                )
        if unit.size != entry.default_size:
            yield self._msg(
                Severity.ERROR,
                subject,
                src,
                f"a {entry.name} is {entry.default_size} bases ({shape}), not {unit.size}",
                "unit.lines_size",
            )

    def _check_entry_counts(self) -> Iterator[Message]:
        assert self.army is not None
        taken: Counter[str] = Counter()
        for unit in self.roster.units:
            taken[unit.entry] += max(unit.count, 0)
        for entry_id, entry in self.army.entries.items():
            n = taken[entry_id]
            src = entry.source or "army list"
            first = next((u for u in self.roster.units if u.entry == entry_id), None)
            subject = (
                _unit(first) if first is not None else Subject("roster", None, self.roster.name)
            )
            if n < entry.min:
                yield self._msg(
                    Severity.ERROR,
                    subject,
                    src,
                    f"{entry.name}: {n} taken, at least {entry.min} required",
                    "entry.min",
                )
            if entry.max is not None and n > entry.max:
                yield self._msg(
                    Severity.ERROR,
                    subject,
                    src,
                    f"{entry.name}: {n} taken, at most {entry.max} allowed",
                    "entry.max",
                )

    def _check_groups(self) -> Iterator[Message]:
        assert self.army is not None
        taken: Counter[str] = Counter()
        for unit in self.roster.units:
            taken[unit.entry] += max(unit.count, 0)
        for group in self.army.groups.values():
            counts = {e: taken[e] for e in group.entries}
            if len(set(counts.values())) > 1:
                names = ", ".join(f"{self.army.entries[e].name} {n}" for e, n in counts.items())
                yield self._msg(
                    Severity.ERROR,
                    self.roster_subject,
                    group.rule,
                    f"{group.name}: one unit of each type per {group.name}; have {names}",
                    "group.unbalanced",
                )

    # ------------------------------------------------------------------ organisation

    def _majority_kind(self, command: Command) -> tuple[str, int, int]:
        """The kind most of a command's units point to: cavalry when it holds more cavalry
        than heavy or medium infantry, otherwise infantry; with both counts."""
        cats = [(self._category(u), u.count) for u in self.roster.units_in(command.id)]
        cavalry = sum(n for c, n in cats if c is not None and c.mounted)
        other = sum(n for c, n in cats if c in (Category.HEAVY_INFANTRY, Category.MEDIUM_INFANTRY))
        return ("cavalry" if cavalry > other else "infantry"), cavalry, other

    def _broken_limits(self, command: Command, kind: str) -> list[tuple[CommandRule, int]]:
        """The limits of a ``kind`` command that ``command``'s units break, with the count."""
        units = self.roster.units_in(command.id)
        counts = [
            (r, sum(u.count for u in units if self._category(u) in r.limited))
            for r in self.rs.organisation.command_rules
            if r.kind == kind
        ]
        return [(r, n) for r, n in counts if n > r.max_units]

    def _a(self, kind: str) -> str:
        """'an infantry command', 'a cavalry command'."""
        group = self.rs.organisation.group_name
        return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind} {group}"

    def _limit_text(self, kind: str, rule: CommandRule, n: int, name: str) -> str:
        what = " or ".join(c.value.replace("_", " ") for c in rule.limited)
        return f"{self._a(kind)} may hold at most {rule.max_units} {what} unit(s); {name} has {n}"

    def _check_commands(self) -> Iterator[Message]:
        """Leg VI, Organising the Armies: what an infantry or a cavalry command may hold. A
        command whose kind is not set is taken as the kind most of its units point to, or
        the only kind its units fit, and a warning names the assumption; one whose units fit
        neither kind is an error (errata 'command-kind-unset')."""
        rules = self.rs.organisation.command_rules
        group = self.rs.organisation.group_name
        kinds = [k for k in ("infantry", "cavalry") if any(r.kind == k for r in rules)]
        for command in self.roster.commands:
            subject = _command(command)
            if command.leader is not None and command.leader not in self.leaders:
                yield self._msg(
                    Severity.ERROR,
                    subject,
                    "organisation",
                    f"leader {command.leader!r} does not exist",
                    "command.leader_unknown",
                )
            if not self.roster.units_in(command.id):
                yield self._msg(
                    Severity.NOTE,
                    subject,
                    "organisation",
                    f"{group} {command.name} has no units",
                    "command.empty",
                )
                continue
            if not rules:
                continue
            kind: str | None = command.kind
            if kind is None:
                broken = {k: self._broken_limits(command, k) for k in kinds}
                fitting = [k for k in kinds if not broken[k]]
                cited = " ".join(r.rule for r in rules)
                if not fitting:
                    limits = "; ".join(
                        self._limit_text(k, r, n, command.name) for k in kinds for r, n in broken[k]
                    )
                    yield self._msg(
                        Severity.ERROR,
                        subject,
                        cited,
                        f"{group} {command.name} has no kind set and its units fit no kind of "
                        f"{group}: {limits}",
                        "command.kind_unfit",
                    )
                    continue
                majority, cavalry, other = self._majority_kind(command)
                if majority in fitting:
                    kind = majority
                    why = (
                        f"most of its units point to it ({cavalry} cavalry, {other} heavy or "
                        "medium infantry)"
                    )
                else:
                    kind = fitting[0]
                    limits = "; ".join(
                        self._limit_text(majority, r, n, command.name)
                        for r, n in broken.get(majority, ())
                    )
                    why = "the only kind its units fit" + (f" ({limits})" if limits else "")
                yield self._msg(
                    Severity.WARNING,
                    subject,
                    cited,
                    f"{group} {command.name} has no kind set: taken as {self._a(kind)}, "
                    f"as {why}; set its kind",
                    "command.kind_assumed",
                )
            for rule, n in self._broken_limits(command, kind):
                yield self._msg(
                    Severity.ERROR,
                    subject,
                    rule.rule,
                    self._limit_text(kind, rule, n, command.name),
                    f"command.{kind}_limit",
                )

    def _check_leaders(self) -> Iterator[Message]:
        rules = self.rs.leaders
        attached: dict[str, list[Unit]] = {}
        for unit in self.roster.units:
            if unit.leader is None:
                continue
            if unit.leader not in self.leaders:
                yield self._msg(
                    Severity.ERROR,
                    _unit(unit),
                    "leaders",
                    f"leader {unit.leader!r} does not exist",
                    "unit.leader_unknown",
                )
                continue
            attached.setdefault(unit.leader, []).append(unit)
        generals = [ld for ld in self.roster.leaders if ld.rank == "general"]
        if rules.generals is not None and self.roster.units and len(generals) != rules.generals:
            yield self._msg(
                Severity.ERROR,
                self.roster_subject,
                "leaders",
                f"the army has {len(generals)} general(s); "
                f"{self.rs.meta.short_name} requires {rules.generals}",
                "leaders.generals",
            )
        leading = {c.leader for c in self.roster.commands if c.leader is not None}
        for leader in self.roster.leaders:
            subject = _leader(leader)
            units = attached.get(leader.id, [])
            if len(units) > 1 or (units and units[0].count > 1):
                yield self._msg(
                    Severity.ERROR,
                    subject,
                    "leaders",
                    f"{leader.name} is attached to more than one unit",
                    "leader.multiple_units",
                )
            yield from self._check_placement(leader, units, subject)
            fielded = bool(units) or leader.id in leading
            if not leader.status.can_field and fielded:
                yield self._msg(
                    Severity.ERROR,
                    subject,
                    "campaign status",
                    f"{leader.name} is {leader.status.value} and may not be fielded",
                    "leader.unfit",
                )
            elif leader.status is LeaderStatus.WOUNDED:
                effect = self._wound_effect(leader)
                yield self._msg(
                    Severity.NOTE,
                    subject,
                    "campaign status",
                    f"{leader.name} is wounded ({leader.wounds})"
                    + (f": {effect}" if effect else ""),
                    "leader.wounded",
                )
            if leader.wounds < 0:
                yield self._msg(
                    Severity.ERROR,
                    subject,
                    "campaign status",
                    "wounds cannot be negative",
                    "leader.wounds",
                )

    def _check_placement(
        self, leader: Leader, units: list[Unit], subject: Subject
    ) -> Iterator[Message]:
        rules = self.rs.leaders
        must_attach = rules.general_attached and leader.rank == "general"
        if rules.attach_to:
            must_attach = True
        if must_attach and not units and leader.status.can_field:
            where = (
                (" to a " + " or ".join(c.replace("_", " ") for c in rules.attach_to) + " unit")
                if rules.attach_to
                else " to a unit"
            )
            yield self._msg(
                Severity.ERROR,
                subject,
                "leaders",
                f"{leader.name} must be attached{where}",
                "leader.unattached",
            )
        if rules.attach_to:
            for unit in units:
                cat = self._category(unit)
                if cat is not None and cat.value not in rules.attach_to:
                    allowed = " or ".join(c.replace("_", " ") for c in rules.attach_to)
                    yield self._msg(
                        Severity.ERROR,
                        subject,
                        "leaders",
                        f"{leader.name} is attached to {unit.name} "
                        f"({cat.value.replace('_', ' ')}); leaders go with "
                        f"{allowed}",
                        "leader.placement",
                    )

    def _wound_effect(self, leader: Leader) -> str | None:
        for w in self.rs.leaders.wound_effects:
            if w.wounds == leader.wounds:
                return w.effect
        return None


def validate(rs: Ruleset, roster: Roster) -> Report:
    """Every validation message for ``roster`` under ``rs``."""
    return Report(_Checker(rs, roster).run())
