import FlowLanguage

/// A script's declarations as the protocol's document symbols: `let`s
/// and `var`s, funcs, types with their members, and tests with what they
/// declare, nested as written.
enum DocumentSymbols {
    // The protocol's SymbolKind numbers.
    static let namespace = 3, classKind = 5, method = 6, property = 7, constructor = 9, enumKind = 10, interface = 11
    static let function = 12, variable = 13, constant = 14, enumMember = 22, structKind = 23, event = 24

    static func of(_ file: SourceFile, positions: TextPositions) -> [[String: Any]] {
        var parser = Parser(file: file)
        let script = parser.parseScript()
        return symbols(script.statements, positions)
    }

    private static func symbol(_ name: String, _ kind: Int, _ span: Span, _ selection: Span, _ positions: TextPositions,
                               detail: String? = nil, children: [[String: Any]] = []) -> [String: Any] {
        var symbol: [String: Any] = ["name": name, "kind": kind, "range": positions.range(span),
                                     "selectionRange": positions.range(selection)]
        if let detail { symbol["detail"] = detail }
        if !children.isEmpty { symbol["children"] = children }
        return symbol
    }

    private static func symbols(_ statements: [Statement], _ positions: TextPositions) -> [[String: Any]] {
        var out: [[String: Any]] = []
        for statement in statements {
            switch statement {
            case .binding(let name, let nameSpan, let type, _, let isVariable, let span):
                out.append(symbol(name, isVariable ? variable : constant, span, nameSpan, positions, detail: type?.text))
            case .test(let name, let body, let span):
                out.append(symbol("test \"\(name)\"", event, span, Span(span.start, span.start + 4), positions,
                                  children: symbols(body, positions)))
            case .function(let function):
                out.append(symbol(function.name, function, function.span, function.nameSpan, positions))
            case .type(let type):
                out.append(typeSymbol(type, positions))
            default:
                break
            }
        }
        return out
    }

    private static func symbol(_ name: String, _ function: FunctionDeclaration, _ span: Span, _ nameSpan: Span,
                               _ positions: TextPositions, kind: Int = DocumentSymbols.function) -> [String: Any] {
        let labels = function.parameters.map { "\($0.label ?? "_"):" }.joined()
        return symbol(name, kind, span, nameSpan, positions, detail: "\(name)(\(labels))" + (function.resultType.map { " -> \($0.text)" } ?? ""))
    }

    private static func typeSymbol(_ type: TypeDeclaration, _ positions: TextPositions) -> [String: Any] {
        let kind: Int
        switch type.kind {
        case .class: kind = classKind
        case .struct: kind = structKind
        case .enum: kind = enumKind
        case .protocol: kind = interface
        case .extension: kind = namespace
        }
        // Members in the order written.
        var members: [(start: Int, symbol: [String: Any])] = []
        for stored in type.stored + type.staticStored {
            members.append((stored.span.start, symbol(stored.name, property, stored.span, stored.span, positions, detail: stored.type?.text)))
        }
        for computed in type.computed {
            members.append((computed.span.start, symbol(computed.name, property, computed.span, computed.span, positions, detail: computed.type?.text)))
        }
        for method in type.methods {
            members.append((method.span.start, symbol(method.name, method, method.span, method.nameSpan, positions, kind: DocumentSymbols.method)))
        }
        for initialiser in type.initialisers {
            members.append((initialiser.span.start, symbol("init", initialiser, initialiser.span, initialiser.nameSpan, positions, kind: constructor)))
        }
        for enumCase in type.cases {
            members.append((enumCase.span.start, symbol(enumCase.name, enumMember, enumCase.span, enumCase.span, positions)))
        }
        for nested in type.nested {
            members.append((nested.span.start, typeSymbol(nested, positions)))
        }
        return symbol(type.name, kind, type.span, type.nameSpan, positions, detail: type.kind.word,
                      children: members.sorted { $0.start < $1.start }.map(\.symbol))
    }
}
