"""`flow lsp` driven end to end by pytest-lsp, a real client (pygls over
lsprotocol), through the methods an editor uses. The server is the built
`flow` (FLOW_BINARY, else .build/debug/flow).

    .build/editors-venv/bin/python -m pytest -o asyncio_mode=auto \
        -o asyncio_default_fixture_loop_scope=function editors/tests/test_lsp.py
"""

import base64
import os
import pathlib
import re

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
FLOW = os.environ.get("FLOW_BINARY", str(ROOT / ".build" / "debug" / "flow"))
URI = "file:///tmp/lesson.flow"
TEXT = (
    'let clicks = cold("-a--b|", a: 1, b: 2)\n'
    "let quiet = clicks.debunce(2ms)\n"
    "let doubled = clicks.map { $0 * 2 }\n"
    'test "doubles" {\n'
    '  expect(doubled).toBe("-a--b|", a: 2, b: 4)\n'
    "}\n"
)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[FLOW, "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities(
            general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf16]))))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[FLOW, "lsp"]))
async def picture_client(lsp_client: LanguageClient):
    """A client like VS Code's: it shows markdown hovers and asks for pictures."""
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(
                hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText]))),
            initialization_options={"hoverImages": True}))
    yield
    await lsp_client.shutdown_session()


def open_document(client: LanguageClient, text: str = TEXT):
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=URI, language_id="flow", version=1, text=text)))


def at(line: int, character: int):
    return types.TextDocumentIdentifier(uri=URI), types.Position(line=line, character=character)


async def test_diagnostics_come_on_open_with_the_hint(client: LanguageClient):
    open_document(client)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    diagnostics = client.diagnostics[URI]
    assert [d.message for d in diagnostics] == ["unknown method 'debunce'"]
    assert diagnostics[0].range == types.Range(start=types.Position(line=1, character=19),
                                               end=types.Position(line=1, character=26))
    assert diagnostics[0].related_information[0].message == "did you mean 'debounce'?"
    assert diagnostics[0].code == "unknown-member"


async def test_the_hint_is_a_quick_fix_that_puts_the_name_in_place(client: LanguageClient):
    open_document(client)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    document, position = at(1, 21)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=document, range=types.Range(start=position, end=position),
        context=types.CodeActionContext(diagnostics=client.diagnostics[URI])))
    assert [(a.title, a.kind, a.is_preferred) for a in actions] == [("Change to 'debounce'", types.CodeActionKind.QuickFix, True)]
    edits = actions[0].edit.changes[URI]
    assert [(e.range, e.new_text) for e in edits] == [(types.Range(start=types.Position(line=1, character=19),
                                                                   end=types.Position(line=1, character=26)), "debounce")]
    assert actions[0].diagnostics[0].code == "unknown-member"


async def test_hover_draws_the_operators_lanes(client: LanguageClient):
    open_document(client)
    document, position = at(2, 22)
    hover = await client.text_document_hover_async(types.HoverParams(text_document=document, position=position))
    assert "map" in hover.contents.value
    assert "source.map" in hover.contents.value  # a lane of the example, drawn by the engine


async def test_completion_offers_operators_after_a_dot(client: LanguageClient):
    open_document(client)
    document, position = at(1, 22)
    result = await client.text_document_completion_async(types.CompletionParams(text_document=document, position=position))
    labels = [item.label for item in result.items]
    assert "debounce" in labels and "debounceTime" in labels


async def test_definition_and_symbols(client: LanguageClient):
    open_document(client)
    document, position = at(4, 10)
    location = await client.text_document_definition_async(types.DefinitionParams(text_document=document, position=position))
    assert location.range.start == types.Position(line=2, character=4)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=document))
    assert [symbol.name for symbol in symbols] == ["clicks", "quiet", "doubled", 'test "doubles"']


async def test_formatting_is_one_edit_of_flow_fmt(client: LanguageClient):
    open_document(client, "let a=cold(\"-a|\",a:1)\n")
    document, _ = at(0, 0)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=document, options=types.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert [edit.new_text for edit in edits] == ['let a = cold("-a|", a: 1)\n']


async def test_hover_carries_the_lanes_as_an_svg_picture(picture_client: LanguageClient):
    open_document(picture_client)
    document, position = at(2, 22)
    hover = await picture_client.text_document_hover_async(types.HoverParams(text_document=document, position=position))
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert hover.contents.value.startswith("```text\nmap(")
    found = re.search(r"!\[([^\]]*)\]\(data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)\)$", hover.contents.value)
    assert found, hover.contents.value[-200:]
    assert found.group(1) == "the lanes of map's example"
    svg = base64.b64decode(found.group(2)).decode("utf-8")
    assert svg.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"')
    assert "source.map" in svg


async def test_completion_offers_the_names_in_scope_at_the_cursor(client: LanguageClient):
    # The closure's `}` not typed yet: its parameter is still in scope.
    open_document(client, (
        "let prices = [1, 2, 3]\n"
        "func total(of items: [Int]) -> Int {\n"
        "  var sum = 0\n"
        "  for item in items { sum += item }\n"
        "  return sum\n"
        "}\n"
        "let doubled = prices.map { price in\n"
        "  pr\n"
    ))
    document, position = at(7, 4)
    result = await client.text_document_completion_async(types.CompletionParams(text_document=document, position=position))
    script = {item.label: item.detail for item in result.items if item.label in {"price", "prices", "items", "sum", "item"}}
    assert script == {"price": "parameter price: Int (inferred)", "prices": "let prices: [Int] (inferred)"}
    document, position = at(4, 9)
    result = await client.text_document_completion_async(types.CompletionParams(text_document=document, position=position))
    labels = {item.label for item in result.items}
    assert {"items", "sum", "total", "prices"} <= labels
    assert "item" not in labels and "price" not in labels and "doubled" not in labels
