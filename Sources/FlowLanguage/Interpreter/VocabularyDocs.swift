import FlowRuntime

/// `flow doc` for the names the language reads that are neither operators
/// nor functions: the subscribing methods and the libraries' type names.
/// Made from the tables the compiler reads (`Builtins.subscribingLabels`,
/// `SwiftVocabulary.namespaces`), so a name the language accepts has an
/// entry.
extension OperatorDocs {
    static let subscribingSummaries: [String: String] = [
        "sink": "Combine's subscriber: runs the closure for each value (receiveValue:) and for the end (receiveCompletion:); gives an AnyCancellable, which cancels when released",
        "subscribe": "RxSwift's and RxJS's subscriber: onNext:, onError:, onCompleted:, onDisposed: (and a Single's onSuccess:, onFailure:); gives a Disposable",
        "bind": "RxSwift's bind: each value to a closure (onNext:), or sent into subjects or relays (to:)",
        "drive": "RxCocoa's Driver subscriber: each value to a closure (onNext:), on the loop",
        "emit": "RxCocoa's Signal subscriber: each value to a closure (onNext:) or relays (to:)",
        "subscribeValues": "CwlSignal's subscriber: each value to the closure",
        "assign": "Combine's assign(to: \\.property, on: object), and assign(to: &$published): each value set on the property",
    ]

    static let namespaceSummaries: [String: String] = [
        "Observable": "RxSwift's stream type: Observable.just(1), Observable.from([1, 2]) are the free functions just(1), from([1, 2])",
        "Single": "RxSwift's trait of one value or an error: Single.just(x), Single.create { single in single(.success(x)) }",
        "Maybe": "RxSwift's trait of at most one value: Maybe.just(x), Maybe.empty()",
        "Completable": "RxSwift's trait of no value: Completable.empty(), Completable.create { completable in completable(.completed) }",
        "Infallible": "RxSwift's stream that cannot fail: Infallible.just(x)",
        "Publishers": "Combine's publisher types: Publishers.Merge(a, b), Publishers.CombineLatest(a, b) are merge(a, b), combineLatest(a, b)",
        "AnyPublisher": "Combine's type-erased publisher: eraseToAnyPublisher() gives the stream as it is",
        "Signal": "RxCocoa's Signal (no replay, no error): subscribed with emit; Signal.just(x) is just(x)",
        "Driver": "RxCocoa's Driver (replays its last value, no error): subscribed with drive; Driver.just(x) is just(x)",
        "Swift": "Swift's standard library by its module's name: Swift.print(x) is print(x), also inside a type with its own print",
    ]

    static let foundationSummaries: [String: String] = [
        "JSONDecoder": "Foundation's JSON decoder: decode(Product.self, from: data) reads JSON into a struct of the script's, each field as its written type says (a missing optional is nil; a missing required key or a wrong kind is thrown, as DecodingError); a struct's CodingKeys enum renames keys. Also the decoder: of Combine's decode(type:decoder:)",
        "NotificationCenter": "Foundation's notification center (NotificationCenter.default, one per run, or a new one): addObserver(forName:object:queue:using:), removeObserver(_:), post(name:object:userInfo:), delivered at once in the order observers were added; publisher(for:) is Combine's stream of one name's notifications",
        "Data": "Foundation's bytes: Data(text.utf8), text.data(using: .utf8), read back with String(data:encoding:); prints as its size",
        "JSONEncoder": "Foundation's JSON encoder: encode(value) gives the value's JSON as Data (String(data: data, encoding: .utf8)! reads it). Also the encoder: of Combine's encode(encoder:)",
    ]

    /// The entry for a subscribing method or a library type's name.
    static func vocabularyText(_ name: String) -> String? {
        if let labels = Builtins.subscribingLabels[name] {
            let form = name + "(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
            return form + " — " + (subscribingSummaries[name] ?? "subscribes")
        }
        if SwiftVocabulary.namespaces.contains(name) {
            return name + " — " + (namespaceSummaries[name] ?? "a library's type, whose static members are flow's functions")
        }
        if let summary = foundationSummaries[name] { return name + "() — " + summary }
        return nil
    }
}
