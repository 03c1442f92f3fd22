import FlowRuntime

/// Thrown by `break`, caught by the innermost loop or `switch`.
struct BreakSignal: Error {}
/// Thrown by `continue`, caught by the innermost loop.
struct ContinueSignal: Error {}

/// Changes a value in place where it lives (a variable, a member, an
/// element). The value is moved out while `body` changes it, so an array
/// held in a variable is appended to without being copied.
typealias Modify = (Frame, (inout Value) throws -> Void) throws -> Void

/// Tests a value against a pattern in a frame, binding its names there.
typealias Matcher = (Value, Frame) throws -> Bool

extension Compiler {
    // MARK: - Sequences and blocks

    /// Statements run in order; the value is the last one's. Functions and
    /// types declared among them exist from the start, as in Swift.
    func compileSequence(_ statements: [Statement], in scope: Scope) -> Code {
        let prologue = hoist(statements, in: scope)
        var body: Code = { _ in .null }
        var first = true
        for statement in statements {
            let code = compileStatement(statement, in: scope)
            if first {
                body = code
                first = false
            } else {
                // Composed closure by closure: a closure taken out of an
                // array comes wrapped in conversion thunks.
                let before = body
                body = { frame in
                    _ = try before(frame)
                    return try code(frame)
                }
            }
        }
        guard let prologue else { return body }
        let run = body
        return { frame in
            try prologue(frame)
            return try run(frame)
        }
    }

    func compileBlock(_ statements: [Statement], in parent: Scope) -> Code {
        compileSequence(statements, in: Scope(kind: .block, parent: parent))
    }

    /// Swift's statements beyond `let` and expressions.
    func compileSwiftStatement(_ statement: Statement, in scope: Scope) -> Code {
        switch statement {
        case .throw(let valueExpr, let span):
            let value = compile(valueExpr, in: scope)
            let location = self.location(span)
            return { frame in
                var thrown = FlowError(try value(frame), at: location)
                thrown.isThrown = true
                throw thrown
            }
        case .doCatch(let body, let catches, _):
            return compileDoCatch(body, catches, in: scope)
        case .typeAlias:
            // Registered where its block is hoisted; nothing to run.
            return { _ in .null }
        case .destructuring(let pattern, let valueExpr, let isVariable, let span):
            let value = compile(valueExpr, in: scope)
            if case .wildcard = pattern { return { frame in _ = try value(frame); return .null } }
            let matcher = compilePattern(pattern, in: scope, binding: isVariable ? .variable : .constant)
            let location = self.location(span)
            return { frame in
                let v = try value(frame)
                guard try matcher(v, frame) else { throw FlowError("\(v.typeName) \(v.literal) does not match the pattern", at: location) }
                return .null
            }
        case .assignment(let target, let op, let value, let opSpan, _):
            return compileAssignment(target, op, value, opSpan, in: scope)
        case .guard(let conditions, let elseBody, _):
            // The names a guard binds stay in scope after it.
            let test = compileConditions(conditions, in: scope)
            let orElse = compileBlock(elseBody, in: scope)
            return { frame in
                if try !test(frame) { _ = try orElse(frame) }
                return .null
            }
        case .while(let conditions, let body, let span):
            return compileLoop(in: scope, span) { loop in
                let test = self.compileConditions(conditions, in: loop)
                let run = self.compileBlock(body, in: loop)
                return { frame in
                    guard try test(frame) else { return false }
                    _ = try run(frame)
                    return true
                }
            }
        case .repeat(let body, let conditionExpr, let span):
            let guardLoop = loopGuard(at: span)
            let loop = Scope(kind: .loop, parent: scope)
            let run = compileBlock(body, in: loop)
            // The condition cannot see the body's names, as in Swift.
            let condition = compile(conditionExpr, in: scope)
            let location = self.location(conditionExpr.span)
            let size = loop.count, fresh = loop.createsClosures
            let env = environment
            return { frame in
                var current = Frame(count: size, parent: frame)
                var count = 0
                repeat {
                    count += 1
                    if env.countsAStride() { try guardLoop(count) }
                    guard try Self.iterate(run, current) else { break }
                    if fresh { current = Frame(count: size, parent: frame) }
                } while try located(location) { try condition(frame).asBool() }
                return .null
            }
        case .for(let pattern, let sequenceExpr, let filter, let body, let span):
            return compileFor(pattern, sequenceExpr, filter, body, span, in: scope)
        case .break:
            return { _ in throw BreakSignal() }
        case .continue:
            return { _ in throw ContinueSignal() }
        case .function, .type:
            // Declared by `hoist`; a func's value is made by the prologue.
            compileDeclaration(statement, in: scope)
            return { _ in .null }
        case .binding, .expression, .test, .return:
            return compileStatement(statement, in: scope)
        }
    }

    // MARK: - Loops

