/// The operator table: every operator once, under its canonical (RxSwift)
/// name, with Combine's and RxJS's names as aliases, its signatures, a
/// one-line description and how to build it. The language resolves calls
/// through it, so adding an operator is adding one entry.
public final class OperatorSpec: Sendable {
    public enum Family: String, CaseIterable, Sendable {
        case creation, subjects, transformation, filtering, combining, higherOrder = "higher-order"
        case errors, time, sharing, utility, aggregation
    }

    /// Whether it is called as a free function (`merge(a, b)`), as a method
    /// on a stream (`a.map { }`), or both.
    public enum Form: Sendable { case function, method, both }

    public let name: String
    /// The other libraries' spellings of this operator, with their labels
    /// and defaults.
    public let aliases: [Spelling]
    /// The names of `aliases`, each once, in order.
    public var aliasNames: [String] {
        var seen: Set<String> = [name]
        return aliases.map(\.name).filter { seen.insert($0).inserted }
    }
    public let family: Family
    public let form: Form
    public let summary: String
    public let signatures: [Signature]
    /// A short script that draws the operator's lanes with `marbles(...)`;
    /// `flow doc` runs it, so every diagram in the documentation is
    /// computed by the engine.
    public let example: String?
    /// Where RxSwift, Combine and RxJS disagree about this operator: what
    /// each does, which flow does, and how to get the others.
    public let differences: String?
    /// What the language needs to know of the operator beyond its
    /// signatures, so that no compile step matches its name.
    public let traits: Traits

    public struct Traits: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Its events come from the wall clock (`interval`, `timer`): a
        /// script that uses it runs live, and the playground does not run
        /// it as it is typed.
        public static let readsTheClock = Traits(rawValue: 1)
        /// Sends one value into a subject (`send`, `onNext`): called on
        /// the subject directly, in loops, without the table.
        public static let sendsIntoSubject = Traits(rawValue: 2)
        /// A statement that ends in it subscribes its stream, as `sink`
        /// would (`source.print()` alone on a line logs the events).
        public static let subscribedAsAStatement = Traits(rawValue: 4)
        /// It shows values as text (`print`, `debug`) through its context's
        /// `describe`, so a language can show them its own way (a type's
        /// `description`).
        public static let describesValues = Traits(rawValue: 8)
    }

    // A class: every call passes the spec along, and a struct of arrays and
    // strings would be copied, one retain per field, each time.
    public init(_ name: String, aliases: [Spelling] = [], _ family: Family, _ form: Form, _ summary: String, _ signatures: [Signature],
                example: String? = nil, differences: String? = nil, traits: Traits = []) {
        self.name = name
        self.aliases = aliases
        self.family = family
        self.form = form
        self.summary = summary
        self.signatures = signatures
        self.example = example
        self.differences = differences
        self.traits = traits
    }

    /// `name(label: Type, ...)` for each signature.
    public var signatureDescriptions: [String] {
        signatures.map { "\(name)(\($0.parameters.map(\.description).joined(separator: ", ")))" }
    }
}

public enum ParameterType: String, Sendable {
    case stream = "Stream"
    case function = "Closure"
    case int = "Int"
    case duration = "Duration"
    case bool = "Bool"
    case string = "String"
    case value = "Value"

    /// Whether a value can be passed as this type (used to pick overloads and
    /// to decide whether an optional or variadic parameter takes an argument).
    public func accepts(_ value: Value) -> Bool {
        switch (self, value) {
        case (.value, _), (.stream, .stream), (.function, .function), (.int, .int), (.duration, .duration),
             (.duration, .int), (.duration, .double), (.bool, .bool), (.string, .string):
            return true
        default:
            return false
        }
    }
}

public struct Parameter: CustomStringConvertible, Sendable {
    public var label: String?
    public var name: String
    public var type: ParameterType
    public var isOptional: Bool
    public var isVariadic: Bool
    /// The least value a count or a duration may take.
    public var bound: Bound = .none

    public enum Bound: Sendable {
        case none
        /// `take(0)`, `debounce(0ms)`: zero is allowed, negatives are not.
        case nonNegative
        /// `buffer(count: 1)`, `interval(1ms)`: zero would never end or mean nothing.
        case positive
    }

