import Dispatch

/// Runs blocking work (password hashing, file I/O) off the event loop, so the loop keeps
/// serving other requests; the caller resumes on its own executor when the work is done.
///
/// ```swift
/// let hash = try await Offload.run { try PasswordHasher.hash(password) }
/// ```
public enum Offload {
    /// Runs `work` on a global dispatch queue and returns its result.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
