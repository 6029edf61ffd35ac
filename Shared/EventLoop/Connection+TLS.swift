import CLibUV

/// Mutual TLS on a connection: a handshake first (reading runs for it, no frame is delivered),
/// then every frame sealed on the way out and opened on the way in, below the framing, so
/// limits, backpressure and timeouts work on TLS streams as on plain ones.
extension Connection {
    /// The vertical at the other end, as its verified certificate names it (`verticals://NAME`),
    /// once the TLS handshake is done; nil on a plain stream or a certificate that names none.
    public var peerName: String? {
        loop.preconditionInEventLoop()
        return tls?.isEstablished == true ? tls?.peerName : nil
    }

    /// Whether this connection runs TLS (established or still in its handshake).
    public var isSecure: Bool {
        loop.preconditionInEventLoop()
        return tls != nil || pendingTLS != nil
    }

    /// The room this connection's TLS session keeps for ciphertext between frames, in bytes; nil
    /// without TLS. Bounded whatever frames it moved (see `TLSSession`).
    package var tlsBufferRoom: Int? {
        loop.preconditionInEventLoop()
        return tls?.bufferRoom
    }

    /// Starts TLS from `context` on this open connection and calls `onSecured` once: nil when the
    /// handshake completed (and, for a client with `expectedPeer`, the server's certificate
    /// names it), else the error, after which the connection closes. `timeout` bounds the
    /// handshake, so a peer that never finishes it is let go. A server makes its session when
    /// the peer's first bytes arrive, not before.
    func beginTLS(
        _ context: TLSContext, expectedPeer: String?, timeout: Duration,
        _ onSecured: @escaping (EventLoopError?) -> Void
    ) {
        guard machine.state == .open else {
            loop.deferOnLoop { onSecured(.closed) }
            return
        }
        if context.role == .server {
            pendingTLS = context
        } else {
            do {
                tls = try TLSSession(context: context)
            } catch {
                loop.deferOnLoop { onSecured(.tls(error)) }
                beginClose(error: .tls(error))
                return
            }
        }
        self.expectedPeer = expectedPeer
        securedHandler = onSecured
        let deadline = LoopTimer(loop: loop)
        deadline.start(after: timeout) { [weak self] in
            self?.failTLS(.tls("the TLS handshake did not finish within \(timeout)"))
        }
        handshakeDeadline = deadline
        perform(machine.handshakeBegan())
        if context.role == .client { receiveTLS(UnsafeRawBufferPointer(start: nil, count: 0)) } // ClientHello
    }

    /// Ciphertext from the socket: advances the handshake, or opens records into the decoder.
    func receiveTLS(_ bytes: UnsafeRawBufferPointer) {
        if tls == nil, let context = pendingTLS, machine.isConnected {
            pendingTLS = nil
            do {
                tls = try TLSSession(context: context)
            } catch {
                failTLS(.tls(error))
                return
            }
        }
        guard let tls, machine.isConnected else { return }
        let wasEstablished = tls.isEstablished
        let open: Bool
        do {
            open = try tls.receive(bytes) { plaintext in decoder.append(plaintext) }
        } catch {
            flushTLSOutput() // the alert tells the peer why
            failTLS(.tls(error))
            return
        }
        flushTLSOutput()
        if decoder.isGathering { loop.movedLongFrame() }
        if !wasEstablished, tls.isEstablished { secured() }
        guard machine.isConnected else { return }
        if !open {
            perform(machine.endOfStream())
            return
        }
        if tls.isEstablished { deliverFrames() }
    }

    private func secured() {
        if let expectedPeer, tls?.peerName != expectedPeer {
            let presented = tls?.peerName.map { "verticals://\($0)" } ?? "no verticals:// name"
            failTLS(.certificate("the server's certificate names \(presented), not verticals://\(expectedPeer)"))
            return
        }
        handshakeDeadline?.close()
        handshakeDeadline = nil
        perform(machine.handshakeEnded())
        let handler = securedHandler
        securedHandler = nil
        handler?(nil)
    }

    /// Tells the waiting side first, then closes: uv_close shuts the socket at once, and whoever
    /// sees the peer go must find the failure already reported.
    private func failTLS(_ error: EventLoopError) {
        let handler = securedHandler
        securedHandler = nil
        handler?(error)
        beginClose(error: error)
    }

    private func flushTLSOutput() {
        guard let tls else { return }
        let output = tls.takeOutput()
        if !output.isEmpty { sendWire(output, completion: nil) }
    }
}
