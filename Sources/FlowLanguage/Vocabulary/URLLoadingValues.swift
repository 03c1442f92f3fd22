import Collections
import FlowRuntime
import Foundation

/// Foundation's URL loading as the networking chapters write it: `URL(string:)`,
/// `URLRequest(url:)` with its method, headers and body, and the
/// `HTTPURLResponse` a request gives. `URLSession.shared`'s
/// `dataTaskPublisher(for:)` (Combine) and `rx.data/response/json` (RxSwift)
/// are requests of flow's `http` module, under its permissions
/// (`Compiler.compileURLSessionCall`). Each value is a record whose fields
/// are Foundation's property names, so `url.host` and `response.statusCode`
/// read as in Swift.
enum URLValue {
    static let nominal = Nominal(type: "URL", describe: { tuple in text(of: tuple) })
    static let labels: [String?] = ["absoluteString", "scheme", "host", "port", "path", "query", "lastPathComponent"]

    /// `URL(string:)`: nil where Foundation's is (an empty text, a space in
    /// the host), the text as Foundation keeps it otherwise (`a b` is `a%20b`).
    static func make(string: String) -> Value {
        guard let url = Foundation.URL(string: string) else { return .null }
        return make(url)
    }

    static func make(_ url: Foundation.URL) -> Value {
        func optional(_ text: String?) -> Value { text.map(Value.string) ?? .null }
        return .tuple(Tuple([.string(url.absoluteString), optional(url.scheme), optional(url.host), url.port.map(Value.int) ?? .null,
                             .string(url.path), optional(url.query), .string(url.lastPathComponent)], labels: labels, nominal: nominal))
    }

    private static func text(of tuple: Tuple) -> String {
        if case .string(let text)? = tuple.elements.first { return text }
        return "URL"
    }

    /// The address a URL value holds; `call` names what was given one, for the error.
    static func address(of value: Value, for call: String) throws -> String {
        if case .tuple(let tuple) = value, tuple.nominal === nominal { return text(of: tuple) }
        if value.isNull { throw FlowError("\(call) was given nil for a URL: URL(string:) gives nil for a text that is no URL; unwrap it with if let or guard let") }
        throw FlowError("\(call) takes a URL (as in URL(string: \"https://example.org\")!), got \(value.typeName) \(value.literal)")
    }
}

/// `URLRequest(url:)`: a value (a `var` is changed in place, as Swift's struct).
enum URLRequestValue {
    static let nominal = Nominal(type: "URLRequest", describe: { tuple in
        tuple.elements.first.flatMap { if case .tuple(let url) = $0 { url } else { nil } }?.elements.first?.description ?? "URLRequest"
    })
    static let labels: [String?] = ["url", "httpMethod", "allHTTPHeaderFields", "httpBody", "timeoutInterval"]

    static func make(url: Value, timeout: Double = 60) -> Value {
        .tuple(Tuple([url, .string("GET"), .null, .null, .double(timeout)], labels: labels, nominal: nominal))
    }

    /// What a request asks for, read as `http.request` takes it.
    struct Parts {
        var method: String
        var url: String
        var headers: Value
        var body: Value
        var timeout: Double
    }

    static func parts(of value: Value, for call: String) throws -> Parts {
        guard case .tuple(let tuple) = value, tuple.nominal === nominal else {
            return Parts(method: "GET", url: try URLValue.address(of: value, for: call), headers: .null, body: .null, timeout: 60)
        }
        func field(_ name: String) -> Value { tuple.element(labelled: name) ?? .null }
        let method = field("httpMethod").isNull ? "GET" : try field("httpMethod").asString()
        let body = field("httpBody").isNull ? Value.null : Value.string(try DataValue.text(of: field("httpBody"), for: "\(call)'s httpBody"))
        let timeout = (try? field("timeoutInterval").asDouble()) ?? 60
        return Parts(method: method, url: try URLValue.address(of: field("url"), for: call), headers: field("allHTTPHeaderFields"),
                     body: body, timeout: timeout)
    }

