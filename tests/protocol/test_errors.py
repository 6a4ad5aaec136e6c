"""The one error table: every error class is mapped and has a message; errors become answers in one place."""

from __future__ import annotations

import inspect
import json
import logging
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, ValidationError

from horologe.core import errors as domain
from horologe.core.errors import InvalidArgument, InvalidTimezone, TimeError
from horologe.core.messages import N_, English, msg
from horologe.http import errors as http_errors
from horologe.http.errors import EDGE_ANSWERS, edge_status
from horologe.i18n.language import Language
from horologe.protocol import errors
from horologe.protocol.errors import (
    ANSWERS,
    Answer,
    RequestError,
    UnknownTool,
    answer_for,
    arguments_error,
    edge_answer,
    error_body,
    protocol_error,
    sdk_answer,
    tool_error,
)
from horologe.wire import INTERNAL_ERROR, INVALID_PARAMS, INVALID_TIMEZONE, METHOD_NOT_FOUND, RATE_LIMITED


def error_classes() -> list[type[Exception]]:
    """Every error class we answer with: the domain tree, the request errors and the HTTP edge's refusals."""
    found: list[type[Exception]] = []
    for module in (domain, errors, http_errors):
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, TimeError | RequestError) and value.__module__ == module.__name__:
                found.append(value)
    return found


def test_there_are_error_classes_to_check() -> None:
    names = {cls.__name__ for cls in error_classes()}
    assert {"InvalidTimezone", "NonexistentLocalTime", "UnknownTool", "RateLimited", "InsufficientScope"} <= names


@pytest.mark.parametrize("cls", error_classes(), ids=lambda cls: cls.__name__)
def test_every_error_class_is_mapped_by_its_own_entry_or_an_ancestors(cls: type[Exception]) -> None:
    table = EDGE_ANSWERS if cls.__module__ == http_errors.__name__ else ANSWERS
    assert any(ancestor in table for ancestor in cls.__mro__), f"{cls.__name__} has no row"


def test_the_protocol_table_holds_no_http_only_refusal_and_the_edge_extends_it_without_changing_a_row() -> None:
    assert not any(cls.__module__ == http_errors.__name__ for cls in ANSWERS)
    assert all(EDGE_ANSWERS[cls] == answer for cls, answer in ANSWERS.items())


def test_one_kind_has_one_code() -> None:
    codes: dict[str, set[int]] = {}
    for cls in error_classes():
        kind = getattr(cls, "kind", None)
        if isinstance(kind, str) and cls is not RequestError and cls is not TimeError:
            codes.setdefault(kind, set()).add(answer_for(cls.__new__(cls), EDGE_ANSWERS).code)
    assert {kind: found for kind, found in codes.items() if len(found) > 1} == {}


REQUEST_ERRORS = [cls for cls in error_classes() if issubclass(cls, RequestError)]
DOMAIN_ERRORS = [cls for cls in error_classes() if issubclass(cls, TimeError)]


@pytest.mark.parametrize("cls", REQUEST_ERRORS, ids=lambda cls: cls.__name__)
def test_every_request_error_has_a_message_template_or_is_only_a_base(cls: type[RequestError]) -> None:
    template = getattr(cls, "template", None)
    if template is None:  # a base such as RequestError or AuthRefused: only its subclasses are raised
        assert cls.__subclasses__(), f"{cls.__name__} has no template and no subclasses"
        with pytest.raises(AttributeError):
            cls()
        return
    assert isinstance(template, str) and template.strip()
    assert cls.kind


@pytest.mark.parametrize("cls", DOMAIN_ERRORS, ids=lambda cls: cls.__name__)
def test_every_domain_error_has_a_stable_kind(cls: type[TimeError]) -> None:
    assert cls.kind and cls.kind == cls.kind.lower()


def test_the_most_specific_class_wins_and_a_bug_is_internal() -> None:
    assert answer_for(domain.AmbiguousTimezone(N_("x"))) == Answer(INVALID_TIMEZONE, 400)
    assert answer_for(UnknownTool(name="'x'", tools="")) == Answer(INVALID_PARAMS, 404)
    assert edge_status(http_errors.TooManyRefusedTokens(seconds=1)) == Answer(RATE_LIMITED, 429)
    assert edge_status(http_errors.InsufficientScope(scopes="a")).status == 403
    assert answer_for(KeyError("not ours")) == Answer(INTERNAL_ERROR, 500)


