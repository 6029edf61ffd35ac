import Testing
import VerticalsEventLoop
import VerticalsWire

/// `TLSError` in the framework's one error shape (`CodedError`): whether a certificate was
/// refused is its code, and it prints its message as before.
struct TLSErrorShapeTests {
    @Test func aRefusedCertificate_hasItsCode_andStillSaysSo() {
        let error = TLSError("TLS handshake failed: the peer's certificate: expired", refusesCertificate: true)

        #expect(error.code == .certificateRefused && error.refusesCertificate)
        #expect(error.description == "TLS handshake failed: the peer's certificate: expired")
        #expect(error == TLSError(.certificateRefused, "TLS handshake failed: the peer's certificate: expired"))
    }

    @Test func anyOtherFailure_isFailed_andBecomesALoopErrorOfKindTLS() {
        let error = TLSError("cannot read the key file")

        #expect(error.code == .failed && !error.refusesCertificate)
        #expect(EventLoopError.tls(error).code == .tls && !EventLoopError.tls(error).refusesCertificate)
        #expect(EventLoopError.tls(TLSError(.certificateRefused, "alert")).refusesCertificate)
    }

    @Test func whatOpenSSLSaid_isKeptAsTheCause_butNotCompared() {
        struct Alert: Error {}
        let error = TLSError(.failed, "TLS handshake failed", cause: Alert())

        #expect(error.cause is Alert && error == TLSError(.failed, "TLS handshake failed"))
        #expect(error != TLSError(.certificateRefused, "TLS handshake failed"))
    }
}
