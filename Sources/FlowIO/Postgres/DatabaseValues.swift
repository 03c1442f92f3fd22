import Collections
import FlowRuntime
import Foundation
import NIOCore
import PostgresNIO

/// Rows to flow values, and flow values to parameters.
///
/// A row is a record keyed by column name (`row.total`). Integers become
/// Int; float and numeric become Double, except a numeric with no fraction
/// (`sum` of integers), which is an Int; text, varchar, name and uuid
/// become String; json and jsonb the values they describe; timestamps and
/// dates ISO 8601 text (flow has no date type); arrays arrays; NULL nil.
/// Anything else is an error that says how to cast it.
enum DatabaseValues {
    static func row(_ row: PostgresRow) throws -> Value {
        var elements: [Value] = []
        var labels: [String?] = []
        elements.reserveCapacity(row.count)
        labels.reserveCapacity(row.count)
        for cell in row {
            elements.append(try value(of: cell))
            labels.append(cell.columnName)
        }
        return .tuple(Tuple(elements, labels: labels))
    }

    static func value(of cell: PostgresCell) throws -> Value {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .bool: return .bool(try cell.decode(Bool.self))
        case .int2, .int4, .int8: return .int(try cell.decode(Int.self))
        case .float4, .float8: return .double(try cell.decode(Double.self))
        case .numeric: return number(try cell.decode(Decimal.self))
        case .text, .varchar, .bpchar, .name, .uuid, .unknown: return .string(try cell.decode(String.self))
        case .json, .jsonb:
            let text = try cell.decode(String.self)
            do { return try JSON.parse(text) } catch { throw FlowError("the column \(cell.columnName) holds JSON flow cannot read: \(FlowError.wrap(error).message)") }
        case .timestamp, .timestamptz: return .string(timestamp(try cell.decode(Date.self)))
        case .date: return .string(String(timestamp(try cell.decode(Date.self)).prefix(10)))
        case .boolArray: return .array(try cell.decode([Bool].self).map(Value.bool))
        case .int2Array, .int4Array, .int8Array: return .array(try cell.decode([Int].self).map(Value.int))
        case .float4Array, .float8Array: return .array(try cell.decode([Double].self).map(Value.double))
        case .textArray, .varcharArray, .uuidArray, .nameArray: return .array(try cell.decode([String].self).map(Value.string))
        case .jsonbArray:
            return .array(try cell.decode([String].self).map { try JSON.parse($0) })
        default:
            throw FlowError("the column \(cell.columnName) has a type flow does not convert (\(cell.dataType)); cast it in the SQL, as in \(cell.columnName)::text")
        }
    }

    private static func number(_ decimal: Decimal) -> Value {
        var value = decimal, whole = Decimal()
        NSDecimalRound(&whole, &value, 0, .plain)
        if whole == decimal, let integer = Int(exactly: NSDecimalNumber(decimal: decimal).int64Value), Decimal(integer) == decimal {
            return .int(integer)
        }
        return .double(NSDecimalNumber(decimal: decimal).doubleValue)
    }

    private static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// How a parameter is sent: as text of no declared type, which the
    /// server reads as whatever the statement needs there (an integer for
    /// `id = $1`, a timestamp, JSON), so flow need not guess types.
    static func parameter(_ value: Value, for column: ColumnKind = .unknown) throws -> String? {
        switch value {
        case .null: return nil
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? "\(d)" : (d.isNaN ? "NaN" : (d > 0 ? "Infinity" : "-Infinity"))
        case .string(let s): return column == .json ? try JSON.string(value) : s
        case .duration(let span): return "\(Double(span.nanoseconds) / 1e9) seconds"
        case .array(let items):
            if column == .json { return try JSON.string(value) }
            return try arrayLiteral(items)
        case .dictionary, .tuple, .object: return try JSON.string(value)
        case .function, .stream, .event:
            throw FlowError("a \(value.typeName) cannot be sent to the database; send numbers, text, booleans, arrays or records")
        }
    }

    /// PostgreSQL's array syntax: `{1,2,"a b"}`, for `= ANY($1)` and array columns.
    private static func arrayLiteral(_ items: [Value]) throws -> String {
        let parts = try items.map { item -> String in
            switch item {
            case .null: return "NULL"
            case .array(let inner): return try arrayLiteral(inner)
            default:
                let text = try parameter(item) ?? "NULL"
                let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                return "\"\(escaped)\""
            }
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// The fields of a value that binds a statement's `$1, $2, …`: a
    /// record's or tuple's elements, an array's items, a dictionary's values
    /// in order, or the value itself.
    static func positionalFields(_ value: Value) -> [Value] {
        switch value {
        case .tuple(let tuple): return tuple.elements
        case .array(let items): return items
        case .dictionary(let pairs): return Array(pairs.values)
        default: return [value]
        }
    }

    /// The named fields of a value written as a row: a record's labelled
    /// elements or a dictionary's entries, in order.
    static func namedFields(_ value: Value) -> [(String, Value)]? {
        switch value {
        case .tuple(let tuple):
            guard let labels = tuple.labels, labels.allSatisfy({ $0 != nil }) else { return nil }
            return zip(labels, tuple.elements).map { ($0!, $1) }
        case .dictionary(let pairs):
            return pairs.map { ($0.key.description, $0.value) }
        default: return nil
        }
    }

    static func bindings(_ texts: [String?]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: texts.count)
        for text in texts {
            if let text { bindings.append(UntypedText(text)) } else { bindings.appendNull() }
        }
        return bindings
    }
}

/// What a column's type asks of a parameter sent to it.
enum ColumnKind: Sendable, Equatable {
    case unknown
    case json
    case array
}

/// A parameter as text with no type of its own (OID 0): the server infers
/// it from where it stands in the statement.
struct UntypedText: PostgresDynamicTypeEncodable {
    let text: String

    init(_ text: String) { self.text = text }

    var psqlType: PostgresDataType { .null }
    var psqlFormat: PostgresFormat { .text }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeString(text)
    }
}