    /// A loop whose body runs in a frame per iteration, so that a closure
    /// made in one iteration keeps that iteration's names; a body that makes
    /// no closures reuses one frame. `iteration` returns false to stop.
    private func compileLoop(in scope: Scope, _ span: Span, _ makeIteration: (Scope) -> (Frame) throws -> Bool) -> Code {
        let loop = Scope(kind: .loop, parent: scope)
        let iteration = makeIteration(loop)
        let size = loop.count, fresh = loop.createsClosures
        let guardLoop = loopGuard(at: span)
        let env = environment
        return { frame in
            var current = Frame(count: size, parent: frame)
            var count = 0
            while true {
                count += 1
                if env.countsAStride() { try guardLoop(count) }
                guard try Self.iterate(iteration, current) else { break }
                if fresh { current = Frame(count: size, parent: frame) }
            }
            return .null
        }
    }

    /// Runs one iteration of a loop's body: false when the loop is to stop
    /// (`break`, or a body that says so), true to go on (also `continue`).
    private static func iterate(_ body: (Frame) throws -> Value, _ frame: Frame) throws -> Bool {
        do { _ = try body(frame) } catch is BreakSignal { return false } catch is ContinueSignal {}
        return true
    }

    private static func iterate(_ body: (Frame) throws -> Bool, _ frame: Frame) throws -> Bool {
        do { return try body(frame) } catch is BreakSignal { return false } catch is ContinueSignal { return true }
    }

    /// What a loop asks at every stride of the run's work
    /// (`Environment.checkWork`). Virtual time cannot interrupt a loop, so
    /// it bounds it, as it bounds `range`: a `while` or `repeat` at a
    /// million iterations (a `for` walks a finite sequence), and all the
    /// run's work together at ten million steps (loops nested in loops);
    /// in a session or a live run, Ctrl-C stops it.
    private func loopGuard(at span: Span, walksASequence: Bool = false) -> (Int) throws -> Void {
        let env = environment
        let location = self.location(span)
        let limit = VirtualScheduler.synchronousValueLimit
        return { count in
            if count >= limit && !walksASequence && env.run.scheduler.isVirtual {
                throw FlowError("loop stopped after \(limit) iterations, the most one loop runs in virtual time; is it meant to be endless?",
                                at: location)
            }
            try env.checkWork("loop", at: location)
        }
    }

    private func compileFor(_ pattern: Pattern, _ sequenceExpr: Expr, _ filter: Expr?, _ body: [Statement], _ span: Span,
                            in scope: Scope) -> Code {
        let compiledSequence = compiled(sequenceExpr, in: scope), sequence = compiledSequence.code
        let sequenceLocation = location(sequenceExpr.span)
        let loop = Scope(kind: .loop, parent: scope)
        let matcher = compilePattern(pattern, in: loop, binding: .constant)
        // `for user in users` of a `[User]`: each is a User.
        if case .binding(let name, let nameSpan) = pattern, case .array(let element) = compiledSequence.type, element.isKnown {
            loop.setType(element, of: name, isWritten: compiledSequence.typeIsSure)
            noteType(element, at: nameSpan)
        }
        let condition = filter.map { compile($0, in: loop) }
        let filterLocation = filter.map { location($0.span) }
        let run = compileBlock(body, in: loop)
        let size = loop.count, fresh = loop.createsClosures
        let patternLocation = location(pattern.span)
        let guardLoop = loopGuard(at: span, walksASequence: true)
        let env = environment
        return { frame in
            let elements = try located(sequenceLocation) { try Self.elements(of: try sequence(frame)) }
            var current = Frame(count: size, parent: frame)
            var count = 0
            for element in elements {
                count += 1
                if env.countsAStride() { try guardLoop(count) }
                guard try matcher(element, current) else {
                    throw FlowError("\(element.typeName) \(element.literal) does not match the loop's pattern", at: patternLocation)
                }
                if let condition, try !located(filterLocation!, { try condition(current).asBool() }) { continue }
                guard try Self.iterate(run, current) else { break }
                if fresh { current = Frame(count: size, parent: frame) }
            }
            return .null
        }
    }

    /// What `for ... in` walks: an array's elements, a dictionary's
    /// `(key:, value:)` pairs, a string's characters.
    static func elements(of value: Value) throws -> [Value] {
        switch value {
        case .array(let a): return a
        case .tuple(let t) where t.nominal == nil: return t.elements
        case .dictionary(let d): return d.map { .tuple(Tuple([$0.key, $0.value], labels: ["key", "value"])) }
        case .string(let s): return try s.characterValues("walking a string's characters")
        case .stream:
            throw FlowError("a for loop cannot walk a stream, whose values arrive over time: subscribe to it instead")
        case .function(let keyed as KeyedValues):
            throw FlowError("a for loop cannot walk \(keyed.keyedName): \(keyed.howItIsRead)")
        default:
            throw FlowError("a for loop walks an array, a range, a dictionary or a string, not \(value.typeName) \(value.literal)")
        }
    }

    // MARK: - Conditions

