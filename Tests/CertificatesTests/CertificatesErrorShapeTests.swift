import Testing
import VerticalsCertificates
import VerticalsWire

/// `CertificatesError` in the framework's one error shape (`CodedError`): a code to branch on, a
/// message, and details a program reads.
struct CertificatesErrorShapeTests {
    @Test(arguments: ["a,DNS:evil.example", "x:y", "sp ace", SuiteCertificates.operatorName])
    func aNameACertificateCannotHold_isInvalidName_namingIt(name: String) {
        let error = #expect(throws: CertificatesError.self) {
            try SuiteCertificates.mint(services: ["echo", name], namespace: "verticals", days: 1)
        }

        #expect(error?.code == .invalidName && error?.detail("name") == name, "\(String(describing: error))")
    }

    @Test func noDays_isAnInvalidArgument() {
        let error = #expect(throws: CertificatesError.self) {
            try SuiteCertificates.mint(services: ["echo"], namespace: "v", days: 0)
        }

        #expect(error?.code == .invalidArgument)
        #expect(error?.description == "--days must be at least 1, not 0")
    }

    @Test func itCompares_byCodeMessageAndDetails() {
        let error = CertificatesError(.exists, "m", details: [ErrorDetail("path", "/c")])

        #expect(error == CertificatesError(.exists, "m", details: [ErrorDetail("path", "/c")]))
        #expect(error != CertificatesError(.system, "m", details: [ErrorDetail("path", "/c")]))
        #expect(error.detail("path") == "/c" && error.cause == nil)
    }
}