    /// The header fields, by the name each was first given in (Foundation
    /// compares names without case, and joins added values with commas).
    static func settingHeader(_ request: inout Value, _ value: Value, _ name: String, adding: Bool) throws {
        guard case .tuple(var tuple) = request, tuple.nominal === nominal, let at = tuple.labels?.firstIndex(of: "allHTTPHeaderFields") else {
            throw FlowError("setValue(_:forHTTPHeaderField:) is URLRequest's, got \(request.typeName) \(request.literal)")
        }
        var fields: OrderedDictionary<Value, Value> = [:]
        if case .dictionary(let given) = tuple.elements[at] { fields = given }
        let existing = fields.keys.first { (try? $0.asString().lowercased()) == name.lowercased() }
        let key = existing ?? .string(name)
        if value.isNull {
            if !adding { fields.removeValue(forKey: key) }
        } else {
            let text = try value.asString()
            if adding, let old = fields[key] { fields[key] = .string(try old.asString() + "," + text) } else { fields[key] = .string(text) }
        }
        tuple.elements[at] = fields.isEmpty ? .null : .dictionary(fields)
        request = .tuple(tuple)
    }

    /// A header field by name, whatever its case.
    static func header(_ name: String, in fields: Value) -> Value {
        guard case .dictionary(let given) = fields else { return .null }
        return given.first { (try? $0.key.asString().lowercased()) == name.lowercased() }?.value ?? .null
    }
}

/// The response of a request: `statusCode`, `allHeaderFields`, `url`,
/// `mimeType`. A `URLResponse` too (`as? HTTPURLResponse` holds).
enum HTTPURLResponseValue {
    static let nominal = Nominal(type: "HTTPURLResponse", describe: { tuple in
        let status = tuple.element(labelled: "statusCode")?.description ?? "?"
        let url = tuple.element(labelled: "url")?.description ?? ""
        return "<HTTPURLResponse> { URL: \(url) } { Status Code: \(status) }"
    })
    static let labels: [String?] = ["statusCode", "allHeaderFields", "url", "mimeType"]

    /// From `http.request`'s record (status:, headers:, body:).
    static func make(from record: Value, url: String) -> Value {
        guard case .tuple(let response) = record else { return .null }
        let headers = response.element(labelled: "headers") ?? .dictionary([:])
        let contentType = URLRequestValue.header("content-type", in: headers)
        let mimeType: Value = (try? contentType.asString()).map { .string($0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? $0) } ?? .null
        return .tuple(Tuple([response.element(labelled: "status") ?? .null, headers, URLValue.make(string: url), mimeType],
                            labels: labels, nominal: nominal))
    }

    /// The body of `http.request`'s record, as Data.
    static func data(from record: Value) throws -> Value {
        guard case .tuple(let response) = record, case .string(let body)? = response.element(labelled: "body") else { return DataValue.make("") }
        return DataValue.make(body)
    }

    static func status(of response: Value) -> Int {
        guard case .tuple(let tuple) = response, case .int(let status)? = tuple.element(labelled: "statusCode") else { return 0 }
        return status
    }
}

/// `URLSession.shared`: what its requests go through is the run's `http`
/// module, so a session is a name, not a state.
final class URLSessionValue: Function {
    /// One for every run: it holds nothing that changes.
    nonisolated(unsafe) static let shared = URLSessionValue()
    private init() { super.init(name: "URLSession", parameterCount: 0) }
}

extension ValueMethod {
    static let urlLoadingMethods: [ValueMethod] = [
        ValueMethod(name: "appendingPathComponent", receiver: .url, forms: [[arg("component", .string)]],
                    summary: "the URL with a path component added (a slash between)",
                    example: "print(URL(string: \"https://example.org/posts\")!.appendingPathComponent(\"7\"))", body: .reading { url, args in
            let address = try URLValue.address(of: url, for: "appendingPathComponent")
            guard let parsed = Foundation.URL(string: address) else { return url }
            return URLValue.make(parsed.appendingPathComponent(try args.string(0)))
        }),
        ValueMethod(name: "setValue", receiver: .urlRequest, forms: [[arg("value", .value), labelled("forHTTPHeaderField", .string)]],
                    summary: "sets a header field (nil removes it); names are compared without case",
                    example: "var request = URLRequest(url: URL(string: \"https://example.org\")!)\nrequest.setValue(\"application/json\", forHTTPHeaderField: \"Accept\")\nprint(request.allHTTPHeaderFields ?? [:])",
                    body: .changing { request, args in
            try URLRequestValue.settingHeader(&request, args.values[0], try args.string(1), adding: false)
            return .null
        }),
        ValueMethod(name: "addValue", receiver: .urlRequest, forms: [[arg("value", .string), labelled("forHTTPHeaderField", .string)]],
                    summary: "adds a value to a header field, after a comma when it has one",
                    example: "var request = URLRequest(url: URL(string: \"https://example.org\")!)\nrequest.addValue(\"a\", forHTTPHeaderField: \"X-Tag\")\nrequest.addValue(\"b\", forHTTPHeaderField: \"X-Tag\")\nprint(request.value(forHTTPHeaderField: \"x-tag\") ?? \"\")",
                    body: .changing { request, args in
            try URLRequestValue.settingHeader(&request, args.values[0], try args.string(1), adding: true)
            return .null
        }),
    ] + [ValueMethod.Receiver.urlRequest, .httpURLResponse].map { receiver in
        ValueMethod(name: "value", receiver: receiver, forms: [[labelled("forHTTPHeaderField", .string)]],
                    summary: "a header field's value, whatever the case of its name; nil when it has none",
                    example: "var request = URLRequest(url: URL(string: \"https://example.org\")!)\nrequest.setValue(\"text/plain\", forHTTPHeaderField: \"Accept\")\nprint(request.value(forHTTPHeaderField: \"accept\") ?? \"none\")",
                    body: .reading { value, args in
            guard case .tuple(let tuple) = value else { return .null }
            let fields = tuple.element(labelled: receiver == .urlRequest ? "allHTTPHeaderFields" : "allHeaderFields") ?? .null
            return URLRequestValue.header(try args.string(0), in: fields)
        })
    }
}