    /// The conditions of `if`, `guard` or `while`, in order, each binding
    /// its names in `scope` for the next and for the body.
    func compileConditions(_ conditions: [Condition], in scope: Scope) -> (Frame) throws -> Bool {
        var test: (Frame) throws -> Bool = { _ in true }
        var first = true
        for condition in conditions {
            let next: (Frame) throws -> Bool
            switch condition {
            case .boolean(let expr):
                let code = compile(expr, in: scope)
                let location = self.location(expr.span)
                next = { frame in try located(location) { try code(frame).asBool() } }
            case .optionalBinding(let name, let nameSpan, let valueExpr, let isVariable):
                let compiledValue = compiled(valueExpr, in: scope), value = compiledValue.code
                if case .optional(let wrapped) = compiledValue.type { noteType(wrapped, at: nameSpan) }
                guard let slot = scope.declare(name, at: nameSpan, as: isVariable ? .variable : .constant) else {
                    error("'\(name)' is already declared in this scope", nameSpan)
                    return { _ in false }
                }
                if environment.memberUses != nil, case .optional(let wrapped) = compiledValue.type {
                    // For an editor only, as a hint: `w.total()` in the body
                    // means the unwrapped type's member.
                    scope.setType(wrapped, of: name, isWritten: false)
                }
                next = { frame in
                    let v = try value(frame)
                    if v.isNull { return false }
                    frame.slots[slot] = v
                    return true
                }
            case .matching(let pattern, let valueExpr):
                let value = compile(valueExpr, in: scope)
                let matcher = compilePattern(pattern, in: scope, binding: .constant)
                next = { frame in try matcher(try value(frame), frame) }
            }
            if first {
                test = next
                first = false
            } else {
                let before = test
                test = { frame in try before(frame) && next(frame) }
            }
        }
        return test
    }

    /// `if`: the value of the branch taken (nil when none is).
    func compileIf(_ conditional: IfExpression, in scope: Scope) -> Code {
        let branch = Scope(kind: .block, parent: scope)
        let test = compileConditions(conditional.conditions, in: branch)
        let body = compileBlock(conditional.body, in: branch)
        let orElse = conditional.elseBody.map { compileBlock($0, in: scope) }
        return { frame in
            if try test(frame) { return try body(frame) }
            return try orElse?(frame) ?? .null
        }
    }

    /// `switch`: the first case whose pattern matches (and whose `where`
    /// holds) runs; its value is the switch's. No case matching is an
    /// error at the switch, as Swift would have refused to compile it.
    func compileSwitch(_ switchExpr: SwitchExpression, in scope: Scope) -> Code {
        let subject = compile(switchExpr.subject, in: scope)
        typealias CompiledCase = (matchers: [Matcher], guard: ((Frame) throws -> Bool)?, body: Code)
        var cases: [CompiledCase] = []
        var sawDefault = false
        for item in switchExpr.cases {
            if sawDefault { error("a case after 'default' is never reached", item.span, help: "put 'default' last") }
            let caseScope = Scope(kind: .block, parent: scope)
            let matchers = item.patterns.map { compilePattern($0, in: caseScope, binding: .constant) }
            if item.patterns.isEmpty { sawDefault = true }
            let guardCode = item.guardExpr.map { expr -> (Frame) throws -> Bool in
                let code = compile(expr, in: caseScope)
                let location = self.location(expr.span)
                return { frame in try located(location) { try code(frame).asBool() } }
            }
            cases.append((matchers, guardCode, compileSequence(item.body, in: caseScope)))
        }
        let location = self.location(switchExpr.span)
        return { frame in
            let value = try subject(frame)
            for item in cases {
                var matched = item.matchers.isEmpty
                for matcher in item.matchers where try matcher(value, frame) {
                    matched = true
                    break
                }
                guard matched else { continue }
                if let test = item.guard, try !test(frame) { continue }
                do { return try item.body(frame) } catch is BreakSignal { return .null }
            }
            throw FlowError("no case of the switch matches \(value.typeName) \(value.literal); add a default case", at: location)
        }
    }

    // MARK: - Assignment

    private func compileAssignment(_ target: Expr, _ op: AssignmentOperator, _ valueExpr: Expr, _ opSpan: Span, in scope: Scope) -> Code {
        // A place of a written type takes values as a binding of it does;
        // `+=` on an array adds elements of its type (`[7]` to `[Double]` is 7.0).
        let declared: StaticType? = switch op {
        case .assign: placeType(of: target, in: scope)
        case .add: placeType(of: target, in: scope).flatMap { if case .array = $0 { $0 } else { nil } }
        default: nil
        }
        let value = declared.map {
            compiled(valueExpr, convertingTo: $0, reportingMismatch: op == .assign && placeTypeIsSure(target, in: scope), in: scope).code
        } ?? compile(valueExpr, in: scope)
        if case .name("_", _) = target, op == .assign {
            return { frame in _ = try value(frame); return .null }
        }
        if case .tuple(let targets, _, let span) = target, op == .assign {
            return compileTupleAssignment(targets, value, span, in: scope)
        }
        // A property `value` of the script's own types is theirs, unless
        // the receiver is known to be a stream.
        if case .member(let base, "value", _, _) = target,
           !scope.visibleTypes.contains(where: { $0.hasProperty("value") }) || guessedType(of: base, in: scope).isStream,
           let subjectAssignment = compileSubjectAssignment(base, op, value, opSpan, in: scope) {
            return subjectAssignment
        }
        guard let place = compilePlace(target, in: scope) else { return { _ in .null } }
        let location = self.location(opSpan)
        guard let binary = op.computation else {
            // Straight into a slot when the target is a variable.
            if case .name(let name, _) = target, let (depth, entry) = scope.resolve(name), !isImplicitSelf(name, in: scope) {
                let slot = entry.slot
                if depth == 0 { return { frame in frame.slots[slot] = try value(frame).keptByAName(); return .null } }
                return { frame in frame.ancestor(depth).slots[slot] = try value(frame).keptByAName(); return .null }
            }
            return { frame in
                let v = try value(frame).keptByAName()
                try place(frame) { $0 = v }
                return .null
            }
        }
        if binary == .add {
            return { frame in
                let v = try value(frame)
                try place(frame) { current in
                    if try located(location, { try Value.appendInPlace(&current, v) }) { return }
                    current = try binary.apply(current, v, at: location)
                }
                return .null
            }
        }
        return { frame in
            let v = try value(frame)
            try place(frame) { current in current = try binary.apply(current, v, at: location) }
            return .null
        }
    }

