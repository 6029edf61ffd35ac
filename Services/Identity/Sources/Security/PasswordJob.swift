import VerticalsServiceKit
import VerticalsWire

/// A password hash or verification as a request to identity's compute processes
/// (`ComputeProcesses`), and the worker's answer to it (``answer(_:)``): Argon2id runs in a
/// session of its own at low priority, so a burst of logins waits for the processors instead
/// of the other requests waiting for it.
///
/// A request is one message: a kind byte, then
/// - `hash`: the limits' operations and memory bytes (8 bytes each, little-endian), then the password;
/// - `verify`: the password's length (4 bytes, little-endian), the password, then the stored hash.
///
/// The answer to `hash` is the hash in libsodium's string form; to `verify`, one byte, 1 for a match.
package enum PasswordJob: Equatable, Sendable {
    case hash(password: String, limits: PasswordHasher.Limits)
    case verify(password: String, storedHash: String)

    /// Why a request's bytes are not a job.
    package struct Malformed: Error, CustomStringConvertible {
        package let description: String
    }

    private enum Kind {
        static let hash: UInt8 = 1
        static let verify: UInt8 = 2
    }

    /// The request's bytes.
    package var bytes: [UInt8] {
        switch self {
        case .hash(let password, let limits):
            [Kind.hash] + Self.littleEndian(limits.operations) + Self.littleEndian(UInt64(limits.memoryBytes))
                + Array(password.utf8)
        case .verify(let password, let storedHash):
            [Kind.verify] + Self.littleEndian(UInt32(password.utf8.count)) + Array(password.utf8)
                + Array(storedHash.utf8)
        }
    }

    /// The job `bytes` ask for; throws ``Malformed`` when they are not one, or when a hash's
    /// limits are outside libsodium's bounds.
    package init(bytes: [UInt8]) throws(Malformed) {
        guard let kind = bytes.first else { throw Malformed(description: "an empty password job") }
        let body = bytes.dropFirst()
        switch kind {
        case Kind.hash:
            guard body.count >= 16 else { throw Malformed(description: "a hash job shorter than its limits") }
            let operations = Self.integer(body.prefix(8))
            let memory = Self.integer(body.dropFirst(8).prefix(8))
            guard memory <= UInt64(Int.max) else {
                throw Malformed(description: "a hash job's memory limit is out of range")
            }
            let limits = PasswordHasher.Limits(operations: operations, memoryBytes: Int(memory))
            guard limits.valid else {
                throw Malformed(description: "a hash job's limits are out of libsodium's range: \(limits)")
            }
            self = .hash(password: String(decoding: body.dropFirst(16), as: UTF8.self), limits: limits)
        case Kind.verify:
            guard body.count >= 4 else {
                throw Malformed(description: "a verify job shorter than its password's length")
            }
            let length = Self.integer(body.prefix(4))
            guard length <= UInt64(body.count - 4) else {
                throw Malformed(description: "a verify job's password runs past its end")
            }
            let password = body.dropFirst(4).prefix(Int(length))
            let storedHash = body.dropFirst(4 + Int(length))
            self = .verify(
                password: String(decoding: password, as: UTF8.self),
                storedHash: String(decoding: storedHash, as: UTF8.self))
        default:
            throw Malformed(description: "a password job of unknown kind \(kind)")
        }
    }

    /// The worker's side: does the job `request` asks for and answers it.
    package static func answer(_ request: [UInt8]) throws -> [UInt8] {
        try Sodium.ensureReady()
        switch try PasswordJob(bytes: request) {
        case .hash(let password, let limits):
            return Array(try PasswordHasher.hash(password, limits: limits).utf8)
        case .verify(let password, let storedHash):
            return [PasswordHasher.verify(password, against: storedHash) ? 1 : 0]
        }
    }

    /// Runs the job in `processes` and returns the hash it made.
    package static func hash(_ password: String, limits: PasswordHasher.Limits, in processes: ComputeProcesses)
        async throws -> String
    {
        let answer = try await processes.run(PasswordJob.hash(password: password, limits: limits).bytes)
        return String(decoding: answer, as: UTF8.self)
    }

    /// Runs the job in `processes` and returns whether the password matched.
    package static func verify(_ password: String, against storedHash: String, in processes: ComputeProcesses)
        async throws -> Bool
    {
        let answer = try await processes.run(PasswordJob.verify(password: password, storedHash: storedHash).bytes)
        guard answer.count == 1 else {
            throw ServiceError(.internal, "a compute process answered a verification with \(answer.count) bytes")
        }
        return answer[0] == 1
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    private static func integer(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
