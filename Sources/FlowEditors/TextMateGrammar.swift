import FlowIO
import FlowLanguage
import FlowRuntime
import Foundation

/// The TextMate grammar of flow (`source.flow`), which VS Code and most
/// editors colour with, and its injection into Markdown's ```` ```flow ````
/// fences. Generated from the lists the language itself reads (its
/// keywords, the operator catalog, the free functions, the modules), so a
/// new operator or word is coloured without anyone editing the grammar:
/// `TextMateGrammarTests` fails while the files in `editors/` differ from
/// what this makes.
public enum TextMateGrammar {
    /// The calls whose first string argument is a marble.
    public static let marbleCalls = ["cold", "hot", "toBe", "time"]
    /// The labels whose string argument is a subscription marble.
    public static let marbleLabels = ["subscription", "unsubscribe"]

    /// Every operator's name and each other library's spelling of it.
    static var operatorNames: [String] {
        Set(OperatorSpec.Family.allCases.flatMap(\.operators).flatMap { [$0.name] + $0.aliasNames }).sorted()
    }

    /// The functions called without a receiver: the language's own and
    /// the catalog's sources.
    static var functionNames: [String] {
        let sources = OperatorSpec.Family.allCases.flatMap(\.operators).filter { $0.form != .method }.flatMap { [$0.name] + $0.aliasNames }
        return Set(LanguageWords.freeFunctions + sources).sorted()
    }

    static var moduleNames: [String] { IOModules.unrestricted.map(\.name).sorted() }

