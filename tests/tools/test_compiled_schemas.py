"""The tools' JSON Schemas compiled into the package are what their models generate; a broken file stops start-up."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from horologe import datafiles
from horologe.cli import main
from horologe.datafiles import DataFileError, packaged
from horologe.tools import registry
from horologe.tools.registry import (
    SCHEMAS_FILE,
    compiled_schemas,
    every_spec,
    generated_schemas,
    schema_key,
    tool_schemas,
)


def test_the_packaged_schemas_are_what_the_models_generate_now() -> None:
    assert packaged(SCHEMAS_FILE).read_text(encoding="utf-8") == compiled_schemas(), "run scripts/build_tool_schemas.py"


def test_every_tool_form_is_read_from_the_file_exactly_as_generated() -> None:
    held = json.loads(packaged(SCHEMAS_FILE).read_text(encoding="utf-8"))
    forms = {schema_key(spec) for spec in every_spec()}
    assert forms == set(held)
    assert len(forms) == len({spec.name for spec in every_spec()}) + 1  # `preferences` with and without hours
    for spec in every_spec():
        listed = tool_schemas(spec)
        assert [json.dumps(part) for part in listed] == [json.dumps(part) for part in generated_schemas(spec)]


@pytest.fixture
def fresh_read() -> Iterator[None]:
    registry._compiled_schemas.cache_clear()  # read the file the test puts in place, not the one read before
    yield
    registry._compiled_schemas.cache_clear()


@pytest.mark.parametrize(("content", "problem"), [(None, "is missing"), (b'{"get_current_time": [', "is damaged")])
@pytest.mark.usefixtures("fresh_read")
def test_serving_stops_at_start_up_when_the_file_is_missing_or_damaged(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: bytes | None,
    problem: str,
) -> None:
    file = tmp_path / SCHEMAS_FILE
    if content is not None:
        file.write_bytes(content)
    real = datafiles.packaged
    monkeypatch.setattr(datafiles, "packaged", lambda name: file if name == SCHEMAS_FILE else real(name))
    assert main(["serve"]) == 2
    assert f"horologe: the data file {file} {problem}" in capsys.readouterr().err
    with pytest.raises(DataFileError, match=f"the data file {file} {problem}"):
        registry.check_schemas()
