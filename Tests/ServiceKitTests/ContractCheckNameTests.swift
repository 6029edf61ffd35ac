import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
@testable import VerticalsServiceKit
import VerticalsWire

/// An admitted caller's `daemon.contractCheck` names are held to the grammar of names before the
/// callee hashes, sorts or keeps them: text that Unicode would normalise never gets that far.
struct ContractCheckNameTests {
    @Test func oneThousandTwentyFourNamesOfAlternatingCombiningMarks_areInvalidInput_beforeAnyIsKept() async throws {
        let hosted = try await ContractCheckTests.hostedEcho("check-marks")
        // 511 bytes each: a letter, then U+0301 and U+0300 by turns.
        let marks = "a" + String(repeating: "\u{0301}\u{0300}", count: 127) + "\u{0301}"
        #expect(marks.utf8.count == 511)
        let names = (0..<1024).map { _ in marks }
        let refused = await #expect(throws: ServiceError.self) {
            try await ContractCheckTests.check(hosted, names, fingerprint: "sha256:00")
        }
        #expect(refused?.code == .invalidInput)
        #expect(refused?.detail("field") == "operations")
        // The callee still answers an honest caller.
        let answer = try await ContractCheckTests.check(hosted, ["echo.echo"], fingerprint: "sha256:00")
        #expect(answer.service == "echo")
        await hosted.close()
    }

    @Test func seventyDistinctSetsOfNamesItDoesNotServe_areAnsweredAlike() async throws {
        let hosted = try await ContractCheckTests.hostedEcho("check-sets")
        let honest = try await ContractCheckTests.check(hosted, ["echo.echo"], fingerprint: "sha256:00")
        var fingerprints: Set<String> = []
        for set in 0..<70 {
            let names = (0..<1024).map { "echo.unknown\(set)x\($0)" }
            fingerprints.insert(try await ContractCheckTests.check(hosted, names, fingerprint: "sha256:00").fingerprint)
        }
        // None of them is served, so all are one set, the empty one, kept once.
        #expect(fingerprints.count == 1)
        let again = try await ContractCheckTests.check(hosted, ["echo.echo"], fingerprint: "sha256:00")
        #expect(again.fingerprint == honest.fingerprint)
        await hosted.close()
    }
}