    /// This parameter, refusing negative values.
    public func nonNegative() -> Parameter { var p = self; p.bound = .nonNegative; return p }
    /// This parameter, refusing zero and negative values.
    public func positive() -> Parameter { var p = self; p.bound = .positive; return p }

    /// Why a value is out of this parameter's range, or nil if it is not.
    public func violation(_ value: Value) -> String? {
        let sign: Int, zero: String
        switch value {
        case .int(let n): (sign, zero) = (n.signum(), "0")
        case .duration(let t): (sign, zero) = (Int(t.nanoseconds.signum()), "0ms")
        case .double(let d) where type == .duration: (sign, zero) = (d > 0 ? 1 : d < 0 ? -1 : 0, "0")
        default: return nil
        }
        switch bound {
        case .none: return nil
        case .nonNegative where sign < 0: return "'\(name)' cannot be negative, got \(value.literal)"
        case .positive where sign <= 0: return "'\(name)' must be greater than \(zero), got \(value.literal)"
        default: return nil
        }
    }

    /// Whether a value can be passed for this parameter: its type's values,
    /// and arrays of streams for variadic streams (`merge([a, b])`).
    public func accepts(_ value: Value) -> Bool {
        type.accepts(value) || type == .stream && isVariadic && value.isArray
    }

    public var description: String {
        let head = label.map { "\($0): " } ?? ""
        return head + type.rawValue + (isVariadic ? "..." : "") + (isOptional ? "?" : "")
    }
}

/// Parameter constructors, to keep the table readable.
public func arg(_ name: String, _ type: ParameterType) -> Parameter {
    Parameter(label: nil, name: name, type: type, isOptional: false, isVariadic: false)
}
public func optionalArg(_ name: String, _ type: ParameterType) -> Parameter {
    Parameter(label: nil, name: name, type: type, isOptional: true, isVariadic: false)
}
public func labelled(_ label: String, _ type: ParameterType, optional: Bool = false) -> Parameter {
    Parameter(label: label, name: label, type: type, isOptional: optional, isVariadic: false)
}
public func variadic(_ name: String, _ type: ParameterType) -> Parameter {
    Parameter(label: nil, name: name, type: type, isOptional: true, isVariadic: true)
}

public struct Signature: Sendable {
    public let parameters: [Parameter]
    public let build: @Sendable (Arguments) throws -> Value
    /// Which parameters have a bound (bit i for parameter i), so a call
    /// checks only those.
    let boundedParameters: UInt64

    public init(_ parameters: [Parameter], build: @escaping @Sendable (Arguments) throws -> Value) {
        self.parameters = parameters
        self.build = build
        boundedParameters = parameters.enumerated().reduce(0) { mask, entry in
            entry.element.bound == .none || entry.offset >= 64 ? mask : mask | (1 << UInt64(entry.offset))
        }
    }

    /// Matches arguments to parameters by label and order, trying each
    /// optional parameter both with and without an argument. `types` gives
    /// each argument's value when known; an unknown one fits any type.
    /// Returns, per parameter, the indices of the arguments it takes.
    public func bind(labels: [String?], values: [Value?]) -> [[Int]]? {
        Self.bind(parameters, labels: labels, values: values)
    }

    /// Whether `bind` would find a plan, without making one: a check the
    /// compiler makes at every call, where the plan is rarely wanted.
    public func fits(labels: [String?], values: [Value?]) -> Bool {
        var noPlan: [[Int]]? = nil
        return Self.bind(parameters, param: 0, arg: 0, labels: labels, values: values, plan: &noPlan)
    }

    /// `bind` for any parameter list (the language's value methods use it too).
    public static func bind(_ parameters: [Parameter], labels: [String?], values: [Value?]) -> [[Int]]? {
        var plan: [[Int]]? = Array(repeating: [Int](), count: parameters.count)
        return bind(parameters, param: 0, arg: 0, labels: labels, values: values, plan: &plan) ? plan : nil
    }

