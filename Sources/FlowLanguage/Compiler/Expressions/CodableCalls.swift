import FlowRuntime

/// Foundation's JSON coders called as Swift calls them:
/// `JSONDecoder().decode(Product.self, from: data)` gives a `Product`,
/// read field by field as its written types say (a Double field holds
/// 3.0 for a JSON `3`, a missing optional field is nil, a missing
/// required one or a wrong kind is thrown, as Swift's DecodingError is);
/// `JSONEncoder().encode(value)` gives the JSON as `Data`. A struct's
/// `CodingKeys` enum renames its keys.
extension Compiler {
    /// The coders' calls, where the call has their shape; nil otherwise.
    func compileCoderCall(_ base: Expr, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], in scope: Scope) -> Code? {
        let labels = arguments.map(\.label)
        if name == "decode" && labels == ["type", "decoder"] || name == "encode" && labels == ["encoder"] {
            return compileCoderOperator(base, name, nameSpan, arguments, in: scope)
        }
        let decodes = name == "decode" && labels == [nil, "from"]
        guard decodes || name == "encode" && labels == [nil] else { return nil }
        let coder = compile(base, in: scope)
        let location = self.location(nameSpan)
        guard decodes else {
            let value = compile(arguments[0].value, in: scope)
            return { frame in
                try Self.expectCoder(try coder(frame), "JSONEncoder", "encode(_:)", location)
                return try Self.encoded(try value(frame), location)
            }
        }
        guard case .member(let typeExpr, "self", _, _) = arguments[0].value else {
            error("decode(_:from:) takes the type to decode, as in decode(Product.self, from: data)", arguments[0].value.span)
            return { _ in .null }
        }
        let type = staticType(text: file.text(of: typeExpr.span), in: scope)
        let read = JSONReading(compiler: self, scope: scope).reader(for: type, at: nameSpan)
        let data = compile(arguments[1].value, in: scope)
        return { frame in
            try Self.expectCoder(try coder(frame), "JSONDecoder", "decode(_:from:)", location)
            return try Self.decoded(try DataValue.text(of: try data(frame), for: "decode(_:from:)"), read, frame, location)
        }
    }

    /// A value's JSON as Data, or Swift's EncodingError.
    private static func encoded(_ value: Value, _ location: SourceLocation) throws -> Value {
        do { return DataValue.make(try JSON.string(value)) } catch {
            throw thrown("invalidValue: \(FlowError.wrap(error).message)", location)
        }
    }

    /// JSON text read into a type, or Swift's DecodingError.
    private static func decoded(_ text: String, _ read: JSONReading.Reader, _ frame: Frame, _ location: SourceLocation) throws -> Value {
        let json: Value
        do { json = try JSON.parse(text) } catch {
            throw thrown("dataCorrupted: the given data was not valid JSON (\(FlowError.wrap(error).message))", location)
        }
        do { return try read(json, frame, []) } catch let failure as JSONReading.Failure {
            throw thrown(failure.message, location)
        }
    }

    /// Combine's operators: `decode(type: Post.self, decoder: JSONDecoder())`
    /// reads each value (Data, JSON text, or an HTTP response's body) into
    /// the type as `decode(_:from:)` does, and fails the stream with the
    /// DecodingError; `encode(encoder: JSONEncoder())` gives each value's
    /// JSON as Data.
    private func compileCoderOperator(_ base: Expr, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], in scope: Scope) -> Code? {
        let source = compile(base, in: scope)
        let coder = compile(arguments.last!.value, in: scope)
        let location = self.location(nameSpan)
        let operatorName = name == "decode" ? "decode(type:decoder:)" : "encode(encoder:)"
        func stream(_ frame: Frame) throws -> Observable {
            let value = try source(frame)
            guard case .stream(let stream) = value else {
                throw FlowError("\(operatorName) is a stream's operator; for one value call \(name == "decode" ? "JSONDecoder().decode(T.self, from: data)" : "JSONEncoder().encode(value)")",
                                at: location)
            }
            return stream
        }
        guard name == "decode" else {
            return { frame in
                try Self.expectCoder(try coder(frame), "JSONEncoder", operatorName, location)
                return .stream(try stream(frame).map(.unary(name: "encode") { value in try Self.encoded(value, location) }))
            }
        }
        guard case .member(let typeExpr, "self", _, _) = arguments[0].value else {
            error("decode(type:decoder:) takes the type to decode, as in decode(type: Post.self, decoder: JSONDecoder())", arguments[0].value.span)
            return { _ in .null }
        }
        let read = JSONReading(compiler: self, scope: scope).reader(for: staticType(text: file.text(of: typeExpr.span), in: scope), at: nameSpan)
        return { frame in
            try Self.expectCoder(try coder(frame), "JSONDecoder", operatorName, location)
            return .stream(try stream(frame).map(.unary(name: "decode") { value in
                var given = value
                if case .tuple(let response) = value, let body = response.element(labelled: "body") { given = body }
                let text: String
                do { text = try DataValue.text(of: given, for: operatorName) } catch { throw FlowError.wrap(error).located(at: location) }
                return try Self.decoded(text, read, frame, location)
            }))
        }
    }

    private static func expectCoder(_ value: Value, _ coder: String, _ call: String, _ location: SourceLocation) throws {
        guard case .tuple(let record) = value, record.element(labelled: "coder") == .string(coder) else {
            throw FlowError("\(call) is \(coder)'s: call it on \(coder)(), not on \(value.typeName) \(value.literal)", at: location)
        }
    }

    /// A DecodingError, which `do`/`catch` and `try?` handle as Swift's.
    private static func thrown(_ message: String, _ location: SourceLocation) -> FlowError {
        var error = FlowError(message, at: location)
        error.isThrown = true
        return error
    }
}

