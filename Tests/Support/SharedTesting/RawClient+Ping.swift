import VerticalsTesting
import VerticalsWire

extension RawClient {
    /// Sends a ping and whether a pong came back.
    public func pingAnswered() -> Bool {
        guard (try? send(Message.frame(Envelope(kind: .ping, correlationID: 77), rawBody: []))) != nil,
            case .message(let message) = receive()
        else { return false }
        return message.envelope.kind == .pong
    }
}