    /// Fills `plan`, when there is one, as it goes.
    private static func bind(
        _ parameters: [Parameter], param p: Int, arg a: Int, labels: [String?], values: [Value?], plan: inout [[Int]]?
    ) -> Bool {
        if p == parameters.count { return a == labels.count }
        let parameter = parameters[p]
        func fits(_ i: Int) -> Bool {
            i < labels.count && labels[i] == parameter.label && (values[i].map(parameter.accepts) ?? true)
        }
        if parameter.isVariadic {
            var end = a
            while fits(end) { end += 1 }
            // Greedy first, then give arguments back for later parameters.
            for stop in stride(from: end, through: a, by: -1) {
                plan?[p] = Array(a..<stop)
                if bind(parameters, param: p + 1, arg: stop, labels: labels, values: values, plan: &plan) { return true }
            }
            plan?[p] = []
            return false
        }
        if fits(a) {
            plan?[p] = [a]
            if bind(parameters, param: p + 1, arg: a + 1, labels: labels, values: values, plan: &plan) { return true }
        }
        plan?[p] = []
        return parameter.isOptional && bind(parameters, param: p + 1, arg: a, labels: labels, values: values, plan: &plan)
    }
}

/// What an operator's builder needs at run time besides its arguments.
/// A class, so a call passes one reference: the language keeps one per
/// place in a script, whose scheduler is that of the run in progress.
open class OperatorContext {
    private let fixedOutput: (String) -> Void
    private let fixedScheduler: Scheduler?
    private let fixedDialect: Dialect
    /// The call's place in the script, attached to errors the call raises.
    public let location: SourceLocation?

    public init(output: @escaping (String) -> Void, scheduler: Scheduler? = nil, location: SourceLocation? = nil,
                dialect: Dialect = .flow) {
        self.fixedOutput = output
        self.fixedScheduler = scheduler
        self.location = location
        self.fixedDialect = dialect
    }

    /// Whose semantics the run follows where the libraries disagree.
    open var dialect: Dialect { fixedDialect }

    /// Where `print` writes its lines.
    open var output: (String) -> Void { fixedOutput }
    /// How an operator that shows values as text (`describesValues`) shows one.
    open var describe: (Value) -> String { { $0.description } }
    /// The scheduler of the current run, for operators that act at once (`connect`).
    open var scheduler: Scheduler? { fixedScheduler }
    /// What the run in progress has claimed (the files its sinks write);
    /// nil where no run keeps claims.
    open var runClaims: RunClaims? { nil }
    /// Where the run in progress keeps what its sinks committed; nil where
    /// no run keeps it (the sinks then count for nobody).
    open var commitLedger: CommitLedger? { nil }
    /// An error found after the stream that caused it has ended (a
    /// database sink's last commit failed): reported as a stream error of
    /// the run, which then fails.
    open func reportLate(_ error: FlowError) { output(error.message) }
}

/// The bound arguments of one call, read by parameter position.
public struct Arguments {
    /// The place in the script: the operator, how it was written, its context.
    private let site: OperatorTable.CallSite
    public var spec: OperatorSpec { site.spec }
    public var context: OperatorContext { site.context }
    /// How the call was written: the name for messages, and whether a bare
    /// number given for a duration is seconds (Combine's `for:` and
    /// `scheduler:` forms) rather than milliseconds (RxJS).
    var form: CallForm { site.form }
    /// The operator's name as the script wrote it, for messages.
    public var name: String { form.name ?? spec.name }
    var numbersAreSeconds: Bool { form.numbersAreSeconds }
    private let signatureIndex: Int
    public var signature: Signature { spec.signatures[signatureIndex] }
    public let receiver: Value?
    /// The call's arguments as given, and which of them each parameter took:
    /// read through the plan, so a call allocates no per-parameter arrays.
    private let arguments: [Value]
    /// A call of one argument passes it here rather than in an array: calls
    /// made per event (`just($0)`) then allocate nothing for it.
    private let onlyArgument: Value?
    private let plan: [[Int]]

    init(site: OperatorTable.CallSite, signature: Int, receiver: Value?, arguments: [Value], plan: [[Int]]) {
        self.site = site
        self.signatureIndex = signature
        self.receiver = receiver
        self.arguments = arguments
        self.onlyArgument = nil
        self.plan = plan
    }

