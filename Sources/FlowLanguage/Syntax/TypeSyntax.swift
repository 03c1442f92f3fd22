/// A type as a script writes it: `Double`, `[String: Int]`, `Int?`,
/// `(Int, label: Double)`, `CurrentValueSubject<Double, Never>`,
/// `(Int) -> Void`. The parser keeps a type's text; this reads it, so
/// annotations, parameters, results, properties and generic arguments
/// share one reading.
public indirect enum TypeSyntax: Equatable, Sendable {
    /// `Int`, `Swift.Int`, `Observable<Int>`: the name (dotted as written)
    /// and its generic arguments.
    case named(String, arguments: [TypeSyntax])
    /// `T?` and `T!` (and `Optional<T>`, read as written).
    case optional(TypeSyntax)
    case array(TypeSyntax)
    case dictionary(key: TypeSyntax, value: TypeSyntax)
    /// `(Int, Double)`, `(value: Int, time: Double)`; `()` is Void.
    case tuple([TypeSyntax], labels: [String?])
    case function(parameters: [TypeSyntax], result: TypeSyntax)

    /// Reads a whole type's text; nil when it is not one.
    public init?(parsing text: String) {
        var reader = TypeTextReader(text)
        guard let type = reader.type(), reader.atEnd else { return nil }
        self = type
    }

    /// The type with each generic parameter named in `values` replaced
    /// (`(T, T)` with T as Int is `(Int, Int)`).
    public func substituting(_ values: [String: TypeSyntax]) -> TypeSyntax {
        switch self {
        case .named(let name, let arguments):
            if arguments.isEmpty, let value = values[name] { return value }
            return .named(name, arguments: arguments.map { $0.substituting(values) })
        case .optional(let wrapped): return .optional(wrapped.substituting(values))
        case .array(let element): return .array(element.substituting(values))
        case .dictionary(let key, let value): return .dictionary(key: key.substituting(values), value: value.substituting(values))
        case .tuple(let elements, let labels): return .tuple(elements.map { $0.substituting(values) }, labels: labels)
        case .function(let parameters, let result):
            return .function(parameters: parameters.map { $0.substituting(values) }, result: result.substituting(values))
        }
    }

    /// Whether any of `names` is written in it (as a generic parameter would be).
    public func mentions(_ names: some Collection<String>) -> Bool {
        switch self {
        case .named(let name, let arguments): return (arguments.isEmpty && names.contains(name)) || arguments.contains { $0.mentions(names) }
        case .optional(let wrapped): return wrapped.mentions(names)
        case .array(let element): return element.mentions(names)
        case .dictionary(let key, let value): return key.mentions(names) || value.mentions(names)
        case .tuple(let elements, _): return elements.contains { $0.mentions(names) }
        case .function(let parameters, let result): return parameters.contains { $0.mentions(names) } || result.mentions(names)
        }
    }

    /// The name without a module's prefix (`Swift.Int` is `Int`).
    public var baseName: String? {
        guard case .named(let name, _) = self else { return nil }
        return name.split(separator: ".").last.map(String.init)
    }
}

/// A recursive-descent reader of type text.
private struct TypeTextReader {
    var reader: ScalarReader

    init(_ text: String) { reader = ScalarReader(text) }

    var atEnd: Bool { mutating get { reader.atEnd } }

    mutating func accept(_ text: String) -> Bool { reader.accept(text) }

    mutating func identifier() -> String? { reader.word() }

    var index: Int {
        get { reader.index }
        set { reader.index = newValue }
    }

    mutating func type() -> TypeSyntax? {
        // Words that change how a value is passed, not its type.
        while true {
            let before = index
            if accept("@escaping") || accept("@Sendable") || accept("@autoclosure") { continue }
            if let word = identifier(), ["inout", "some", "any", "borrowing", "consuming", "sending"].contains(word) { continue }
            index = before
            break
        }
        guard var type = primary() else { return nil }
        while true {
            if accept("?") || accept("!") {
                type = .optional(type)
            } else {
                break
            }
        }
        let beforeEffects = index
        _ = identifierIf(["async"])
        _ = identifierIf(["throws", "rethrows"])
        if accept("->") {
            guard let result = self.type() else { return nil }
            let parameters: [TypeSyntax] = if case .tuple(let elements, _) = type { elements } else { [type] }
            return .function(parameters: parameters, result: result)
        }
        index = beforeEffects
        return type
    }

    private mutating func identifierIf(_ words: [String]) -> String? {
        let before = index
        if let word = identifier(), words.contains(word) { return word }
        index = before
        return nil
    }

    private mutating func primary() -> TypeSyntax? {
        if accept("[") {
            guard let element = type() else { return nil }
            if accept(":") {
                guard let value = type(), accept("]") else { return nil }
                return .dictionary(key: element, value: value)
            }
            return accept("]") ? .array(element) : nil
        }
        if accept("(") {
            var elements: [TypeSyntax] = [], labels: [String?] = []
            if accept(")") { return .tuple([], labels: []) }
            repeat {
                let before = index
                var label: String?
                if let word = identifier(), accept(":") {
                    label = word
                } else {
                    index = before
                }
                guard let element = type() else { return nil }
                elements.append(element)
                labels.append(label)
            } while accept(",")
            guard accept(")") else { return nil }
            // `(Int)` is Int; a one-element tuple exists only with a label.
            if elements.count == 1, labels[0] == nil { return elements[0] }
            return .tuple(elements, labels: labels)
        }
        guard var name = identifier() else { return nil }
        var arguments = try? genericArguments()
        guard arguments != nil else { return nil }
        while true {
            let before = index
            guard accept("."), let member = identifier() else {
                index = before
                break
            }
            name += "." + member
            guard let more = try? genericArguments() else { return nil }
            arguments = more
        }
        switch (name, arguments!.count) {
        case ("Optional", 1), ("Swift.Optional", 1): return .optional(arguments![0])
        case ("Array", 1), ("Swift.Array", 1): return .array(arguments![0])
        case ("Dictionary", 2), ("Swift.Dictionary", 2): return .dictionary(key: arguments![0], value: arguments![1])
        case ("Void", 0), ("Swift.Void", 0): return .tuple([], labels: [])
        default: return .named(name, arguments: arguments!)
        }
    }

    private struct NotAType: Error {}

    /// `<Int, Never>` after a name, if there.
    private mutating func genericArguments() throws -> [TypeSyntax] {
        guard accept("<") else { return [] }
        var arguments: [TypeSyntax] = []
        repeat {
            guard let argument = type() else { throw NotAType() }
            arguments.append(argument)
        } while accept(",")
        guard accept(">") else { throw NotAType() }
        return arguments
    }
}
