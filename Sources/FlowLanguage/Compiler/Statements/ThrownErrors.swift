import FlowRuntime

/// `do { } catch { }`: the first `catch` whose pattern and type the thrown
/// value matches runs, with what the pattern binds (`error` in a bare
/// one); none matching throws the error on. Only what `throw` raised is
/// caught: an index out of range or a failed `precondition` stops the run,
/// where Swift would trap.
extension Compiler {
    func compileDoCatch(_ body: [Statement], _ catches: [CatchClause], in scope: Scope) -> Code {
        let tried = compileBlock(body, in: scope)
        typealias CompiledCatch = (matches: (Value, Frame) throws -> Bool, body: Code)
        var compiled: [CompiledCatch] = []
        for (i, clause) in catches.enumerated() {
            if clause.isBare, i < catches.count - 1 {
                error("a catch after a bare catch is never reached", catches[i + 1].span, help: "put the bare catch last")
            }
            let clauseScope = Scope(kind: .block, parent: scope)
            var tests: [(Value, Frame) throws -> Bool] = []
            if clause.isBare, let slot = clauseScope.declare("error", at: clause.span, as: .constant) {
                tests.append { value, frame in frame.slots[slot] = value; return true }
            }
            if let type = clause.type, let test = typeTest(type.name, type.span, in: clauseScope) {
                tests.append { value, _ in test(value) }
            }
            if let pattern = clause.pattern {
                tests.append(compilePattern(pattern, in: clauseScope, binding: .constant))
            }
            let code = compileSequence(clause.body, in: clauseScope)
            compiled.append(({ value, frame in try tests.allSatisfy { try $0(value, frame) } }, code))
        }
        return { frame in
            do {
                return try tried(frame)
            } catch let thrown as FlowError where thrown.isThrown {
                for clause in compiled where try clause.matches(thrown.value, frame) { return try clause.body(frame) }
                throw thrown
            }
        }
    }
}
