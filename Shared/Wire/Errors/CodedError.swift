/// The one shape of the framework's errors: a kind a program branches on (``code``), a sentence
/// for a person (``message``, also how it prints), facts a program reads without parsing the
/// sentence (``details``: a path, a pid, a field), and the error that led to it (``cause``), as
/// grpc-swift's `RPCError` has them.
///
/// ``ServiceError`` is the wire's error, what one vertical answers another: its codes are the
/// protocol's, and it carries no cause. A ``CodedError`` stays in the process that made it; where
/// one must cross the wire, its module maps it to a ``ServiceError`` (a code and the message,
/// details a caller may read), and the cause is only ever logged.
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
    /// What a program may read of it, by name; none unless the type says so.
    var details: [ErrorDetail] { get }
    /// The error that led to this one, when there is one: shown to a person in a log, never
    /// compared (an error's `==` is its code, message and details) and never sent on the wire.
    var cause: (any Error)? { get }
}

extension CodedError {
    /// The ``message``.
    public var description: String { message }
    /// None.
    public var details: [ErrorDetail] { [] }
    /// None.
    public var cause: (any Error)? { nil }

    /// The value of the detail named `key`, when it has one.
    public func detail(_ key: String) -> String? {
        details.first { $0.key == key }?.value
    }
}