    init(site: OperatorTable.CallSite, signature: Int, receiver: Value?, onlyArgument: Value, plan: [[Int]]) {
        self.site = site
        self.signatureIndex = signature
        self.receiver = receiver
        self.arguments = []
        self.onlyArgument = onlyArgument
        self.plan = plan
    }

    private func argument(_ k: Int) -> Value { onlyArgument ?? arguments[k] }

    public func has(_ i: Int) -> Bool { !plan[i].isEmpty }
    public func value(_ i: Int) -> Value? { plan[i].first.map(argument) }
    public func all(_ i: Int) -> [Value] { plan[i].map(argument) }

    private func convert<T>(_ i: Int, _ body: (Value) throws -> T) throws -> T? {
        guard let v = value(i) else { return nil }
        do { return try body(v) } catch {
            let p = signature.parameters[i]
            throw FlowError("\(name): argument '\(p.name)' must be \(p.type.rawValue), got \(v.typeName) \(v.literal)",
                            at: context.location)
        }
    }

    public func stream(_ i: Int) throws -> Observable { try convert(i) { try $0.asStream() }! }
    public func function(_ i: Int) throws -> Function { try convert(i) { try $0.asFunction() }! }
    public func optionalFunction(_ i: Int) throws -> Function? { try convert(i) { try $0.asFunction() } }
    // Counts and durations are checked against their parameter's bound.
    // Only a value of zero or less can be out of range: others skip the
    // check, which matters where scripts call `range(0, 10)` per event.
    public func int(_ i: Int) throws -> Int {
        let n = try convert(i) { try $0.asInt() }!
        if n <= 0 { try checkBound(i) }
        return n
    }
    public func optionalInt(_ i: Int) throws -> Int? {
        let n = try convert(i) { try $0.asInt() }
        if let n, n <= 0 { try checkBound(i) }
        return n
    }
    public func duration(_ i: Int) throws -> TimeSpan {
        let t = try convert(i, durationValue)!
        if t.nanoseconds <= 0 { try checkBound(i) }
        return t
    }
    public func optionalDuration(_ i: Int) throws -> TimeSpan? {
        let t = try convert(i, durationValue)
        if let t, t.nanoseconds <= 0 { try checkBound(i) }
        return t
    }

    /// A duration, or a bare number in the call's unit.
    private func durationValue(_ value: Value) throws -> TimeSpan {
        guard value.isNumber else { return try value.asDuration() }
        return numbersAreSeconds
            ? try TimeSpan.amount(value, of: .seconds(1), unitName: "seconds")
            : try TimeSpan.amount(value, of: .milliseconds(Int64(1)), unitName: "milliseconds")
    }

    private func checkBound(_ i: Int) throws {
        guard i < 64, spec.signatures[signatureIndex].boundedParameters & (1 << UInt64(i)) != 0 else { return }
        if let v = value(i), let problem = signature.parameters[i].violation(v) {
            throw FlowError("\(name): \(problem)", at: context.location)
        }
    }
    public func bool(_ i: Int, default fallback: Bool) throws -> Bool { try convert(i) { try $0.asBool() } ?? fallback }
    public func string(_ i: Int, default fallback: String) throws -> String { try convert(i) { try $0.asString() } ?? fallback }
    /// The streams of a variadic parameter; an array among them gives its
    /// elements (`merge([a, b])`, `combineLatest(array)`).
    public func streams(_ i: Int) throws -> [Observable] {
        try all(i).flatMap { v in
            try convert(i) { _ in
                if case .array(let elements) = v { return try elements.map { try $0.asStream() } }
                return [try v.asStream()]
            }!
        }
    }

    /// The stream the method was called on.
    public func source() throws -> Observable {
        guard let receiver else { throw FlowError("\(name) must be called on a stream", at: context.location) }
        do { return try receiver.asStream() } catch {
            throw FlowError("\(name) must be called on a stream, not on \(receiver.typeName) \(receiver.literal)", at: context.location)
        }
    }
}


/// How a call was written: the name the script used, and whether a bare
/// number for a duration means seconds.
public struct CallForm: Sendable {
    public var name: String?
    public var numbersAreSeconds: Bool

    public init(name: String? = nil, numbersAreSeconds: Bool = false) {
        self.name = name
        self.numbersAreSeconds = numbersAreSeconds
    }
}

