import FlowRuntime

/// A key path as a value (`\.name`, `\User.address.city`). As in Swift, it
/// stands for the function that reads those members (`map(\.name)`), and
/// `assign(to:on:)` names the member it sets with one.
final class KeyPathFunction: Function {
    let path: [String]

    init(_ path: [String], location: SourceLocation) {
        self.path = path
        super.init(name: "\\." + path.joined(separator: "."), parameterCount: 1, location: location)
    }

    override func call(_ value: Value) throws -> Value {
        do { return try path.reduce(value) { try $0.property($1, methods: ValueMethods.property(named: $1)) } } catch { throw FlowError.wrap(error).located(at: location) }
    }

    override func call(_ args: [Value]) throws -> Value {
        guard args.count == 1 else { throw FlowError("the key path \(name) reads one value, got \(args.count)", at: location) }
        return try call(args[0])
    }
}

extension Compiler {
    /// Combine's `assign(to: \.value, on: subject)`: every value becomes the
    /// subject's value. flow's only objects with a member to set are its
    /// subjects (`CurrentValueSubject`, `BehaviorSubject`, relays); for
    /// anything else, `sink` is the way to act on each value.
    func compileAssign(_ stream: @escaping Code, _ arguments: [CallArgument], _ nameSpan: Span, _ span: Span, in scope: Scope) -> Code {
        let labels = arguments.map(\.label)
        guard labels == ["to", "on"] else {
            error("assign takes to: a key path and on: a subject, as in assign(to: \\.value, on: subject)", nameSpan)
            return { _ in .null }
        }
        if case .keyPath(let path, let pathSpan) = arguments[0].value, path != ["value"] {
            error("assign(to:on:) can set only a subject's value (\\.value)", pathSpan,
                  help: "to do something else with each value, use sink { ... }")
        }
        let args = compileArguments(arguments, in: scope)
        let env = environment
        let location = self.location(span)
        let targetLocation = self.location(arguments[1].value.span)
        return { frame in
            let observable = try located(location) { try stream(frame).asStream() }
            let values = try args.evaluate(frame)
            guard case .function(let function) = values[0], let keyPath = function as? KeyPathFunction, keyPath.path == ["value"] else {
                throw FlowError("assign(to:on:) needs the key path \\.value, got \(values[0].typeName) \(values[0].literal)", at: location)
            }
            guard case .stream(let s) = values[1], let subject = s as? BehaviorSubject else {
                throw FlowError("assign(to: \\.value, on:) needs a subject with a value (CurrentValueSubject, BehaviorSubject or "
                                + "BehaviorRelay), got \(values[1].typeName) \(values[1].literal)", at: targetLocation)
            }
            var handlers = Handlers()
            handlers.next = Function.unary(name: "assign") { value in
                subject.send(value)
                return .null
            }
            return .function(env.subscribe(observable, at: location, handlers: handlers))
        }
    }
}
