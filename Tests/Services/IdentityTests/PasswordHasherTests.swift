@testable import IdentityService
import Testing
import VerticalsTesting

@Suite("Argon2id through libsodium")
struct PasswordHasherTests {
    let hasher: PasswordHasher

    init() throws {
        hasher = try PasswordHasher(limits: .minimum)
    }

    @Test func hash_isSaltedArgon2idThatVerifiesOnlyItsPassword() throws {
        let first = try hasher.hash("correct horse battery staple")
        let second = try hasher.hash("correct horse battery staple")

        #expect(first.hasPrefix("$argon2id$"))
        #expect(first != second, "each hash has its own salt")
        #expect(hasher.verify("correct horse battery staple", against: first))
        #expect(hasher.verify("correct horse battery staple", against: second))
        #expect(!hasher.verify("correct horse battery stapler", against: first))
        #expect(!hasher.verify("", against: first))
    }

    @Test func verify_givenSomethingThatIsNotAHash_isFalse() {
        #expect(!hasher.verify("password", against: ""))
        #expect(!hasher.verify("password", against: "$argon2id$v=19$garbage"))
    }

    @Test func verifyNothing_isAlwaysFalse() {
        #expect(!hasher.verifyNothing("anything"))
    }

    @Test func needsRehash_tellsOldLimitsApart() throws {
        let stronger = try PasswordHasher(limits: .init(operations: 2, memoryBytes: 16 * 1024))
        let weak = try hasher.hash("correct horse battery staple")

        #expect(!hasher.needsRehash(weak))
        #expect(stronger.needsRehash(weak))
        #expect(!stronger.needsRehash(try stronger.hash("correct horse battery staple")))
    }

    @Test func limits_outsideLibsodiumsRange_areRefused() {
        #expect(throws: (any Error).self) { try PasswordHasher(limits: .init(operations: 0, memoryBytes: 8192)) }
        #expect(throws: (any Error).self) { try PasswordHasher(limits: .init(operations: 1, memoryBytes: 1024)) }
    }

    @Test func sessionTokens_are256RandomBitsInBase64URL() throws {
        let tokens = try (0..<100).map { _ in try SessionTokens.generate() }

        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { $0.count == 43 && !$0.contains("=") && !$0.contains("+") && !$0.contains("/") })
        #expect(
            SessionTokens.storedHash(of: "abc")
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
