import FlowLanguageServer
import FlowTestSupport
import Foundation
import Testing

/// `$/cancelRequest` for a hover that is running a long marble run: the run
/// stops within a few steps of it (it asks `RequestCancellation` as it
/// goes) and the hover is answered RequestCancelled (-32800), in far less
/// time than the same hover takes when it is let run.
@Suite struct CancellationTests {
    /// A stream whose run in virtual time takes 100 000 frames and 50 000
    /// subscriptions: seconds of work for its hover's lane.
    static let script = "let slow = cold(\"-a|\").repeat(50000).count()\n"
    static let uri = "file:///work/slow.flow"

    static func hover(_ id: Int, token: String? = nil) -> [String: Any] {
        var params: [String: Any] = ["textDocument": ["uri": uri], "position": ["line": 0, "character": 5]]
        if let token { params["workDoneToken"] = token }
        return ["jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": params]
    }

    static var opening: [[String: Any]] { [
        ["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["capabilities": [:] as [String: Any]]],
        ["jsonrpc": "2.0", "method": "textDocument/didOpen",
         "params": ["textDocument": ["uri": uri, "languageId": "flow", "version": 1, "text": script]]],
    ] }

    static func json(_ message: [String: Any]) -> [UInt8] {
        Array(try! JSONSerialization.data(withJSONObject: message))
    }

    static func decoded(_ body: [UInt8]) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]) ?? [:]
    }

    static func errorCode(_ reply: [String: Any]) -> Int? { (reply["error"] as? [String: Any])?["code"] as? Int }

    /// The server and what its request answered, across threads.
    final class Shared: @unchecked Sendable {
        let server = LanguageServer()
        var replies: [[UInt8]] = []
        let done = DispatchSemaphore(value: 0)
    }

    @Test func aHoverCancelledWhileItsRunIsUnderWayIsAnsweredAtOnce() throws {
        let shared = Shared()
        _ = shared.server.receive(batch: Self.opening.map(Self.json))
        let clock = ContinuousClock()
        var full: [[UInt8]] = []
        let whole = clock.measure { full = shared.server.receive(Self.json(Self.hover(2))) }
        let answer = Self.decoded(full[0])
        let shown = ((answer["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(shown.contains("legend a = 50000"), "the hover let run draws the lane: \(shown)")

        Thread {
            shared.replies = shared.server.receive(Self.json(Self.hover(3)))
            shared.done.signal()
        }.start()
        let deadline = clock.now + .seconds(120)
        while !shared.server.cancellation.isRunning && clock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
        #expect(shared.server.cancellation.isRunning, "the hover never began")
        let cancelled = clock.now
        shared.server.cancellation.cancel(3)
        #expect(shared.done.wait(timeout: .now() + 120) == .success)
        let stopping = clock.now - cancelled
        let reply = Self.decoded(shared.replies.first ?? [])
        #expect(reply["id"] as? Int == 3)
        #expect(Self.errorCode(reply) == -32800, "\(reply)")
        #expect(stopping < whole / 4, "answered \(stopping) after the cancellation; the whole hover takes \(whole)")

        // The server goes on: the same hover again is answered in full.
        let again = Self.decoded(shared.server.receive(Self.json(Self.hover(4)))[0])
        #expect(again["result"] != nil)
    }

    @Test func overStandardInputTheReadingThreadCancelsTheRunningHover() throws {
        let server = try LanguageServerProcess()
        defer { server.stop() }
        for message in Self.opening { try server.send(message) }
        #expect(server.next { $0["id"] as? Int == 1 } != nil)
        let clock = ContinuousClock()
        let started = clock.now
        try server.send(Self.hover(2))
        #expect(server.next { $0["id"] as? Int == 2 }?["result"] != nil)
        let whole = clock.now - started

        // With a token, the server says when the run begins: the cancel
        // then comes while it runs, not while it waits.
        try server.send(Self.hover(3, token: "lanes-3"))
        let begun = server.next { $0["method"] as? String == "$/progress" }
        let value = (begun?["params"] as? [String: Any])?["value"] as? [String: Any]
        #expect(value?["kind"] as? String == "begin")
        #expect(value?["cancellable"] as? Bool == true)
        #expect((begun?["params"] as? [String: Any])?["token"] as? String == "lanes-3")
        let cancelled = clock.now
        try server.send(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 3]])
        var seen: [[String: Any]] = []
        let reply = server.next { message in
            seen.append(message)
            return message["id"] as? Int == 3
        }
        let stopping = clock.now - cancelled
        #expect(reply.map(Self.errorCode) == -32800, "\(reply ?? [:])")
        #expect(stopping < whole / 4, "answered \(stopping) after the cancellation; the whole hover takes \(whole)")
        let ended = seen.contains { (($0["params"] as? [String: Any])?["value"] as? [String: Any])?["kind"] as? String == "end" }
        #expect(ended, "the progress ends")

        try server.send(["jsonrpc": "2.0", "id": 9, "method": "shutdown"])
        #expect(server.next { $0["id"] as? Int == 9 } != nil)
        try server.send(["jsonrpc": "2.0", "method": "exit"])
        #expect(server.waitForExit() == 0)
        #expect(server.errors.isEmpty, "\(server.errors)")
    }
}

/// `flow lsp` as a child process, message by message; killed if it does
/// not answer within a generous deadline.
final class LanguageServerProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe(), output = Pipe(), errorOutput = Pipe()
    private var framer = MessageFramer()
    private let watchdog: DispatchWorkItem

    init() throws {
        process.executableURL = FlowProcess.defaultBinary
        process.arguments = ["lsp"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        let process = self.process
        watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: watchdog)
    }

    func send(_ message: [String: Any]) throws {
        let body = try JSONSerialization.data(withJSONObject: message)
        try input.fileHandleForWriting.write(contentsOf: Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    /// Reads messages until one satisfies `wanted`; nil at the end of output.
    func next(_ wanted: ([String: Any]) -> Bool) -> [String: Any]? {
        while true {
            while let body = try? framer.next() {
                if let message = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any], wanted(message) { return message }
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            framer.append(chunk)
        }
    }

    func waitForExit() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    var errors: String {
        String(decoding: (try? errorOutput.fileHandleForReading.readToEnd()) ?? Data(), as: UTF8.self)
    }

    func stop() {
        watchdog.cancel()
        if process.isRunning { process.terminate() }
    }
}
