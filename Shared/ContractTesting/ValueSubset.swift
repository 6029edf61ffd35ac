import VerticalsWire

/// Whether every field an older reader sees (`old`, decoded by that version's schema rebuilt
/// from its `describe`) holds the same value in today's reading of the same bytes (`new`),
/// recursing into nested messages and lists of them: the forward check's comparison.
///
/// The older reader fills a field the bytes leave out from its own schema (a default, an
/// empty list); today's reader may not know that field at all. Such a value is what the older
/// peer would see from any writer that leaves the field out, so it is not a difference.
public enum ValueSubset {
    /// The path of the first field that differs, e.g. `clinics.NearestInput.limit`, or nil
    /// when `old` ⊆ `new`.
    public static func firstDifference(
        old: MessageValue, new: MessageValue, schema: MessageSchema, path: String
    ) -> String? {
        for field in old.fields {
            let descriptor = schema.field(tag: field.tag)
            let fieldPath = "\(path).\(descriptor?.name ?? "#\(field.tag)")"
            guard let current = new[field.tag] else {
                if let descriptor, isAbsentValue(field.value, of: descriptor) { continue }
                return "\(fieldPath): absent today"
            }
            if let found = difference(field.value, current, type: descriptor?.type, path: fieldPath) { return found }
        }
        return nil
    }

    /// Whether `value` is what a reader of `field` takes when the bytes leave it out.
    private static func isAbsentValue(_ value: WireValue, of field: FieldDescriptor) -> Bool {
        switch field.presence {
        case .defaulted(let defaultValue): value == WireValue(defaultValue)
        case .repeated: value == .list([])
        case .required, .optional: false
        }
    }

    private static func difference(_ old: WireValue, _ new: WireValue, type: FieldType?, path: String) -> String? {
        switch (old, new) {
        case (.message(let x), .message(let y)):
            guard case .message(let reference)? = type else { return old == new ? nil : "\(path): differs today" }
            return firstDifference(old: x, new: y, schema: reference.schema, path: path)
        case (.list(let xs), .list(let ys)):
            guard xs.count == ys.count else { return "\(path): \(xs.count) elements, \(ys.count) today" }
            for (index, (x, y)) in zip(xs, ys).enumerated() {
                if let found = difference(x, y, type: type, path: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return old == new ? nil : "\(path): \(old) read as \(new) today"
        }
    }
}
