import FlowRuntime

/// Foundation's `NotificationCenter`, as book code uses it: observers
/// added with a closure and removed by their token, notifications posted
/// by name (delivered at once, in the order observers were added, as
/// Foundation delivers them on the posting thread), and Combine's
/// `publisher(for:)`, a stream of the notifications of one name.
/// `NotificationCenter.default` is one center per run; `NotificationCenter()`
/// makes another.
final class NotificationCenterValue: Function {
    private struct Observer {
        let name: String?
        let token: NotificationObserverToken
        let closure: Function
    }

    private var observers: [Observer] = []
    private var publishers: [String: PublishSubject] = [:]

    init() { super.init(name: "NotificationCenter", parameterCount: 0) }

    func addObserver(name: String?, closure: Function) -> Value {
        let token = NotificationObserverToken()
        observers.append(Observer(name: name, token: token, closure: closure))
        return .function(token)
    }

    func removeObserver(_ token: Value) {
        guard case .function(let f) = token, let token = f as? NotificationObserverToken else { return }
        observers.removeAll { $0.token === token }
    }

    func post(name: String, object: Value, userInfo: Value) throws {
        let notification = NotificationValue.make(name: name, object: object, userInfo: userInfo)
        // Observers added or removed by an observer take effect from the next post.
        for observer in observers where observer.name == nil || observer.name == name {
            _ = try observer.closure.call([notification])
        }
        publishers[name]?.send(notification)
    }

    func publisher(for name: String) -> Value {
        if let subject = publishers[name] { return .stream(subject) }
        let subject = PublishSubject()
        publishers[name] = subject
        return .stream(subject)
    }
}

/// What `addObserver(forName:object:queue:using:)` returns, for `removeObserver`.
final class NotificationObserverToken: Function {
    init() { super.init(name: "NSObjectProtocol", parameterCount: 0) }
}

/// A posted notification: its `name`, `object` and `userInfo`.
enum NotificationValue {
    static let nominal = Nominal(type: "Notification", describe: { tuple in
        let shown = tuple.elements.map { $0.isNull ? "nil" : $0.description }
        guard shown.count == 3 else { return "Notification" }
        return "name = \(shown[0]), object = \(shown[1]), userInfo = \(shown[2])"
    })

    static func make(name: String, object: Value, userInfo: Value) -> Value {
        .tuple(Tuple([makeName(name), object, userInfo], labels: ["name", "object", "userInfo"], nominal: nominal))
    }

    static let nameNominal = Nominal(type: "Notification.Name", describe: { tuple in
        "Name(_rawValue: \(tuple.elements.first.map { $0.isNull ? "nil" : $0.description } ?? ""))"
    })

    /// `Notification.Name("didLogin")`, whose `rawValue` is the text.
    static func makeName(_ raw: String) -> Value {
        .tuple(Tuple([.string(raw)], labels: ["rawValue"], nominal: nameNominal))
    }

    /// A notification's name as text: a `Notification.Name`, or the text itself.
    static func name(_ value: Value, for call: String) throws -> String {
        switch value {
        case .string(let name): return name
        case .tuple(let tuple) where tuple.nominal === nameNominal:
            if case .string(let name)? = tuple.elements.first { return name }
        default: break
        }
        throw FlowError("\(call) takes a notification's name, as in Notification.Name(\"didLogin\"), got \(value.typeName) \(value.literal)")
    }
}

extension ValueMethod {
    static let notificationCenterMethods: [ValueMethod] = [
        center("addObserver", [[labelled("forName", .value), labelled("object", .value), labelled("queue", .value), labelled("using", .function)]],
               "runs the closure with each notification of that name (nil: of every name) posted from now on; gives the token removeObserver takes",
               example: "let center = NotificationCenter()\nlet token = center.addObserver(forName: Notification.Name(\"ping\"), object: nil, queue: nil) { note in print(note.name) }\ncenter.post(name: Notification.Name(\"ping\"), object: nil)") { center, args in
            let name: String? = args.values[0].isNull ? nil : try NotificationValue.name(args.values[0], for: "addObserver(forName:)")
            return center.addObserver(name: name, closure: try args.function(3))
        },
        center("removeObserver", [[arg("observer", .value)]], "stops the observer addObserver gave this token for",
               example: "let center = NotificationCenter()\nlet token = center.addObserver(forName: nil, object: nil, queue: nil) { _ in print(\"seen\") }\ncenter.post(name: Notification.Name(\"ping\"), object: nil)\ncenter.removeObserver(token)\ncenter.post(name: Notification.Name(\"ping\"), object: nil)") { center, args in
            center.removeObserver(args.values[0])
            return .null
        },
        center("post", [[labelled("name", .value), labelled("object", .value, optional: true), labelled("userInfo", .value, optional: true)]],
               "delivers a notification to its observers and publishers at once, in the order they were added",
               example: "let center = NotificationCenter()\nlet c = center.publisher(for: Notification.Name(\"saved\")).sink { print($0.userInfo?[\"id\"] as Any) }\ncenter.post(name: Notification.Name(\"saved\"), object: nil, userInfo: [\"id\": 7])") { center, args in
            let name = try NotificationValue.name(args.values[0], for: "post(name:)")
            let object = args.labels.firstIndex(of: "object").map { args.values[$0] } ?? .null
            let userInfo = args.labels.firstIndex(of: "userInfo").map { args.values[$0] } ?? .null
            try center.post(name: name, object: object, userInfo: userInfo)
            return .null
        },
        center("publisher", [[labelled("for", .value), labelled("object", .value, optional: true)]],
               "Combine's stream of the notifications of that name posted while it is subscribed",
               example: "let center = NotificationCenter()\nlet c = center.publisher(for: Notification.Name(\"tick\")).sink { print($0.name) }\ncenter.post(name: Notification.Name(\"tick\"), object: nil)") { center, args in
            center.publisher(for: try NotificationValue.name(args.values[0], for: "publisher(for:)"))
        },
    ]

    private static func center(_ name: String, _ forms: [[Parameter]], _ summary: String, example: String,
                               _ body: @escaping @Sendable (NotificationCenterValue, MethodArguments) throws -> Value) -> ValueMethod {
        ValueMethod(name: name, receiver: .notificationCenter, forms: forms, summary: summary, example: example, body: .reading { receiver, args in
            guard case .function(let f) = receiver, let center = f as? NotificationCenterValue else {
                throw FlowError("\(name) is NotificationCenter's, got \(receiver.typeName) \(receiver.literal)")
            }
            return try body(center, args)
        })
    }
}
