/// Finds the first field where two message values differ, by schema, naming its path.
enum ValueComparison {
    /// The path and a description of the first difference, or nil when the values are equal.
    static func firstDifference(_ a: MessageValue, _ b: MessageValue, schema: MessageSchema, path: String = "")
        -> (String?, String)?
    {
        guard a != b else { return nil }
        for field in schema.fields {
            let (left, right) = (a[field.tag], b[field.tag])
            guard left != right else { continue }
            let fieldPath = FieldPath.child(path, field.name)
            switch (field.type, left, right) {
            case (.message(let type), .message(let x)?, .message(let y)?):
                return firstDifference(x, y, schema: type.schema, path: fieldPath)
            case (.message(let type), .list(let xs)?, .list(let ys)?) where xs.count == ys.count:
                for (index, (x, y)) in zip(xs, ys).enumerated() where x != y {
                    if case .message(let xm) = x, case .message(let ym) = y {
                        return firstDifference(xm, ym, schema: type.schema, path: FieldPath.element(fieldPath, index))
                    }
                }
            default:
                break
            }
            return (fieldPath, "\(describe(left)) became \(describe(right))")
        }
        return (path.isEmpty ? nil : path, "the messages differ outside their schema's fields")
    }

    private static func describe(_ value: WireValue?) -> String {
        value.map { "\($0)" } ?? "absent"
    }
}
