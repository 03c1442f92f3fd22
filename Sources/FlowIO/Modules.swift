import AsyncHTTPClient
import FlowLanguage
import FlowLive
import FlowRuntime
import NIOHTTP1

/// The I/O modules a script sees: `file`, `stdin`, `json`, `http` and `pg`. Every
/// function that reaches outside the script is made with the run's
/// `Access`, and asks it before it touches a file, a host or the input.
public enum IOModules {
    /// The modules of a run granted what `access` allows.
    public static func all(_ access: Access, logLevel: LogLevel = .info) -> [BuiltinModule] {
        [file(access), standardInput(access), json, http(access), postgres(access), environment(access), log(threshold: logLevel), csv(access)]
    }

    /// The modules with everything allowed: for checking and documenting
    /// scripts, which reach nothing.
    public static let unrestricted = all(.unrestricted)

    /// The names of the modules that reach outside the script.
    public static let outsideNames: Set<String> = ["file", "stdin", "http", "pg", "env", "csv"]

    static func function(
        _ name: String, _ family: OperatorSpec.Family, _ summary: String, _ parameters: [Parameter],
        _ build: @escaping @Sendable (Arguments) throws -> Value
    ) -> OperatorSpec {
        OperatorSpec(name, family, .function, summary, [Signature(parameters) { args in
            do { return try build(args) } catch { throw FlowError.wrap(error).located(at: args.context.location) }
        }])
    }

    static func path(_ args: Arguments, _ access: Access) throws -> String {
        let written = try args.string(0, default: "")
        guard let script = args.context.location?.file else { return written }
        return access.located(written, writtenIn: script)
    }

    public static func file(_ access: Access) -> BuiltinModule { BuiltinModule(name: "file", summary: "files as streams, and writers for sink", functions: [
        function("read", .creation, "the whole file as one string, then completion", [arg("path", .string)]) {
            .stream(FileLinesNode(path: try path($0, access), wholeFile: true, location: $0.context.location, access: access))
        },
        function("lines", .creation, "each line of the file, read as it goes (constant memory), then completion",
                 [arg("path", .string)]) {
            .stream(FileLinesNode(path: try path($0, access), wholeFile: false, location: $0.context.location, access: access))
        },
        function("watch", .creation, "the file's (path:, exists:, size:) each time it changes, checked every 100ms or `every`",
                 [arg("path", .string), labelled("every", .duration, optional: true).positive()]) {
            .stream(FilePollNode(path: try path($0, access), period: try $0.optionalDuration(1) ?? .milliseconds(Int64(100)), mode: .watch,
                                 location: $0.context.location, access: access))
        },
        function("tail", .creation, "the lines appended to the file after subscription, checked every 100ms or `every`",
                 [arg("path", .string), labelled("every", .duration, optional: true).positive()]) {
            .stream(FilePollNode(path: try path($0, access), period: try $0.optionalDuration(1) ?? .milliseconds(Int64(100)), mode: .tail,
                                 location: $0.context.location, access: access))
        },
        function("write", .utility, "for sink: writes each value as a line; the file is replaced when the stream ends, and left as it was if the stream fails; onCommit: { lines in } is told the lines written once the file is put in place",
                 [arg("path", .string), labelled("onCommit", .function, optional: true)]) {
            .function(try FileWriter(path: try path($0, access), append: false, location: $0.context.location, access: access,
                                     onCommit: try $0.optionalFunction(1), context: $0.context, claims: $0.context.runClaims))
        },
        function("append", .utility, "for sink: appends each value as a line, closed when the stream ends; onCommit: { lines in } is told the lines appended so far after each",
                 [arg("path", .string), labelled("onCommit", .function, optional: true)]) {
            .function(try FileWriter(path: try path($0, access), append: true, location: $0.context.location, access: access,
                                     onCommit: try $0.optionalFunction(1), context: $0.context, claims: $0.context.runClaims))
        },
    ]) }

    public static func standardInput(_ access: Access) -> BuiltinModule { BuiltinModule(name: "stdin", summary: "standard input", functions: [
        function("lines", .creation, "each line of standard input, then completion at its end (at once where the command gives scripts no input)", []) { _ in
            .stream(StandardInputNode(access: access))
        },
    ]) }

    public static let json = BuiltinModule(name: "json", summary: "JSON text to values and back", functions: [
        function("parse", .utility, "the value a JSON text describes (objects become dictionaries)", [arg("text", .string)]) {
            try JSON.parse(try $0.string(0, default: ""))
        },
        function("string", .utility, "the JSON text of a value", [arg("value", .value)]) {
            .string(try JSON.string($0.value(0)!))
        },
    ], methods: [
        // Combine's forms. The type is what Swift would decode into; flow's
        // values are dynamic, so the JSON's own shape is the result.
        OperatorSpec("decode", .transformation, .method, "each value (JSON text, or an HTTP response's body) decoded from JSON", [
            Signature([labelled("type", .value), labelled("decoder", .value, optional: true)]) { args in
                try coder(args, 1, is: "JSONDecoder")
                let location = args.context.location
                return .stream(try args.source().map(.unary(name: "decode") { value in
                    var text = value
                    if case .tuple(let response) = value, let body = response.element(labelled: "body") { text = body }
                    guard case .string(let json) = text else {
                        throw FlowError("decode: expected JSON text, got \(value.typeName) \(value.literal)", at: location)
                    }
                    do { return try JSON.parse(json) } catch { throw FlowError("decode: \(FlowError.wrap(error).message)", at: location) }
                }))
            },
        ]),
        OperatorSpec("encode", .transformation, .method, "each value as JSON text", [
            Signature([labelled("encoder", .value, optional: true)]) { args in
                try coder(args, 0, is: "JSONEncoder")
                let location = args.context.location
                return .stream(try args.source().map(.unary(name: "encode") { value in
                    do { return .string(try JSON.string(value)) } catch {
                        throw FlowError("encode: \(FlowError.wrap(error).message)", at: location)
                    }
                }))
            },
        ]),
    ])

