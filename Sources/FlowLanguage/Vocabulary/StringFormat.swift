import FlowRuntime
import Foundation

/// `String(format: "%5.1f|%d", x, n)`, as Foundation formats it on Linux:
/// each conversion is checked against its argument first (an Int for
/// `%d`, a Double for `%f`, a String for `%@`), so a wrong count or type of
/// arguments is an error naming the conversion, where Foundation would
/// print garbage or crash; then Foundation formats the number itself.
///
/// What Foundation does, kept: `%d`, `%i`, `%u`, `%x`, `%X`, `%o` and `%c`
/// read 32 bits (`%ld`, `%lld`, `%qd`, `%zd` read 64), so `%d` of `Int.max`
/// is -1; `%@` ignores a width and a precision; arguments the format does
/// not use are ignored.
struct StringFormat {
    enum Kind: Equatable, Sendable {
        /// `%d %i %u %x %X %o`: an Int, of 32 bits unless `wide`.
        case integer(wide: Bool)
        /// `%c`: an Int, the character's code.
        case character
        /// `%f %F %e %E %g %G %a %A`: a Double.
        case floating
        /// `%@`: a String, or a value's description.
        case object

        var wants: String {
            switch self {
            case .integer, .character: "an Int"
            case .floating: "a Double"
            case .object: "a String"
            }
        }
    }

    struct Conversion: Sendable {
        /// As written, for messages: `%5.1f`, `%2$@`.
        let written: String
        /// What the C library is given: the conversion without its position.
        let specification: String
        let kind: Kind
        /// `%2$@`'s argument, counted from 0; nil where the format counts on.
        let position: Int?
        /// Where it starts in the format, in characters.
        let offset: Int
    }

    enum Piece: Sendable {
        case text(String)
        case conversion(Conversion)
    }

    struct Mistake: Error, Sendable {
        let message: String
        /// The character of the format it is at, if it is one conversion's.
        let offset: Int?
    }

    let pieces: [Piece]

    var conversions: [Conversion] {
        pieces.compactMap { if case .conversion(let c) = $0 { c } else { nil } }
    }

    /// The arguments the format reads: one per conversion, or the highest
    /// position where they are numbered.
    var argumentCount: Int {
        conversions.first?.position == nil ? conversions.count : conversions.reduce(0) { Swift.max($0, $1.position! + 1) }
    }

