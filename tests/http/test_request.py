"""The facts the body guard reads from a body, once, for the layers behind it."""

from __future__ import annotations

from horologe.http.request import Operation, RequestFacts, operations, read_facts


def test_operations_come_from_the_path_and_the_body() -> None:
    assert operations({"name": "t"}, "tools/call") == (Operation("tools/call", "t"),)
    assert operations({"name": "t"}, "resources/read") == (Operation("resources/read"),)
    assert operations({"method": "tools/call", "params": {"name": "t"}}) == (Operation("tools/call", "t"),)
    assert operations([{"method": "ping"}, "junk"]) == (Operation("ping"), Operation(""))
    assert operations(None) == (Operation(""),) and operations([]) == (Operation(""),)
    assert operations({"method": "tools/call", "params": {"name": 3}}) == (Operation("tools/call"),)


def test_facts_of_a_json_rpc_request_name_its_method_tool_id_language_and_progress() -> None:
    payload = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "t", "_meta": {"io.modelcontextprotocol/acceptLanguage": "de", "progressToken": 1}},
    }
    assert read_facts(payload) == RequestFacts(
        payload, (Operation("tools/call", "t"),), "tools/call", "t", 7, "de", True
    )


def test_facts_of_a_rest_body_name_its_tool_and_nothing_it_cannot_carry() -> None:
    facts = read_facts({"name": "t", "arguments": {}}, "tools/call")
    assert (facts.method, facts.name, facts.request_id, facts.accept_language, facts.wants_progress) == (
        None,
        "t",
        None,
        None,
        False,
    )


def test_facts_ignore_ids_and_languages_of_the_wrong_type() -> None:
    facts = read_facts({"id": True, "method": 3, "params": {"_meta": {"io.modelcontextprotocol/acceptLanguage": 5}}})
    assert (facts.request_id, facts.method, facts.accept_language) == (None, None, None)
    assert read_facts(["batch"]).request_id is None
