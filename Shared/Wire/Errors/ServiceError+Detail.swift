extension ServiceError {
    /// A refusal about one input field, named in the `field` detail a client branches on.
    ///
    /// ```swift
    /// ServiceError(.conflict, "an account with this e-mail address already exists", field: "email")
    /// ```
    public init(_ code: ErrorCode, _ message: String, field: String) {
        self.init(code, message, details: [ErrorDetail("field", field)])
    }

    /// A refusal about one thing, named in a detail of its own (`id`, `conflictsWith`…).
    public init(_ code: ErrorCode, _ message: String, detail key: String, _ value: String) {
        self.init(code, message, details: [ErrorDetail(key, value)])
    }
}