    init(parsing format: String) throws(Mistake) {
        var pieces: [Piece] = []
        var text = ""
        let characters = Array(format)
        var i = 0
        var numbered: Bool?
        while i < characters.count {
            guard characters[i] == "%" else { text.append(characters[i]); i += 1; continue }
            let start = i
            i += 1
            func written() -> String { String(characters[start..<Swift.min(i, characters.count)]) }
            func ended() -> Mistake {
                Mistake(message: "the format ends inside the conversion '\(written())'", offset: start)
            }
            guard i < characters.count else { throw ended() }
            if characters[i] == "%" { text.append("%"); i += 1; continue }
            // `%2$@`: the argument's position.
            var position: Int?
            var digits = i
            while digits < characters.count, characters[digits].isASCII, characters[digits].isNumber { digits += 1 }
            if digits > i, digits < characters.count, characters[digits] == "$" {
                guard let n = Int(String(characters[i..<digits])), n >= 1, n <= 1000 else {
                    i = digits + 1
                    throw Mistake(message: "'\(written())' numbers its argument from 1", offset: start)
                }
                position = n - 1
                i = digits + 1
            }
            var specification = "%"
            while i < characters.count, "-+ #0'".contains(characters[i]) { specification.append(characters[i]); i += 1 }
            for part in 0..<2 {
                if part == 1 {
                    guard i < characters.count, characters[i] == "." else { break }
                    specification.append("."); i += 1
                }
                if i < characters.count, characters[i] == "*" {
                    i += 1
                    throw Mistake(message: "'\(written())' takes its \(part == 0 ? "width" : "precision") from an argument, which flow does not: write the number in the format",
                                  offset: start)
                }
                while i < characters.count, characters[i].isASCII, characters[i].isNumber { specification.append(characters[i]); i += 1 }
            }
            var length = ""
            while i < characters.count, "hlqLzjt".contains(characters[i]) { length.append(characters[i]); i += 1 }
            guard i < characters.count else { throw ended() }
            let conversion = characters[i]
            i += 1
            let kind: Kind
            switch conversion {
            case "d", "i", "u", "x", "X", "o":
                guard ["", "h", "hh", "l", "ll", "q", "z", "j", "t"].contains(length) else {
                    throw Mistake(message: "'\(written())' has a length Foundation does not read", offset: start)
                }
                kind = .integer(wide: ["l", "ll", "q", "z", "j", "t"].contains(length))
            case "c":
                guard length.isEmpty else { throw Mistake(message: "'\(written())' has a length Foundation does not read", offset: start) }
                kind = .character
            case "f", "F", "e", "E", "g", "G", "a", "A":
                guard length.isEmpty || length == "l" else {
                    throw Mistake(message: "'\(written())' has a length Foundation does not read for a Double", offset: start)
                }
                kind = .floating
            case "@":
                guard length.isEmpty else { throw Mistake(message: "'\(written())' has a length Foundation does not read", offset: start) }
                kind = .object
            case "s", "S":
                throw Mistake(message: "'\(written())' reads a C string, which Swift's String is not (Foundation prints nothing or crashes): use %@", offset: start)
            case "n", "p":
                throw Mistake(message: "'\(written())' reads a pointer, which a script has none of", offset: start)
            default:
                throw Mistake(message: "'\(written())' is not a conversion: String(format:) knows %d %i %u %x %X %o %c %f %e %g %a %@ and %%",
                              offset: start)
            }
            if let numbered, numbered != (position != nil) {
                throw Mistake(message: "the format mixes numbered conversions (%1$@) with unnumbered ones (%@) at '\(written())': number all or none",
                              offset: start)
            }
            numbered = position != nil
            if !text.isEmpty { pieces.append(.text(text)); text = "" }
            // The C library is given a Swift Int (`l`) or an Int32 (`h`, `hh` or none).
            let cLength = switch kind {
            case .integer(wide: true): "l"
            case .integer(wide: false): length
            default: ""
            }
            specification += cLength + String(conversion)
            pieces.append(.conversion(Conversion(written: written(), specification: specification, kind: kind, position: position, offset: start)))
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        self.pieces = pieces
    }

    /// What a conversion says of a value it cannot take, or nil if it takes it.
    static func mismatch(_ conversion: Conversion, _ value: Value) -> String? {
        switch (conversion.kind, value) {
        case (.integer, .int), (.character, .int), (.floating, .double), (.object, .string): return nil
        case (.object, .int), (.object, .double), (.object, .bool), (.object, .null), (.integer, _), (.character, _), (.floating, _):
            let hint = switch (conversion.kind, value) {
            case (.floating, .int): ": write Double(x), or use %d"
            case (.integer, .double), (.character, .double): ": write Int(x), or use %f"
            case (.object, .int): ": use %d"
            case (.object, .double): ": use %f"
            default: ""
            }
            return "\(conversion.written) takes \(conversion.kind.wants), got \(value.typeName) \(value.literal)\(hint)"
        case (.object, _): return nil
        }
    }

    /// The formatted text; `describe` shows a value given to `%@`.
    func format(_ arguments: [Value], describe: (Value) throws -> String) throws -> String {
        var out = ""
        var next = 0
        for piece in pieces {
            switch piece {
            case .text(let text): out += text
            case .conversion(let conversion):
                let index = conversion.position ?? next
                next += 1
                guard index < arguments.count else {
                    throw FlowError("String(format:): \(conversion.written) has no argument: the format reads \(argumentCount) and is given \(arguments.count)")
                }
                let value = arguments[index]
                if let mismatch = Self.mismatch(conversion, value) { throw FlowError("String(format:): " + mismatch) }
                switch (conversion.kind, value) {
                case (.object, .string(let s)): out += s
                case (.object, _): out += try describe(value)
                case (.integer(wide: true), .int(let i)): out += String(format: conversion.specification, i)
                case (.integer(wide: false), .int(let i)), (.character, .int(let i)):
                    out += String(format: conversion.specification, Int32(truncatingIfNeeded: i))
                case (.floating, .double(let d)): out += String(format: conversion.specification, d)
                default: throw FlowError(Self.mismatch(conversion, value) ?? "\(conversion.written) cannot take \(value.literal)")
                }
            }
        }
        return out
    }
}

extension StringFormat {
    /// `String(format:_:...)`'s call: the format, then its arguments.
    static func format(_ args: MethodArguments) throws -> String {
        let format: StringFormat
        do {
            format = try StringFormat(parsing: try args.string(0))
        } catch let mistake as Mistake {
            throw FlowError("String(format:): " + mistake.message)
        }
        return try format.format(Array(args.values.dropFirst()), describe: args.text(of:))
    }
}
