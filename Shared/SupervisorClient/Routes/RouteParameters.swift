import VerticalsContract
import VerticalsWire

/// Turns a route's text parameters into an operation's typed Input, converting each to its
/// field's type and naming the field when it does not convert.
package enum RouteParameters {
    /// The Input of `operation` from `parameters` (path parameters first, then the query), as JSON.
    ///
    /// A repeated field takes every occurrence of its parameter and comma-separated lists;
    /// a bare boolean parameter (`?unreadOnly`) means `true`.
    package static func json(
        for operation: DescribedOperation, route: Route, parameters: [(String, String)]
    ) throws(RouteError) -> JSONValue {
        let schema = operation.input.schema
        var members: [(key: String, value: JSONValue)] = []
        var repeated: [String: [JSONValue]] = [:]
        var order: [String] = []
        for (name, text) in parameters {
            let fieldName = route.field(named: name)
            guard let field = schema.fields.first(where: { $0.name == fieldName }) else {
                let aliases = route.aliases.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
                throw .unknownParameter(
                    name, operation: operation.fullName, known: schema.fields.map(\.name) + aliases)
            }
            if field.presence == .repeated {
                let items = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                for item in items {
                    repeated[field.name, default: []].append(
                        try convert(item, parameter: name, field: field, message: schema.name))
                }
                if !order.contains(field.name) { order.append(field.name) }
            } else {
                guard !members.contains(where: { $0.key == field.name }) else {
                    throw .repeatedParameter(name, operation: operation.fullName)
                }
                members.append((field.name, try convert(text, parameter: name, field: field, message: schema.name)))
            }
        }
        members += order.map { ($0, JSONValue.array(repeated[$0] ?? [])) }
        return .object(members)
    }

    /// `json` as `operation`'s Input, or ``RouteError/invalidInput(operation:reason:)`` naming what is wrong.
    package static func input(for operation: DescribedOperation, json: JSONValue) throws(RouteError) -> MessageValue {
        do {
            return try MessageValue(json: json, as: operation.input.schema)
        } catch {
            throw .invalidInput(operation: operation.fullName, reason: error.description)
        }
    }

    /// `text` as the JSON value of `field`, or a conversion error naming the field.
    package static func convert(
        _ text: String, parameter: String, field: FieldDescriptor, message: String
    ) throws(RouteError) -> JSONValue {
        func failure(_ expected: String) -> RouteError {
            .conversion(parameter: parameter, field: field.name, message: message, value: text, expected: expected)
        }
        switch field.type {
        case .string, .bytes:
            return .string(text)
        case .bool:
            switch text {
            case "", "true", "1", "yes": return .bool(true)
            case "false", "0", "no": return .bool(false)
            default: throw failure("true or false")
            }
        case .int:
            guard let value = Int64(text) else { throw failure("an integer") }
            return .integer(value)
        case .uint:
            guard let value = UInt64(text) else { throw failure("a non-negative integer") }
            return .integer(value)
        case .double:
            guard let value = Double(text), value.isFinite else { throw failure("a number") }
            return .number(String(value))
        case .timestamp:
            guard RFC3339.parse(text) != nil else {
                throw failure("an RFC 3339 timestamp such as 2026-11-23T09:30:00Z")
            }
            return .string(text)
        case .enumeration(let schema):
            guard schema.cases.contains(text) else { throw failure("one of \(schema.cases.joined(separator: ", "))") }
            return .string(text)
        case .message:
            throw .unsupportedField(field.name, message: message, type: field.type.description)
        }
    }
}
