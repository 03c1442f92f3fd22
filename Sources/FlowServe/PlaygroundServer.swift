import FlowLanguage
import FlowIO
import FlowLive
import FlowMarbles
import FlowRuntime
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// `flow serve`: a local web page where a script's diagrams redraw as it is
/// edited. Hummingbird serves the page (static files shipped with flow)
/// and a small JSON API; the engine computes everything the page shows.
/// A WebSocket tells the page when its script changed on disk.
public enum PlaygroundServer {
    public struct Options: Sendable {
        public var path: String
        public var host: String
        public var port: Int
        /// What scripts run from the page may reach, given the served
        /// folder (resolved): by default that folder to read and write in,
        /// and no network (`Permissions.served`).
        public var permissions: @Sendable (_ servedFolder: String) -> Permissions
        /// `--exercise`: `path` is one exercise file, served without the
        /// editor, for a class; each student's answers are saved under
        /// `answers` (by default a folder beside the file, named after it).
        public var exercise = false
        public var answers: String?
        /// `--roster`: the class, each student with a personal link; nil,
        /// each student claims a name on the page.
        public var roster: [ClassMember]?

        public init(path: String, host: String = "127.0.0.1", port: Int = 8080,
                    permissions: @escaping @Sendable (String) -> Permissions = { Permissions.served(folder: $0) }) {
            self.path = path
            self.host = host
            self.port = port
            self.permissions = permissions
        }

        /// Where an exercise's answers go unless `answers` says.
        public var answersFolder: String {
            answers ?? ((path as NSString).deletingPathExtension + "-answers")
        }

        /// Reachable from this machine alone: scripts run from the page
        /// may then read and write files and make requests, as the
        /// learner's own `flow run` would.
        public var isLoopback: Bool { RequestGuard.isLoopback(host) }
    }

    /// Where the server listens, as links to give out.
    public struct Started: Sendable {
        /// The page's address (beyond loopback with its token); with a
        /// roster, students use their own links instead.
        public var address: String
        /// `--exercise`: the teacher's view of the class, with the teacher's token.
        public var teacher: String?
        /// `--exercise --roster`: each student's personal link.
        public var students: [(member: ClassMember, link: String)] = []
        /// `--exercise`: what the teacher should know about the file as a
        /// class sees it, each with its location.
        public var notes: [String] = []
    }

