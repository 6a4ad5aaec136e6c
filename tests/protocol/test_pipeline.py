"""The pipeline's stages, driven through `dispatch` (the path REST and `horologe call` take)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.shared.exceptions import MCPError

from horologe.clock import FixedClock
from horologe.config import Settings
from horologe.i18n.language import Language
from horologe.protocol.context import context_of
from horologe.protocol.dispatch import dispatch
from horologe.protocol.pipeline import RenderedError
from horologe.protocol.server import build_server
from horologe.wire import ACCEPT_LANGUAGE_META, CONTENT_LANGUAGE_META, INVALID_PARAMS, METHOD_NOT_FOUND
from tests.conftest import FIXED_NOW

pytestmark = pytest.mark.anyio


@dataclass
class LanguageSeen:
    """An entry point's language observer: what the pipeline told it, per request behind the call."""

    seen: list[tuple[object, Language]] = field(default_factory=list)

    def __call__(self, ctx: ServerRequestContext[Any, Any], language: Language) -> None:
        self.seen.append((ctx.request, language))


def german(params: dict[str, Any]) -> dict[str, Any]:
    return {**params, "_meta": {ACCEPT_LANGUAGE_META: "de"}}


@pytest.fixture
def observed(settings: Settings) -> tuple[Server[Any], LanguageSeen]:
    seen = LanguageSeen()
    return build_server(settings, FixedClock(FIXED_NOW), on_language=seen), seen


async def test_a_result_reports_its_language_and_the_entry_point_is_told(
    observed: tuple[Server[Any], LanguageSeen],
) -> None:
    server, seen = observed
    request = object()
    result = await dispatch(
        server, "tools/call", german({"name": "get_current_time", "arguments": {}}), kind="test", request=request
    )
    assert result["_meta"][CONTENT_LANGUAGE_META] == "de"
    assert [(behind, language.content_language) for behind, language in seen.seen] == [(request, "de")]


async def test_the_sdks_own_error_is_english_and_the_entry_point_is_told(
    observed: tuple[Server[Any], LanguageSeen],
) -> None:
    server, seen = observed
    with pytest.raises(MCPError) as raised:
        await dispatch(server, "no/such/method", german({}), kind="test")
    assert raised.value.error.code == METHOD_NOT_FOUND and not isinstance(raised.value, RenderedError)
    assert [language.content_language for _, language in seen.seen] == ["en"]  # the fallback shows in what it holds


async def test_invalid_params_are_answered_in_the_requested_language(server: Server[Any]) -> None:
    with pytest.raises(RenderedError) as raised:
        await dispatch(server, "tools/call", german({"name": 5}), kind="test")
    error = raised.value.error
    assert (error.code, raised.value.status) == (INVALID_PARAMS, 400)
    assert error.message != "Invalid request parameters"
    assert isinstance(error.data, dict) and error.data["_meta"][CONTENT_LANGUAGE_META] == "de"


async def test_an_unknown_tool_keeps_its_data_and_gains_the_language(server: Server[Any]) -> None:
    with pytest.raises(RenderedError) as raised:
        await dispatch(server, "tools/call", german({"name": "nope", "arguments": {}}), kind="test")
    assert raised.value.status == 404
    assert raised.value.error.data == {"tool": "nope", "_meta": {CONTENT_LANGUAGE_META: "de"}}
    assert raised.value.error.message.startswith("Unbekanntes Werkzeug")


async def test_a_request_without_a_preference_carries_no_content_language(server: Server[Any]) -> None:
    result = await dispatch(server, "tools/call", {"name": "get_current_time", "arguments": {}}, kind="test")
    assert CONTENT_LANGUAGE_META not in result["_meta"]


async def test_a_handler_outside_the_pipeline_is_refused(server: Server[Any]) -> None:
    class Bare:
        method = "tools/call"

    with pytest.raises(RuntimeError, match="without passing horologe's request pipeline"):
        context_of(Bare())  # type: ignore[arg-type]  # not an Exchange on purpose
