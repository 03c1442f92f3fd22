import FlowTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `flow serve` of a fresh folder, on a free loopback port, as a user
/// starts it; stopped when the test is done.
final class ServedFolder: @unchecked Sendable {
    let folder: URL
    let address: URL
    private let process: Process
    private let output: Pipe, errors: Pipe
    /// What the server printed after its first line, as far as read.
    private var printed = ""
    /// What the server printed on stderr, as far as read.
    private var complained = ""

    static let lesson = """
        let src = cold("-a--b|")
        let shouted = src.map { $0 + "!" }
        marbles(src, shouted)

        test "map shouts" {
          expect(shouted).toBe("-x--y|", x: "a!", y: "b!")
        }

        """

    /// An exercise: two lanes to draw, the second shown once checked (in a
    /// learner's own playground; a class sees it only after a give-up).
    static let exercise = """
        # Predict each lane.
        let numbers = cold("-1-2-3|")
        let letters = cold("--a---b|")

        test "tenfold" (points: 2) {
          expect(numbers.map { $0 * 10 }).toBe("???")
        }

        test "zip" {
          expect(numbers.zip(letters)).toBe("???", reveal: true)
        }

        """

    /// Serves `files`' folder; with `exercise`, that one file of them as
    /// `flow serve --exercise` serves it to a class.
    /// `fromParent`: started in the folder's parent and given the folder
    /// by its name, as relative paths are; `{folder}` in `options` is that name.
    /// `openFiles`: started under `ulimit -n` of that many files.
    init(files: [String: String] = ["lesson.flow": ServedFolder.lesson], options: [String] = [], exercise: String? = nil,
         fromParent: Bool = false, openFiles: Int? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files {
            let file = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        let root = folder
        var serving = exercise.map { ["--exercise", root.appendingPathComponent($0).path] } ?? [root.path]
        if fromParent { serving = [root.lastPathComponent] }
        let options = options.map {
            $0.replacingOccurrences(of: "{folder}", with: root.lastPathComponent).replacingOccurrences(of: "{root}", with: root.path)
        }
        let arguments = ["serve"] + serving + ["--port", "0"] + options
        let (process, out, err) = try openFiles.map { limit in
            try FlowProcess.start(["-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", FlowProcess.defaultBinary.path] + arguments,
                                  binary: URL(fileURLWithPath: "/bin/sh"))
        } ?? FlowProcess.start(arguments, in: fromParent ? root.deletingLastPathComponent() : nil)
        self.process = process
        self.output = out
        self.errors = err
        // The address is the first line the server prints.
        let (text, rest) = Self.firstLineAndRest(of: out)
        printed = rest
        guard let range = text.range(of: #"http://[0-9.:]+/"#, options: .regularExpression), let url = URL(string: String(text[range])) else {
            process.terminate()
            throw ServeError(description: "flow serve did not print its address: \(text)")
        }
        address = url
    }

    /// The port the server listens on.
    var port: Int { address.port ?? 0 }

    /// The lines the server printed after its address, read until `done`
    /// holds for them (or a generous deadline passes).
    func printedLines(until done: @escaping ([String]) -> Bool) -> [String] {
        Self.lines(of: output, readSoFar: &printed, until: done)
    }

    /// The lines the server wrote on stderr, read until `done` holds.
    func errorLines(until done: @escaping ([String]) -> Bool) -> [String] {
        Self.lines(of: errors, readSoFar: &complained, until: done)
    }

    private static func lines(of pipe: Pipe, readSoFar text: inout String, until done: @escaping ([String]) -> Bool) -> [String] {
        let handle = pipe.fileHandleForReading
        var read = text
        _ = waitFor(seconds: 60) {
            if done(read.split(separator: "\n").map(String.init)) { return true }
            let chunk = handle.availableData
            read += String(decoding: chunk, as: UTF8.self)
            return chunk.isEmpty || done(read.split(separator: "\n").map(String.init))
        }
        text = read
        return read.split(separator: "\n").map(String.init)
    }

    /// What a process wrote until its first newline (or its end).
    static func firstLine(of pipe: Pipe) -> String { firstLineAndRest(of: pipe).line }

    /// The first line, and whatever was read past it.
    static func firstLineAndRest(of pipe: Pipe) -> (line: String, rest: String) {
        var read = Data()
        while !read.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            read += chunk
        }
        let text = String(decoding: read, as: UTF8.self)
        guard let newline = text.firstIndex(of: "\n") else { return (text, "") }
        return (String(text[...newline]), String(text[text.index(after: newline)...]))
    }

    /// Sends `signal` and waits for the server to exit; its status, or nil
    /// if it did not exit within the deadline (it is then killed).
    func stop(with signal: Int32) -> Int32? {
        kill(process.processIdentifier, signal)
        guard waitFor({ !process.isRunning }) else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        // Ctrl-C, as a user stops it; it must end at once.
        if process.isRunning { process.interrupt() }
        for _ in 0..<100 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: folder)
    }

    struct ServeError: Error, CustomStringConvertible { var description: String }

    /// A request to the server: its status and body.
    func request(_ path: String, method: String = "GET", body: String? = nil, headers: [String: String] = [:]) async throws -> (status: Int, body: String) {
        guard let url = URL(string: path, relativeTo: address) else { throw ServeError(description: "bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.timeoutInterval = 60
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await Self.session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    func json(_ path: String, method: String = "GET", body: String? = nil, token: String? = nil) async throws -> [String: Any] {
        let (_, text) = try await request(path, method: method, body: body, headers: token.map { ["Cookie": "flow-token=" + $0] } ?? [:])
        return (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    /// Claims `name` on an `--exercise` page, as a student's first visit
    /// does; the student's token, which the page keeps as its cookie.
    func claim(_ name: String) throws -> String {
        let answer = try RawHTTP(port: port).send("POST", "/api/identity", json: Self.encode(["name": name]))
        guard answer.status == 200, let token = answer.token else { throw ServeError(description: "\(name) not claimed: \(answer)") }
        return token
    }

    /// No cookie store: each request carries exactly the cookie it is given
    /// (a class's tokens are cookies, and every server here is 127.0.0.1).
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration)
    }()

    static func encode(_ value: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: value), as: UTF8.self)
    }
}
