import Glibc
import VerticalsClient
import VerticalsContract
import VerticalsContractTesting
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsWire

/// A vertical that answers with the worst it can make (`vt-fuzz-live --hostile-callee FILE`):
/// run under `up` in a callee's place, it serves the socket it is handed (`LISTEN_FDS`), Unix or
/// TCP (then with mutual TLS, from the `VERTICALS_TLS_*` files `up` gives the vertical it replaces,
/// so its callers meet it after a real handshake), says `READY=1`, and answers every request,
/// `daemon.describe`, `daemon.contractCheck`, `daemon.health` and any operation, in turn with: an
/// error frame whose message is nearly a frame of 0xFF bytes with as many details, an error with a
/// code no contract knows, a response of 0xFF bytes, and for `daemon.describe` the real
/// description (FILE, as the real vertical gave it) with an operation declaring as many error
/// codes as fit, names of combining marks, a frame-sized summary, or every operation many times.
/// Its callers are what ``CostSearch`` watches meanwhile. One loop, one request at a time: a
/// hostile callee need not be quick.
enum HostileCallee {
    /// The largest answer sent: the frame limit, less room for the envelope.
    static let largest = FrameDecoder.defaultMaxFrameSize - 1024

    /// Serves until killed; returns only when there is nothing to serve.
    static func serve(description file: String) -> Int32 {
        let real = WholeFile.read(file).flatMap { Hex.decode(String($0.filter { !$0.isWhitespace })) }
        let description = real.flatMap { try? Daemon.Description(decoding: $0) }
        let environment = ProcessEnvironment.current
        guard let listening = SocketActivation.from(environment: environment, pid: getpid())?.fds.first else {
            say("hostile callee: no LISTEN_FDS: nothing to serve")
            return 2
        }
        let loop: EventLoop
        do {
            loop = try EventLoop(name: "hostile-callee")
        } catch {
            say("hostile callee: \(error)")
            return 1
        }
        let files = TransportSecurity.from(environment: environment).files
        let started = loop.execute { serve(listening, files: files, description: description, on: loop) }
        guard started else { return 1 }
        while true { pause() }
    }

    /// Serves `fd` on `loop` (on its thread): mutual TLS when it is a TCP socket; then `READY=1`.
    /// Exits the process when it cannot.
    private static func serve(_ fd: Int32, files: TLSFiles?, description: Daemon.Description?, on loop: EventLoop) {
        do {
            let listener = try StreamListener.adopt(fd: fd, on: loop)
            if listener.transport == .tcp {
                guard let files else {
                    say("hostile callee: a TCP socket and no VERTICALS_TLS_* files: nothing to serve")
                    exit(2)
                }
                listener.useTLS(try TLSContext(files: files, role: .server), handshakeTimeout: .seconds(5))
            }
            var answers = Answers(description: description)
            // The listener and each connection keep themselves alive through their handles.
            listener.start { connection in
                connection.onFrame = { payload in
                    guard let message = try? Message(payload: payload),
                        let answer = answers.answer(to: message.envelope)
                    else { return }
                    connection.write(answer)
                }
                connection.startReading()
            }
            notifyReady()
        } catch {
            say("hostile callee: cannot serve: \(error)")
            exit(1)
        }
    }

    /// The worst answers, in turn.
    struct Answers {
        let description: Daemon.Description?
        private var turn = 0

        init(description: Daemon.Description?) { self.description = description }

        /// The answer to a frame with `envelope`: pings get their pong, requests the next worst.
        mutating func answer(to envelope: Envelope) -> [UInt8]? {
            switch envelope.kind {
            case .ping:
                return Message.frame(Envelope(kind: .pong, correlationID: envelope.correlationID), rawBody: [])
            case .request:
                turn += 1
                let id = envelope.correlationID
                if envelope.operation == Daemon.describe.fullName, let description, turn % 2 == 0 {
                    return Message.frame(
                        Envelope(kind: .response, correlationID: id),
                        rawBody: HostileCallee.worse(description, turn / 2))
                }
                switch turn % 3 {
                case 0: return HostileCallee.errorOf0xFF(id, code: "invalidInput")
                case 1: return HostileCallee.errorOf0xFF(id, code: "fuzzUnknownCode")
                default:
                    return Message.frame(
                        Envelope(kind: .response, correlationID: id),
                        rawBody: [UInt8](repeating: 0xFF, count: HostileCallee.largest))
                }
            default:
                return nil
            }
        }
    }

    /// An error frame with `code`, a message of 0xFF bytes as long as a frame allows, and details too.
    static func errorOf0xFF(_ id: UInt64, code: String) -> [UInt8] {
        // Encoded with a placeholder of the same length, whose bytes are then made 0xFF (the
        // encoder writes only valid UTF-8).
        let placeholder = String(repeating: "\u{1}", count: largest / 2)
        let details = (0..<64).map { ErrorDetail("k\($0)", String(repeating: "\u{1}", count: largest / 256)) }
        var frame = Message.frame(
            Envelope(kind: .error, correlationID: id),
            body: ServiceError(ErrorCode(unknown: code), placeholder, details: details))
        // The last bytes of each run of placeholders are the string (a length's last byte may be 1 too).
        var index = 0
        while index < frame.count {
            guard frame[index] == 1 else {
                index += 1
                continue
            }
            var end = index
            while end < frame.count, frame[end] == 1 { end += 1 }
            let run = end - index
            let string =
                run >= placeholder.utf8.count ? placeholder.utf8.count : run >= largest / 256 ? largest / 256 : 0
            for byte in (end - string)..<end { frame[byte] = 0xFF }
            index = end
        }
        return frame
    }

    /// `description` made worse, the `variant`th way: one operation declaring as many error
    /// codes as fit, names of combining marks, a frame-sized summary, or every operation many times.
    static func worse(_ description: Daemon.Description, _ variant: Int) -> [UInt8] {
        var worse = description
        switch variant % 4 {
        case 0:
            if !worse.operations.isEmpty {
                worse.operations[0].errors = (0..<(largest / 12)).map { ErrorCode(unknown: "e\($0)") }
            }
        case 1:
            let marks = "e" + String(repeating: "\u{0301}", count: 255)
            for index in worse.operations.indices { worse.operations[index].name = marks }
            for index in worse.messages.indices { worse.messages[index].name = marks }
        case 2:
            worse.summary = String(repeating: "\u{FFFD}", count: largest / 3 - 4096)
        default:
            let copies = max(1, largest / 64 / max(1, worse.operations.count * 16))
            worse.operations = Array((0..<copies).map { _ in description.operations }.joined())
        }
        let body = worse.encodedBody()
        return body.count <= largest ? body : Array(body.prefix(largest))
    }

    /// `READY=1` to `$NOTIFY_SOCKET`, as sd_notify does.
    static func notifyReady() {
        guard let path = ProcessEnvironment.current["NOTIFY_SOCKET"], !path.isEmpty else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8.prefix(107))
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 } // an abstract socket
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        let text = Array("READY=1".utf8)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, text, text.count, 0, $0, length)
            }
        }
    }
}
