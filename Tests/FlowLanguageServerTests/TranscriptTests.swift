import FlowLanguageServer
import FlowTestSupport
import Foundation
import Testing

/// The server in process, one transcript a file in Transcripts/: each
/// `-->` line a message sent (`+->` lines arrive with the `-->` before
/// them), the `<--` lines after it what the server sends back (JSON with
/// sorted keys). FLOW_UPDATE_GOLDEN=1 rewrites the `<--` lines from what
/// the server sends.
@Suite struct TranscriptTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Transcripts")
    static let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".transcript") }.sorted()

    @Test func everyMethodHasATranscript() {
        for name in ["lifecycle", "diagnostics", "hover", "completion", "symbols", "formatting", "positions", "cancellation", "code-actions", "definitions", "lanes", "members", "hover-pictures", "hover-plaintext", "hover-names", "completion-scopes", "modules", "members-definitions", "overloads", "members-receivers", "lanes-endless", "hover-marble-chains"] {
            #expect(Self.names.contains(name + ".transcript"), "no \(name).transcript")
        }
    }

    @Test(arguments: names)
    func theServerAnswersAsTheTranscriptSays(_ name: String) throws {
        let url = Self.folder.appendingPathComponent(name)
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let server = LanguageServer()
        var expected: [String] = []
        var actual: [String] = []
        var rewritten: [String] = []
        var arriving: [[UInt8]] = []
        func deliver() {
            guard !arriving.isEmpty else { return }
            let replies = server.receive(batch: arriving).map { "<-- " + String(decoding: $0, as: UTF8.self) }
            actual += replies
            rewritten += replies
            arriving = []
        }
        for line in lines {
            if line.hasPrefix("<-- ") {
                expected.append(line)
                continue
            }
            if !line.hasPrefix("+-> ") { deliver() }
            rewritten.append(line)
            if line.hasPrefix("--> ") || line.hasPrefix("+-> ") { arriving.append(Array(line.dropFirst(4).utf8)) }
        }
        deliver()
        if ProcessInfo.processInfo.environment["FLOW_UPDATE_GOLDEN"] == "1" {
            try rewritten.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(actual.count == expected.count, "\(name): \(actual.count) messages back, the transcript has \(expected.count)")
        for (got, want) in zip(actual, expected) {
            #expect(got == want, "\(name)")
        }
    }
}