/// All operators, looked up by canonical name or alias.
public final class OperatorTable: Sendable {
    public let entries: [OperatorSpec]
    /// Names, and `name(label:)` for spellings picked by a label. A name may
    /// mean several operators (Combine's `collect()` is `toArray`,
    /// `collect(3)` is `buffer(count: 3)`): the call's labels decide.
    private let byName: [String: [(entry: Int, spelling: Int?)]]

    init(_ entries: [OperatorSpec]) {
        self.entries = entries
        var index: [String: [(entry: Int, spelling: Int?)]] = [:]
        var unlabelled: [String: [(entry: Int, spelling: Int?)]] = [:]
        for (i, entry) in entries.enumerated() {
            index[entry.name, default: []].append((i, nil))
            for (s, spelling) in entry.aliases.enumerated() {
                let key = spelling.label.map { "\(spelling.name)(\($0):)" } ?? spelling.name
                index[key, default: []].append((i, s))
                // Written without its label (`replaceEmpty(0)`), a labelled
                // spelling is still a meaning of its name, after the others.
                if spelling.label != nil { unlabelled[spelling.name, default: []].append((i, s)) }
            }
        }
        for (name, meanings) in unlabelled { index[name, default: []] += meanings }
        byName = index
    }

    /// The operator a name means on its own (its first meaning).
    public func lookup(_ name: String) -> OperatorSpec? { byName[name]?.first.map { entries[$0.entry] } }

    /// The operator a call means, and the spelling it uses: `take(until: s)`
    /// is `takeUntil`, `take(3)` is `take`. `labels` are the call's.
    /// `method` says whether the call is on a receiver (`s.error(e)` is a
    /// subject's `fail`, `error(e)` the creation function), when known.
    public func resolve(_ name: String, labels: [String?], method: Bool? = nil) -> (spec: OperatorSpec, spelling: Spelling?)? {
        var candidates: [(entry: Int, spelling: Int?)] = []
        for label in labels.compactMap({ $0 }) { candidates += byName["\(name)(\(label):)"] ?? [] }
        candidates += byName[name] ?? []
        var meanings = candidates.map { candidate in
            (spec: entries[candidate.entry], spelling: candidate.spelling.map { entries[candidate.entry].aliases[$0] })
        }
        if let method {
            let fitting = meanings.filter { method ? $0.spec.form != .function : $0.spec.form != .method }
            if !fitting.isEmpty { meanings = fitting }
        }
        if meanings.count < 2 { return meanings.first }
        // The first meaning with a signature these labels fit.
        return meanings.first { meaning in
            let adapted = meaning.spelling?.adapt(labels).map { $0.label } ?? labels
            return meaning.spec.signatures.contains { $0.fits(labels: adapted, values: adapted.map { _ in nil }) }
        } ?? meanings.first
    }

    /// The labels that pick a spelling of `name`: `until`, `while` and `for`
    /// for `take`.
    public func spellingLabels(of name: String) -> [String] {
        entries.flatMap { $0.aliases.filter { $0.name == name }.compactMap(\.label) }
    }

    /// Every name a user may type: canonical names and aliases.
    public var allNames: [String] { Set(byName.keys.map { String($0.prefix { $0 != "(" }) }).sorted() }

    /// Calls an operator. `receiver` is the value a method is called on, or
    /// nil for a free-function call.
    public func call(
        _ name: String, receiver: Value?, labels: [String?], arguments: [Value], context: OperatorContext
    ) throws -> Value {
        guard let (spec, spelling) = resolve(name, labels: labels) else {
            throw FlowError("unknown operator '\(name)'", at: context.location)
        }
        guard let spelling else {
            return try Self.call(CallSite(spec, labels: labels, context: context, form: CallForm(name: name)),
                            receiver: receiver, arguments: arguments)
        }
        let adapted = spelling.adapt(labels)
        let values = adapted.map { entry -> Value in
            switch entry.source {
            case .argument(let i): arguments[i]
            case .implied(let k): spelling.implied[k].value.value
            }
        }
        let site = CallSite(spec, labels: adapted.map(\.label), context: context,
                            form: CallForm(name: name, numbersAreSeconds: spelling.takesSeconds))
        return try Self.call(site, receiver: receiver, arguments: values)
    }