    /// The value of `expr`, changed in place by `body`, which is told
    /// whether the value is held by an object: `a.b.c` is evaluated from
    /// `a` once, each member taken out of its container and put back, so a
    /// change reaches the object that holds the struct it changes.
    private func compileReachThroughObjects(_ expr: Expr, in scope: Scope)
        -> (Frame, (inout Value, _ inObject: Bool) throws -> Void) throws -> Void {
        if case .member(let inner, let name, let nameSpan, _) = expr, resolveType(inner, in: scope) == nil {
            if environment.memberUses != nil { noteMemberUse(name, at: nameSpan, on: inner, typed: guessedType(of: inner, in: scope), in: scope) }
            let outer = compileReachThroughObjects(inner, in: scope)
            let update = compileMemberUpdate(name, of: inner, containing: true, in: scope)
            let location = self.location(nameSpan)
            return { frame, body in
                try outer(frame) { container, inObject in
                    let held = inObject || container.isObject
                    try located(location) {
                        if let update { try update(&container, frame) { try body(&$0, held) } } else { try container.updateMember(name) { try body(&$0, held) } }
                    }
                }
            }
        }
        let code = compile(expr, in: scope)
        return { frame, body in
            var value = try code(frame)
            try body(&value, false)
        }
    }

    /// How `base.name` changes through the property's `set`, `willSet`
    /// and `didSet` where the container's type has them (known when the
    /// script runs); nil where no type seen here has any, and a change is
    /// a store (`Value.updateMember`), the common case, kept a direct call.
    /// `containing`: the member holds what changes (`vm.selected` in
    /// `vm.selected.name = x`), which a get-only property holding an object may.
    private func compileMemberUpdate(_ name: String, of base: Expr, containing: Bool = false, in scope: Scope)
        -> ((inout Value, Frame, (inout Value) throws -> Void) throws -> Void)? {
        let table = propertyAccessors(named: name, in: scope)
        if table.isEmpty { return nil }
        if case .name("self", _) = base, storesDirectly(name, in: scope) { return nil }
        return { container, frame, body in
            guard let type = container.memberTypeName, let entry = table[type] else { return try container.updateMember(name, body) }
            try Self.assign(name, of: &container, through: entry.accessors, depth: entry.depth, in: frame, containing: containing, body)
        }
    }

    static func isMember(_ expr: Expr) -> Bool { if case .member = expr { true } else { false } }

    /// Whether `base` is one of Foundation's formatters, a class whose
    /// properties a `let` holding it sets; a property it does not have is
    /// an error here.
    private func foundationClass(of base: Expr, settingProperty name: String, _ nameSpan: Span, in scope: Scope) -> Bool {
        guard let className = guessedType(of: base, in: scope).nominalName, resolveType(className, in: scope) == nil,
              let objectClass = DateFormatterValue.classes[className] else { return false }
        if objectClass.fieldIndex(name) == nil {
            error("flow has no \(className) property '\(name)'", nameSpan,
                  help: Suggestions.didYouMean(name, among: objectClass.fieldNames)
                    ?? "it sets " + objectClass.fieldNames.map { "'\($0)'" }.joined(separator: ", "))
        }
        return true
    }

    /// `(a, b) = (b, a)`, `(self.x, self.y) = f()`: the value is made
    /// whole first, then each element goes to its place, so a swap swaps.
    private func compileTupleAssignment(_ targets: [Expr], _ value: @escaping Code, _ span: Span, in scope: Scope) -> Code {
        let places: [Modify?] = targets.map { target in
            if case .name("_", _) = target { return nil }
            return compilePlace(target, in: scope)
        }
        let location = self.location(span)
        return { frame in
            let whole = try value(frame)
            guard let parts = whole.tupleElements, parts.count == places.count else {
                throw FlowError("cannot assign \(whole.typeName) \(whole.literal) to a tuple of \(places.count)", at: location)
            }
            for (place, part) in zip(places, parts) {
                let kept = part.keptByAName()
                try place?(frame) { $0 = kept }
            }
            return .null
        }
    }

