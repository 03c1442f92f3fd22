import FlowRuntime

extension Compiler {
    /// `list.append(x)`, `counts.removeValue(forKey: k)`, `done.toggle()`:
    /// a method of values that changes its receiver where it lives.
    /// Where the name is also a stream operator (`fallback`), a `var`
    /// holding a stream gets the operator.
    func compileChangingMethodCall(_ base: Expr, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], in scope: Scope,
                                   fallback: ((Expr) -> Code)?) -> Code? {
        guard let methods = ValueMethods.group(named: name), methods.changesReceiver else { return nil }
        // Bound by their labels and literal values: the arguments are
        // compiled once it is sure this is the call (not the operator).
        let literals = arguments.map { argument -> Value? in if case .literal(let value, _) = argument.value { value } else { nil } }
        let labels = methods.bind(labels: arguments.map(\.label), values: literals, trailingClosure: arguments.last?.isTrailing == true)
        if let fallback {
            // Only a var can be changed; anything else is the operator.
            guard labels != nil, Self.isPlace(base), let root = Self.placeRoot(base) else { return nil }
            // `cart.items.append(x)`: an object's property changes whoever holds the object.
            let objectProperty = if case .member = base { scope.seesClasses } else { false }
            if !objectProperty, let entry = scope.resolve(root)?.entry, !entry.binding.isMutable {
                // A constant holding an array: say why it cannot change.
                let read = compile(base, in: scope), operatorCall = fallback(base)
                let location = self.location(nameSpan)
                return { frame in
                    if try !read(frame).isStream {
                        throw FlowError("'\(name)' changes the value it is called on, and '\(root)' is a constant: declare it with var",
                                        at: location)
                    }
                    return try operatorCall(frame)
                }
            }
            guard objectProperty || isChangeable(root: root, in: scope) else { return nil }
        }
        guard let labels else {
            error("no form of '\(name)' takes these arguments; it takes \(methods.formsDescription)", nameSpan)
            return { _ in .null }
        }
        guard Self.isPlace(base) else {
            error("'\(name)' changes the value it is called on: call it on a var", nameSpan,
                  help: "as in var list = [1]; list.\(name)(...)")
            return { _ in .null }
        }
        guard let place = compilePlace(base, in: scope) else { return { _ in .null } }
        let args = compileArguments(arguments, in: scope)
        // `prices.append(3)` on a `[Double]`: the element takes the type.
        var conversions: [Conversion.Convert?] = []
        if case .array(let element)? = placeType(of: base, in: scope), let convert = Conversion.to(element) {
            conversions = args.labels.map { $0 == nil ? convert : $0 == "contentsOf" ? Conversion.to(.array(element)) : nil }
        }
        let location = self.location(nameSpan)
        let (slot, other) = compileThroughHiddenSlot(fallback, base, nameSpan, in: scope)
        // Read, not changed, to see whether it is a stream: changing a
        // @Published property publishes.
        let read = other == nil ? nil : compile(base, in: scope)
        return { frame in
            if let other, let value = try read?(frame), value.isStream {
                frame.slots[slot] = value
                return try other(frame)
            }
            var values = try args.evaluate(frame)
            for (i, convert) in conversions.enumerated() { if let convert { values[i] = convert(values[i]) } }
            var result = Value.null
            try place(frame) { value in
                result = try located(location) { try methods.apply(to: &value, labels: labels, arguments: values) }
            }
            return result
        }
    }
}
