import VerticalsWire

/// A vertical's own store, as the host needs to know it: what `daemon.backup` copies, and the
/// typed answer for a handler whose store failed beneath it.
///
/// The runtime knows no database: a storage library conforms (VerticalsStorage's SQLite store
/// does, and `ServedVertical(router, store: world.database)` hands it over), so a daemon without a
/// store, or with another kind, links no SQLite.
///
/// ```swift
/// struct Served: VerticalStore {
///     func backup(to path: String) throws -> Int { try copyEverything(to: path) }
///     func serviceError(for error: any Error, operation: String) -> ServiceError? { nil }
/// }
/// ```
public protocol VerticalStore: Sendable {
    /// Writes a consistent copy of the store to `path` (which must not exist yet) while requests
    /// go on, and returns its size in bytes. Runs on the blocking-work pool. A refusal the caller
    /// can act on (the path exists, its folder is missing) is a `ServiceError`, e.g. `conflict`.
    func backup(to path: String) throws -> Int

    /// The typed answer for `error`, thrown by a handler of `operation`, when it is a store
    /// failure a caller can act on (a full disk: `resourceExhausted`; a store locked past its busy
    /// timeout: `unavailable`); nil for anything else, which is answered `internal`.
    func serviceError(for error: any Error, operation: String) -> ServiceError?
}