    /// Combine's `subject.value = x` (`+= 1` too): sends x into a
    /// `CurrentValueSubject`, whose value it becomes. A subject is not a
    /// value that is copied, so a `let` holding one may be assigned through;
    /// in a `var` record, `value` is an ordinary field.
    private func compileSubjectAssignment(_ base: Expr, _ op: AssignmentOperator, _ value: @escaping Code, _ opSpan: Span, in scope: Scope) -> Code? {
        var field: Modify?
        if Self.isPlace(base), let root = Self.placeRoot(base), isChangeable(root: root, in: scope) {
            field = compilePlace(.member(base, "value", nameSpan: opSpan, base.span), in: scope)
        }
        let subject = compile(base, in: scope)
        let binary = op.computation
        let location = self.location(opSpan)
        return { frame in
            let target = try subject(frame), v = try value(frame)
            guard case .stream(let stream) = target, let behavior = stream as? BehaviorSubject else {
                guard let field else {
                    throw FlowError("only a CurrentValueSubject's value can be set here, not \(target.typeName) \(target.literal)'s", at: location)
                }
                try field(frame) { current in current = try binary.map { try $0.apply(current, v, at: location) } ?? v }
                return .null
            }
            behavior.send(try binary.map { try $0.apply(behavior.value, v, at: location) } ?? v)
            return .null
        }
    }

