/// Compares the field values a schema reads from a body with the Swift value's stored
/// properties of the same names, through `Mirror`.
///
/// Bytes alone cannot show two string fields whose tags the direct codec swapped, or an
/// `Int` written as ZigZag under a schema that says `uint`: both survive every round
/// trip. The property with the field's name can.
enum PropertyComparison {
    /// Each disagreement as a field path and a problem.
    static func differences(_ value: Any, _ generic: MessageValue, _ schema: MessageSchema) -> [(String?, String)] {
        var found: [(String?, String)] = []
        compare(value, generic, schema, path: "", into: &found)
        return found
    }

    private static func compare(
        _ value: Any, _ generic: MessageValue, _ schema: MessageSchema, path: String,
        into found: inout [(String?, String)]
    ) {
        var properties: [String: Any] = [:]
        for child in Mirror(reflecting: value).children {
            if let label = child.label, properties[label] == nil { properties[label] = child.value }
        }
        for field in schema.fields {
            let fieldPath = FieldPath.child(path, field.name)
            guard let property = properties[field.name] else {
                found.append(
                    (
                        fieldPath,
                        "\(type(of: value)) has no stored property named `\(field.name)`: "
                            + "name it as the schema does, so that JSON keys and Swift names agree"
                    ))
                continue
            }
            let wire = generic[field.tag]
            switch field.presence {
            case .optional:
                switch (unwrapped(property), wire) {
                case (nil, nil): break
                case (nil, let wire?): found.append((fieldPath, "the property is nil, but the schema reads \(wire)"))
                case (let present?, nil):
                    found.append((fieldPath, "the property is \(present), but the schema reads the field as absent"))
                case (let present?, let wire?): single(present, wire, field.type, fieldPath, into: &found)
                }
            case .repeated:
                guard let elements = elements(property) else {
                    found.append((fieldPath, "the field repeats, but the Swift property is a \(type(of: property))"))
                    continue
                }
                guard case .list(let list)? = wire, list.count == elements.count else {
                    let read = wire.map { "\($0)" } ?? "none"
                    found.append((fieldPath, "the property has \(elements.count) elements, the schema reads \(read)"))
                    continue
                }
                for (index, (element, item)) in zip(elements, list).enumerated() {
                    single(element, item, field.type, FieldPath.element(fieldPath, index), into: &found)
                }
            case .required, .defaulted:
                guard let wire else {
                    found.append((fieldPath, "the schema reads the field as absent"))
                    continue
                }
                single(property, wire, field.type, fieldPath, into: &found)
            }
        }
    }

    private static func single(
        _ property: Any, _ wire: WireValue, _ type: FieldType, _ path: String, into found: inout [(String?, String)]
    ) {
        let agrees: Bool?
        switch (type, wire) {
        case (.bool, .bool(let bool)): agrees = (property as? Bool).map { $0 == bool }
        case (.int, .int(let int)): agrees = (property as? any BinaryInteger).map { Int64(exactly: $0) == int }
        case (.uint, .uint(let uint)): agrees = (property as? any BinaryInteger).map { UInt64(exactly: $0) == uint }
        case (.double, .double(let double)):
            agrees = (property as? Double).map { $0 == double || ($0.isNaN && double.isNaN) }
        case (.string, .string(let string)): agrees = (property as? String).map { $0 == string }
        case (.bytes, .bytes(let bytes)): agrees = (property as? [UInt8]).map { $0 == bytes }
        case (.timestamp, .timestamp(let timestamp)): agrees = (property as? Timestamp).map { $0 == timestamp }
        case (.enumeration, .enumeration(let name)): agrees = (property as? any WireEnum).map { $0.wireName == name }
        case (.message(let messageType), .message(let nested)):
            compare(property, nested, messageType.schema, path: path, into: &found)
            return
        default:
            agrees = nil
        }
        switch agrees {
        case true?: break
        case false?: found.append((path, "the Swift property is \(property), but the schema reads \(wire)"))
        case nil:
            found.append((path, "the schema says \(type), but the Swift property is a \(Swift.type(of: property))"))
        }
    }

    /// The value inside an optional, nil for `.none`; a non-optional value as it is.
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }

    /// The elements of an array, or nil when the value is not a collection.
    private static func elements(_ value: Any) -> [Any]? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .collection else { return nil }
        return mirror.children.map(\.value)
    }
}
