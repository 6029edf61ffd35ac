/// An error with a kind to branch on (``code``) and a sentence for a person (``message``),
/// which is also how it prints.
///
/// ```swift
/// do { endpoint = try SocketEndpoint(parsing: text) }
/// catch where error.code == .badPort { … }
/// ```
public protocol CodedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong; compare with the static members of ``ErrorKind`` for this error.
    var code: ErrorKind<Self> { get }
    /// What went wrong, in words that say what to do.
    var message: String { get }
}

extension CodedError {
    /// The ``message``.
    public var description: String { message }
}