/// Reads JSON values into the types a script writes. Readers are made
/// when compiling, once per type (a type that contains itself reads
/// through its own reader).
final class JSONReading {
    struct Failure: Error { let message: String }
    /// Reads a JSON value at a coding path into a value of the type.
    typealias Reader = (Value, Frame, [String]) throws -> Value

    private let compiler: Compiler
    private let scope: Scope
    private var structReaders: [String: Reader] = [:]

    init(compiler: Compiler, scope: Scope) {
        self.compiler = compiler
        self.scope = scope
    }

    func reader(for type: StaticType, at span: Span) -> Reader {
        switch type {
        case .int:
            return { value, _, path in
                switch value {
                case .int: return value
                case .double(let d) where d == d.rounded() && abs(d) < 9e18: return .int(Int(d))
                default: throw Self.mismatch("Int", value, path)
                }
            }
        case .double:
            return { value, _, path in
                switch value {
                case .int(let i): return .double(Double(i))
                case .double: return value
                default: throw Self.mismatch("Double", value, path)
                }
            }
        case .string:
            return { value, _, path in
                guard case .string = value else { throw Self.mismatch("String", value, path) }
                return value
            }
        case .bool:
            return { value, _, path in
                guard case .bool = value else { throw Self.mismatch("Bool", value, path) }
                return value
            }
        case .optional(let wrapped):
            let inner = reader(for: wrapped, at: span)
            return { value, frame, path in value.isNull ? .null : try inner(value, frame, path) }
        case .array(let element):
            let inner = reader(for: element, at: span)
            return { value, frame, path in
                guard case .array(let items) = value else { throw Self.mismatch("Array", value, path) }
                return .array(try items.enumerated().map { try inner($1, frame, path + ["Index \($0)"]) })
            }
        case .dictionary(.string, let valueType):
            let inner = reader(for: valueType, at: span)
            return { value, frame, path in
                guard case .dictionary(let pairs) = value else { throw Self.mismatch("Dictionary", value, path) }
                var read = pairs
                for (key, item) in pairs { read[key] = try inner(item, frame, path + [key.description]) }
                return .dictionary(read)
            }
        case .named("Decimal"):
            return { value, _, path in
                guard let number = DecimalValue.number(value) else { throw Self.mismatch("Decimal", value, path) }
                return DecimalValue.make(number)
            }
        case .named(let name):
            guard let declared = compiler.resolveType(name, in: scope) else { return { value, _, _ in value } }
            return reader(for: declared, at: span)
        default:
            // A type flow does not know before running: the JSON's own shape.
            return { value, _, _ in value }
        }
    }

