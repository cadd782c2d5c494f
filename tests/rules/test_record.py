"""The schema's plain records (``app.rules.record``) behave as the frozen pydantic models they
replace, and ``app.rules.validate`` checks a record class's declaration exactly as pydantic
checked those models: constraints, strictness, stripped strings, unknown keys and the
records' own checks, with pydantic's messages."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest
from pydantic import ValidationError

from app.rules.construct import construct
from app.rules.record import AfterValidator, Exact, Field, Record, field_validator, model_validator
from app.rules.record import ValidationInfo as Info
from app.rules.validate import pydantic_model, validate_json


def _even(value: int) -> int:
    if value % 2:
        raise ValueError(f"{value} is odd")
    return value


Even = Annotated[int, Exact(), Field(ge=0, le=100), AfterValidator(_even)]


class Inner(Record):
    name: Annotated[str, Field(min_length=1)]
    kind: Literal["a", "b"] = "a"


class Outer(Record):
    size: Even
    low: int = 0
    high: int = Field(default=10, ge=0)
    inner: Inner = Field(default_factory=lambda: Inner(name="x"))
    parts: tuple[Inner, ...] = ()
    table: dict[str, int] = Field(default_factory=dict)
    tags: list[str] = []  # noqa: RUF012 - a mutable default, copied for each record

    @model_validator(mode="after")
    def _ordered(self) -> Outer:
        if self.low > self.high:
            raise ValueError(f"low {self.low} is above high {self.high}")
        return self

    @field_validator("high")
    @classmethod
    def _room(cls, high: int, info: Info) -> int:
        if high - info.data.get("low", 0) > 50:
            raise ValueError("at most 50 apart")
        return high


class Wider(Outer):
    extra: str = ""


def test_a_record_takes_its_fields_and_their_defaults() -> None:
    rec = Outer(size=4)
    assert (rec.size, rec.low, rec.high, rec.inner, rec.parts) == (4, 0, 10, Inner(name="x"), ())
    assert list(Outer.model_fields) == ["size", "low", "high", "inner", "parts", "table", "tags"]
    assert list(Wider.model_fields)[-1] == "extra"
    with pytest.raises(TypeError, match="needs 'size'"):
        Outer()
    with pytest.raises(TypeError, match="no field 'colour'"):
        Outer(size=2, colour="red")


def test_mutable_defaults_are_each_records_own() -> None:
    a, b = Outer(size=2), Outer(size=2)
    a.tags.append("t")
    a.table["k"] = 1
    assert b.tags == [] and b.table == {}


def test_a_record_is_frozen_compares_and_hashes_by_its_fields() -> None:
    rec = Inner(name="n")
    with pytest.raises(AttributeError, match="frozen"):
        rec.name = "m"  # type: ignore[misc]
    assert rec == Inner(name="n") != Inner(name="n", kind="b")
    assert hash(rec) == hash(Inner(name="n"))
    assert {rec, Inner(name="n")} == {rec}
    assert rec != Wider(size=2)  # another class is never equal
    assert repr(rec) == "Inner(name='n', kind='a')"


def test_copy_and_dump() -> None:
    rec = Outer(size=2, parts=(Inner(name="p", kind="b"),))
    assert rec.model_copy(update={"low": 1}).low == 1 and rec.low == 0
    dumped = rec.model_dump(mode="json")
    assert dumped["parts"] == [{"name": "p", "kind": "b"}]
    assert rec.model_dump(exclude={"inner", "parts", "table", "tags"}) == {
        "size": 2,
        "low": 0,
        "high": 10,
    }
    assert construct(Outer, dumped) == rec


def test_validation_builds_the_records_from_valid_data() -> None:
    rec = validate_json(Outer, {"size": 6, "parts": [{"name": "  p  "}], "table": {"k": 2}})
    assert rec == Outer(size=6, parts=(Inner(name="p"),), table={"k": 2})
    assert isinstance(rec.parts[0], Inner)
    assert type(validate_json(Wider, {"size": 2, "extra": "e"})) is Wider


@pytest.mark.parametrize(
    ("data", "where", "message"),
    [
        ({"size": 3}, ("size",), "Value error, 3 is odd"),
        ({"size": 102}, ("size",), "Input should be less than or equal to 100"),
        ({"size": 2.0}, ("size",), "Input should be a valid integer"),
        ({"size": "2"}, ("size",), "Input should be a valid integer"),
        ({"size": 2, "colour": 1}, ("colour",), "Extra inputs are not permitted"),
        ({"size": 2, "low": 11}, (), "Value error, low 11 is above high 10"),
        ({"size": 2, "high": 60}, ("high",), "Value error, at most 50 apart"),
        ({"size": 2, "high": -1}, ("high",), "Input should be greater than or equal to 0"),
        ({"size": 2, "parts": [{"name": " "}]}, ("parts", 0, "name"), "String should have at"),
        ({"size": 2, "parts": [{"name": "p", "kind": "c"}]}, ("parts", 0, "kind"), "Input should"),
        ({}, ("size",), "Field required"),
    ],
)
def test_validation_refuses_what_the_declaration_refuses(
    data: dict[str, object], where: tuple[object, ...], message: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        validate_json(Outer, data)
    errors = caught.value.errors()
    assert [e["loc"] for e in errors] == [where]
    assert errors[0]["msg"].startswith(message)


def test_inherited_checks_run_for_a_subclass() -> None:
    with pytest.raises(ValidationError, match="low 11 is above high 10"):
        validate_json(Wider, {"size": 2, "low": 11})
    assert pydantic_model(Wider) is pydantic_model(Wider)  # made once


def test_a_new_default_without_its_annotation_is_refused() -> None:
    """Pydantic refused a subclass that changes a field's default without annotating it; a
    record would silently keep the base's default, so it is refused too."""
    with pytest.raises(TypeError, match="needs its annotation"):

        class Louder(Inner):
            kind = "b"


