import Glibc

/// A throwaway certificate authority for TLS tests, minted with the `openssl` command: EC P-256
/// keys, valid two days, each leaf naming a vertical as `URI:verticals://NAME`.
///
/// ```swift
/// let ca = try TestCertificateAuthority(in: directory)
/// let echo = try ca.issue("echo")   // echo.pem, echo.key, and ca.pem to verify peers with
/// ```
public struct TestCertificateAuthority {
    /// One side's files: its certificate, its key, and the CA that signs its peers.
    public struct Issued: Sendable {
        /// The certificate (PEM).
        public let certificate: String
        /// Its private key (PEM).
        public let key: String
        /// The CA certificate to verify peers with (PEM).
        public let authority: String

        /// Files at these paths (e.g. one CA's certificate verified against another CA).
        public init(certificate: String, key: String, authority: String) {
            self.certificate = certificate
            self.key = key
            self.authority = authority
        }
    }

    /// The CA's certificate.
    public let certificate: String
    let key: String
    let directory: TemporaryDirectory
    let name: String

    /// A new CA, its files named after `name` in `directory`.
    public init(in directory: TemporaryDirectory, name: String = "ca") throws {
        self.directory = directory
        self.name = name
        certificate = directory.file("\(name).pem")
        key = directory.file("\(name).key")
        try Self.openssl(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
                "-out", certificate, "-days", "2", "-subj", "/CN=\(name)", "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ], in: directory)
    }

    /// A certificate for vertical `vertical` signed by this CA (`URI:verticals://VERTICAL`, or
    /// `uri` when given; no URI at all when `uri` is empty), written as `file`.pem and `file`.key.
    public func issue(_ vertical: String, uri: String? = nil, file: String? = nil) throws -> Issued {
        let base = directory.file("\(name)-\(file ?? vertical)")
        let extensions = base + ".ext"
        let san = uri ?? "verticals://\(vertical)"
        let lines = (san.isEmpty ? [] : ["subjectAltName=URI:\(san)"])
            + ["basicConstraints=CA:FALSE", "keyUsage=digitalSignature", "extendedKeyUsage=serverAuth,clientAuth"]
        guard let handle = fopen(extensions, "w") else { throw TestCertificateError("cannot write \(extensions)") }
        fputs(lines.joined(separator: "\n") + "\n", handle)
        fclose(handle)
        try Self.openssl(
            [
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", base + ".key",
                "-out", base + ".csr", "-subj", "/CN=\(vertical)",
            ], in: directory)
        try Self.openssl(
            [
                "x509", "-req", "-in", base + ".csr", "-CA", certificate, "-CAkey", key, "-CAcreateserial", "-out",
                base + ".pem", "-days", "2", "-extfile", extensions,
            ], in: directory)
        return Issued(certificate: base + ".pem", key: base + ".key", authority: certificate)
    }

    private static func openssl(_ arguments: [String], in directory: TemporaryDirectory) throws {
        let result = try runCommand("/usr/bin/openssl", arguments, in: directory)
        guard result.status == 0 else {
            throw TestCertificateError("openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(result.standardError)")
        }
    }
}

/// Minting a test certificate failed: what, and openssl's words.
public struct TestCertificateError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
    init(_ description: String) { self.description = description }
}
