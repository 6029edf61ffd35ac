extension MessageValue {
    /// Reads a message from its JSON form by `schema` (see ``json(as:)``).
    ///
    /// Keys may come in any order; a key the schema lacks, a key given twice, a value of
    /// the wrong type, a number out of its field's range and a missing required field
    /// are errors that name the field (`field "limit": expected an integer, got "abc"`).
    /// `null` means the same as leaving the key out. Absent defaulted fields take their
    /// default; enumeration names this build does not know are kept.
    public init(json: JSONValue, as schema: MessageSchema) throws(WireValueError) {
        self = try JSONFormReader(root: schema.name).message(json, schema, path: "")
    }

    /// Parses JSON text and reads the message from it, as the `JSONValue` overload does.
    public init(json text: String, as schema: MessageSchema) throws(WireValueError) {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: text)
        } catch {
            throw WireValueError(.invalidJSON, messageName: schema.name, path: "", reason: "not JSON: \(error)")
        }
        try self.init(json: document, as: schema)
    }
}

/// Reads message values from their JSON form.
struct JSONFormReader {
    let root: String

    func message(_ json: JSONValue, _ schema: MessageSchema, path: String) throws(WireValueError) -> MessageValue {
        guard case .object(let members) = json else {
            throw error(.typeMismatch, path, "expected an object, got \(json.briefDescription)")
        }
        let fields = schema.fields
        var given = [JSONValue?](repeating: nil, count: fields.count)
        var seen = [Bool](repeating: false, count: fields.count)
        for member in members {
            guard let index = fields.firstIndex(where: { $0.name == member.key }) else {
                let names = fields.map(\.name).joined(separator: ", ")
                throw error(
                    .unknownField, FieldPath.child(path, member.key),
                    "not a field of \(schema.name)" + (names.isEmpty ? ", which has none" : " (its fields: \(names))"))
            }
            guard !seen[index] else {
                throw error(.duplicateField, FieldPath.child(path, member.key), "the key appears more than once")
            }
            seen[index] = true
            if member.value != .null { given[index] = member.value }
        }
        var result = MessageValue()
        result.fields.reserveCapacity(fields.count)
        for (index, field) in fields.enumerated() {
            let fieldPath = FieldPath.child(path, field.name)
            let value: WireValue
            switch field.presence {
            case .required:
                guard let json = given[index] else {
                    throw error(.missingField, fieldPath, "required field is missing")
                }
                value = try single(field, field.type, json, path: fieldPath)
            case .optional:
                guard let json = given[index] else { continue }
                value = try single(field, field.type, json, path: fieldPath)
            case .defaulted(let defaultValue):
                if let json = given[index] {
                    value = try single(field, field.type, json, path: fieldPath)
                } else {
                    value = WireValue(defaultValue)
                }
            case .repeated:
                guard let json = given[index] else {
                    value = .list([])
                    break
                }
                guard case .array(let elements) = json else {
                    throw error(.typeMismatch, fieldPath, "expected an array, got \(json.briefDescription)")
                }
                var list: [WireValue] = []
                list.reserveCapacity(elements.count)
                let elementType = field.type.resolvedForElements
                for (position, element) in elements.enumerated() {
                    list.append(try single(field, elementType, element, path: FieldPath.element(fieldPath, position)))
                }
                value = .list(list)
            }
            result.fields.append(.init(tag: field.tag, value: value))
        }
        return result
    }

    /// One value of `field` (an element, for a repeated one), refused when over its bound.
    private func single(_ field: FieldDescriptor, _ type: FieldType, _ json: JSONValue, path: String)
        throws(WireValueError) -> WireValue
    {
        let value = try single(type, json, path: path)
        if let problem = field.boundProblem(value) { throw error(.outOfRange, path, problem) }
        return value
    }

    private func single(_ type: FieldType, _ json: JSONValue, path: String) throws(WireValueError) -> WireValue {
        switch type {
        case .bool:
            guard case .bool(let bool) = json else { throw mismatch(path, "true or false", json) }
            return .bool(bool)
        case .int:
            let (negative, magnitude) = try integer(json, path: path)
            guard let value = JSONNumbers.int64(negative: negative, magnitude: magnitude) else {
                let range = "from \(Int64.min) to \(Int64.max)"
                throw error(.outOfRange, path, "expected an integer \(range), got \(json.briefDescription)")
            }
            return .int(value)
        case .uint:
            let (negative, magnitude) = try integer(json, path: path)
            guard !negative || magnitude == 0 else {
                let range = "from 0 to \(UInt64.max)"
                throw error(.outOfRange, path, "expected an integer \(range), got \(json.briefDescription)")
            }
            return .uint(magnitude)
        case .double:
            guard let double = JSONNumbers.double(json) else {
                throw mismatch(path, "a number (or \"NaN\", \"Infinity\", \"-Infinity\")", json)
            }
            if case .number = json, !double.isFinite {
                throw error(.outOfRange, path, "\(json.briefDescription) is out of range for a double")
            }
            return .double(double)
        case .string:
            guard case .string(let string) = json else { throw mismatch(path, "a string", json) }
            return .string(string)
        case .bytes:
            guard case .string(let text) = json else { throw mismatch(path, "a base64 string", json) }
            guard let bytes = Base64.standard.decode(text) else {
                throw error(.invalidValue, path, "expected base64 (RFC 4648), got \(json.briefDescription)")
            }
            return .bytes(bytes)
        case .timestamp:
            guard case .string(let text) = json else { throw mismatch(path, "an RFC 3339 timestamp string", json) }
            guard let timestamp = RFC3339.parse(text) else {
                throw error(
                    .invalidValue, path,
                    "expected an RFC 3339 timestamp such as 2026-11-23T09:30:00Z, got \(json.briefDescription)")
            }
            guard timestamp.isInWireRange else { throw error(.outOfRange, path, timestamp.outsideWireRange) }
            return .timestamp(timestamp)
        case .enumeration(let schema):
            guard case .string(let name) = json else {
                let cases = schema.cases.map { "\"\($0)\"" }.joined(separator: ", ")
                throw mismatch(path, "a case name string (\(cases))", json)
            }
            return .enumeration(name)
        case .message(let messageType):
            return .message(try message(json, messageType.schema, path: path))
        }
    }

    /// The sign and magnitude of an integer JSON number.
    private func integer(_ json: JSONValue, path: String) throws(WireValueError) -> (Bool, UInt64) {
        guard case .number(let text) = json else { throw mismatch(path, "an integer", json) }
        switch JSONNumbers.integer(text) {
        case .notInteger: throw mismatch(path, "an integer", json)
        case .tooLarge: throw error(.outOfRange, path, "\(json.briefDescription) does not fit in 64 bits")
        case .value(let negative, let magnitude): return (negative, magnitude)
        }
    }

    private func mismatch(_ path: String, _ expected: String, _ json: JSONValue) -> WireValueError {
        error(.typeMismatch, path, "expected \(expected), got \(json.briefDescription)")
    }

    private func error(_ code: WireValueError.Code, _ path: String, _ reason: String) -> WireValueError {
        WireValueError(code, messageName: root, path: path, reason: reason)
    }
}