    /// Where an assignment or a mutating call writes: a `var`, or a
    /// member or element of one. nil (with the error reported) for
    /// anything else. `containing`: the place holds what changes (`owner`
    /// in `owner.count += 1`), which a `let` property of an object may do.
    func compilePlace(_ expr: Expr, containing: Bool = false, in scope: Scope) -> Modify? {
        switch expr {
        case .name(let name, let span):
            if isImplicitSelf(name, in: scope) {
                return compilePlace(.member(.name("self", span), name, nameSpan: span, span), containing: containing, in: scope)
            }
            guard let (depth, entry) = scope.resolve(name) else {
                if let module = modules[name] {
                    // `env["TOKEN"] = "x"`: a module's value is flow's, not the script's.
                    error("'\(name)' cannot be changed: it is flow's \(name) module, \(module.summary)", span,
                          help: "keep a changed value in a var of the script's own: var settings = ...")
                } else {
                    error("unknown name '\(name)'", span, help: suggestion(for: name, among: scope.visibleNames))
                }
                return nil
            }
            guard entry.binding.isMutable else {
                reportConstant(name, entry.binding, span)
                return nil
            }
            let slot = entry.slot
            if entry.binding == .parameter { scope.declaringScope(of: name)?.changedParameters.insert(slot) }
            return Self.slotPlace(depth: depth, slot: slot)
        case .shorthand(let n, let span):
            // `$0` of an accumulator (`reduce(into:) { $0 += $1 }`): its
            // `inout` state, changed where it is.
            guard let closure = scope.enclosingClosure else {
                error("'$\(n)' can only be used inside a closure", span, help: "write a closure, as in { $0 * 2 }")
                return nil
            }
            closure.shorthandCount = Swift.max(closure.shorthandCount, n + 1)
            closure.changedParameters.insert(n)
            return Self.slotPlace(depth: scope.depth(to: closure), slot: n)
        case .member(let base, let name, let nameSpan, _):
            let location = self.location(nameSpan)
            if environment.memberUses != nil {
                if let type = resolveType(base, in: scope) {
                    noteMemberUse(name, at: nameSpan, of: type, isStatic: true)
                } else {
                    noteMemberUse(name, at: nameSpan, on: base, typed: placeType(base, in: scope), in: scope)
                }
            }
            let isLet = isLetPropertyOfClasses(name, in: scope)
            if isLet, !containing {
                error("cannot change '\(name)': it is a let property", nameSpan,
                      help: "declare it with var to change it, or set it in the class's init")
                return nil
            }
            if let type = resolveType(base, in: scope), let stored = type.staticValues[name] {
                // `Counter.made += 1`: a type's `static var`.
                guard type.staticVariables.contains(name) else {
                    error("cannot change '\(name)': it is a static let", nameSpan, help: "declare it static var to change it")
                    return nil
                }
                let depth = scope.depth(to: type.scope)
                return { frame, body in
                    var value = try stored.get(frame.ancestor(depth))
                    try body(&value)
                    stored.value = value
                }
            }
            if !containing, case .named(let typeName) = guessedType(of: base, in: scope), let type = scope.lookupType(typeName),
               let accessors = type.accessors[name], accessors.isComputed, accessors.setter == nil {
                error("cannot assign to property: '\(name)' is a get-only property", nameSpan,
                      help: "give it a setter, var \(name): Type { get { ... } set { ... } }, or change the stored properties it reads")
                return nil
            }
            let update = compileMemberUpdate(name, of: base, containing: containing, in: scope)
            if !(Self.placeRoot(base).map { isChangeable(root: $0, in: scope) } ?? false),
               scope.seesClasses || foundationClass(of: base, settingProperty: name, nameSpan, in: scope) {
                // An object's property changes whoever holds the object: a
                // let, self, a call's result; so does a property of a
                // struct an object holds (`model.state.count = 1`). Whether
                // it is an object is known when the script runs.
                guard update != nil || Self.isMember(base) else {
                    // The object itself, with nothing run around the store.
                    let object = compile(base, in: scope)
                    return { frame, body in
                        var value = try object(frame)
                        guard value.isObject else {
                            throw FlowError("cannot change '\(name)' of \(value.typeName) \(value.literal): it is not in a var", at: location)
                        }
                        try located(location) { try value.updateMember(name, body) }
                    }
                }
                let reach = compileReachThroughObjects(base, in: scope)
                return { frame, body in
                    try reach(frame) { value, inObject in
                        guard inObject || value.isObject else {
                            throw FlowError("cannot change '\(name)' of \(value.typeName) \(value.literal): it is not in a var", at: location)
                        }
                        try located(location) {
                            if let update { try update(&value, frame, body) } else { try value.updateMember(name, body) }
                        }
                    }
                }
            }
            guard let outer = compilePlace(base, containing: true, in: scope) else { return nil }
            if isLet {
                // A let property holding an object: the object's members change, never what it holds.
                return { frame, body in
                    try outer(frame) { container in
                        try located(location) {
                            let held: (inout Value) throws -> Void = { value in
                                guard value.isObject else { throw FlowError("cannot change '\(name)': it is a let property") }
                                try body(&value)
                            }
                            if let update { try update(&container, frame, held) } else { try container.updateMember(name, held) }
                        }
                    }
                }
            }
            guard let update else {
                return { frame, body in
                    try outer(frame) { container in try located(location) { try container.updateMember(name, body) } }
                }
            }
            return { frame, body in
                try outer(frame) { container in try located(location) { try update(&container, frame, body) } }
            }
        case .subscriptAccess(let base, let index, let span):
            guard let outer = compilePlace(base, in: scope) else { return nil }
            let location = self.location(span)
            // `counts[word, default: 0] += 1`
            if case .tuple(let parts, let labels, _) = index, labels == [nil, "default"] {
                let valueType: StaticType = if case .dictionary(_, let value)? = placeType(of: base, in: scope) { value } else { .unknown }
                let key = compile(parts[0], in: scope)
                let fallback = compiled(parts[1], convertingTo: valueType, reportingMismatch: placeTypeIsSure(base, in: scope), in: scope).code
                return { frame, body in
                    let k = try key(frame), d = try fallback(frame)
                    try outer(frame) { container in
                        try located(location) {
                            try container.updateSubscript(k) { element in
                                if element.isNull { element = d }
                                try body(&element)
                            }
                        }
                    }
                }
            }
            let key = compile(index, in: scope)
            return { frame, body in
                let k = try key(frame)
                try outer(frame) { container in try located(location) { try container.updateSubscript(k, body) } }
            }
        case .optionalChain(let chain, _):
            // `self?.count = 1`: nothing changes where the chain meets nil.
            guard let inner = compilePlace(chain, in: scope) else { return nil }
            return { frame, body in
                do { try inner(frame, body) } catch is NilInOptionalChain {}
            }
        case .optionalBind(let base, _):
            guard let outer = compilePlace(base, in: scope) else { return nil }
            return { frame, body in
                try outer(frame) { value in
                    if value.isNull { throw NilInOptionalChain() }
                    try body(&value)
                }
            }
        case .forceUnwrap(let base, let span):
            guard let outer = compilePlace(base, in: scope) else { return nil }
            let location = file.location(of: span.end - 1)
            return { frame, body in
                try outer(frame) { value in
                    if value.isNull { throw FlowError("found nil where '!' expects a value", at: location) }
                    try body(&value)
                }
            }
        default:
            error("cannot assign to this expression", expr.span, help: "assign to a var, or to a member or element of one")
            return nil
        }
    }

    /// Whether `name` is a `let` stored property of every class that has
    /// it, and this is not an `init`, where a `let` is set.
    private func isLetPropertyOfClasses(_ name: String, in scope: Scope) -> Bool {
        guard scope.seesClasses, scope.methodScope?.isInitialiser != true else { return false }
        let properties = scope.visibleTypes.compactMap { type in type.isClass ? type.allStored.first { $0.name == name } : nil }
        return !properties.isEmpty && properties.allSatisfy { !$0.isVariable }
    }

    /// A frame slot as a place: its value is moved out while it changes, so
    /// a collection held there is changed without a copy.
    private static func slotPlace(depth: Int, slot: Int) -> Modify {
        { frame, body in
            let owner = depth == 0 ? frame : frame.ancestor(depth)
            var value = owner.slots[slot]
            owner.slots[slot] = .null
            defer { owner.slots[slot] = value }
            try body(&value)
        }
    }