def _builtin_files() -> list[tuple[str, str]]:
    from app.rules.registry import BUILTIN_DIR

    return [
        (folder.name, file)
        for folder in sorted(BUILTIN_DIR.iterdir())
        if (folder / "ruleset.toml").is_file()
        for file in ("ruleset.toml", "troops.toml", "tables.toml", "armies.toml", "errata.toml")
    ]


@pytest.mark.parametrize(("folder", "file"), _builtin_files())
def test_the_rebuilt_records_hold_what_pydantic_validated(folder: str, file: str) -> None:
    """Validation ends with the cache's own rebuild of pydantic's dump, so a warm load and a
    validating one cannot differ; this holds that rebuild to pydantic's result itself, for
    every file of every built-in ruleset (a union read in another order, a float taken for
    a whole number, a default lost would show here)."""
    import json

    from app.rules.loader import _read_toml, _troops_model
    from app.rules.registry import BUILTIN_DIR
    from app.rules.schema import ArmiesFile, ErrataFile, RulesetFile
    from app.rulesets import find_engine

    path = BUILTIN_DIR / folder
    problems: list[object] = []
    head = _read_toml(path, "ruleset.toml", problems)  # type: ignore[arg-type]
    data = _read_toml(path, file, problems)  # type: ignore[arg-type]
    assert head is not None and data is not None and not problems
    schema = find_engine(head["ruleset"]["engine"]).schema
    record = {
        "ruleset.toml": RulesetFile,
        "troops.toml": _troops_model(schema.troop_model),
        "tables.toml": schema.tables_model,
        "armies.toml": ArmiesFile,
        "errata.toml": ErrataFile,
    }[file]
    checked = pydantic_model(record).model_validate_json(json.dumps(data), strict=True)
    built = validate_json(record, data)
    assert built.model_dump(mode="json") == checked.model_dump(mode="json")
    assert built == construct(record, checked.model_dump(mode="json"))
