import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
@testable import VerticalsServiceKit
import VerticalsWire

/// An envelope's operation that is not ASCII routes nowhere, and is answered `unimplemented`
/// (PROTOCOL.md § 3) without the daemon normalising it to compare or hash it.
struct OperationNameBytesTests {
    @Test func anOperationOfAlternatingCombiningMarks_isUnimplemented_andTheNextCallIsServed() async throws {
        let hosted = try await ContractCheckTests.hostedEcho("operation-marks")
        let marks = "echo." + String(repeating: "\u{0301}\u{0300}", count: 126)
        for _ in 0..<3 {
            let refused = await #expect(throws: ServiceError.self) {
                _ = try await hosted.client.callRaw(service: "echo", operation: marks, body: [])
            }
            #expect(refused?.code == .unimplemented)
        }
        let answer = try await hosted.client.call(TestEcho(service: "echo").echo, .init(text: "hi"))
        #expect(answer.text == "hi")
        await hosted.close()
    }
}
