import GRDB
import VerticalsServiceKit
import VerticalsWire

/// What a caller sees when a handler's store fails beneath it: a typed error it can act on
/// instead of `internal`. A full disk (`SQLITE_FULL`, also what SQLite says at
/// `max_page_count`) is `resourceExhausted`; a store another process holds locked past the busy
/// timeout is `unavailable`; a file the daemon cannot write (`SQLITE_READONLY`,
/// `SQLITE_CANTOPEN`) stays `internal`, since no retry helps.
enum StoreFailures {
    /// The `ServiceError` for `error`, if it is a store failure with a typed answer.
    static func serviceError(for error: any Error, operation: String) -> ServiceError? {
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_FULL:
            return ServiceError(
                .resourceExhausted, "\(operation) could not be stored: the disk is full; nothing was changed",
                retryable: true)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return ServiceError(.unavailable, "\(operation) found the store busy; try again", retryable: true)
        default:
            return nil
        }
    }
}