    /// Serves until the process is interrupted (Ctrl-C or SIGTERM).
    /// `started` is told the addresses once the server listens.
    public static func run(_ options: Options, started: @escaping @Sendable (Started) -> Void) throws {
        let folder = try ScriptFolder(serving: options.path)
        // The answers folder is named from where flow was started, as the
        // teacher typed it, before the server works in the served folder:
        // the command it prints to grade them then works where it was typed.
        let answers = try options.exercise ? AnswerFolder(path: options.answersFolder) : nil
        let register = try answers.map { try ClassRegister(answers: $0, roster: options.roster) }
        // A live script's relative paths (`file.append("out.txt")`) name
        // files beside it, as they would in `flow run` from its folder.
        guard FileManager.default.changeCurrentDirectoryPath(folder.root) else {
            throw ScriptFolder.Refused(description: "\(options.path): cannot work in \(folder.root)")
        }
        let page = try Page.load()
        // Beyond loopback, anyone who reaches the address could use the
        // server: a request must carry the token the printed URL holds.
        // A student's and the teacher's tokens pass it too: their links.
        var classTokens: (@Sendable (String) -> Bool)?
        if let register { classTokens = { register.knows($0) } }
        let guardian = RequestGuard(host: options.host, token: options.isLoopback ? nil : RequestGuard.newToken(), alsoAccepts: classTokens)
        let routes: Router<Context>
        let playground: Playground
        let notes: [String]
        if options.exercise {
            // Exercises run in virtual time, reading and writing nothing.
            playground = Playground(access: nil)
            let exercise = try ExerciseFile(folder: folder, answers: answers!, modules: playground.modules)
            notes = exercise.revealsOnCheck.map {
                "\($0): reveal: true is not honoured in a class: a student sees this lane only after giving up on it (recorded for flow grade)"
            }
            routes = pageRouter(page, guardian: guardian)
            ExerciseServer(exercise: exercise, register: register!, playground: playground).routes(on: routes, guardian: guardian, page: page)
        } else {
            playground = Playground(access: options.isLoopback ? Access(options.permissions(folder.root)) : nil)
            routes = router(folder: folder, page: page, playground: playground, guardian: guardian)
            notes = []
        }
        let app = Application(
            router: routes,
            // A frame as large as the largest request: the page's script.
            server: .guardedWebSocketUpgrade(webSocketRouter: options.exercise ? Router(context: Context.self)
                                                 : webSocketRouter(folder: folder, playground: playground, guardian: guardian),
                                             configuration: .init(maxFrameSize: largestRequest),
                                             limits: ConnectionLimits(largestBody: largestRequest)),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "flow"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                guardian.listening(on: port)
                let root = "http://\(options.host.contains(":") ? "[\(options.host)]" : options.host):\(port)/"
                var links = Started(address: root + (guardian.token.map { "?token=" + $0 } ?? ""))
                links.notes = notes
                if let register {
                    links.teacher = root + "teacher?token=" + register.teacherToken
                    let tokens = Dictionary(register.students.map { ($0.file, $0.token) }) { a, _ in a }
                    links.students = (options.roster ?? []).compactMap { member in
                        tokens[member.file + ".flow"].map { (member, root + "?token=" + $0) }
                    }
                }
                started(links)
            },
            logger: quietLogger())
        // Ctrl-C (or SIGTERM) stops the server at once: an open page's
        // WebSocket must not hold it, nor any run, however busy, and
        // nothing is left half-saved (a save is one atomic write; a live
        // run's unfinished file.write is removed). Heard on a thread of
        // its own, which no busy run or queue can starve.
        let stops = LiveWorld().watchInterrupts { interrupt in
            PartialFiles.shared.removeAll()
            _exit(interrupt.exitStatus)
        }
        let done = DispatchSemaphore(value: 0)
        let failure = ErrorBox()
        Task {
            do { try await app.runService(gracefulShutdownSignals: []) } catch { failure.error = error }
            done.signal()
        }
        done.wait()
        withExtendedLifetime(stops) {}
        if let error = failure.error { throw error }
    }

    final class ErrorBox: @unchecked Sendable {
        // Set by the server task before it signals, read after the wait.
        var error: Error?
    }

    static func quietLogger() -> Logger {
        var logger = Logger(label: "flow.serve")
        logger.logLevel = .warning
        return logger
    }

    typealias Context = BasicWebSocketRequestContext

    /// A router behind the guard that serves the page's files.
    static func pageRouter(_ page: Page, guardian: RequestGuard) -> Router<Context> {
        let router = Router(context: Context.self)
        router.add(middleware: guardian)
        router.get("/") { _, _ in page.response("index.html") }
        router.get("/playground.js") { _, _ in page.response("playground.js") }
        router.get("/playground.css") { _, _ in page.response("playground.css") }
        return router
    }

    static func router(folder: ScriptFolder, page: Page, playground: Playground, guardian: RequestGuard) -> Router<Context> {
        let router = pageRouter(page, guardian: guardian)
        router.get("/api/files") { _, _ in
            json(FileList(scripts: folder.scripts(), single: folder.single))
        }
        router.get("/api/file") { request, _ in
            guard let path = request.uri.queryParameters.get("path") else { return problem(.badRequest, "which script? ?path=NAME.flow") }
            do { return json(ScriptText(path: path, text: try folder.read(path))) } catch {
                return problem(.forbidden, "\(error)")
            }
        }
        router.put("/api/file") { request, _ in
            guard let path = request.uri.queryParameters.get("path") else { return problem(.badRequest, "which script? ?path=NAME.flow") }
            guard let body = try? await request.body.collect(upTo: ScriptFolder.largestScript) else {
                return problem(.contentTooLarge, "a script larger than 1 MiB is not saved")
            }
            do {
                try folder.write(path, String(buffer: body))
                return json(Saved(saved: true))
            } catch {
                return problem(.forbidden, "\(error)")
            }
        }
        router.post("/api/render") { request, _ in
            guard let input: RenderRequest = await decode(request) else { return problem(.badRequest, "send {\"text\": ..., \"name\": ...}") }
            guard let dialect = input.chosenDialect else { return problem(.badRequest, "unknown dialect: send one of \(Dialect.names)") }
            return json(await playground.render(input.text, name: input.name ?? "script.flow", dialect: dialect, deck: input.deck?.size))
        }
        router.post("/api/exercise") { request, _ in
            guard let input: ExerciseRequest = await decode(request), let text = input.text else {
                return problem(.badRequest, "send {\"text\": ..., \"answers\": {...}, \"check\": true}")
            }
            guard let dialect = input.chosenDialect else { return problem(.badRequest, "unknown dialect: send one of \(Dialect.names)") }
            return json(await playground.exercises(text, name: input.name ?? "script.flow", dialect: dialect, answers: input.answers ?? [:],
                                                   check: input.check ?? false, gaveUp: Set(input.gaveUp ?? []), checksReveal: true))
        }
        router.post("/api/answers") { request, _ in
            guard let input: ExerciseRequest = await decode(request), let text = input.text else {
                return problem(.badRequest, "send {\"text\": ..., \"answers\": {...}}")
            }
            guard let dialect = input.chosenDialect else { return problem(.badRequest, "unknown dialect: send one of \(Dialect.names)") }
            do {
                return json(ScriptText(path: nil, text: try await playground.answered(text, name: input.name ?? "script.flow", dialect: dialect,
                                                                                     answers: input.answers ?? [:])))
            } catch {
                return problem(.unprocessableContent, "\(error)")
            }
        }
        router.post("/api/move") { request, _ in
            guard let input: MoveRequest = await decode(request) else {
                return problem(.badRequest, "send {\"text\", \"start\", \"end\", \"event\", \"frames\"}")
            }
            // Numbers out of any range a page sends are a bad request, checked before use.
            guard input.start >= 0, input.end >= input.start, input.end <= input.text.utf16.count, input.event >= 0,
                  (-MarbleEdit.largestShift...MarbleEdit.largestShift).contains(input.frames) else {
                return problem(.badRequest, "start, end and event must be within the script, and frames within ±\(MarbleEdit.largestShift)")
            }
            do {
                let text = try await playground.move(input.text, start: input.start, end: input.end, event: input.event, by: input.frames)
                return json(ScriptText(path: nil, text: text))
            } catch {
                return problem(.unprocessableContent, "\(error)")
            }
        }
        router.get("/api/operators") { _, _ in
            json(OperatorSpec.Family.allCases.map { family in
                let specs = operatorTable.entries.filter { $0.family == family }
                return Family(family: family.rawValue, operators: specs.map(\.name), aliases: specs.map(\.aliasNames))
            }.filter { !$0.operators.isEmpty })
        }
        router.get("/api/doc") { request, _ in
            guard let name = request.uri.queryParameters.get("name") else { return problem(.badRequest, "which operator? ?name=NAME") }
            switch OperatorDocs.lookup(name) {
            case .success(let spec):
                return json(OperatorPage(name: spec.name, doc: OperatorDocs.text(for: spec), example: spec.example ?? ""))
            case .failure(let missing):
                return problem(.notFound, missing.message)
            }
        }
        return router
    }

    /// `/ws?path=NAME.flow`: a message whenever the script changes on disk.
    /// `/live`: runs the script sent first on the live clock, sends what
    /// it drew as it runs, and stops it on `{"stop": true}` or when the
    /// page goes away.
    static func webSocketRouter(folder: ScriptFolder, playground: Playground, guardian: RequestGuard) -> Router<Context> {
        let router = Router(context: Context.self)
        router.ws("/live") { request, _ in
            guardian.allows(request) ? .upgrade([:]) : .dontUpgrade
        } onUpgrade: { inbound, outbound, _ in
            var messages = inbound.messages(maxSize: largestRequest).makeAsyncIterator()
            guard case .text(let first)? = try await messages.next(),
                  let input = try? JSONDecoder().decode(RenderRequest.self, from: Data(first.utf8)) else {
                try await outbound.write(.text(#"{"error":"send {\"text\": ..., \"name\": ...} first"}"#))
                return
            }
            guard let dialect = input.chosenDialect else {
                try await outbound.write(.text(#"{"error":"unknown dialect"}"#))
                return
            }
            let remote = LiveRunRemote()
            let deck = NIOLockedValueBox(Playground.LiveDeck(room: input.deck?.size, presenting: input.presenting ?? false))
            let updates = playground.runLive(input.text, name: input.name ?? "script.flow", remote: remote, dialect: dialect, deck: deck)
            // The finished run's picture, once it has been sent.
            let finished = NIOLockedValueBox<Rendering?>(nil)
            let sender = Task {
                for await rendering in updates {
                    guard let data = try? JSONEncoder().encode(rendering) else { continue }
                    try await outbound.write(.text(String(decoding: data, as: UTF8.self)))
                    if !rendering.running { finished.withLockedValue { $0 = rendering } }
                }
            }
            // Presentation mode's room, when the page enters it or its
            // window changes; anything else the page sends now asks to
            // stop; so does its leaving. The page keeps the socket of a
            // finished run while it shows its picture: a new room then
            // lays the finished run's deck out again, split anew for it.
            while let message = try? await messages.next() {
                guard case .text(let text) = message else { continue }
                if let room = try? JSONDecoder().decode(DeckRoomChange.self, from: Data(text.utf8)) {
                    deck.withLockedValue { $0 = .init(room: room.deck?.size ?? $0.room, presenting: room.presenting) }
                    if room.presenting, let size = room.deck?.size, let done = finished.withLockedValue({ $0 }) {
                        let relaid = await playground.relaid(done, for: size)
                        guard let data = try? JSONEncoder().encode(relaid) else { continue }
                        try? await outbound.write(.text(String(decoding: data, as: UTF8.self)))
                    }
                } else {
                    remote.stop()
                }
            }
            remote.stop()
            _ = await sender.result
        }
        router.ws("/ws") { request, _ in
            guard guardian.allows(request), let path = request.uri.queryParameters.get("path"), (try? folder.resolve(path)) != nil else {
                return .dontUpgrade
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let path = context.request.uri.queryParameters.get("path") ?? ""
            let watcher = Task {
                var last = folder.modified(path)
                while !Task.isCancelled {
                    try await Task.sleep(for: .milliseconds(250))
                    let now = folder.modified(path)
                    if now != last {
                        last = now
                        try await outbound.write(.text(#"{"changed":true}"#))
                    }
                }
            }
            defer { watcher.cancel() }
            for try await _ in inbound {}
        }
        return router
    }

    struct FileList: Codable { var scripts: [String]; var single: String?; var exercise: String? = nil }
    struct SavedAnswers: Codable { var saved: String }
    /// The page's exercise requests: the script (but in `--exercise`
    /// mode, whose file is the server's), the answers by question, whether
    /// to check them, and the questions given up (in `--exercise` mode the
    /// server's record says which, and who answers is the request's token).
    struct ExerciseRequest: Codable {
        var text: String?
        var name: String?
        var dialect: String?
        var answers: [String: ExerciseSheet.Answer]?
        var check: Bool?
        var gaveUp: [String]?
        /// `--exercise`: the one question to check (all answered ones without it).
        var question: String?

        var chosenDialect: Dialect?? { RenderRequest(text: "", dialect: dialect).chosenDialect }
    }
    struct ScriptText: Codable { var path: String?; var text: String }
    struct Saved: Codable { var saved: Bool }
    struct RenderRequest: Codable {
        var text: String
        var name: String?
        /// The page's dialect selector: a dialect's name, or absent for
        /// the script's imports.
        var dialect: String?
        /// Presentation mode's room for a slide: the deck is laid out for
        /// it (for a live run: its last picture, and each snapshot while
        /// `presenting`).
        var deck: DeckRoom?
        var presenting: Bool?

        /// nil for a name that is no dialect; `.some(nil)` for "as imported".
        var chosenDialect: Dialect?? {
            guard let dialect, !dialect.isEmpty else { return .some(nil) }
            return Dialect(name: dialect).map { .some($0) }
        }
    }
    /// The room a page has for a slide, in CSS pixels. A slide's text is
    /// never smaller than 20 px in it (legible on a 1280×720 projector),
    /// so a smaller room splits the deck into more slides.
    struct DeckRoom: Codable {
        var width: Double
        var height: Double

        static let legibleText = 20.0
        static let sides = 200.0...8000.0

        /// nil for a room too small (or too large) to lay a slide out in.
        var size: SlideDeck.Size? {
            guard Self.sides.contains(width), Self.sides.contains(height) else { return nil }
            let (w, h) = (Int(width.rounded(.down)), Int(height.rounded(.down)))
            return SlideDeck.Size(width: w, height: h, smallestText: Swift.max(Self.legibleText, Double(h) / 36))
        }
    }
    /// During a live run: the page entered or left presentation mode,
    /// or its room changed.
    struct DeckRoomChange: Codable {
        var room: Bool
        var presenting: Bool
        var deck: DeckRoom?
    }
    struct MoveRequest: Codable { var text: String; var start: Int; var end: Int; var event: Int; var frames: Int64 }
    /// A family's operators, and each one's other libraries' names (for the page's search).
    struct Family: Codable { var family: String; var operators: [String]; var aliases: [[String]] }
    struct OperatorPage: Codable { var name: String; var doc: String; var example: String }
    struct Problem: Codable { var error: String }

    /// The largest request body the API reads (a script and its marble).
    static let largestRequest = 2 << 20

    static func decode<T: Decodable>(_ request: Request) async -> T? {
        guard let body = try? await request.body.collect(upTo: largestRequest) else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(buffer: body))
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONEncoder().encode(value)) ?? Data(#"{"error":"cannot encode the answer"}"#.utf8)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func problem(_ status: HTTPResponse.Status, _ message: String) -> Response {
        json(Problem(error: message), status: status)
    }
}

/// The page: its files, read once from the resources shipped with flow.
struct Page: Sendable {
    let files: [String: String]

    static let names = ["index.html", "playground.js", "playground.css", "teacher.html", "teacher.js"]

    static func load() throws -> Page {
        var files: [String: String] = [:]
        for name in names {
            let parts = name.split(separator: ".")
            guard let url = Bundle.module.url(forResource: String(parts[0]), withExtension: String(parts[1]), subdirectory: "Page"),
                  let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw ScriptFolder.Refused(description: "the page's file \(name) is missing from flow's resources")
            }
            files[name] = text
        }
        return Page(files: files)
    }

    func response(_ name: String) -> Response {
        let type = name.hasSuffix(".html") ? "text/html" : name.hasSuffix(".js") ? "text/javascript" : "text/css"
        return Response(status: .ok, headers: [.contentType: type + "; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: files[name] ?? "")))
    }
}