    private func reportConstant(_ name: String, _ binding: Scope.Binding, _ span: Span) {
        switch binding {
        case .funcParameter:
            error("cannot change '\(name)': a func's parameters are constants", span,
                  help: "copy it into a var, as in var \(name) = \(name), or declare the parameter inout")
        case .function:
            error("cannot assign to '\(name)': it is a func", span)
        case .selfValue:
            error("cannot change 'self' in a method that is not mutating", span, help: "mark the method mutating")
        default:
            error("cannot change '\(name)': it is a let constant", span, help: "declare it with var to change it")
        }
    }

    // MARK: - Patterns

    /// Compiles a pattern whose names are declared in `scope` (the same
    /// name in several patterns of one case shares its slot).
    func compilePattern(_ pattern: Pattern, in scope: Scope, binding: Scope.Binding) -> Matcher {
        switch pattern {
        case .wildcard:
            return { _, _ in true }
        case .binding(let name, let span):
            let slot = scope.entries[name]?.slot ?? scope.declare(name, at: span, as: binding)!
            return { value, frame in
                frame.slots[slot] = value
                return true
            }
        case .some(let inner, _):
            let match = compilePattern(inner, in: scope, binding: binding)
            return { value, frame in try !value.isNull && match(value, frame) }
        case .tuple(let elements, let labels, _):
            let matchers = elements.map { compilePattern($0, in: scope, binding: binding) }
            return { value, frame in
                guard case .tuple(let t) = value, t.nominal == nil, t.elements.count == matchers.count else { return false }
                for (i, matcher) in matchers.enumerated() {
                    if let label = labels[i], let actual = t.label(at: i), actual != label { return false }
                    guard try matcher(t.elements[i], frame) else { return false }
                }
                return true
            }
        case .enumCase(let type, let name, let arguments, _, let span):
            return compileCasePattern(type: type, name: name, arguments: arguments, span, in: scope, binding: binding)
        case .expression(.oneSidedRange(let side, let bound, _)):
            // `case 90...:`, `case ..<0:`: compared with the bound, as a range of two is.
            let limit = compile(bound, in: scope)
            return { value, frame in
                guard value.isNumber || value.isString, let order = try? value.compare(to: try limit(frame)) else { return false }
                return side.contains(order: order)
            }
        case .expression(let expr):
            if case .binary(let op, let low, let high, _, _) = expr, op.isRange {
                let lo = compile(low, in: scope), hi = compile(high, in: scope)
                let closed = op == .closedRange
                return { value, frame in
                    guard value.isNumber || value.isString else { return false }
                    let l = try lo(frame), h = try hi(frame)
                    guard (try? value.compare(to: l)).map({ $0 >= 0 }) == true,
                          let upper = try? value.compare(to: h) else { return false }
                    return closed ? upper <= 0 : upper < 0
                }
            }
            let code = compile(expr, in: scope)
            return { value, frame in try code(frame) == value }
        }
    }

    /// `.loaded(let v)`: a case of a declared enum, or one of the cases a
    /// Swift API's values have (`.some`, `.none`, `.finished`, `.failure`).
    private func compileCasePattern(type: String?, name: String, arguments: [Pattern]?, _ span: Span, in scope: Scope,
                                    binding: Scope.Binding) -> Matcher {
        let matchers = (arguments ?? []).map { compilePattern($0, in: scope, binding: binding) }
        let builtin = type == nil ? Self.builtinCasePattern(name, matchers) : nil
        if let declared = resolveCase(type: type, name: name, span, in: scope) {
            noteCaseUse(name, of: declared, inPattern: span)
            let nominal = Nominal(type: declared.name, caseName: name)
            if let arguments, arguments.count != (declared.caseNamed(name)?.associated?.count ?? 0) {
                error("'.\(name)' has \(declared.caseNamed(name)?.associated?.count ?? 0) associated values, the pattern \(arguments.count)", span)
            }
            return { value, frame in
                guard case .tuple(let t) = value, let actual = t.nominal else {
                    // `.none` of an enum in scope, matched against an optional.
                    return try builtin?(value, frame) ?? false
                }
                guard actual == nominal else { return false }
                for (i, matcher) in matchers.enumerated() where i < t.elements.count {
                    guard try matcher(t.elements[i], frame) else { return false }
                }
                return true
            }
        }
        if type != nil, resolveType(type!, in: scope) == nil {
            // `Foo.bar` that is no enum case: a value to compare.
            let code = compile(.member(.name(type!, span), name, nameSpan: span, span), in: scope)
            return { value, frame in try code(frame) == value }
        }
        if let builtin { return builtin }
        if type == nil, resolveAmbiguity(name, span, in: scope) { return { _, _ in false } }
        error("unknown case '.\(name)'", span,
              help: Suggestions.didYouMean(name, among: visibleCaseNames(in: scope) + ["some", "none", "finished", "failure"]))
        return { _, _ in false }
    }