    private func reader(for type: DeclaredType, at span: Span) -> Reader {
        if let known = structReaders[type.name] { return known }
        if type.isEnum {
            let cases = type.declaration.cases.compactMap { item in type.rawValues[item.name].map { ($0, type.caseValue(item.name)) } }
            let name = type.name
            return { value, _, path in
                guard let match = cases.first(where: { $0.0 == value }) else {
                    throw Failure(message: "dataCorrupted at \(Self.shown(path)): cannot initialize \(name) from invalid value \(value.literal)")
                }
                return match.1
            }
        }
        if type.isClass {
            compiler.error("flow decodes JSON into structs and enums; make \(type.name) a struct to decode it", span)
            return { value, _, _ in value }
        }
        // Filled before the fields are read, for a type that contains itself.
        var fieldsReader: Reader = { value, _, _ in value }
        structReaders[type.name] = { value, frame, path in try fieldsReader(value, frame, path) }
        let keys = codingKeys(of: type)
        let stored = type.declaration.stored
        let fields = stored.map { property -> (key: String, read: Reader, optional: Bool, fixed: Bool) in
            let written = compiler.staticType(text: property.type?.text, in: type.scope)
            let optional = if case .optional = written { true } else { property.isOptional }
            // A `let` given a value is not decoded, as Swift's synthesised Decodable leaves it.
            let fixed = !property.isVariable && property.defaultValue != nil
            return (keys[property.name] ?? property.name, reader(for: written, at: span), optional, fixed)
        }
        let labels = stored.map { Optional($0.name) }
        let nominal = Nominal(type: type.name)
        let depth = scope.depth(to: type.scope)
        let typeName = type.name
        fieldsReader = { value, frame, path in
            guard case .dictionary(let object) = value else { throw Self.mismatch(typeName, value, path) }
            let root = frame.ancestor(depth)
            var elements: [Value] = []
            elements.reserveCapacity(fields.count)
            for (index, field) in fields.enumerated() {
                if field.fixed, index < type.storedDefaults.count, let fallback = type.storedDefaults[index] {
                    elements.append(try fallback(root))
                    continue
                }
                guard let item = object[.string(field.key)] else {
                    if field.optional { elements.append(.null); continue }
                    throw Failure(message: "keyNotFound: no value for the key \"\(field.key)\" at \(Self.shown(path)) (\(typeName).\(stored[index].name) is not optional)")
                }
                elements.append(try field.read(item, frame, path + [field.key]))
            }
            return .tuple(Tuple(elements, labels: labels, nominal: nominal))
        }
        return structReaders[type.name]!
    }

    /// A property's key: its name, or the raw value its `CodingKeys` case gives.
    private func codingKeys(of type: DeclaredType) -> [String: String] {
        guard let nested = type.declaration.nested.first(where: { $0.name == "CodingKeys" }),
              let keys = type.scope.lookupType("CodingKeys").flatMap({ $0.declaration === nested ? $0 : nil }) else { return [:] }
        var renamed: [String: String] = [:]
        for item in keys.declaration.cases {
            if case .string(let raw)? = keys.rawValues[item.name] { renamed[item.name] = raw }
        }
        return renamed
    }

    private static func mismatch(_ expected: String, _ value: Value, _ path: [String]) -> Failure {
        let found = value.isNull ? "null" : value.typeName.lowercased()
        return Failure(message: "typeMismatch at \(shown(path)): expected to decode \(expected) but found \(found == "dictionary" ? "a dictionary" : "a \(found)") instead")
    }

    private static func shown(_ path: [String]) -> String { path.isEmpty ? "the top level" : path.joined(separator: ".") }
}
