import Testing

@testable import IdentityService

/// A password job as identity's compute processes read it: its bytes, and what they refuse.
struct PasswordJobTests {
    @Test func jobs_readBackAsTheyWereWritten() throws {
        let jobs: [PasswordJob] = [
            .hash(password: "correct horse battery staple", limits: .minimum),
            .hash(password: "", limits: .init(operations: 2, memoryBytes: 16 * 1024)),
            .verify(password: "päss wörd", storedHash: "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA"),
            .verify(password: "", storedHash: ""),
        ]
        for job in jobs {
            #expect(try PasswordJob(bytes: job.bytes) == job)
        }
    }

    @Test func malformedJobs_areRefusedWithTheirReason() {
        let valid = PasswordJob.hash(password: "pw", limits: .minimum).bytes
        let cases: [([UInt8], String)] = [
            ([], "empty"),
            ([9, 1, 2], "unknown kind 9"),
            (Array(valid.prefix(10)), "shorter than its limits"),
            ([1] + [UInt8](repeating: 0, count: 16), "out of libsodium's range"),
            ([1] + [UInt8](repeating: 0xFF, count: 16), "out of range"),
            ([2, 0, 0], "shorter than its password's length"),
            ([2, 9, 0, 0, 0] + Array("pw".utf8), "runs past its end"),
        ]
        for (bytes, reason) in cases {
            #expect {
                _ = try PasswordJob(bytes: bytes)
            } throws: { error in
                "\(error)".contains(reason)
            }
        }
    }

    @Test func theWorkersAnswer_hashesAndVerifies() throws {
        let hash = String(
            decoding: try PasswordJob.answer(PasswordJob.hash(password: "pw", limits: .minimum).bytes), as: UTF8.self)
        #expect(hash.hasPrefix("$argon2id$"))
        #expect(try PasswordJob.answer(PasswordJob.verify(password: "pw", storedHash: hash).bytes) == [1])
        #expect(try PasswordJob.answer(PasswordJob.verify(password: "pW", storedHash: hash).bytes) == [0])
        #expect(try PasswordJob.answer(PasswordJob.verify(password: "pw", storedHash: "garbage").bytes) == [0])
    }
}
