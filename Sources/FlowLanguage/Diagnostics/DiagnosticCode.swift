extension Diagnostic {
    /// What kind of problem a diagnostic is, as a stable name that an
    /// editor, a script or a person searching can match on while the
    /// message's words change (the language server sends it as the LSP
    /// diagnostic's `code`). The list and an example of each are in
    /// docs/diagnostics.md; a test keeps the two the same.
    public enum Code: String, CaseIterable, Sendable {
        // Reading the text.
        case invalidToken = "invalid-token"
        case invalidLiteral = "invalid-literal"
        case syntax
        case unsupported
        case tooComplex = "too-complex"
        // Names.
        case unknownName = "unknown-name"
        case unknownMember = "unknown-member"
        case duplicateDeclaration = "duplicate-declaration"
        case circularReference = "circular-reference"
        case misplaced
        case notAValue = "not-a-value"
        // Calls.
        case argumentLabel = "argument-label"
        case argumentCount = "argument-count"
        case noMatchingCall = "no-matching-call"
        case ambiguous
        case badArgument = "bad-argument"
        // Types and values.
        case typeMismatch = "type-mismatch"
        case immutable
        case invalidDeclaration = "invalid-declaration"
        // Marbles and tests.
        case marble
        case test
        // Warnings.
        case unreachable
        case implicitMilliseconds = "implicit-milliseconds"
        case unansweredExpectation = "unanswered-expectation"
        // The count of those not shown.
        case tooManyErrors = "too-many-errors"

        /// The kind of a message as the lexer, the parser and the compiler
        /// word it, or nil for one this table does not know (a test reads
        /// every message written in Sources/FlowLanguage, so a new one
        /// without a kind fails it). Shapes are tried in order, each a
        /// prefix of the message where `*` stands for any text.
        public init?(classifying message: String) {
            guard let found = Self.shapes.first(where: { _, shapes in shapes.contains { Self.message(message, startsLike: $0) } }) else {
                return nil
            }
            self = found.code
        }

        /// The order matters where shapes overlap: "flow has no ..." is
        /// unsupported before anything it goes on to say, a message about
        /// never being reached is unreachable whatever it names.
        static let shapes: [(code: Code, shapes: [String])] = [
            (.tooManyErrors, ["and * more error"]),
            (.tooComplex, ["expression too long", "expression nested too deeply", "expression too deeply nested"]),
            (.unreachable, ["*never reached", "*is never delivered"]),
            (.unansweredExpectation, ["this expectation is not answered"]),
            (.implicitMilliseconds, ["* is read as * milliseconds"]),
            (.unsupported, ["flow has no", "flow cannot", "flow runs ", "flow reads a one-sided range", "*, which flow does not run", "flow decodes JSON", "flow adds static",
                            "*which this run does not have"]),
            (.invalidToken, ["unterminated", "unexpected character", "unknown escape", "invalid unicode", "expected '{' after \\u",
                             "the file is not UTF-8", "strings are written in double quotes", "this line of a multi-line string",
                             "a multi-line string's text", "unexpected text in the interpolation", "'$' must be followed"]),
            (.invalidLiteral, ["number literal is out of range", "integer literal overflows", "duration literal is too large",
                               "'*' is not a unit of time"]),
            (.duplicateDeclaration, ["*is already declared", "*is declared twice", "'*' is already a member", "'*' is already a type",
                                     "two parameters named", "'*' has the same raw value", "'*()' has the name of a property",
                                     "'*' has two getters", "'*' has two setters", "'*' has two * observers"]),
            (.argumentLabel, ["missing argument label", "'*' has no argument labelled", "print has no argument labelled",
                              "'*' takes no label here", "'*' expects the label", "closures take no argument labels"]),
            (.argumentCount, ["'*' takes * argument", "missing argument '", "'.*' has * associated value", "'.*' has no associated values"]),
            (.ambiguous, ["ambiguous use", "'.*' is a case of "]),
            (.noMatchingCall, ["*takes these arguments", "no '*' takes arguments of types", "wrong arguments for", "'*' has no init that takes"]),
            (.unknownMember, ["unknown method", "unknown case", "unknown '.", "value of type '*' has no member", "'*' has no case",
                              "'*' has no static", "module '*' has no function", "the superclass has no method", "URLError has no code"]),
            (.unknownName, ["unknown name", "unknown function", "unknown "]),
            (.typeMismatch, ["cannot convert", "binary operator", "value of optional type '*' must be unwrapped", "this is *, not a stream",
                             "'*' needs * here, not ", "'*' is a method of arrays and strings, and this is a stream"]),
            (.notAValue, ["'*' is a function: call it", "'*' is a module: call", "'*' is a method: call it", "'*' is a free function, not a method",
                          "'*' cannot be used as an expression here"]),
            (.immutable, ["cannot change", "cannot assign", "'*' changes the value it is called on", "'*' is mutating, and",
                          "'*' is inout: pass", "'*' is not inout", "'*' cannot be changed: it is flow's"]),
            (.circularReference, ["'*' inherits from itself", "'*' is used in its own value"]),
            (.misplaced, ["*can only be used", "*can only be declared", "*can only be written", "types are declared at the top level",
                          "import goes at the top", "'self' is only meaningful", "'subscriptions' can only be checked",
                          "'*.init' can only be called", "'_' can only name", "only a struct's methods", "only a class has",
                          "#endif without", "#* without #if", "#if has no #endif", "a closure with named parameters cannot also use $0"]),
            (.marble, ["bad marble", "'*' is not a marble symbol", "marble values are labelled", "* needs a marble string",
                       "marbles needs", "time takes one marble", "digits then a letter"]),
            (.test, ["toBe needs", "expect needs", "expect takes", "an expectation ", "points are", "points: takes", "partial credit",
                     "partial: takes", "reveal: takes", "a test takes", "a test named", "expected the test's name",
                     "the expectations of test", "a subscription log"]),
            (.invalidDeclaration, ["'*' does not conform", "'*' has no raw type", "'*' needs a raw value", "a raw value must",
                                   "the raw value of", "a case of an enum with raw values", "this init can end", "'*' is not set before super.init",
                                   "class '*' has no initialisers", "a lazy property needs a value", "a static property needs a value",
                                   "a @Published property is a var", "a class has one deinit", "a class inherits from a class only",
                                   "a computed property is written", "a protocol's extension", "this script already follows",
                                   "an * has no init here", "* cannot have stored properties",
                                   "a let property cannot have", "a lazy property cannot have", "'*' has a setter and no getter",
                                   "a property with observers stores its value",
                                   "a computed property has no value of its own"]),
            (.syntax, ["expected ", "'*' is never closed", "unmatched", "';' separates statements", "ranges cannot be chained",
                       "comparisons cannot be chained", "a range written after its bound", "a dictionary entry in an array", "the else block of a guard must leave",
                       "a case needs at least one statement", "'*' is not a keyword", "'*' is a keyword, not a name"]),
            (.badArgument, ["* takes ", "* needs ", "a deadline is written", "print(to:) writes", "'.*' is a strategy of",
                            "String(format:)", "assign(to:on:)", "*: '*' cannot be negative", "*: '*' must be greater than"]),
        ]

        /// Whether `message` begins with text of the shape `pattern`, in
        /// which `*` stands for any run of characters. With no end to
        /// match, each piece after a `*` is its first occurrence.
        static func message(_ message: String, startsLike pattern: String) -> Bool {
            var pieces = pattern.split(separator: "*", omittingEmptySubsequences: false)[...]
            guard let first = pieces.popFirst(), message.hasPrefix(first) else { return false }
            var rest = message.dropFirst(first.count)
            for piece in pieces where !piece.isEmpty {
                guard let found = rest.range(of: piece) else { return false }
                rest = rest[found.upperBound...]
            }
            return true
        }
    }
}
