import FlowRuntime

/// A key path as a value (`\.name`, `\User.address.city`). As in Swift, it
/// stands for the function that reads those members (`map(\.name)`), and
/// `assign(to:on:)` names the member it sets with one.
final class KeyPathFunction: Function {
    let path: [String]

    init(_ path: [String], location: SourceLocation) {
        self.path = path
        // It reads stored members: a property of the script's types is read as written.
        super.init(name: "\\." + path.joined(separator: "."), parameterCount: 1, location: location, sideEffect: nil)
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
        if labels == ["to"], case .inoutArgument = arguments[0].value {
            return compileAssignToPublished(stream, arguments[0].value, span, in: scope)
        }
        guard labels == ["to", "on"] else {
            error("assign takes to: a key path and on: an object or a subject, as in assign(to: \\.value, on: subject), or to: &$property",
                  nameSpan)
            return { _ in .null }
        }
        if case .keyPath(let path, let pathSpan) = arguments[0].value,
           path.count != 1 || path != ["value"] && !scope.seesClasses {
            error("assign(to:on:) sets one property: \\.name of an object, or \\.value of a subject", pathSpan,
                  help: "to do something else with each value, use sink { ... }")
        }
        let args = compileArguments(arguments, in: scope)
        let env = environment
        let location = self.location(span)
        let targetLocation = self.location(arguments[1].value.span)
        return { frame in
            let observable = try located(location) { try stream(frame).asStream() }
            let values = try args.evaluate(frame)
            guard case .function(let function) = values[0], let keyPath = function as? KeyPathFunction, keyPath.path.count == 1 else {
                throw FlowError("assign(to:on:) needs a key path such as \\.value, got \(values[0].typeName) \(values[0].literal)", at: location)
            }
            if case .object(let object) = values[1] {
                // Combine's `assign(to: \.name, on: object)`: each value set on the object, which it keeps.
                let name = keyPath.path[0]
                guard let field = object.objectClass.fieldIndex(name) else {
                    throw FlowError("\(object.objectClass.name) has no property '\(name)' to assign", at: targetLocation)
                }
                var handlers = Handlers()
                handlers.next = Function.unary(name: "assign") { value in
                    try object.updateField(field) { $0 = value }
                    return .null
                }
                return .function(CancelOnRelease(env.subscribe(observable, at: location, handlers: handlers)))
            }
            guard keyPath.path == ["value"], case .stream(let s) = values[1], let subject = s as? BehaviorSubject else {
                throw FlowError("assign(to: \\.value, on:) needs a subject with a value (CurrentValueSubject, BehaviorSubject or "
                                + "BehaviorRelay), got \(values[1].typeName) \(values[1].literal)", at: targetLocation)
            }
            var handlers = Handlers()
            handlers.next = Function.unary(name: "assign") { value in
                subject.send(value)
                return .null
            }
            return .function(CancelOnRelease(env.subscribe(observable, at: location, handlers: handlers)))
        }
    }

    /// Combine's `assign(to: &$property)`: each value becomes the
    /// `@Published` property's, for as long as the object lives (no
    /// cancellable: the subscription ends with the object's property).
    private func compileAssignToPublished(_ stream: @escaping Code, _ target: Expr, _ span: Span, in scope: Scope) -> Code {
        let published = compile(target, in: scope)
        let env = environment
        let location = self.location(span)
        let targetLocation = self.location(target.span)
        return { frame in
            let observable = try located(location) { try stream(frame).asStream() }
            guard case .stream(let s) = try published(frame), let property = s as? PublishedSubject else {
                throw FlowError("assign(to:) needs a @Published property's publisher, as in assign(to: &$count)", at: targetLocation)
            }
            var handlers = Handlers()
            // Held weakly: the object's property keeps the subscription, not the other way round.
            handlers.next = Function.unary(name: "assign") { [weak property] value in
                property?.send(value)
                return .null
            }
            env.subscribe(observable, at: location, handlers: handlers)
            return .null
        }
    }
}
