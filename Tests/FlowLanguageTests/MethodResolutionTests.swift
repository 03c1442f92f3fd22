import Foundation
import FlowTestSupport
import Testing

@testable import FlowLanguage

/// The order a method call's meanings are asked in is data: docs/architecture.md
/// states it, and this test holds the two together.
@Suite struct MethodResolutionTests {
    /// The kinds listed under `heading` in docs/architecture.md, in order.
    private func listedOrder(under heading: String) throws -> [String] {
        let text = try String(contentsOf: projectDirectory.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        guard let section = text.range(of: heading) else {
            Issue.record("docs/architecture.md has no section \(heading)")
            return []
        }
        var listed: [String] = []
        for line in text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            // The list is the first run of numbered lines after the heading.
            guard let first = line.first, first.isNumber else {
                if listed.isEmpty { continue } else { break }
            }
            guard let open = line.firstIndex(of: "`") else { continue }
            let rest = line[line.index(after: open)...]
            guard let close = rest.firstIndex(of: "`") else { continue }
            listed.append(String(rest[rest.startIndex..<close]))
        }
        return listed
    }

    @Test func theOrderIsWhatArchitectureSays() throws {
        #expect(try listedOrder(under: "**What a method call means.**") == MethodCallMeaning.order.map(\.rawValue))
        #expect(try listedOrder(under: "**What a call of a name means.**") == FunctionCallMeaning.order.map(\.rawValue))
    }

    @Test func theScriptsOwnNamesComeBeforeTheLanguagesAndTheLibraries() throws {
        let order = FunctionCallMeaning.order
        for own: FunctionCallMeaning.Kind in [.selfMember, .staticMember, .scriptName, .scriptType] {
            for later: FunctionCallMeaning.Kind in [.languageFunction, .libraryType, .sourceOperator] {
                #expect(order.firstIndex(of: own)! < order.firstIndex(of: later)!, "\(later) is asked before \(own)")
            }
        }
        let script = """
        func merge(_ a: Int, _ b: Int) -> Int { a * 10 + b }
        struct Timer { let seconds: Int }
        final class Clock {
            func interval() -> String { "own interval" }
            func tick() -> String { interval() }
        }
        func min(_ a: String, _ b: String) -> String { "mine" }
        print(merge(1, 2))
        print(Timer(seconds: 3).seconds)
        print(Clock().tick())
        print(min("a", "b"))
        """
        let run = try runScript(script)
        #expect(run.out == ["12", "3", "own interval", "mine"])
    }

    @Test func aTypesOwnMembersComeBeforeTheLanguagesAndTheLibraries() throws {
        let order = MethodCallMeaning.order
        let own = try #require(order.firstIndex(of: .scriptMember))
        for later: MethodCallMeaning.Kind in [.specialForm, .libraryType, .valueMethod] {
            #expect(own < order.firstIndex(of: later)!, "\(later) is asked before the script's own members")
        }
    }

    @Test func aClassesOwnSyncStoreAndFilterAreItsOwn() throws {
        let script = """
        final class Cart {
            var log: [String] = []
            func sync() -> Int { log.append("synced"); return log.count }
            func store(_ item: String) { log.append(item) }
            func filter(_ word: String) -> [String] { log.filter { $0.contains(word) } }
        }
        let cart = Cart()
        cart.store("apple")
        print(cart.sync())
        print(cart.filter("app"))
        print([1, 2, 3].filter { $0 > 1 })
        """
        let run = try runScript(script)
        #expect(run.out == ["2", #"["apple"]"#, "[2, 3]"])
    }
}
