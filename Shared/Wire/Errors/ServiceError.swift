/// A typed failure of a call, as it travels in an error frame.
///
/// ```swift
/// throw ServiceError(.conflict, "an account already exists for this e-mail address")
/// ```
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; callers branch on it.
    public var code: ErrorCode
    /// A sentence for a person: what was wrong and, where possible, what to do.
    public var message: String
    /// Machine-readable context, e.g. `["field": "email"]`.
    public var details: [ErrorDetail]
    /// Whether sending the same request again may succeed.
    public var retryable: Bool

    /// Creates an error; `retryable` defaults to what the code suggests.
    public init(_ code: ErrorCode, _ message: String, details: [ErrorDetail] = [], retryable: Bool? = nil) {
        self.code = code
        self.message = message
        self.details = details
        self.retryable = retryable ?? code.isRetryableByDefault
    }

    /// The detail stored under `key`, if any.
    public func detail(_ key: String) -> String? {
        details.first { $0.key == key }?.value
    }

    public var description: String {
        let context = details.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        return "\(code.wireName): \(message)" + (context.isEmpty ? "" : " [\(context)]")
    }
}

/// One key/value pair of an error's machine-readable context.
public struct ErrorDetail: Sendable, Equatable, Hashable {
    /// What the value is, e.g. `field`.
    public var key: String
    /// The value, e.g. `email`.
    public var value: String

    /// Creates a detail.
    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}
