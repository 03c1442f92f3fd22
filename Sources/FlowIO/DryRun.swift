import FlowLanguage
import FlowLive
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

/// `flow run --dry-run`: what a script would reach outside itself, judged
/// before anything runs. The script is read, not run: every `env[...]`, file,
/// database and host it names is found in its text, and where the name is
/// decided by the script's arguments, its environment and its top-level
/// `let`s (`args.first ?? "orders.csv"`, `"\(folder)/report-\(day).txt"`),
/// it is worked out as the run would, then judged by the run's own
/// permissions (`Access`) and the machine: the variable set, the file
/// readable, its folder writable, the database's URL well formed, the host
/// granted. Names only a running stream decides (a value in a closure) are
/// listed as not checked. Nothing is opened for writing, connected to or
/// created; no secret is shown (URLs appear as `SecretsHidden` shows them).
public struct DryRun {
    public struct Finding {
        public enum Kind { case checked, problem, unknown }
        public var kind: Kind
        /// What was checked and how it stands, or what is wrong.
        public var message: String
        public var span: Span
        /// A fix, where one is known (the flag that grants it).
        public var help: String?
    }

    public let file: SourceFile
    public private(set) var findings: [Finding] = []
    private let arguments: [String]
    private let environment: [String: String]
    private let access: Access
    /// Names bound so far, innermost scope last; nil is a name whose value
    /// is only known when the script runs.
    private var scopes: [[String: Known?]] = [[:]]

    public static func check(_ file: SourceFile, arguments: [String], environment: [String: String], access: Access) -> [Finding] {
        var parser = Parser(file: file)
        let script = parser.parseScript()
        var run = DryRun(file: file, arguments: arguments, environment: environment, access: access)
        run.statements(script.statements)
        return run.findings
    }

    private init(file: SourceFile, arguments: [String], environment: [String: String], access: Access) {
        self.file = file
        self.arguments = arguments
        self.environment = environment
        self.access = access
    }

    public var problems: [Finding] { findings.filter { $0.kind == .problem } }

    // MARK: - What the script names

    /// A value the dry run can know before the script runs.
    indirect enum Known: Equatable {
        case string(String)
        case int(Int)
        case bool(Bool)
        case array([Known])
        case none

        var text: String? {
            switch self {
            case .string(let s): return s
            case .int(let i): return String(i)
            case .bool(let b): return String(b)
            default: return nil
            }
        }
    }

    private func lookUp(_ name: String) -> Known?? {
        for scope in scopes.reversed() { if let value = scope[name] { return value } }
        return nil
    }

    private mutating func bind(_ name: String, _ value: Known?) { scopes[scopes.count - 1][name] = value }

    private mutating func scoped(_ body: (inout DryRun) -> Void) {
        scopes.append([:])
        body(&self)
        scopes.removeLast()
    }

