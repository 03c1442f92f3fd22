import Foundation
import FlowTestSupport
import Testing

/// Swift programs whose output the Swift toolchain printed (SwiftOracle/,
/// made by its regenerate.sh with swiftc, and OpenCombine for Combine's):
/// flow must print exactly that.
@Suite struct SwiftOracleTests {
    static let folder = testsDirectory.appendingPathComponent("SwiftOracle")
    static var programs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// Programs flow does not yet run as Swift does, with why: each line
    /// `NN-name: reason`.
    static let pending: [String: String] = {
        let text = (try? String(contentsOf: folder.appendingPathComponent("pending.txt"), encoding: .utf8)) ?? ""
        var reasons: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            reasons[String(line[..<colon])] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        return reasons
    }()

    /// The one difference the corpus tolerates: Swift names a type's module
    /// (`main.Point`) where it prints a value by reflection, and a script
    /// has no module.
    static func withoutModule(_ text: String) -> String { text.replacingOccurrences(of: "main.", with: "") }

    @Test func theCorpusCoversTheIssue() {
        #expect(Self.programs.count >= 60)
        for name in Self.pending.keys { #expect(Self.programs.contains(name + ".swift"), "pending.txt names \(name), which is not a program") }
    }

    @Test(arguments: programs)
    func flowPrintsWhatSwiftPrints(_ program: String) throws {
        let name = String(program.dropLast(".swift".count))
        let expected = try String(contentsOf: Self.folder.appendingPathComponent(name + ".expected"), encoding: .utf8)
        let result = try FlowProcess.run(["run", program], in: Self.folder, timeout: 120)
        let check = {
            #expect(result.status == 0, "\(program) exited \(result.status): \(result.err)")
            #expect(Self.withoutModule(result.out) == Self.withoutModule(expected),
                    "\n--- swift printed\n\(expected)--- flow printed\n\(result.out)")
        }
        if let reason = Self.pending[name] {
            withKnownIssue(Comment(rawValue: reason)) { check() }
        } else {
            check()
        }
    }
}
