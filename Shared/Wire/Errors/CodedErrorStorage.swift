/// What a ``CodedError`` holds: its code, message, details and cause, kept once for every error
/// type that stores them (as swift-service-lifecycle's `ServiceRunnerError` keeps a backing
/// storage), with the `==` every such error means: the same code, message and details, the
/// causes not compared.
public struct CodedErrorStorage<Domain>: Sendable, Equatable {
    /// What went wrong.
    public var code: ErrorKind<Domain>
    /// What went wrong, in words that say what to do.
    public var message: String
    /// What a program may read of it, by name.
    public var details: [ErrorDetail]
    /// The error that led to it, when there is one; never compared.
    public var cause: (any Error)?

    /// Storage for an error of `code` saying `message`.
    public init(_ code: ErrorKind<Domain>, _ message: String, details: [ErrorDetail] = [], cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.details = details
        self.cause = cause
    }

    /// The same code, message and details; the causes are not compared.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.details == rhs.details
    }
}

/// A ``CodedError`` that keeps its parts in one ``CodedErrorStorage``: it declares the storage
/// and its initialiser, and has ``CodedError``'s properties and `init(_:_:details:cause:)` from
/// here.
///
/// ```swift
/// public struct StoreError: StoredCodedError {
///     public let storage: CodedErrorStorage<StoreError>
///     public init(storage: CodedErrorStorage<StoreError>) { self.storage = storage }
/// }
/// ```
public protocol StoredCodedError: CodedError {
    /// The error's code, message, details and cause.
    var storage: CodedErrorStorage<Self> { get }
    /// The error that `storage` describes.
    init(storage: CodedErrorStorage<Self>)
}

extension StoredCodedError {
    /// An error of `code` saying `message`, with `details` a program may read and the `cause`
    /// that led to it.
    public init(_ code: ErrorKind<Self>, _ message: String, details: [ErrorDetail] = [], cause: (any Error)? = nil) {
        self.init(storage: CodedErrorStorage(code, message, details: details, cause: cause))
    }

    /// What went wrong.
    public var code: ErrorKind<Self> { storage.code }
    /// What went wrong, in words that say what to do.
    public var message: String { storage.message }
    /// What a program may read of it, by name.
    public var details: [ErrorDetail] { storage.details }
    /// The error that led to this one, when there is one.
    public var cause: (any Error)? { storage.cause }
}