    /// The value of `e` where the arguments, environment and constants
    /// decide it; nil where only the run can.
    func value(of e: Expr) -> Known? {
        switch e {
        case .literal(let value, _):
            switch value {
            case .string(let s): return .string(s)
            case .int(let i): return .int(i)
            case .bool(let b): return .bool(b)
            case .null: return Known.none
            default: return nil
            }
        case .string(let parts, _):
            var text = ""
            for part in parts {
                switch part {
                case .text(let piece): text += piece
                case .interpolation(let inner): guard let piece = value(of: inner)?.text else { return nil }; text += piece
                }
            }
            return .string(text)
        case .name(let name, _):
            if let bound = lookUp(name) { return bound }
            return name == "args" ? .array(arguments.map(Known.string)) : nil
        case .array(let elements, _):
            let values = elements.compactMap(value(of:))
            return values.count == elements.count ? .array(values) : nil
        case .member(let base, let name, _, _):
            guard let base = value(of: base) else { return nil }
            switch (base, name) {
            case (.array(let items), "first"): return items.first ?? Known.none
            case (.array(let items), "last"): return items.last ?? Known.none
            case (.array(let items), "count"): return .int(items.count)
            case (.array(let items), "isEmpty"): return .bool(items.isEmpty)
            case (.string(let s), "count"): return .int(s.count)
            case (.string(let s), "isEmpty"): return .bool(s.isEmpty)
            default: return nil
            }
        case .subscriptAccess(.name("env", _), let key, _) where lookUp("env") == nil:
            guard case .string(let name)? = value(of: key), (try? access.checkEnv(name, shown: "env")) != nil else { return nil }
            return environment[name].map(Known.string) ?? Known.none
        case .subscriptAccess(let base, let index, _):
            guard case .array(let items)? = value(of: base), case .int(let i)? = value(of: index), items.indices.contains(i) else { return nil }
            return items[i]
        case .unary(.not, let operand, _):
            guard case .bool(let b)? = value(of: operand) else { return nil }
            return .bool(!b)
        case .unary(.negate, let operand, _):
            guard case .int(let i)? = value(of: operand), i != .min else { return nil }
            return .int(-i)
        case .binary(let op, let left, let right, _, _):
            return binary(op, left, right)
        case .ternary(let condition, let yes, let no, _):
            guard case .bool(let b)? = value(of: condition) else { return nil }
            return value(of: b ? yes : no)
        case .call(.name(let type, _), let arguments, _) where (type == "Int" || type == "String") && arguments.count == 1 && lookUp(type) == nil:
            guard let argument = value(of: arguments[0].value), let text = argument.text else { return nil }
            return type == "String" ? .string(text) : Int(text).map(Known.int) ?? Known.none
        case .call(.member(let base, let method, _, _), let arguments, _) where arguments.isEmpty:
            guard case .string(let s)? = value(of: base) else { return nil }
            switch method {
            case "uppercased": return .string(s.uppercased())
            case "lowercased": return .string(s.lowercased())
            default: return nil
            }
        default:
            return nil
        }
    }

    private func binary(_ op: BinaryOperator, _ left: Expr, _ right: Expr) -> Known? {
        if op == .nilCoalescing {
            guard let l = value(of: left) else { return nil }
            return l == Known.none ? value(of: right) : l
        }
        if op == .and || op == .or {
            guard case .bool(let l)? = value(of: left) else { return nil }
            if op == .and && !l { return .bool(false) }
            if op == .or && l { return .bool(true) }
            guard case .bool(let r)? = value(of: right) else { return nil }
            return .bool(r)
        }
        guard let l = value(of: left), let r = value(of: right) else { return nil }
        switch (l, r) {
        case (.int(let a), .int(let b)):
            switch op {
            case .add: return a.addingReportingOverflow(b).overflow ? nil : .int(a + b)
            case .subtract: return a.subtractingReportingOverflow(b).overflow ? nil : .int(a - b)
            case .equal: return .bool(a == b)
            case .notEqual: return .bool(a != b)
            case .less: return .bool(a < b)
            case .lessOrEqual: return .bool(a <= b)
            case .greater: return .bool(a > b)
            case .greaterOrEqual: return .bool(a >= b)
            default: return nil
            }
        case (.string(let a), .string(let b)):
            switch op {
            case .add: return .string(a + b)
            case .equal: return .bool(a == b)
            case .notEqual: return .bool(a != b)
            default: return nil
            }
        default:
            if op == .equal { return .bool(l == r) }
            if op == .notEqual { return .bool(l != r) }
            return nil
        }
    }

    // MARK: - Walking the script

    private mutating func statements(_ list: [Statement]) {
        for statement in list { self.statement(statement) }
    }