    /// `\b(a|b|c)\b`, longest first so no name stops at another's prefix.
    static func words(_ names: [String]) -> String {
        "(" + names.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }.joined(separator: "|") + ")"
    }

    public static var grammar: [String: Any] {
        [
            "name": "flow",
            "scopeName": "source.flow",
            "fileTypes": ["flow"],
            "firstLineMatch": "^#!.*\\bflow\\b",
            "patterns": [
                // A comment's `#` or `//` cannot start where anything before
                // it in this list starts; it must come before the operators'
                // `/` (TextMate breaks a tie by order).
                ["include": "#shebang"], ["include": "#directive"], ["include": "#marble-strings"], ["include": "#raw-strings"],
                ["include": "#strings"],
                ["include": "#numbers"], ["include": "#shorthand"], ["include": "#attributes"], ["include": "#keywords"],
                ["include": "#modules"], ["include": "#operators"], ["include": "#functions"], ["include": "#types"],
                ["include": "#comments"], ["include": "#punctuation"], ["include": "#parentheses"],
            ],
            "repository": repository,
        ]
    }

    static var repository: [String: Any] {
        [
            "shebang": ["match": "\\A#!.*$", "name": "comment.line.shebang.flow"],
            "directive": [
                "match": "^\\s*(#)" + words(LanguageWords.directives) + "\\b(.*)$",
                "name": "meta.preprocessor.flow",
                "captures": [
                    "1": ["name": "punctuation.definition.directive.flow"],
                    "2": ["name": "keyword.control.directive.flow"],
                    "3": ["name": "meta.preprocessor.condition.flow"],
                ],
            ],
            "comments": ["patterns": [
                ["match": "(//).*$", "name": "comment.line.double-slash.flow",
                 "captures": ["1": ["name": "punctuation.definition.comment.flow"]]],
                ["match": "(#).*$", "name": "comment.line.number-sign.flow",
                 "captures": ["1": ["name": "punctuation.definition.comment.flow"]]],
                ["include": "#block-comment"],
            ]],
            // Nested, as in Swift.
            "block-comment": ["begin": "/\\*", "end": "\\*/", "name": "comment.block.flow", "patterns": [["include": "#block-comment"]]],
            "marble-strings": ["patterns": [
                [
                    "begin": "\\b" + words(marbleLabels) + "\\s*(:)\\s*(?=\")",
                    "beginCaptures": [
                        "1": ["name": "variable.parameter.label.flow"],
                        "2": ["name": "punctuation.separator.label.flow"],
                    ],
                    "end": "(?<=\")",
                    "patterns": [["include": "#marble-string"]],
                ],
                // The call's own parentheses, so its first string is known to be the marble.
                [
                    "begin": "\\b" + words(marbleCalls) + "\\s*(\\()",
                    "beginCaptures": [
                        "1": ["name": "support.function.marble.flow"],
                        "2": ["name": "punctuation.section.arguments.begin.flow"],
                    ],
                    "end": "\\)", "endCaptures": ["0": ["name": "punctuation.section.arguments.end.flow"]],
                    "name": "meta.function-call.marble.flow",
                    // The marble string just after the `(`, or, when the `(`
                    // ends its line (`cold(⏎  "-a-b|",⏎  a: 1⏎)`), first on a
                    // line below: the region from the line's end to the first
                    // thing written, which it ends at unless that is a string.
                    // It never begins and ends at one place on one line, which
                    // vscode-textmate would take for an endless loop.
                    "patterns": [[
                        "begin": "\\G(?=\\s*$)", "end": "(?<=\")|(?=[^\\s\"])",
                        "patterns": [["include": "#first-marble-string"]],
                    ], ["include": "#marble-string"], ["include": "$self"]],
                ],
            ]],
            "first-marble-string": [
                "begin": "\"",
                "beginCaptures": ["0": ["name": "punctuation.definition.string.begin.flow"]],
                "end": "\"", "endCaptures": ["0": ["name": "punctuation.definition.string.end.flow"]],
                "contentName": "string.quoted.double.marble.flow",
                "patterns": [["include": "#marble"]],
            ],
            "marble-string": [
                "begin": "\\G\\s*(\")",
                "beginCaptures": ["1": ["name": "punctuation.definition.string.begin.flow"]],
                "end": "\"", "endCaptures": ["0": ["name": "punctuation.definition.string.end.flow"]],
                "contentName": "string.quoted.double.marble.flow",
                "patterns": [["include": "#marble"]],
            ],
            // RxJS's TestScheduler.run notation, and flow's one-frame [ab].
            "marble": ["patterns": [
                ["match": "\\d+(?:\\.\\d+)?(?:ms|s|m)\\b", "name": "constant.numeric.time-progression.marble.flow"],
                ["match": "-", "name": "punctuation.frame.marble.flow"],
                ["match": "\\|", "name": "keyword.control.complete.marble.flow"],
                ["match": "#", "name": "keyword.control.error.marble.flow"],
                ["match": "\\^", "name": "keyword.control.subscribe.marble.flow"],
                ["match": "!", "name": "keyword.control.unsubscribe.marble.flow"],
                ["match": "[()\\[\\]]", "name": "punctuation.group.marble.flow"],
                ["match": "\\?", "name": "constant.other.placeholder.marble.flow"],
                ["match": "\\\\.", "name": "constant.character.escape.flow"],
                ["match": "[^\\s\"\\\\]", "name": "variable.other.value.marble.flow"],
            ]],
            "strings": [
                "begin": "\"", "end": "\"", "name": "string.quoted.double.flow",
                "beginCaptures": ["0": ["name": "punctuation.definition.string.begin.flow"]],
                "endCaptures": ["0": ["name": "punctuation.definition.string.end.flow"]],
                "patterns": [["include": "#interpolation"], ["include": "#escapes"]],
            ],
            // Swift's raw strings, `#"..."#` and `##"..."##` (no back-references
            // in `end`: not every engine has them): a backslash is text unless
            // its `#`s follow.
            "raw-strings": ["patterns": ["##", "#"].map { hashes in
                [
                    "begin": hashes + "\"", "end": "\"" + hashes, "name": "string.quoted.double.raw.flow",
                    "beginCaptures": ["0": ["name": "punctuation.definition.string.begin.flow"]],
                    "endCaptures": ["0": ["name": "punctuation.definition.string.end.flow"]],
                    "patterns": [["include": "#raw-interpolation"]],
                ]
            }],
            "raw-interpolation": [
                "begin": "\\\\#+\\(", "end": "\\)", "name": "meta.interpolation.flow", "contentName": "source.flow.embedded.flow",
                "beginCaptures": ["0": ["name": "punctuation.section.interpolation.begin.flow"]],
                "endCaptures": ["0": ["name": "punctuation.section.interpolation.end.flow"]],
                "patterns": [["include": "$self"]],
            ],
            "escapes": ["match": "\\\\(?:[ntr0\"'\\\\]|u\\{[0-9A-Fa-f]+\\})", "name": "constant.character.escape.flow"],
            "interpolation": [
                "begin": "\\\\\\(", "end": "\\)", "name": "meta.interpolation.flow", "contentName": "source.flow.embedded.flow",
                "beginCaptures": ["0": ["name": "punctuation.section.interpolation.begin.flow"]],
                "endCaptures": ["0": ["name": "punctuation.section.interpolation.end.flow"]],
                "patterns": [["include": "$self"]],
            ],
            // Parentheses inside an interpolation close their own.
            "parentheses": ["begin": "\\(", "end": "\\)", "name": "meta.parentheses.flow", "patterns": [["include": "$self"]]],
            "numbers": ["patterns": [
                ["match": "\\b\\d[\\d_]*(?:\\.\\d+)?(?:ms|us|ns|s|m|h)\\b", "name": "constant.numeric.duration.flow"],
                ["match": "\\b\\d[\\d_]*(?:\\.\\d[\\d_]*)?(?:[eE][+-]?\\d+)?\\b", "name": "constant.numeric.flow"],
            ]],
            "shorthand": ["patterns": [
                ["match": "\\$\\d+", "name": "variable.language.shorthand.flow"],
                ["match": "\\$[A-Za-z_]\\w*", "name": "variable.other.projected.flow"],
            ]],
            "attributes": ["match": "@[A-Za-z_]\\w*", "name": "storage.type.attribute.flow"],
            "keywords": ["patterns": [
                ["match": "\\b" + words(LanguageWords.constants) + "\\b", "name": "constant.language.flow"],
                ["match": "\\b" + words(LanguageWords.selfWords) + "\\b", "name": "variable.language.flow"],
                ["match": "\\b" + words(LanguageWords.typeOperators) + "\\b[?!]?", "name": "keyword.operator.type.flow"],
                ["match": "\\b" + words(LanguageWords.control) + "\\b", "name": "keyword.control.flow"],
                ["match": "\\b" + words(LanguageWords.declarations) + "\\b", "name": "storage.type.flow"],
                ["match": "\\b" + words(LanguageWords.modifiers) + "\\b", "name": "storage.modifier.flow"],
            ]],
            "modules": ["match": "\\b" + words(moduleNames) + "\\b(?=\\s*\\.)", "name": "support.module.flow"],
            // An operator is a method: named right after a `.`.
            "operators": ["match": "(?<=\\.)" + words(operatorNames) + "\\b", "name": "support.function.operator.flow"],
            "functions": ["match": "\\b" + words(functionNames) + "\\b(?=\\s*[({])", "name": "support.function.builtin.flow"],
            "types": ["match": "\\b[A-Z][A-Za-z0-9_]*\\b", "name": "entity.name.type.flow"],
            "punctuation": ["patterns": [
                ["match": "->|==|!=|<=|>=|&&|\\|\\||\\?\\?|\\.\\.<|\\.\\.\\.|[-+*/%=<>!&?]", "name": "keyword.operator.flow"],
                ["match": "[,:;]", "name": "punctuation.separator.flow"],
                ["match": "\\.", "name": "punctuation.accessor.flow"],
            ]],
        ]
    }

    /// Injected into Markdown: a fence that says `flow` holds a script.
    public static var markdownInjection: [String: Any] {
        [
            "scopeName": "markdown.codeblock.flow",
            "injectionSelector": "L:text.html.markdown",
            "fileTypes": [],
            "patterns": [["include": "#fenced-flow"]],
            "repository": [
                "fenced-flow": [
                    "begin": "(^|\\G)(\\s*)(`{3,}|~{3,})\\s*(flow)\\b[^`~]*$",
                    "end": "^\\s*(`{3,}|~{3,})\\s*$",
                    "name": "markup.fenced_code.block.flow",
                    "beginCaptures": [
                        "3": ["name": "punctuation.definition.fence.begin.flow"],
                        "4": ["name": "fenced_code.block.language.flow"],
                    ],
                    "endCaptures": ["1": ["name": "punctuation.definition.fence.end.flow"]],
                    "contentName": "meta.embedded.block.flow",
                    "patterns": [["include": "source.flow"]],
                ],
            ],
        ]
    }

    /// A grammar as the JSON file editors read: keys sorted, two-space
    /// indentation, a line break at the end.
    public static func json(_ grammar: [String: Any]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: grammar, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
