import Testing
import VerticalsWire

/// Every coded error of the framework shares one kind type: a kind compares and prints by its
/// name, kinds of two errors never meet, and a coded error prints its message.
struct ErrorKindTests {
    @Test func kinds_compareAndPrintByName_withinTheirError() {
        #expect(EnvelopeError.Code.truncated == EnvelopeError.Code.truncated)
        #expect(EnvelopeError.Code.truncated != .unknownKind)
        #expect("\(EnvelopeError.Code.operationTooLong)" == "operationTooLong")
        #expect(Set([EnvelopeError.Code.truncated, .truncated, .unknownKind]).count == 2)
        // The same name in two errors is two kinds of two types: `==` between them does not compile.
        #expect("\(WireDecodingError.Code.truncated)" == "\(EnvelopeError.Code.truncated)")
    }

    @Test func codedError_printsItsMessage_andSwitchesOnItsCode() {
        let error = EnvelopeError.unsupportedVersion(9)
        #expect(error.description == error.message)
        #expect(error.description == "envelope version 9 is not supported (this peer speaks 1)")
        let named: String =
            switch error.code {
            case .truncated: "truncated"
            case .unsupportedVersion: "unsupportedVersion"
            default: "another"
            }
        #expect(named == "unsupportedVersion")
        #expect(describe(SocketEndpointError("x", .unknownScheme)).hasPrefix("unknownScheme: not an endpoint: \"x\""))
    }

    /// What a caller generic over coded errors can say about one.
    private func describe(_ error: some CodedError) -> String { "\(error.code): \(error)" }
}