    private mutating func statement(_ statement: Statement) {
        switch statement {
        case .binding(let name, _, _, let value, let isVariable, _):
            if let value { expression(value) }
            // A `var` may be assigned anything later: only a `let` is known.
            bind(name, isVariable ? nil : value.flatMap(self.value(of:)))
        case .destructuring(let pattern, let value, _, _):
            expression(value)
            unknown(in: pattern)
        case .expression(let e), .throw(let e, _):
            expression(e)
        case .return(let e, _):
            if let e { expression(e) }
        case .test(_, let body, _):
            scoped { $0.statements(body) }
        case .assignment(let target, _, let value, _, _):
            expression(target)
            expression(value)
            if case .name(let name, _) = target { bind(name, nil) }
        case .guard(let conditions, let otherwise, _):
            scoped { $0.statements(otherwise) }
            // A guard's bindings hold for the rest of its block; a nil
            // there is the script's own failure, not a value it handles.
            for condition in conditions { self.condition(condition, handlesNil: false) }
        case .while(let conditions, let body, _):
            scoped { run in
                for condition in conditions { run.condition(condition, known: false) }
                run.statements(body)
            }
        case .repeat(let body, let condition, _):
            scoped { $0.statements(body) }
            expression(condition)
        case .for(let pattern, let sequence, let filter, let body, _):
            expression(sequence)
            scoped { run in
                run.unknown(in: pattern)
                if let filter { run.expression(filter) }
                run.statements(body)
            }
        case .function(let function):
            bind(function.name, nil)
            self.function(function)
        case .type(let type):
            bind(type.name, nil)
            self.type(type)
        case .typeAlias(let name, _, _, _, _):
            bind(name, nil)
        case .doCatch(let body, let catches, _):
            scoped { $0.statements(body) }
            for clause in catches {
                scoped { run in
                    if let pattern = clause.pattern { run.unknown(in: pattern) }
                    run.bind("error", nil)
                    run.statements(clause.body)
                }
            }
        case .break, .continue:
            break
        }
    }

    private mutating func function(_ function: FunctionDeclaration) {
        scoped { run in
            for parameter in function.parameters {
                if let value = parameter.defaultValue { run.expression(value) }
                run.bind(parameter.name, nil)
            }
            run.statements(function.body)
        }
    }

    private mutating func type(_ type: TypeDeclaration) {
        scoped { run in
            for stored in type.stored + type.staticStored {
                if let value = stored.defaultValue { run.expression(value) }
                run.bind(stored.name, nil)
            }
            for computed in type.computed { run.bind(computed.name, nil) }
            run.bind("self", nil)
            for computed in type.computed { run.scoped { $0.statements(computed.body) } }
            for accessor in type.accessors {
                run.scoped { run in
                    run.bind(accessor.parameter, nil)
                    run.statements(accessor.body)
                }
            }
            for method in type.methods + type.initialisers { run.function(method) }
            if let deinitialiser = type.deinitialiser { run.scoped { $0.statements(deinitialiser) } }
            for nested in type.nested { run.type(nested) }
        }
    }

    /// A condition's names: `known` where the condition is tested once
    /// (`if`, `guard`), so a `let` binds what its value is; `handlesNil`
    /// where a nil takes the script another way it chose (`if let`).
    private mutating func condition(_ condition: Condition, known: Bool = true, handlesNil: Bool = true) {
        switch condition {
        case .boolean(let e):
            expression(e)
        case .optionalBinding(let name, _, let value, let isVariable):
            expression(value, optionalHandled: handlesNil)
            let bound = known && !isVariable ? self.value(of: value) : nil
            bind(name, bound == Known.none ? nil : bound)
        case .matching(let pattern, let e):
            expression(e)
            unknown(in: pattern)
        }
    }

    private mutating func unknown(in pattern: Pattern) {
        switch pattern {
        case .wildcard, .expression: break
        case .binding(let name, _): bind(name, nil)
        case .tuple(let elements, _, _): for element in elements { unknown(in: element) }
        case .enumCase(_, _, let arguments, _, _): for argument in arguments ?? [] { unknown(in: argument) }
        case .some(let inner, _): unknown(in: inner)
        }
    }

