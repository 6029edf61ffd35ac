import VerticalsWire

/// What the suite's answers taught: ids of things that exist (so that an input gets past its
/// lookups instead of meeting `notFound`) and other strings a field of the same name carried
/// (a time zone, a cursor), learnt generically from field names, never from a list of them.
///
/// A field names a thing when it is `id`, `ids`, or ends in `ID`/`Id` (`IDs`/`Ids` for a list):
/// `clinicID` is a `clinic` id, and `id` inside a message `clinics.Clinic` is one too.
struct LearnedValues {
    /// Ids by the kind of thing they name (`clinic`, `user`), and every id under "".
    private(set) var ids: [String: [String]] = [:]
    /// Other strings answers carried, by field name.
    private(set) var strings: [String: [String]] = [:]
    /// Fields never harvested (the session token: it is handed out on purpose).
    let secretFields: Set<String>

    /// The most values kept per key: the newest replace the oldest.
    static let keep = 48

    init(secretFields: Set<String>) { self.secretFields = secretFields }

    /// Whether a field of this name holds an id or a list of ids.
    static func isID(_ name: String) -> Bool {
        name == "id" || name == "ids" || name.hasSuffix("ID") || name.hasSuffix("Id") || name.hasSuffix("IDs")
            || name.hasSuffix("Ids")
    }

    /// The kind of thing field `name` of message `message` names: `clinicID` → `clinic`, `id`
    /// in `clinics.Clinic` → `clinic`, `ids` → nil (any).
    static func kind(ofField name: String, inMessage message: String) -> String? {
        if name == "id" {
            return message.split(separator: ".").last.map { $0.lowercased() }
        }
        var stem = Substring(name)
        for suffix in ["IDs", "Ids", "ID", "Id"] where stem.hasSuffix(suffix) {
            stem = stem.dropLast(suffix.count)
            break
        }
        return stem.isEmpty || stem == "id" ? nil : stem.lowercased()
    }

    /// Ids fit for a field `name` of `message`: those of its kind, else any.
    func ids(forField name: String, inMessage message: String) -> [String] {
        if let kind = Self.kind(ofField: name, inMessage: message), let known = ids[kind], !known.isEmpty {
            return known
        }
        return ids[""] ?? []
    }

    /// Every string of an answer `value` (a `schema` message), ids by kind, others by field name.
    mutating func harvest(_ value: MessageValue, as schema: MessageSchema) {
        for field in schema.fields {
            guard let present = value[field.tag] else { continue }
            harvest(present, field: field, in: schema)
        }
    }

    private mutating func harvest(_ value: WireValue, field: FieldDescriptor, in schema: MessageSchema) {
        switch value {
        case .list(let elements):
            for element in elements { harvest(element, field: field, in: schema) }
        case .message(let nested):
            if case .message(let reference) = field.type { harvest(nested, as: reference.schema) }
        case .string(let text) where !text.isEmpty && text.utf8.count <= 512 && !secretFields.contains(field.name):
            if Self.isID(field.name) {
                Self.remember(text, in: &ids, key: Self.kind(ofField: field.name, inMessage: schema.name) ?? "")
                Self.remember(text, in: &ids, key: "")
            } else {
                Self.remember(text, in: &strings, key: field.name)
            }
        default:
            break
        }
    }

    private static func remember(_ text: String, in table: inout [String: [String]], key: String) {
        var values = table[key] ?? []
        guard !values.contains(text) else { return }
        values.append(text)
        if values.count > Self.keep { values.removeFirst() }
        table[key] = values
    }

    /// How many distinct ids are known.
    var idCount: Int { ids[""]?.count ?? 0 }
}