    /// One place in a script that calls an operator (the language resolves
    /// names once, when compiling): what stays the same from call to call,
    /// and which signature matched last and how, so calls made per event
    /// (a `flatMap` closure building a stream) skip the search.
    public final class CallSite {
        public let spec: OperatorSpec
        /// The labels as the operator's signatures expect them.
        public let labels: [String?]
        public let context: OperatorContext
        public let form: CallForm
        fileprivate var signature = -1
        fileprivate var plan: [[Int]] = []
        /// What each argument must be for `plan` to hold: checked per call,
        /// argument by argument, without walking the signature.
        fileprivate var checks: [(type: ParameterType, takesArrays: Bool)] = []

        public init(_ spec: OperatorSpec, labels: [String?], context: OperatorContext, form: CallForm = CallForm()) {
            self.spec = spec
            self.labels = labels
            self.context = context
            self.form = form
        }

        /// Whether the remembered plan types these arguments.
        fileprivate func fits(_ arguments: [Value]) -> Bool {
            guard signature >= 0, arguments.count == checks.count else { return false }
            for (check, value) in zip(checks, arguments) where !(check.type.accepts(value) || check.takesArrays && value.isArray) {
                return false
            }
            return true
        }

        fileprivate func fits(_ argument: Value) -> Bool {
            guard signature >= 0, checks.count == 1 else { return false }
            return checks[0].type.accepts(argument) || checks[0].takesArrays && argument.isArray
        }

        fileprivate func remember(_ signature: Int, _ plan: [[Int]]) {
            self.signature = signature
            self.plan = plan
            let parameters = spec.signatures[signature].parameters
            var checks = Array(repeating: (type: ParameterType.value, takesArrays: false), count: plan.reduce(0) { $0 + $1.count })
            for (p, indices) in plan.enumerated() {
                let type = parameters[p].type
                for i in indices { checks[i] = (type, type == .stream && parameters[p].isVariadic) }
            }
            self.checks = checks
        }
    }

    /// Calls the operator of a call site with one argument. Static: a call
    /// made per event reads no global.
    public static func call(_ site: CallSite, receiver: Value?, argument: Value) throws -> Value {
        if site.fits(argument) {
            let made = try site.spec.signatures[site.signature].build(Arguments(site: site, signature: site.signature, receiver: receiver,
                                                                               onlyArgument: argument, plan: site.plan))
            if case .function(let function) = argument, function.sideEffect != nil, case .stream(let node) = made {
                node.callsCodeWithSideEffects = true
            }
            return made
        }
        return try call(site, receiver: receiver, arguments: [argument])
    }

    /// Calls the operator of a call site with these arguments.
    public static func call(_ site: CallSite, receiver: Value?, arguments: [Value]) throws -> Value {
        let made = try build(site, receiver: receiver, arguments: arguments)
        if case .stream(let node) = made {
            for case .function(let function) in arguments where function.sideEffect != nil {
                node.callsCodeWithSideEffects = true
                break
            }
        }
        return made
    }

    private static func build(_ site: CallSite, receiver: Value?, arguments: [Value]) throws -> Value {
        if site.fits(arguments) {
            return try site.spec.signatures[site.signature].build(Arguments(site: site, signature: site.signature, receiver: receiver,
                                                                           arguments: arguments, plan: site.plan))
        }
        let spec = site.spec, context = site.context
        let name = site.form.name ?? spec.name
        if receiver == nil && spec.form == .method {
            throw FlowError("'\(name)' is a method: call it on a stream, as in source.\(name)(...)", at: context.location)
        }
        if receiver != nil && spec.form == .function {
            throw FlowError("'\(name)' is a free function, not a method: call it as \(name)(...)", at: context.location)
        }
        for (index, signature) in spec.signatures.enumerated() {
            guard let plan = signature.bind(labels: site.labels, values: arguments) else { continue }
            site.remember(index, plan)
            return try signature.build(Arguments(site: site, signature: index, receiver: receiver, arguments: arguments, plan: plan))
        }
        throw FlowError("no form of '\(name)' takes these arguments; it takes "
                        + spec.signatureDescriptions.joined(separator: " or "), at: context.location)
    }
}
