import FlowRuntime
import Foundation

/// `URLSession.shared`'s requests as the books write them, made by the
/// run's `http` module (its client, its permissions, its redirects):
/// - Combine's `dataTaskPublisher(for: url or request)`: one
///   `(data: Data, response: HTTPURLResponse)` whatever the status, then
///   completion; a request that gets no response fails.
/// - RxSwift's `rx.response(request:)`: one `(response:, data:)`;
///   `rx.data(request:)`: the body, a status outside 200..<300 failing as
///   RxCocoa's `httpRequestFailed`; `rx.json(request:)` / `rx.json(url:)`:
///   the body read as JSON (dictionaries and arrays, as `Any`).
extension Compiler {
    private enum URLSessionForm {
        case dataTaskPublisher, rxResponse, rxData, rxJSON
    }

    /// The call, where it has one of these shapes; nil otherwise.
    func compileURLSessionCall(_ base: Expr, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], in scope: Scope) -> CompiledExpression? {
        let labels = arguments.map(\.label)
        let form: URLSessionForm, sessionExpr: Expr
        switch (name, labels, base) {
        case ("dataTaskPublisher", ["for"], _): (form, sessionExpr) = (.dataTaskPublisher, base)
        case ("response", ["request"], .member(let session, "rx", _, _)): (form, sessionExpr) = (.rxResponse, session)
        case ("data", ["request"], .member(let session, "rx", _, _)): (form, sessionExpr) = (.rxData, session)
        case ("json", ["request"], .member(let session, "rx", _, _)), ("json", ["url"], .member(let session, "rx", _, _)):
            (form, sessionExpr) = (.rxJSON, session)
        default: return nil
        }
        let shown = form == .dataTaskPublisher ? "dataTaskPublisher(for:)" : "rx.\(name)(\(labels[0]!):)"
        guard let http = modules["http"], let spec = http.function("request") else {
            error("URLSession's \(shown) requests through the http module, which this run does not have", nameSpan)
            return CompiledExpression { _ in .null }
        }
        facts.usedModules.insert("http")
        facts.needsLiveClock = true
        let session = compile(sessionExpr, in: scope)
        let target = compile(arguments[0].value, in: scope)
        let location = self.location(nameSpan)
        // A request without a body is one without the argument (a nil body would be sent as JSON's null).
        let context = environment.context(at: location)
        let withBody = OperatorTable.CallSite(spec, labels: ["method", "url", "body", "headers", "timeout"], context: context)
        let withoutBody = OperatorTable.CallSite(spec, labels: ["method", "url", "headers", "timeout"], context: context)
        return CompiledExpression({ frame in
            guard case .function(let f) = try session(frame), f is URLSessionValue else {
                throw FlowError("\(shown) is URLSession's: call it on URLSession.shared", at: location)
            }
            let request = try located(location) { try URLRequestValue.parts(of: try target(frame), for: shown) }
            let headers = request.headers.isNull ? Value.dictionary([:]) : request.headers
            let timeout = Value.duration(.seconds(request.timeout))
            let stream = try (request.body.isNull
                ? OperatorTable.call(withoutBody, receiver: nil, arguments: [.string(request.method), .string(request.url), headers, timeout])
                : OperatorTable.call(withBody, receiver: nil, arguments: [.string(request.method), .string(request.url), request.body, headers, timeout])
            ).asStream()
            return .stream(stream.map(.unary(name: name) { record in
                try Self.answer(form, to: record, url: request.url, method: request.method, at: location)
            }))
        }, isStream: true)
    }

    /// A URL as a message shows it: without a password or a query, which
    /// may hold a secret.
    private static func shown(_ url: String) -> String {
        guard var parts = URLComponents(string: url) else { return "the URL" }
        (parts.user, parts.password, parts.query, parts.fragment) = (nil, nil, nil, nil)
        return parts.string ?? "the URL"
    }

    /// What each form gives for `http.request`'s record (status:, headers:, body:).
    private static func answer(_ form: URLSessionForm, to record: Value, url: String, method: String, at location: SourceLocation) throws -> Value {
        let response = HTTPURLResponseValue.make(from: record, url: url)
        let data = try HTTPURLResponseValue.data(from: record)
        switch form {
        case .dataTaskPublisher:
            return .tuple(Tuple([data, response], labels: ["data", "response"]))
        case .rxResponse:
            return .tuple(Tuple([response, data], labels: ["response", "data"]))
        case .rxData, .rxJSON:
            let status = HTTPURLResponseValue.status(of: response)
            guard (200..<300).contains(status) else {
                throw FlowError("httpRequestFailed: HTTP request failed with `\(status)` (\(method) \(shown(url)))", at: location)
            }
            guard form == .rxJSON else { return data }
            do { return try JSON.parse(try DataValue.text(of: data, for: "rx.json")) } catch {
                throw FlowError("deserializationError: the response of \(shown(url)) is not JSON (\(FlowError.wrap(error).message))",
                                at: location)
            }
        }
    }
}
