import Foundation
import FlowTestSupport
import Testing

@testable import FlowLanguage

/// `Diagnostic.code`: every problem the language reports has a kind, a
/// stable name an editor receives as the LSP diagnostic's `code`.
@Suite struct DiagnosticCodeTests {
    static func codes(_ source: String) -> [String] {
        do {
            return try Program.check(SourceFile(path: "t.flow", text: source)).map { $0.code?.rawValue ?? "none" }
        } catch let list as DiagnosticList {
            return list.diagnostics.map { $0.code?.rawValue ?? "none" }
        } catch {
            return ["unexpected: \(error)"]
        }
    }

    @Test func eachKindOfMistakeHasItsCode() {
        #expect(Self.codes("let a = 1\nlet b = c + 1\n") == ["unknown-name"])
        #expect(Self.codes("let s = cold(\"-a|\").debunce(2ms)\n") == ["unknown-member"])
        #expect(Self.codes("let s = \"abc\n") == ["invalid-token"])
        #expect(Self.codes("let n = 99999999999999999999\n") == ["invalid-literal"])
        #expect(Self.codes("let x = (1 +\n") == ["syntax"])
        #expect(Self.codes("let x = 1\nlet x = 2\n") == ["duplicate-declaration"])
        #expect(Self.codes("func f(a: Int) -> Int { a }\nlet y = f(b: 1)\n") == ["argument-label"])
        #expect(Self.codes("func f(a: Int) -> Int { a }\nlet y = f(a: 1, 2)\n") == ["argument-count"])
        #expect(Self.codes("let x = 1\nx = 2\n") == ["immutable"])
        #expect(Self.codes("let x: Int = \"a\"\n") == ["type-mismatch"])
        #expect(Self.codes("let s = cold(\"-a|\").take(-1)\n") == ["bad-argument"])
        #expect(Self.codes("actor Bank { }\n") == ["unsupported"])
        #expect(Self.codes("let s = cold(\"-a|b\")\n") == ["unreachable"])
        #expect(Self.codes("let s = cold(\"-a|\").delay(5)\n") == ["implicit-milliseconds"])
        #expect(Self.codes("break\n") == ["misplaced"])
    }

    @Test func aCodeNamedWhereTheProblemIsFoundIsKept() {
        let file = SourceFile(path: "t.flow", text: "x")
        #expect(Diagnostic("unknown name 'x'", in: file, at: Span(0, 1)).code == .unknownName)
        #expect(Diagnostic("unknown name 'x'", in: file, at: Span(0, 1), code: .misplaced).code == .misplaced)
        #expect(Diagnostic("words no kind is known for", in: file, at: Span(0, 1)).code == nil)
    }

    @Test func theCountOfErrorsNotShownHasItsOwnCode() {
        let source = (0..<(Diagnostic.cap + 5)).map { "let v\($0) = missing\($0)" }.joined(separator: "\n") + "\n"
        let found = Self.codes(source)
        #expect(found.count == Diagnostic.cap + 1)
        #expect(found.last == "too-many-errors")
        #expect(found.dropLast().allSatisfy { $0 == "unknown-name" })
    }

    @Test func shapesMatchAPrefixWithStarsForAnyText() {
        #expect(Diagnostic.Code.message("'take' takes 1 argument, got 2", startsLike: "'*' takes * argument"))
        #expect(!Diagnostic.Code.message("x 'take' takes 1 argument", startsLike: "'*' takes * argument"))
        #expect(Diagnostic.Code.message("a was never reached", startsLike: "*never reached"))
        #expect(!Diagnostic.Code.message("unknown", startsLike: "unknown "))
    }

    /// Every malformed script of the golden corpus: each diagnostic it gives has a code.
    @Test(arguments: DiagnosticGoldenTests.cases)
    func everyDiagnosticOfTheCorpusHasACode(_ name: String) throws {
        let text = try String(contentsOf: DiagnosticGoldenTests.folder.appendingPathComponent(name), encoding: .utf8)
        let file = SourceFile(path: name, text: text)
        var found: [Diagnostic] = []
        do { found = try Program.check(file) } catch let list as DiagnosticList { found = list.diagnostics }
        #expect(!found.isEmpty)
        for diagnostic in found {
            #expect(diagnostic.code != nil, "no code for: \(diagnostic.message)")
        }
    }

    /// Every message written in Sources/FlowLanguage as an `error("...")`,
    /// `fail("...")`, `warning("...")` or `Diagnostic("...")`, with each
    /// interpolation as `x`, has a kind: a new message without one fails here.
    @Test func everyMessageWrittenInTheLanguageHasACode() throws {
        let sources = projectDirectory.appendingPathComponent("Sources/FlowLanguage")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        var messages: [(String, String)] = []
        for url in files {
            let text = try String(contentsOf: url, encoding: .utf8)
            messages += Self.writtenMessages(in: text).map { (url.lastPathComponent, $0) }
        }
        #expect(messages.count > 200, "the scan finds the messages")
        // Made of its parts alone: an operator's name and what its catalog
        // says of a value (`take: 'count' cannot be negative, got -1`),
        // checked by example in eachKindOfMistakeHasItsCode.
        let composed: Set = ["x: x"]
        for (file, message) in messages where !message.isEmpty && !composed.contains(message) {
            #expect(Diagnostic.Code(classifying: message) != nil, "\(file): no code for \"\(message)\"")
        }
    }

    /// The string literal that opens each call of a reporting function,
    /// interpolations replaced by `x`.
    static func writtenMessages(in text: String) -> [String] {
        let characters = Array(text)
        var found: [String] = []
        var index = 0
        let openers = ["error(\"", "fail(\"", "warning(\"", "Diagnostic(\""].map(Array.init)
        while index < characters.count {
            guard let opener = openers.first(where: { index + $0.count <= characters.count && Array(characters[index..<index + $0.count]) == $0 }),
                  index == 0 || !(characters[index - 1].isLetter || characters[index - 1] == "\"" || characters[index - 1] == ".") else {
                index += 1
                continue
            }
            index += opener.count
            var message = ""
            while index < characters.count, characters[index] != "\"" {
                if characters[index] == "\\", index + 1 < characters.count, characters[index + 1] == "(" {
                    index = Self.afterInterpolation(characters, from: index + 2)
                    message += "x"
                } else if characters[index] == "\\", index + 1 < characters.count {
                    message.append(characters[index + 1])
                    index += 2
                } else {
                    message.append(characters[index])
                    index += 1
                }
            }
            found.append(message)
        }
        return found
    }

    /// The index after the `)` that closes an interpolation, stepping over
    /// the strings and brackets inside it.
    static func afterInterpolation(_ characters: [Character], from start: Int) -> Int {
        var depth = 1, index = start, inString = false
        while index < characters.count, depth > 0 {
            let c = characters[index]
            if inString {
                if c == "\\" { index += 1 } else if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "(" {
                depth += 1
            } else if c == ")" {
                depth -= 1
            }
            index += 1
        }
        return index
    }

    /// docs/diagnostics.md lists each code once, and no other.
    @Test func theDocumentedCodesAreTheCodes() throws {
        let doc = try String(contentsOf: projectDirectory.appendingPathComponent("docs/diagnostics.md"), encoding: .utf8)
        let documented = doc.split(separator: "\n").filter { $0.hasPrefix("| `") }
            .map { String($0.dropFirst(3).prefix { $0 != "`" }) }
        #expect(documented == Diagnostic.Code.allCases.map(\.rawValue))
    }
}
