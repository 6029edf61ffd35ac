#if canImport(Glibc)
import Glibc
#endif

/// Why the supervisor could not do something: what was wrong and what to do.
public struct SupervisorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message, for a person.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }

    /// `strerror(errno)`.
    package static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
