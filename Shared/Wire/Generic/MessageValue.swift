/// A message as plain data: its fields by tag, in the order of its schema.
///
/// A field appears at most once; a repeated field holds a ``WireValue/list(_:)``.
/// Decoding by a schema fills defaulted fields and empty lists, so a decoded value
/// always has every field but the absent optional ones.
///
/// ```swift
/// let login: MessageValue = [1: .string("ada@example.org"), 2: .string("correct horse")]
/// let body = try login.encoded(as: Identity.LoginInput.schema)
/// ```
public struct MessageValue: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// One field: its tag and value.
    public struct Field: Sendable, Hashable {
        /// The field's tag in the schema.
        public var tag: UInt32
        /// The field's value; a ``WireValue/list(_:)`` for a repeated field.
        public var value: WireValue

        /// Creates a field.
        public init(tag: UInt32, value: WireValue) {
            self.tag = tag
            self.value = value
        }
    }

    /// The fields, in order.
    public var fields: [Field]

    /// Creates a message from its fields, in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates a message from `tag: value` pairs, in order.
    public init(dictionaryLiteral elements: (UInt32, WireValue)...) {
        self.fields = elements.map { Field(tag: $0.0, value: $0.1) }
    }

    /// The value of the field with `tag`, or nil when absent; setting nil removes it,
    /// setting a new tag appends it.
    public subscript(tag: UInt32) -> WireValue? {
        get { fields.first { $0.tag == tag }?.value }
        set {
            let index = fields.firstIndex { $0.tag == tag }
            switch (index, newValue) {
            case (let index?, let value?): fields[index].value = value
            case (let index?, nil): fields.remove(at: index)
            case (nil, let value?): fields.append(Field(tag: tag, value: value))
            case (nil, nil): break
            }
        }
    }

    /// The value of the field called `name` in `schema`, or nil when absent or unknown.
    public func value(named name: String, in schema: MessageSchema) -> WireValue? {
        schema.field(named: name).flatMap { self[$0.tag] }
    }
}
