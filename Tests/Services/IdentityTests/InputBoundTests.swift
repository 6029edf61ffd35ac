import GRDB
import IOInterface
import Testing
import VerticalsContract
import VerticalsStorage
import VerticalsTesting
@testable import IdentityService

/// Text is bounded in bytes before identity trims, lower-cases, counts or hashes it: one
/// `Character` can carry any number of combining marks.
@Suite("identity's bounds in bytes")
struct IdentityInputBoundTests {
    /// "a" and 100,000 combining acute accents: one `Character`, 200,001 bytes.
    static let oneHeavyCharacter = "a" + String(repeating: "\u{301}", count: 100_000)

    @Test func login_aPasswordOverRegistersBound_isInvalidInput_onTheWireAndInProcess() async throws {
        let world = try World.fixture()
        let router = Endpoint.routes(world: world)
        _ = try await router.call(Identity.register, .fixture())
        let long = String(repeating: "p", count: RegisterUser.maximumPasswordBytes + 1)

        let wire = await serviceError { try await router.call(Identity.login, .fixture(password: long)) }
        #expect(wire?.code == .invalidInput)
        #expect(wire?.detail("field") == "password")

        let domain = await #expect(throws: IdentityFailure.self) {
            try await LogIn(world: world).execute(email: "ada@example.org", password: long)
        }
        #expect(domain == .invalid(field: "password", reason: "the password must have at most 1024 bytes"))
    }

    @Test func register_aDisplayNameOfOneHeavyCharacter_isRefusedByItsBytes() async throws {
        let world = try World.fixture()

        let wire = await serviceError {
            try await Endpoint.routes(world: world).call(
                Identity.register, .fixture(displayName: Self.oneHeavyCharacter))
        }
        #expect(wire?.code == .invalidInput)
        #expect(wire?.detail("field") == "displayName")

        let domain = await #expect(throws: IdentityFailure.self) {
            try await RegisterUser(world: world).execute(
                email: "ada@example.org", password: "correct horse", displayName: Self.oneHeavyCharacter)
        }
        guard case .invalid(let field, _)? = domain else { Issue.record("got \(String(describing: domain))"); return }
        #expect(field == "displayName")
    }

    @Test func emailAddress_countsBytes_andRefusesAHeavyCharacter() {
        #expect(EmailAddress(Self.oneHeavyCharacter + "@example.org") == nil)
        #expect(EmailAddress(String(repeating: "a", count: 64) + "@example.org") != nil)
        // 33 two-byte letters: 33 characters, 66 bytes, over RFC 5321's 64 octets.
        #expect(EmailAddress(String(repeating: "é", count: 33) + "@example.org") == nil)
        #expect(EmailAddress(String(repeating: " ", count: 5000) + "ada@example.org") == nil)
    }

    @Test func theDomainsByteLimits_areTheContractsBounds() {
        #expect(Identity.RegisterInput.schema.field(named: "password")?.maxBytes == RegisterUser.maximumPasswordBytes)
        #expect(Identity.LoginInput.schema.field(named: "password")?.maxBytes == RegisterUser.maximumPasswordBytes)
        #expect(
            Identity.RegisterInput.schema.field(named: "displayName")?.maxBytes == RegisterUser.maximumDisplayNameBytes)
        #expect(Identity.RegisterInput.schema.field(named: "email")?.maxBytes == EmailAddress.maximumRawBytes)
    }
}