    /// Walks `e` for what it reaches; `optionalHandled` where the script
    /// deals with a nil itself (`env["X"] ?? "default"`, `if let`).
    private mutating func expression(_ e: Expr, optionalHandled: Bool = false) {
        switch e {
        case .name, .literal, .shorthand, .implicitMember, .keyPath:
            break
        case .string(let parts, _):
            for case .interpolation(let inner) in parts { expression(inner) }
        case .array(let elements, _), .tuple(let elements, _, _):
            for element in elements { expression(element) }
        case .dictionary(let pairs, _):
            for pair in pairs {
                expression(pair.key)
                expression(pair.value)
            }
        case .closure(let closure):
            scoped { run in
                for parameter in closure.parameters ?? [] { run.bind(parameter.name, nil) }
                run.statements(closure.body)
            }
        case .subscriptAccess(.name("env", let span), let key, let whole) where lookUp("env") == nil:
            expression(key)
            environmentVariable(key, at: span.to(whole), optionalHandled: optionalHandled)
        case .unary(_, let inner, _), .member(let inner, _, _, _), .optionalBind(let inner, _), .optionalChain(let inner, _),
             .forceUnwrap(let inner, _), .inoutArgument(let inner, _), .typeCheck(let inner, _, _, _, _), .attempt(let inner, _),
             .oneSidedRange(_, let inner, _):
            expression(inner)
        case .binary(.nilCoalescing, let left, let right, _, _):
            expression(left, optionalHandled: true)
            expression(right)
        case .binary(_, let left, let right, _, _), .subscriptAccess(let left, let right, _):
            expression(left)
            expression(right)
        case .ternary(let condition, let yes, let no, _):
            expression(condition)
            expression(yes)
            expression(no)
        case .call(let callee, let arguments, let span):
            expression(callee)
            for argument in arguments { expression(argument.value) }
            if case .member(.name(let module, _), let function, _, _) = callee, lookUp(module) == nil {
                reach(module: module, function: function, arguments: arguments, at: span)
            }
        case .conditional(let conditional):
            scoped { run in
                for condition in conditional.conditions { run.condition(condition) }
                run.statements(conditional.body)
            }
            if let otherwise = conditional.elseBody { scoped { $0.statements(otherwise) } }
        case .switchOver(let switchExpression):
            expression(switchExpression.subject)
            for switchCase in switchExpression.cases {
                scoped { run in
                    for pattern in switchCase.patterns { run.unknown(in: pattern) }
                    if let guardExpr = switchCase.guardExpr { run.expression(guardExpr) }
                    run.statements(switchCase.body)
                }
            }
        }
    }

    // MARK: - Judging what is reached

    private mutating func add(_ kind: Finding.Kind, _ message: String, at span: Span, help: String? = nil) {
        // The same check at the same place (a closure walked twice) is said once.
        if findings.contains(where: { $0.kind == kind && $0.message == message && $0.span == span }) { return }
        findings.append(Finding(kind: kind, message: message, span: span, help: help))
    }

    /// A denial's message ends with the flag that grants it: that is the fix.
    private mutating func problem(_ error: any Error, at span: Span) {
        let message = FlowError.wrap(error).message
        if let open = message.range(of: " (", options: .backwards), message.hasSuffix(" grants it)") {
            add(.problem, String(message[..<open.lowerBound]), at: span, help: String(message[open.upperBound...].dropLast()))
        } else {
            add(.problem, message, at: span)
        }
    }

    private mutating func environmentVariable(_ key: Expr, at span: Span, optionalHandled: Bool) {
        guard case .string(let name)? = value(of: key) else {
            add(.unknown, "env[...]: the variable's name is decided as the script runs", at: span)
            return
        }
        let shown = "env[\(name.debugDescription)]"
        do { try access.checkEnv(name, shown: shown) } catch {
            problem(error, at: span)
            return
        }
        if environment[name] != nil {
            add(.checked, "\(shown): set, and granted", at: span)
        } else if optionalHandled {
            add(.checked, "\(shown): not set, and granted: the script's default is used", at: span)
        } else {
            add(.problem, "\(shown): the environment variable \(name) is not set", at: span,
                help: "set \(name) in the job's environment (Environment=\(name)=... in a systemd unit)")
        }
    }

    private static let reads: Set = ["file.read", "file.lines", "csv.read"]
    private static let follows: Set = ["file.tail", "file.watch"]
    private static let writes: Set = ["file.write", "file.append", "csv.write"]
    private static let requests: Set = ["http.get", "http.post", "http.lines", "http.events"]

