import FlowLanguage
import FlowRuntime

/// What Tab offers at the cursor: commands at the start of a line, operator
/// names after a `.`, a module's functions after its name and a `.`, and
/// otherwise the names in scope, sources and keywords.
struct Completer {
    enum Offer: Equatable {
        case words([String])
        /// File names (`:load`): readline's own completion.
        case files
    }

    let commands: [String]
    let modules: [BuiltinModule]

    /// `before` is the line up to the word being completed; `word` is its
    /// start, up to the cursor.
    func offer(before: String, word: String, boundNames: [String]) -> Offer {
        let line = before.drop(while: { $0 == " " })
        if line.isEmpty && word.hasPrefix(":") { return .words(matching(word, commands)) }
        if line.hasPrefix(":") { return commandArgument(String(line), word: word, boundNames: boundNames) }
        return .words(matching(word, expressionWords(before: String(line), boundNames: boundNames)))
    }

    private func commandArgument(_ line: String, word: String, boundNames: [String]) -> Offer {
        let command = line.prefix(while: { $0 != " " })
        switch command {
        case ":load": return .files
        case ":graph": return .words(matching(word, boundNames))
        case ":doc":
            if line.hasSuffix(".") { return .words(matching(word, expressionWords(before: line, boundNames: []))) }
            return .words(matching(word, operatorTable.allNames + modules.map(\.name)))
        case ":marble", ":trace":
            let expression = String(line.dropFirst(command.count))
            return .words(matching(word, expressionWords(before: expression, boundNames: boundNames)))
        default: return .words([])
        }
    }

    /// Words that fit after `before` in an expression.
    private func expressionWords(before: String, boundNames: [String]) -> [String] {
        guard before.hasSuffix(".") else { return boundNames + Vocabulary.functions + modules.map(\.name) }
        let receiver = String(before.dropLast().reversed().prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" }).reversed())
        if let module = modules.first(where: { $0.name == receiver }), !boundNames.contains(receiver) {
            return module.functions.flatMap { [$0.name] + $0.aliasNames }
        }
        return Vocabulary.methods + modules.flatMap { $0.methods.map(\.name) }
    }

    private func matching(_ word: String, _ candidates: [String]) -> [String] {
        Array(Set(candidates.filter { $0.hasPrefix(word) })).sorted()
    }
}