def test_the_sdks_own_codes_take_the_status_of_their_row() -> None:
    assert sdk_answer(MCPError(METHOD_NOT_FOUND, "x")) == Answer(METHOD_NOT_FOUND, 404)
    assert sdk_answer(MCPError(INTERNAL_ERROR, "x")).status == 500
    assert sdk_answer(MCPError(12345, "x")) == Answer(12345, 400)


def test_a_domain_error_becomes_a_tool_result_in_the_requested_language() -> None:
    error = InvalidTimezone(N_("Unknown timezone {input}."), input="'Mars/Base'", suggestions=["UTC"])
    result = tool_error(error, Language("de", requested=True))
    body = result["_meta"]["dev.horologe/error"]
    assert result["isError"] is True and "structuredContent" not in result
    assert body["code"] == INVALID_TIMEZONE and body["kind"] == "invalid_timezone"
    assert body["message"].startswith("Unbekannte Zeitzone")
    assert result["content"][0]["text"].startswith(body["message"])
    assert "UTC" in result["content"][0]["text"]  # suggestions are said when no "did you mean" was


def test_a_did_you_mean_message_does_not_repeat_its_suggestions() -> None:
    hint = msg(N_("Did you mean {candidates}?"), candidates="'Europe/Vienna'")
    error = InvalidTimezone(
        N_("Unknown timezone {input}."), input="'Viena'", also=(hint,), suggestions=["Europe/Vienna"]
    )
    text = tool_error(error, Language())["content"][0]["text"]
    assert text == "Unknown timezone 'Viena'. Did you mean 'Europe/Vienna'?"


def test_details_travel_in_the_error_body() -> None:
    body = error_body(InvalidArgument(N_("x"), details={"limit": 3}), Language())
    assert body["details"] == {"limit": 3}


def test_a_bug_is_logged_and_answered_without_its_text(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="horologe"):
        error, status = protocol_error(RuntimeError("secret internals"), Language(), "tools/call")
    assert (error.error.code, error.error.message, status) == (INTERNAL_ERROR, "Internal error", 500)
    assert "secret" not in json.dumps(error.error.model_dump(mode="json"))
    assert "secret internals" in caplog.text


def test_invalid_params_from_the_sdk_become_a_translated_invalid_params_error() -> None:
    class Model(BaseModel):
        value: int

    with pytest.raises(ValidationError) as caught:
        Model.model_validate({"value": "x"})
    error, status = protocol_error(caught.value, Language("fr", requested=True))
    assert (error.error.code, status) == (INVALID_PARAMS, 400)
    assert error.error.message != "Invalid request parameters"  # in French


def test_a_domain_error_outside_tools_call_carries_its_body_as_data() -> None:
    error, status = protocol_error(InvalidTimezone(N_("Unknown timezone {input}."), input="'X'"), Language())
    assert (error.error.code, status) == (INVALID_PARAMS, 400)
    data: Any = error.error.data
    assert data["error"]["kind"] == "invalid_timezone" and data["error"]["code"] == INVALID_TIMEZONE


def test_an_edge_answer_has_the_tables_status_and_a_json_rpc_body() -> None:
    status, raw = edge_answer(http_errors.BodyTooLarge(limit=10), request_id=4, table=EDGE_ANSWERS)
    assert status == 413
    assert json.loads(raw) == {
        "jsonrpc": "2.0",
        "id": 4,
        "error": {"code": -32600, "message": "Request body larger than 10 bytes."},
    }


def test_argument_problems_are_listed_and_translated_unless_a_library_explained_them() -> None:
    class Args(BaseModel, extra="forbid"):
        when: int

    with pytest.raises(ValidationError) as caught:
        Args.model_validate({"whem": 1})
    error = arguments_error("tool", caught.value, ["when"])
    language = Language("de", requested=True)
    text = language.render(error.text)
    assert "'whem'" in text and "'when'" in text and language.content_language == "de"
    with pytest.raises(ValidationError) as caught:
        Args.model_validate({"when": "soon"})
    english = arguments_error("tool", caught.value, ["when"])
    language = Language("de", requested=True)
    assert language.render(english.text).startswith("Invalid arguments for tool: when:")
    assert language.content_language == "en"  # pydantic's explanation is English: the whole message is


def test_english_parameters_make_a_message_fall_back_to_english() -> None:
    message = msg(N_("Parse error: {reason}"), reason=English("Expecting value"))
    language = Language("ja", requested=True)
    assert language.render(message) == "Parse error: Expecting value"
    assert language.content_language == "en"
