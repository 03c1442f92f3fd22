"""The TextMate grammar of flow, checked by a real TextMate engine.

textmate-grammar-python (a port of vscode-textmate on Oniguruma, from PyPI)
tokenises each fixture in editors/tests/fixtures and the scopes of every
token of every line are compared with the fixture's golden file
(FIXTURE.scopes); `--update` rewrites the golden files. Every regular
expression of the grammars must compile under Oniguruma, and every scope
the grammars name must end in `.flow`.

Run by TextMateGrammarTests (swift test) with the virtualenv .ci/run makes:
    python3 -m venv .build/editors-venv
    .build/editors-venv/bin/pip install textmate-grammar-python==0.6.1
    .build/editors-venv/bin/python editors/tests/grammar_test.py [--update]
"""

import json
import logging
import pathlib
import sys

import onigurumacffi
from textmate_grammar.parsers.base import LanguageParser

logging.getLogger("textmate_grammar").setLevel(logging.CRITICAL)

ROOT = pathlib.Path(__file__).resolve().parents[2]
SYNTAXES = ROOT / "editors" / "vscode" / "syntaxes"
FIXTURES = ROOT / "editors" / "tests" / "fixtures"


def walk(node, keys):
    """Every value under one of `keys`, anywhere in the grammar."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in keys and isinstance(value, str):
                yield value
            else:
                yield from walk(value, keys)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value, keys)


def check_grammar(name, grammar):
    problems = []
    for regex in walk(grammar, {"match", "begin", "end", "while", "firstLineMatch"}):
        try:
            onigurumacffi.compile(regex)
        except Exception as error:  # onigurumacffi raises its own error types
            problems.append(f"{name}: /{regex}/ does not compile: {error}")
    for scopes in walk(grammar, {"name", "contentName", "scopeName"}):
        if scopes == "flow":  # the grammar's own display name
            continue
        for scope in scopes.split():
            if not scope.endswith(".flow"):
                problems.append(f"{name}: the scope {scope} does not end in .flow")
    return problems


def scopes_of(parser, text, root_scope):
    """Each line of `text`, then each of its tokens that has a scope beyond the root."""
    element = parser.parse_string(text)
    by_line = {}
    for (line, _), content, scopes in element.flatten() if element else []:
        by_line.setdefault(line, []).append((content, scopes))
    lines = text.split("\n")
    if text.endswith("\n"):
        lines = lines[:-1]
    out = []
    for number, line in enumerate(lines):
        out.append(line)
        for content, scopes in by_line.get(number, []):
            shown = [scope for scope in scopes if scope != root_scope]
            if content.strip() and shown:
                out.append(f"  {json.dumps(content, ensure_ascii=False)}: {' '.join(shown)}")
    return "\n".join(out) + "\n"


def main():
    update = "--update" in sys.argv[1:]
    grammar = json.loads((SYNTAXES / "flow.tmLanguage.json").read_text(encoding="utf-8"))
    injection = json.loads((SYNTAXES / "flow-markdown.tmLanguage.json").read_text(encoding="utf-8"))
    problems = check_grammar("flow.tmLanguage.json", grammar) + check_grammar("flow-markdown.tmLanguage.json", injection)

    flow = LanguageParser(grammar)
    # Markdown's own grammar is the editor's; a host with the injection's
    # fence rule stands for it, so the fence and what it embeds are checked.
    markdown = LanguageParser({
        "scopeName": "text.html.markdown",
        "patterns": [{"include": "#fenced-flow"}],
        "repository": injection["repository"],
    })

    checked = 0
    fixtures = sorted(FIXTURES.glob("*.flow")) + sorted(FIXTURES.glob("*.md"))
    for fixture in fixtures:
        parser, root = (markdown, "text.html.markdown") if fixture.suffix == ".md" else (flow, "source.flow")
        actual = scopes_of(parser, fixture.read_text(encoding="utf-8"), root)
        golden = fixture.parent / (fixture.name + ".scopes")
        checked += 1
        if update:
            golden.write_text(actual, encoding="utf-8")
        elif not golden.exists():
            problems.append(f"{golden.name} is missing: run with --update")
        elif golden.read_text(encoding="utf-8") != actual:
            expected = golden.read_text(encoding="utf-8").split("\n")
            got = actual.split("\n")
            first = next(i for i in range(max(len(expected), len(got)))
                         if i >= len(expected) or i >= len(got) or expected[i] != got[i])
            problems.append(f"{fixture.name}: scopes differ from {golden.name} at its line {first + 1}:\n"
                            f"  expected: {expected[first] if first < len(expected) else '(nothing)'}\n"
                            f"  actual:   {got[first] if first < len(got) else '(nothing)'}")
    if checked == 0:
        problems.append(f"no fixtures in {FIXTURES}")
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{checked} fixtures, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
