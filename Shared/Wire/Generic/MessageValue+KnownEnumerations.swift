extension MessageValue {
    /// Throws `invalidValue` naming the first enumeration field, at any depth, whose value is
    /// not one of its enumeration's cases in `schema`.
    ///
    /// The codec keeps a case it does not know (``WireEnum``'s `unknown(raw)`), which is right
    /// for an Output an older reader meets. An Input is different: a case the receiver does not
    /// know cannot be acted on, so the CLI refuses it before sending and a vertical's router
    /// refuses it as `invalidInput`. The message says which cases there are:
    ///
    /// ```text
    /// field "service": "surgery" is not a case of clinics.Service; its cases: gp, dentistry, physio
    /// ```
    public func requireKnownEnumerations(as schema: MessageSchema) throws(WireValueError) {
        try KnownEnumerationCheck(root: schema.name).message(self, schema, path: "")
    }
}

extension MessageSchema {
    /// Whether any field, at any depth, is an enumeration: whether an Input of this schema
    /// needs ``MessageValue/requireKnownEnumerations(as:)`` at all.
    public var containsEnumerations: Bool {
        var visited: Set<String> = []
        return Self.containsEnumerations(self, visited: &visited)
    }

    private static func containsEnumerations(_ schema: MessageSchema, visited: inout Set<String>) -> Bool {
        guard visited.insert(schema.name).inserted else { return false }
        for field in schema.fields {
            switch field.type {
            case .enumeration: return true
            case .message(let type) where containsEnumerations(type.schema, visited: &visited): return true
            default: continue
            }
        }
        return false
    }
}

/// Walks a message by its schema for enumeration values no case carries.
private struct KnownEnumerationCheck {
    let root: String

    func message(_ value: MessageValue, _ schema: MessageSchema, path: String) throws(WireValueError) {
        for field in schema.fields {
            guard let fieldValue = value[field.tag] else { continue }
            let fieldPath = FieldPath.child(path, field.name)
            if case .list(let elements) = fieldValue {
                for (position, element) in elements.enumerated() {
                    try single(field.type, element, path: FieldPath.element(fieldPath, position))
                }
            } else {
                try single(field.type, fieldValue, path: fieldPath)
            }
        }
    }

    private func single(_ type: FieldType, _ value: WireValue, path: String) throws(WireValueError) {
        switch (type, value) {
        case (.enumeration(let schema), .enumeration(let name)) where !schema.cases.contains(name):
            let cases = schema.cases.joined(separator: ", ")
            throw WireValueError(
                .invalidValue, messageName: root, path: path,
                reason: "\"\(name)\" is not a case of \(schema.name); its cases: \(cases)")
        case (.message(let type), .message(let nested)):
            try message(nested, type.schema, path: path)
        default:
            return
        }
    }
}
