import Foundation
import FlowTestSupport
import Testing

@testable import FlowLanguage

/// The order a method call's meanings are asked in is data: docs/architecture.md
/// states it, and this test holds the two together.
@Suite struct MethodResolutionTests {
    @Test func theOrderIsWhatArchitectureSays() throws {
        let text = try String(contentsOf: projectDirectory.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        guard let section = text.range(of: "**What a method call means.**") else {
            Issue.record("docs/architecture.md has no section on what a method call means")
            return
        }
        let listed = text[section.upperBound...].split(separator: "\n").prefix(40).compactMap { line -> String? in
            guard let first = line.first, first.isNumber, let open = line.firstIndex(of: "`") else { return nil }
            let rest = line[line.index(after: open)...]
            guard let close = rest.firstIndex(of: "`") else { return nil }
            return String(rest[rest.startIndex..<close])
        }
        #expect(listed == MethodCallMeaning.order.map(\.rawValue))
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
