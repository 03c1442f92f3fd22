import Testing
@testable import FlowLanguage

/// The methods of values, as their one list declares them: every example
/// runs and prints, each name either reads or changes its receiver, and
/// `flow doc` finds them by name and by receiver.
@Suite struct ValueMethodTests {
    @Test(arguments: ValueMethods.all.map { "\($0.receiver.rawValue).\($0.name)" })
    func everyExampleRuns(_ id: String) throws {
        let method = try #require(ValueMethods.all.first { "\($0.receiver.rawValue).\($0.name)" == id })
        let printed = OperatorDocs.printed(by: method.example)
        #expect(!printed.isEmpty && !printed.contains("error"), "\(id): \(method.example)\n→ \(printed)")
    }

    @Test func aNameEitherReadsOrChangesItsReceiver() {
        for group in ValueMethods.groups.values {
            #expect(group.methods.allSatisfy { $0.changesReceiver == group.changesReceiver }, "\(group.name)")
        }
        #expect(ValueMethods.readingNames.isDisjoint(with: ValueMethods.changingNames))
        #expect(ValueMethods.changingNames.isSuperset(of: ["append", "insert", "remove", "removeAll", "sort", "toggle", "removeValue"]))
    }

    @Test func examplesPrintWhatSwiftPrints() {
        // Checked against swiftc: the same lines in Swift print these.
        #expect(OperatorDocs.printed(by: "print([3, 1, 2].sorted(), [3, 1, 2].sorted { $0 > $1 })") == "[1, 2, 3] [3, 2, 1]")
        #expect(OperatorDocs.printed(by: "var a = [1, 2, 3, 4]\na.removeAll { $0 % 2 == 0 }\nprint(a)") == "[1, 3]")
        #expect(OperatorDocs.printed(by: #"print("a,b,,c".split(separator: ","))"#) == #"["a", "b", "c"]"#)
    }

    @Test func flowDocFindsAMethodAndAReceiversMethods() throws {
        let sorted = try OperatorDocs.text(forName: "sorted", modules: []).get()
        #expect(sorted.hasPrefix("sorted() or sorted(by: Closure) — "))
        #expect(sorted.contains("→ [1, 2, 3] [3, 2, 1]"))
        let array = try OperatorDocs.text(forName: "Array", modules: []).get()
        #expect(array.contains("  count or count(where: Closure) — the number of elements"))
        #expect(array.contains("  append(Value) or append(contentsOf: Value) — adds an element (or an array's) at the end (on a var)"))
        let shared = try OperatorDocs.text(forName: "filter", modules: []).get()
        #expect(shared.contains("On values (Array): filter(Closure)"))
    }
}

extension ValueMethodTests {
    /// `count`, `first`, `keys` read as properties, from the same list.
    @Test func propertiesAreTheMethodsReadWithoutParentheses() throws {
        let printed = OperatorDocs.printed(by: #"""
            print([1, 2].count, "abc".count, "abc".first!, "abc".last!, [4, 5].last!, ["a": 1].keys, ["count": 3].count, [Int]().isEmpty)
            let counts = [[1], [1, 2]].map(\.count)
            print(counts)
            """#)
        #expect(printed == "2 3 a c 5 [\"a\"] 3 true\n[1, 2]", "\(printed)")
    }
}

/// The language's free functions, from their one list: every example
/// runs, a call that fits no form is told the forms, and print's
/// separator: and terminator: write what Swift's do.
@Suite struct FreeFunctionTests {
    @Test(arguments: FreeFunctions.all.map(\.name))
    func everyExampleRuns(_ name: String) throws {
        let function = try #require(FreeFunctions.named(name))
        let printed = OperatorDocs.printed(by: function.example)
        #expect(!printed.contains("error"), "\(name): \(function.example)\n→ \(printed)")
    }

    @Test func printWritesWhatSwiftWrites() {
        // The same lines in Swift (swiftc) print the same.
        let printed = OperatorDocs.printed(by: #"""
            print("a", terminator: "")
            print("b", 1, separator: "-")
            print("x", terminator: "!\ny")
            print(String(describing: [1, 2]), TimeInterval(2), min(3, 1, 2), max(1, 2), abs(-2))
            print(stride(from: 0, to: 10, by: 3), stride(from: 1.0, through: 2.0, by: 0.5))
            print("end", terminator: "")
            """#)
        #expect(printed == "ab-1\nx!\ny[1, 2] 2.0 1 2 2\n[0, 3, 6, 9] [1.0, 1.5, 2.0]\nend", "\(printed)")
    }

    @Test func aCallThatFitsNoFormIsToldTheForms() {
        let told = diagnostics(of: "print(min(1))\nprint(String(x: 1))\n")
        #expect(told.contains("no form of 'min' takes these arguments; it takes min(Value, Value, Value...?)"), "\(told)")
        #expect(told.contains("it takes String(Value) or String(describing: Value)"), "\(told)")
    }
}
