import VerticalsWire

/// The canonical example of a message, derived from its field table alone: every field
/// present (optional ones too), lists of two, the first known case of each enumeration,
/// and numbers that take more than one varint byte or a ZigZag sign. Deterministic, so
/// the golden fixtures regenerate byte for byte, and a new operation gets its fixtures
/// without anyone writing an example by hand.
public enum ExampleValue {
    /// The example of `schema`. Nested messages stop at `maxDepth`, where optional and
    /// repeated message fields are left out, so that recursive schemas stay finite.
    public static func of(_ schema: MessageSchema, depth: Int = 0, maxDepth: Int = 3) -> MessageValue {
        var value = MessageValue()
        for field in schema.fields {
            if case .message = field.type, depth >= maxDepth, field.presence != .required { continue }
            switch field.presence {
            case .repeated:
                value[field.tag] = .list(
                    (0..<2).map { single(field, index: $0, depth: depth, maxDepth: maxDepth) })
            default:
                value[field.tag] = single(field, index: 0, depth: depth, maxDepth: maxDepth)
            }
        }
        return value
    }

    private static func single(_ field: FieldDescriptor, index: Int, depth: Int, maxDepth: Int) -> WireValue {
        let salt = Int64(field.tag) + Int64(index) * 1000
        switch field.type {
        case .bool: return .bool(index == 0)
        case .int: return .int(-(salt * 37 + 1))
        case .uint: return .uint(UInt64(300 + salt))
        case .double: return .double(51.5 + Double(salt) / 8)
        case .string: return .string("\(field.name)-\(index + 1)")
        case .bytes: return .bytes([0, UInt8(truncatingIfNeeded: field.tag), 0xFF])
        case .timestamp: return .timestamp(Timestamp(microsecondsSinceEpoch: 1_795_426_200_123_456 + salt))
        case .enumeration(let schema):
            let cases = schema.cases
            return .enumeration(cases.isEmpty ? "unknownCase" : cases[index % cases.count])
        case .message(let type): return .message(of(type.schema, depth: depth + 1, maxDepth: maxDepth))
        }
    }
}
