extension MessageSchema {
    /// `schema` with `fields` in place of its own, which carry the same tags and names:
    /// skips the uniqueness checks ``init(_:_:doc:)`` made when `schema` was built.
    init(checked schema: MessageSchema, fields: [FieldDescriptor]) {
        self.name = schema.name
        self.fields = fields
        self.doc = schema.doc
    }
}
