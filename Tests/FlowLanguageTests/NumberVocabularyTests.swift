import FlowRuntime
import Foundation
import Testing

@testable import FlowLanguage

/// Numbers' methods, the math functions, String(format:) and random
/// numbers: what each gives, checked against Foundation itself where it
/// formats, and runs that repeat in virtual time.
@Suite struct NumberVocabularyTests {
    /// Each format is given to flow as a script and to Foundation with the
    /// same arguments: the two must agree, character for character.
    @Test(arguments: [
        ("%d|%5d|%-5d|%05d|%+d|% d|%x|%X|%#x|%o|%#o|%u", [CVarArgBox.int(42), .int(-7), .int(42), .int(42), .int(42), .int(42), .int(255), .int(255), .int(255), .int(8), .int(8), .int(-1)]),
        ("%ld|%lld|%lx|%hd|%hhd|%c", [.int(Int.max), .int(-123456789012), .int(-1), .int(70000), .int(300), .int(65)]),
        ("%f|%.2f|%8.3f|%-8.2f|%08.2f|%+.1f|%.0f|%#.0f", [.double(3.14159), .double(3.14159), .double(3.14159), .double(-3.14159), .double(3.14159), .double(0.05), .double(2.5), .double(2.5)]),
        ("%e|%.2E|%g|%G|%g|%a|%10.4g", [.double(1234.5), .double(1234.5), .double(0.0001), .double(1e-10), .double(1e6), .double(1.0), .double(2.0 / 3)]),
        ("%2$d-%1$d %%", [.int(1), .int(2)]),
    ] as [(String, [CVarArgBox])])
    func stringFormatWritesWhatFoundationWrites(_ format: String, _ arguments: [CVarArgBox]) {
        let script = "print(String(format: \(Value.string(format).literal), \(arguments.map(\.literal).joined(separator: ", "))))"
        let foundation = String(format: format, arguments: arguments.map(\.argument))
        #expect(OperatorDocs.printed(by: script) == foundation, "\(script)")
    }

    @Test func aFormatsMistakeNamesItsConversionWhenTheScriptRuns() {
        let printed = OperatorDocs.printed(by: #"let f = ["%d", "%f"]"# + "\nprint(String(format: f[1], 3))")
        #expect(printed.contains("String(format:): %f takes a Double, got Int 3: write Double(x), or use %d"), "\(printed)")
        let missing = OperatorDocs.printed(by: #"let f = "%@ and %@""# + "\nprint(String(format: f, \"a\"))")
        #expect(missing.contains("%@ has no argument: the format reads 2 and is given 1"), "\(missing)")
    }

    @Test func resultsAreTypedAsSwiftTypesThem() {
        let printed = OperatorDocs.printed(by: """
            let x = 7.25
            let n: Int = Int(x.rounded())
            let half: Double = x.rounded() / 2
            print(n, half, type(of: x.rounded()), type(of: sqrt(2.0)), type(of: x.isNaN), type(of: 10.isMultiple(of: 5)))
            """)
        #expect(printed == "7 3.5 Double Double Bool Bool", "\(printed)")
    }

    @Test func flowDocShowsANumbersMethodWithItsExample() throws {
        let rounded = try OperatorDocs.text(forName: "rounded", modules: []).get()
        #expect(rounded.contains("rounded() or rounded(Value) — the whole number nearest"), "\(rounded)")
        #expect(rounded.contains("→ 7.0 8.0 -7.0 2.0"), "\(rounded)")
        let double = try OperatorDocs.text(forName: "Double", modules: []).get()
        #expect(double.contains("Double's methods:") && double.contains("  squareRoot() — the square root"), "\(double)")
        let int = try OperatorDocs.text(forName: "Int", modules: []).get()
        #expect(int.contains("  isMultiple(of: Int) — whether"), "\(int)")
    }

    /// In virtual time the draws come from a fixed seed: a run repeats.
    @Test func randomNumbersRepeatInVirtualTime() {
        let script = """
            print((0..<8).map { _ in Int.random(in: 1...100) })
            print(Double.random(in: 0..<1), Bool.random(), [1, 2, 3, 4, 5].shuffled(), ["a", "b", "c"].randomElement()!)
            """
        let first = OperatorDocs.printed(by: script)
        #expect(!first.contains("error"), "\(first)")
        #expect(first == OperatorDocs.printed(by: script))
        // Every face, and only faces, in 200 throws of a die.
        let draws = OperatorDocs.printed(by: """
            let rolls = (0..<200).map { _ in Int.random(in: 1...6) }
            print(rolls.allSatisfy { $0 >= 1 && $0 <= 6 }, (1...6).allSatisfy { rolls.contains($0) })
            """)
        #expect(draws == "true true", "\(draws)")
    }

    @Test func anEmptyRangeIsAnErrorWhereSwiftTraps() {
        let printed = OperatorDocs.printed(by: "print(Int.random(in: 5..<5))")
        #expect(printed.contains("Int.random(in: 5..<5): the range is empty (Swift traps)"), "\(printed)")
    }
}

/// An argument given to both flow (as its literal) and Foundation.
enum CVarArgBox: Sendable {
    case int(Int), double(Double)

    var literal: String {
        switch self {
        case .int(let i): i < 0 ? "(\(i))" : "\(i)"
        case .double(let d): "\(d)"
        }
    }

    var argument: any CVarArg {
        switch self {
        case .int(let i): i
        case .double(let d): d
        }
    }
}
