import Testing
import VerticalsClient
import VerticalsContract
import VerticalsTestSupport
import VerticalsWire

@testable import VerticalsServiceKit

/// What PROTOCOL.md § 14 says a callee does with the names it is asked about and the fingerprint
/// it is sent, against a real host: a name counts once, names it does not serve are left out, a
/// name outside the grammar refuses the request, fingerprints compare as text, and the description
/// sent on a mismatch is the one whose bytes were hashed.
struct ContractCheckRecipeTests {
    /// The fingerprint of `echo`'s own `echo` operation, as any caller makes it.
    static let echoOnly = ContractFingerprint.of(
        ContractFingerprint.description(of: "echo", [TestEcho(service: "echo").echo.descriptor]))

    @Test func repeatedAndUnservedNames_areLeftOut_ofTheCalleesFingerprint() async throws {
        let hosted = try await ContractCheckTests.hostedEcho("recipe-names")
        let answer = try await ContractCheckTests.check(
            hosted, ["echo.nothing", "echo.echo", "echo.echo"], fingerprint: "sha256:00")
        #expect(answer.fingerprint == Self.echoOnly)
        #expect(answer.description?.operations.map(\.name) == ["echo"])
        await hosted.close()
    }

    @Test(arguments: ["", "echo." + String(repeating: "a", count: 128 - 4)])
    func aNameOutsideTheGrammar_refusesTheWholeRequest_namingTheField(name: String) async throws {
        let hosted = try await ContractCheckTests.hostedEcho("recipe-bound")
        let longest = "echo." + String(repeating: "a", count: 128 - 5)
        let kept = try await ContractCheckTests.check(hosted, [longest, "echo.echo"], fingerprint: Self.echoOnly)
        #expect(kept.description == nil, "128 bytes is a name like any other")
        let refused = await #expect(throws: ServiceError.self) {
            try await ContractCheckTests.check(hosted, [name, "echo.echo"], fingerprint: Self.echoOnly)
        }
        #expect(refused?.code == .invalidInput)
        #expect(refused?.details.contains(ErrorDetail("field", "operations")) == true, "\(String(describing: refused))")
        let longFingerprint = await #expect(throws: ServiceError.self) {
            try await ContractCheckTests.check(
                hosted, ["echo.echo"], fingerprint: "sha256:" + String(repeating: "0", count: 128 - 6))
        }
        #expect(longFingerprint?.details.contains(ErrorDetail("field", "fingerprint")) == true)
        await hosted.close()
    }

    @Test func fingerprintsCompareAsText_soUpperCaseHexIsAMismatch() async throws {
        let hosted = try await ContractCheckTests.hostedEcho("recipe-text")
        let same = try await ContractCheckTests.check(hosted, ["echo.echo"], fingerprint: Self.echoOnly)
        #expect(same.description == nil)
        let upper = "sha256:" + Self.echoOnly.dropFirst(7).uppercased()
        let differs = try await ContractCheckTests.check(hosted, ["echo.echo"], fingerprint: upper)
        #expect(differs.fingerprint == Self.echoOnly)
        // The description sent is the canonical one: its own fingerprint is the answer's.
        let description = try #require(differs.description)
        #expect(ContractFingerprint.of(description) == differs.fingerprint)
        #expect(differs.version == VerticalsVersion.current)
        await hosted.close()
    }
}
