"""A catalogue of every table, troop type, army list and campaign template of each ruleset
and where it lives, as the
Markdown table docs/reference/rulesets-as-data.md carries (kept in step by
``scripts/readme_tables.py`` and a test)."""

from __future__ import annotations

from collections.abc import Iterable

from app.rules.ruleset import Ruleset

START = "<!-- ruleset-tables:start -->"
END = "<!-- ruleset-tables:end -->"


def _title(rs: Ruleset, key: str) -> str:
    value = getattr(rs.tables, key)
    title = getattr(value, "title", None)
    return str(title) if title else key.replace("_", " ").capitalize()


def markdown(rulesets: Iterable[Ruleset]) -> str:
    """One Markdown table row per table, troop type, army list and campaign template."""
    lines = ["| ruleset | kind | name | where it lives |", "|---|---|---|---|"]
    for rs in sorted(rulesets, key=lambda r: r.id):
        folder = f"rulesets/{rs.folder.name}"
        for key in type(rs.tables).model_fields:
            lines.append(
                f"| {rs.id} | table | {_title(rs, key)} | `{folder}/tables.toml` `[{key}]` |"
            )
        for troop_id, troop in rs.troops.items():
            lines.append(
                f"| {rs.id} | troop type | {troop.name} | "
                f"`{folder}/troops.toml` `[troops.{troop_id}]` |"
            )
        for army_id, army in rs.armies.items():
            lines.append(
                f"| {rs.id} | army list | {army.name} | "
                f"`{folder}/armies.toml` `[armies.{army_id}]` |"
            )
        for template_id, template in rs.templates.items():
            lines.append(
                f"| {rs.id} | campaign template | {template.name} | "
                f"`{folder}/armies.toml` `[templates.{template_id}]` |"
            )
        lines.append(f"| {rs.id} | errata | {len(rs.errata)} notes | `{folder}/errata.toml` |")
    return "\n".join(lines)


def replace_section(text: str, rulesets: Iterable[Ruleset]) -> str:
    """``text`` with the part between the markers replaced by a fresh catalogue."""
    head, sep, rest = text.partition(START)
    if not sep:
        raise ValueError(f"no {START} marker")
    _, sep2, tail = rest.partition(END)
    if not sep2:
        raise ValueError(f"no {END} marker")
    return f"{head}{START}\n{markdown(rulesets)}\n{END}{tail}"
