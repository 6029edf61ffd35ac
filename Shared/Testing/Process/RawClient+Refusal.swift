import Testing
import VerticalsServiceKit
import VerticalsWire

extension RawClient {
    /// Expects a typed error frame of `code` (any code when nil) and then the end of the
    /// stream: what a daemon answers a hostile client before it closes the connection.
    public func expectErrorThenClosed(_ code: ErrorCode?) {
        var sawError = false
        while true {
            switch receive() {
            case .message(let message):
                if message.envelope.kind == .error, let error = try? message.decodeBody(as: ServiceError.self) {
                    sawError = code == nil || error.code == code
                    if !sawError {
                        Issue.record("got \(error.code): \(error.message), wanted \(String(describing: code))")
                    }
                }
            case .closed:
                if code != nil { #expect(sawError, "closed without a \(String(describing: code)) error frame") }
                return
            case .timedOut:
                Issue.record("the hostile connection stayed open")
                return
            }
        }
    }
}
