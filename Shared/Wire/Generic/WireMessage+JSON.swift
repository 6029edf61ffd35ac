extension WireMessage {
    /// This message's JSON form, e.g. `{"email":"ada@example.org","password":"…"}`.
    ///
    /// It goes through the bytes (direct encode, then the generic decoder and
    /// ``MessageValue/json(as:)``), so the JSON form can never drift from the binary
    /// one. It throws only when the direct codec and the schema disagree, which
    /// ``SchemaConformance`` rules out in tests.
    public func jsonString(pretty: Bool = false) throws(WireValueError) -> String {
        let value: MessageValue
        do {
            value = try MessageValue(decoding: encodedBody(), as: Self.schema)
        } catch {
            throw WireValueError(error, messageName: Self.schema.name)
        }
        return try value.jsonText(as: Self.schema, pretty: pretty)
    }

    /// Reads a message from its JSON form, through the bytes: JSON, then
    /// ``MessageValue``, then the body the direct decoder reads.
    ///
    /// ```swift
    /// let input = try Clinics.SearchInput(json: #"{"name": "Hill"}"#)  // limit takes its default
    /// ```
    public init(json: String) throws(WireValueError) {
        let value = try MessageValue(json: json, as: Self.schema)
        let body = try value.encoded(as: Self.schema)
        do {
            try self.init(decoding: body)
        } catch {
            throw WireValueError(error, messageName: Self.schema.name)
        }
    }
}