    /// The cases of the values Swift's APIs give: optionals (`.some`,
    /// `.none`), completions and events (`.finished`, `.failure(e)`), and
    /// CwlSignal's either-results (`.result1(.success(v))`).
    private static func builtinCasePattern(_ name: String, _ matchers: [Matcher]) -> Matcher? {
        let inner = matchers.first
        switch (name, matchers.count) {
        case ("some", 1): return { value, frame in try !value.isNull && inner!(value, frame) }
        case ("some", 0): return { value, _ in !value.isNull }
        case ("none", 0): return { value, _ in value.isNull }
        case ("finished", 0), ("completed", 0): return { value, _ in if case .event(.completed, _) = value { true } else { false } }
        case ("failure", 0), ("error", 0): return { value, _ in if case .event(.error, _) = value { true } else { false } }
        case ("success", 0): return { value, _ in if case .event(.next, _) = value { true } else { false } }
        case ("failure", 1), ("error", 1):
            return { value, frame in
                guard case .event(.error(let e), _) = value else { return false }
                return try inner!(e.value, frame)
            }
        case ("next", 1), ("success", 1):
            return { value, frame in
                guard case .event(.next(let v), _) = value else { return false }
                return try inner!(v, frame)
            }
        case ("result1", 1), ("result2", 1), ("result3", 1), ("result4", 1), ("result5", 1):
            // CwlSignal's EitherResult, which `combine` hands its closure.
            return { value, frame in
                guard case .tuple(let t) = value, t.nominal?.caseName == name, t.nominal?.type.hasPrefix("EitherResult") == true,
                      let result = t.elements.first else { return false }
                return try inner!(result, frame)
            }
        default:
            return nil
        }
    }

    // MARK: - Shorthand parameters in nested statements

    /// The highest `$n` a closure body uses, plus one (0 for none); nested
    /// closures and declarations have their own.
    static func shorthandCount(_ statements: [Statement]) -> Int {
        statements.reduce(0) { Swift.max($0, shorthandCount($1)) }
    }

    private static func shorthandCount(_ statement: Statement) -> Int {
        switch statement {
        case .binding(_, _, _, let e, _, _): return e.map(shorthandCount) ?? 0
        case .expression(let e), .destructuring(_, let e, _, _): return shorthandCount(e)
        case .return(let e, _): return e.map(shorthandCount) ?? 0
        case .assignment(let t, _, let v, _, _): return Swift.max(shorthandCount(t), shorthandCount(v))
        case .guard(let conditions, let body, _), .while(let conditions, let body, _):
            return Swift.max(shorthandCount(conditions), shorthandCount(body))
        case .repeat(let body, let condition, _): return Swift.max(shorthandCount(body), shorthandCount(condition))
        case .for(_, let sequence, let filter, let body, _):
            return Swift.max(shorthandCount(sequence), filter.map(shorthandCount) ?? 0, shorthandCount(body))
        case .throw(let e, _): return shorthandCount(e)
        case .typeAlias: return 0
        case .doCatch(let body, let catches, _): return Swift.max(shorthandCount(body), catches.map { shorthandCount($0.body) }.max() ?? 0)
        case .test, .break, .continue, .function, .type: return 0
        }
    }

    private static func shorthandCount(_ conditions: [Condition]) -> Int {
        conditions.reduce(0) { most, condition in
            switch condition {
            case .boolean(let e), .optionalBinding(_, _, let e, _), .matching(_, let e): return Swift.max(most, shorthandCount(e))
            }
        }
    }

    static func shorthandCount(_ expr: Expr) -> Int {
        switch expr {
        case .shorthand(let n, _): return n + 1
        case .literal, .name, .closure, .implicitMember, .keyPath: return 0
        case .optionalBind(let e, _), .optionalChain(let e, _), .forceUnwrap(let e, _), .inoutArgument(let e, _), .typeCheck(let e, _, _, _, _),
             .attempt(let e, _), .oneSidedRange(_, let e, _):
            return shorthandCount(e)
        case .string(let parts, _):
            return parts.reduce(0) { if case .interpolation(let e) = $1 { Swift.max($0, shorthandCount(e)) } else { $0 } }
        case .array(let es, _), .tuple(let es, _, _): return es.map(shorthandCount).max() ?? 0
        case .dictionary(let pairs, _): return pairs.map { Swift.max(shorthandCount($0.key), shorthandCount($0.value)) }.max() ?? 0
        case .unary(_, let e, _), .member(let e, _, _, _): return shorthandCount(e)
        case .binary(_, let a, let b, _, _), .subscriptAccess(let a, let b, _): return Swift.max(shorthandCount(a), shorthandCount(b))
        case .ternary(let a, let b, let c, _): return Swift.max(shorthandCount(a), shorthandCount(b), shorthandCount(c))
        case .call(let callee, let arguments, _):
            return arguments.reduce(shorthandCount(callee)) { Swift.max($0, shorthandCount($1.value)) }
        case .conditional(let c):
            return Swift.max(shorthandCount(c.conditions), shorthandCount(c.body), c.elseBody.map(shorthandCount) ?? 0)
        case .switchOver(let s):
            return s.cases.reduce(shorthandCount(s.subject)) { most, item in
                Swift.max(most, shorthandCount(item.body), item.guardExpr.map(shorthandCount) ?? 0)
            }
        }
    }
}
