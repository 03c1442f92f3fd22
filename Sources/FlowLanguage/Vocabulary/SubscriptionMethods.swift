import FlowRuntime

/// The methods of what subscribing returns (Combine's `AnyCancellable`,
/// RxSwift's `Disposable`) and of a `DisposeBag()` (or Combine's
/// `Set<AnyCancellable>()`, which `store(in:)` fills).
extension ValueMethod {
    static let subscriptionMethods: [ValueMethod] = [
        subscription("cancel", [noArguments], "ends the subscription (Combine's name)",
                     example: "let s = cold(\"-1-2|\").sink { print($0) }\ns.cancel()\nprint(\"cancelled\")") { f, args in
            try args.expect(0)
            return try f.call([])
        },
        subscription("dispose", [noArguments], "ends the subscription, or every one in a DisposeBag (RxSwift's name)",
                     example: "let bag = DisposeBag()\ncold(\"-1|\").subscribe { print($0) }.disposed(by: bag)\nbag.dispose()\nprint(\"disposed\")") { f, args in
            try args.expect(0)
            return try f.call([])
        },
        subscription("disposed", [[labelled("by", .value)]], "puts the subscription in a DisposeBag, which ends it when disposed",
                     example: "let bag = DisposeBag()\njust(1).subscribe(onNext: { print($0) }).disposed(by: bag)") { f, args in
            try args.expect(1, labels: ["by"])
            guard case .function(let target) = args.values[0], let bag = target as? DisposeBagValue, let subscription = f.subscription else {
                throw FlowError("disposed(by:) puts a subscription in a DisposeBag(), got \(args.values[0].typeName) \(args.values[0].literal)")
            }
            bag.insert(subscription)
            return .null
        },
        subscription("store", [[labelled("in", .value)]], "keeps the subscription in a set of cancellables (Combine's name)",
                     example: "var cancellables = Set<AnyCancellable>()\njust(1).sink { print($0) }.store(in: &cancellables)") { f, args in
            try args.expect(1, labels: ["in"])
            if case .function(let target) = args.values[0], let bag = target as? DisposeBagValue, let subscription = f.subscription {
                bag.insert(subscription)
            }
            return .null
        },
    ]

    private static func subscription(_ name: String, _ forms: [[Parameter]], _ summary: String, example: String,
                                     _ body: @escaping @Sendable (Function, MethodArguments) throws -> Value) -> ValueMethod {
        ValueMethod(name: name, receiver: .subscription, forms: forms, summary: summary, example: example, body: .reading { receiver, args in
            guard case .function(let f) = receiver, f.subscription != nil || f is DisposeBagValue else {
                throw FlowError("\(receiver.typeName) \(receiver.literal) has no method '\(name)'; a subscription has cancel(), dispose(), store(in:) and disposed(by:)")
            }
            return try body(f, args)
        })
    }
}