extension URLValue {
    static let initialisers: [FreeFunction] = [
        FreeFunction(name: "URL", forms: [[labelled("string", .string)]],
                     summary: "Foundation's URL from its text, nil where Foundation's is (an empty text, a space in the host); url.host, url.path, url.port, url.query as in Swift",
                     example: #"print(URL(string: "https://example.org:8080/posts?page=2")!.port!, URL(string: "") == nil)"#,
                     body: .value { args in URLValue.make(string: try args.string(0)) }),
        FreeFunction(name: "URLRequest", forms: [[labelled("url", .value)], [labelled("url", .value), labelled("timeoutInterval", .value)]],
                     summary: "a request of a URL (GET, no headers, no body, 60 s), whose httpMethod, httpBody, allHTTPHeaderFields and timeoutInterval a var changes; for URLSession",
                     example: "var request = URLRequest(url: URL(string: \"https://example.org/posts\")!)\nrequest.httpMethod = \"POST\"\nprint(request.httpMethod!, request)",
                     body: .value { args in
                         _ = try URLValue.address(of: args.values[0], for: "URLRequest(url:)")
                         return URLRequestValue.make(url: args.values[0], timeout: args.values.count > 1 ? try args.values[1].asDouble() : 60)
                     }),
        // Its code is read where it is written (`Compiler.compiledBuiltin`).
        FreeFunction(name: "URLError", forms: [[arg("code", .value)]],
                     summary: "Foundation's error of URL loading, as a tryMap throws it: URLError(.badServerResponse); errorCode and localizedDescription as Foundation has them",
                     example: #"print(URLError(.badServerResponse).errorCode)"#,
                     body: .value { _ in throw FlowError("URLError takes its code, as in URLError(.badServerResponse)") }),
    ]
}

/// Foundation's `URLError(.badServerResponse)`, as book code throws it
/// from a `tryMap`: it prints as Foundation prints one here, and has its
/// `errorCode` and `localizedDescription`.
enum URLErrorValue {
    static let nominal = Nominal(type: "URLError", describe: { tuple in
        guard case .int(let code)? = tuple.element(labelled: "errorCode") else { return "URLError" }
        return String(describing: URLError(URLError.Code(rawValue: code) ?? .unknown))
    })

    /// The codes by their names in Swift.
    static let codes: [String: Int] = [
        "unknown": -1, "cancelled": -999, "badURL": -1000, "timedOut": -1001, "unsupportedURL": -1002, "cannotFindHost": -1003,
        "cannotConnectToHost": -1004, "networkConnectionLost": -1005, "dnsLookupFailed": -1006, "httpTooManyRedirects": -1007,
        "resourceUnavailable": -1008, "notConnectedToInternet": -1009, "redirectToNonExistentLocation": -1010,
        "badServerResponse": -1011, "userCancelledAuthentication": -1012, "userAuthenticationRequired": -1013,
        "zeroByteResource": -1014, "cannotDecodeRawData": -1015, "cannotDecodeContentData": -1016, "cannotParseResponse": -1017,
        "dataNotAllowed": -1020, "fileDoesNotExist": -1100, "noPermissionsToReadFile": -1102, "secureConnectionFailed": -1200,
    ]

    static func make(code: Int) -> Value {
        .tuple(Tuple([.int(code), .string(URLError(URLError.Code(rawValue: code) ?? .unknown).localizedDescription)],
                     labels: ["errorCode", "localizedDescription"], nominal: nominal))
    }
}