    /// A coder argument, when given, must be the one flow speaks: JSON.
    private static func coder(_ args: Arguments, _ i: Int, is expected: String) throws {
        guard let given = args.value(i) else { return }
        guard case .tuple(let record) = given, record.element(labelled: "coder") == .string(expected) else {
            throw FlowError("\(args.name): flow reads and writes JSON: give \(expected)(), got \(given.typeName) \(given.literal)",
                            at: args.context.location)
        }
    }
}

extension IOModules {
    static let httpOptions = [
        labelled("headers", .value, optional: true), labelled("timeout", .duration, optional: true).positive(),
    ]

    /// A stream's options: `timeout:` is the longest silence between chunks
    /// (none by default), `deadline:` a limit on the whole stream.
    static let streamOptions = httpOptions + [labelled("deadline", .duration, optional: true).positive()]

    /// The parts of a call that every HTTP function shares.
    static func call(_ args: Arguments, method: HTTPMethod, url: Int, body: Int?, headers: Int, timeout: Int,
                     defaultTimeout: TimeSpan? = .seconds(30), deadline: Int? = nil) throws -> HTTPNode.Call {
        let address = try args.string(url, default: "")
        if let problem = HTTPNode.problem(with: address) {
            throw FlowError("cannot request \(SecretsHidden.quoted(address)): \(problem)", at: args.context.location)
        }
        var pairs: [(String, String)] = []
        if let given = args.value(headers) {
            guard case .dictionary(let d) = given else { throw FlowError("headers are a dictionary, as in [\"Accept\": \"application/json\"]") }
            pairs = d.map { ($0.key.description, $0.value.description) }
        }
        var text: String?
        if let body, let value = args.value(body) {
            if case .string(let s) = value { text = s } else {
                text = try JSON.string(value)
                if !pairs.contains(where: { $0.0.lowercased() == "content-type" }) { pairs.append(("Content-Type", "application/json")) }
            }
        }
        return HTTPNode.Call(method: method, url: address, headers: pairs, body: text,
                             timeout: try args.optionalDuration(timeout) ?? defaultTimeout,
                             deadline: try deadline.flatMap { try args.optionalDuration($0) })
    }

    public static func http(_ access: Access) -> BuiltinModule { BuiltinModule(name: "http", summary: "HTTP requests as streams", functions: [
        function("get", .creation, "one response (status:, headers:, body:), then completion; a non-2xx status is an error carrying it",
                 [arg("url", .string)] + httpOptions) {
            .stream(HTTPNode(try call($0, method: .GET, url: 0, body: nil, headers: 1, timeout: 2), kind: .response(raw: false),
                             name: "http.get", location: $0.context.location, access: access))
        },
        function("post", .creation, "posts a body (a string, or a value sent as JSON); one response, as get",
                 [arg("url", .string), labelled("body", .value, optional: true)] + httpOptions) {
            .stream(HTTPNode(try call($0, method: .POST, url: 0, body: 1, headers: 2, timeout: 3), kind: .response(raw: false),
                             name: "http.post", location: $0.context.location, access: access))
        },
        function("request", .creation, "any method; one response whatever its status",
                 [labelled("method", .string), labelled("url", .string), labelled("body", .value, optional: true)] + httpOptions) { args in
            let method = HTTPMethod(rawValue: try args.string(0, default: "GET").uppercased())
            return .stream(HTTPNode(try call(args, method: method, url: 1, body: 2, headers: 3, timeout: 4), kind: .response(raw: true),
                                    name: "http.request", location: args.context.location, access: access))
        },
        function("lines", .creation,
                 "each line of the response body as it arrives (NDJSON, long polls); timeout: is the longest silence allowed, deadline: a limit on the whole stream",
                 [arg("url", .string)] + streamOptions) {
            .stream(HTTPNode(try call($0, method: .GET, url: 0, body: nil, headers: 1, timeout: 2, defaultTimeout: nil, deadline: 3),
                             kind: .lines, name: "http.lines", location: $0.context.location, access: access))
        },
        function("events", .creation,
                 "server-sent events as (event:, data:, id:); timeout: is the longest silence allowed, deadline: a limit on the whole stream",
                 [arg("url", .string)] + streamOptions) {
            .stream(HTTPNode(try call($0, method: .GET, url: 0, body: nil, headers: 1, timeout: 2, defaultTimeout: nil, deadline: 3),
                             kind: .events, name: "http.events", location: $0.context.location, access: access))
        },
    ], methods: [
        OperatorSpec("json", .utility, .method, "a response's body decoded from JSON", [Signature([]) { args in
            guard case .tuple(let response)? = args.receiver, let body = response.element(labelled: "body") else {
                throw FlowError("json() is for HTTP responses; use json.parse(text) for text", at: args.context.location)
            }
            do { return try JSON.parse(try body.asString()) } catch { throw FlowError.wrap(error).located(at: args.context.location) }
        }]),
    ]) }
}