    private mutating func reach(module: String, function: String, arguments: [CallArgument], at span: Span) {
        let operation = "\(module).\(function)"
        let positional = arguments.first { $0.label == nil }
        func named(_ label: String) -> CallArgument? { arguments.first { $0.label == label } }
        if Self.reads.contains(operation) || Self.follows.contains(operation) || Self.writes.contains(operation) {
            guard let argument = positional else { return }
            guard case .string(let written)? = value(of: argument.value) else {
                add(.unknown, "\(operation): the path is decided as the script runs", at: argument.value.span)
                return
            }
            let path = access.located(written, writtenIn: file.path)
            if Self.writes.contains(operation) { judgeWrite(path, by: operation, at: argument.value.span) }
            else { judgeRead(path, by: operation, follows: Self.follows.contains(operation), at: argument.value.span) }
        } else if Self.requests.contains(operation) || operation == "http.request" {
            guard let argument = operation == "http.request" ? named("url") : positional else { return }
            guard case .string(let url)? = value(of: argument.value) else {
                add(.unknown, "\(operation): the URL is decided as the script runs", at: argument.value.span)
                return
            }
            judgeRequest(url, by: operation, at: argument.value.span)
        } else if module == "pg" {
            let written = named("url")
            let place = written?.value.span ?? span
            var url: String?
            if let written {
                guard case .string(let text)? = value(of: written.value) else {
                    add(.unknown, "\(operation): the database's URL is decided as the script runs", at: place)
                    return
                }
                url = text
            }
            judgeDatabase(url, by: operation, at: place)
        }
    }

    private mutating func judgeRead(_ path: String, by operation: String, follows: Bool, at span: Span) {
        let shown = "\(operation) \(path.debugDescription)"
        if follows {
            // A followed file may come later (a log not yet written): its
            // folder and the grant are what must hold now.
            do {
                guard let info = try access.status(of: path, by: operation) else {
                    add(.checked, "\(shown): not there yet, and granted: followed once it appears", at: span)
                    return
                }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    add(.problem, "\(shown): it is a folder, not a file", at: span)
                    return
                }
            } catch {
                problem(error, at: span)
                return
            }
        }
        do {
            let fd = try access.openForReading(path, by: operation)
            defer { close(fd) }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                add(.problem, "\(shown): it is a folder, not a file", at: span)
                return
            }
            add(.checked, "\(shown): readable, and granted", at: span)
        } catch {
            problem(error, at: span)
        }
    }

    private mutating func judgeWrite(_ path: String, by operation: String, at span: Span) {
        let shown = "\(operation) \(path.debugDescription)"
        let place: Access.ReplacedFile
        do { place = try access.placeForReplacing(path, by: operation) } catch {
            problem(error, at: span)
            return
        }
        defer { close(place.folder) }
        var info = stat()
        if fstatat(place.folder, place.name, &info, 0) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR {
                add(.problem, "\(shown): it is a folder, not a file", at: span)
            } else if faccessat(place.folder, place.name, W_OK, AT_EACCESS) != 0 {
                add(.problem, "cannot write \(path): \(String(cString: strerror(errno)))", at: span)
            } else {
                add(.checked, "\(shown): writable, and granted", at: span)
            }
        } else if faccessat(place.folder, ".", W_OK, AT_EACCESS) != 0 {
            add(.problem, "cannot make \(path) in its folder: \(String(cString: strerror(errno)))", at: span)
        } else {
            add(.checked, "\(shown): its folder is writable, and granted", at: span)
        }
    }

    private mutating func judgeRequest(_ url: String, by operation: String, at span: Span) {
        if let problem = HTTPNode.problem(with: url) {
            add(.problem, "\(operation) \(SecretsHidden.quoted(url)): \(problem)", at: span)
            return
        }
        do {
            try access.checkNet(url: url, by: operation)
            add(.checked, "\(operation) \(SecretsHidden.quoted(url)): the URL is well formed and its host granted", at: span)
        } catch {
            problem(error, at: span)
        }
    }

    private mutating func judgeDatabase(_ url: String?, by operation: String, at span: Span) {
        let address: DatabaseAddress
        do {
            address = try url.map(DatabaseAddress.parse) ?? DatabaseAddress.fromEnvironment(environment)
        } catch {
            add(.problem, "\(operation): \(FlowError.wrap(error).message)", at: span,
                help: url == nil ? "set DATABASE_URL (postgres://user:password@host:5432/database) or give url:" : nil)
            return
        }
        do {
            try access.checkNet(host: address.permissionHost, port: address.port, shown: "\(operation) \(address.shown)")
            if let certificate = address.rootCertificate {
                close(try access.openForReading(certificate, by: "\(operation) sslrootcert"))
            }
            add(.checked, "\(operation) \(address.shown): the address is well formed and its host granted", at: span)
        } catch {
            problem(error, at: span)
        }
    }
}
