/// Checks that a message's direct codec and its schema say the same thing, so that the
/// JSON form, `describe`, the lock file and the generic codec never drift from the bytes
/// daemons really exchange. Tests run it over an example value of every DTO.
///
/// For a value it checks that:
/// 1. the schema is consistent (every default has its field's type; enum defaults are known cases);
/// 2. the direct decoder reads the direct encoder's bytes back to the same value;
/// 3. the generic decoder reads those bytes in *strict* mode: every tag is in the schema,
///    with the schema's wire type, singular fields once, required fields present;
/// 4. the field values the schema reads equal the Swift value's stored properties of
///    the same names (catching swapped tags and `int`/`uint` mix-ups that bytes alone hide);
/// 5. the generic encoder writes exactly the direct encoder's bytes;
/// 6. the JSON form reads back to the same value, generically and through ``WireMessage/init(json:)``.
///
/// ```swift
/// #expect(SchemaConformance.check(Clinics.Clinic.fixture()) == [])
/// ```
public enum SchemaConformance {
    /// One disagreement, naming the message and, where it can, the field.
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// The schema name of the message checked, e.g. `shop.Item`.
        public let message: String
        /// The field's path inside it, e.g. `hours.opens`; nil when about the whole message.
        public let field: String?
        /// What disagrees, in words.
        public let problem: String

        /// Creates a finding.
        public init(message: String, field: String?, problem: String) {
            self.message = message
            self.field = field
            self.problem = problem
        }

        public var description: String {
            guard let field, !field.isEmpty else { return "\(message): \(problem)" }
            return "\(message).\(field): \(problem)"
        }
    }

    /// Every disagreement between `value`'s direct codec and `M.schema`; empty when they agree.
    public static func check<M: WireMessage>(_ value: M) -> [Finding] {
        let schema = M.schema
        var findings = check(schema: schema)
        func note(_ field: String?, _ problem: String) {
            findings.append(Finding(message: schema.name, field: field, problem: problem))
        }

        let bytes = value.encodedBody()
        do {
            let decoded = try M(decoding: bytes)
            if decoded != value {
                note(nil, "the direct decoder reads the direct encoder's bytes as \(decoded), not \(value)")
            }
        } catch {
            note(
                field(of: error, in: schema), "the direct decoder rejects the direct encoder's bytes: \(error.message)")
        }

        let generic: MessageValue
        do {
            generic = try MessageValue(decoding: bytes, as: schema, strict: true)
        } catch {
            let problem = "the schema does not describe the direct encoder's bytes: \(reason(error))"
            note(field(of: error, in: schema), problem)
            return findings
        }

        for (path, problem) in PropertyComparison.differences(value, generic, schema) {
            note(path, problem)
        }

        do {
            let again = try generic.encoded(as: schema)
            if again != bytes {
                let (path, problem) = ByteComparison.firstDifference(direct: bytes, generic: again, schema: schema)
                note(path, problem)
            }
        } catch {
            note(error.path, "the generic encoder rejects what the generic decoder read: \(error.reason)")
        }

        do {
            let text = try generic.jsonText(as: schema)
            let parsed = try MessageValue(json: text, as: schema)
            if let (path, problem) = ValueComparison.firstDifference(generic, parsed, schema: schema) {
                note(path, "the JSON form does not read back the same: \(problem) (JSON: \(text))")
            }
            let typed = try M(json: text)
            if typed != value {
                note(nil, "the JSON form reads back as \(typed), not \(value) (JSON: \(text))")
            }
        } catch {
            note(error.path, "the JSON round trip fails: \(error.reason)")
        }
        return findings
    }

    /// The field path of a decoding error relative to its message, or nil for the message itself.
    static func field(of error: WireDecodingError, in schema: MessageSchema) -> String? {
        guard let path = error.fieldPath, path.hasPrefix(schema.name + ".") else { return nil }
        return String(path.dropFirst(schema.name.count + 1))
    }

    /// A decoding error's reason, without its path.
    static func reason(_ error: WireDecodingError) -> String {
        WireValueError(error, messageName: "").reason
    }
}
