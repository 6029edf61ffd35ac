import Testing
import Glibc
import VerticalsWire

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
    /// The root every chain this CA issues ends at: its own certificate, or its issuer's root for
    /// an ``intermediate(_:)``. What a peer trusts (`VERTICALS_TLS_CA`).
    public let root: String
    /// The intermediate certificates from this CA up to the root (the root excluded): empty for a root.
    let chain: [String]
    let key: String
    let directory: TemporaryDirectory
    let name: String

    /// A new CA, its files named after `name` in `directory`.
    public init(in directory: TemporaryDirectory, name: String = "ca") throws {
        self.directory = directory
        self.name = name
        certificate = directory.file("\(name).pem")
        root = certificate
        chain = []
        key = directory.file("\(name).key")
        try Self.openssl(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
                "-out", certificate, "-days", "2", "-subj", "/CN=\(name)", "-addext",
                "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ], in: directory)
    }

    private init(
        certificate: String, root: String, chain: [String], key: String, directory: TemporaryDirectory, name: String
    ) {
        self.certificate = certificate
        self.root = root
        self.chain = chain
        self.key = key
        self.directory = directory
        self.name = name
    }

    /// An intermediate CA that this CA signs (`CA:TRUE`), named `name`: the leaves it issues
    /// chain to this CA's ``root`` through it.
    public func intermediate(_ name: String) throws -> TestCertificateAuthority {
        let base = directory.file(name)
        try sign(
            subject: name, base: base,
            extensions: ["basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign"])
        return TestCertificateAuthority(
            certificate: base + ".pem", root: root, chain: [base + ".pem"] + chain, key: base + ".key",
            directory: directory, name: name)
    }

    /// A certificate for vertical `vertical` signed by this CA (`URI:verticals://VERTICAL`, or
    /// `uri` when given; no URI at all when `uri` is empty), with `extendedKeyUsage` (none when
    /// empty), written as `file`.pem and `file`.key. From an ``intermediate(_:)``, the `.pem`
    /// holds the intermediates after the leaf when `withChain`, as a side's certificate file does.
    public func issue(
        _ vertical: String, uri: String? = nil, file: String? = nil, extendedKeyUsage: String = "serverAuth,clientAuth",
        withChain: Bool = true
    ) throws -> Issued {
        let base = directory.file("\(name)-\(file ?? vertical)")
        let san = uri ?? "verticals://\(vertical)"
        let lines =
            (san.isEmpty ? [] : ["subjectAltName=URI:\(san)"])
            + ["basicConstraints=CA:FALSE", "keyUsage=digitalSignature"]
            + (extendedKeyUsage.isEmpty ? [] : ["extendedKeyUsage=\(extendedKeyUsage)"])
        try sign(subject: vertical, base: base, extensions: lines)
        guard withChain, !chain.isEmpty else {
            return Issued(certificate: base + ".pem", key: base + ".key", authority: root)
        }
        var pem = ""
        for file in [base + ".pem"] + chain {
            guard let text = readFile(file) else { throw TestCertificateError("cannot read \(file)") }
            pem += text
        }
        guard let handle = fopen(base + ".chain.pem", "w") else {
            throw TestCertificateError("cannot write \(base).chain.pem")
        }
        fputs(pem, handle)
        fclose(handle)
        return Issued(certificate: base + ".chain.pem", key: base + ".key", authority: root)
    }

    /// A new key and a certificate for `subject`, signed by this CA with `extensions`, as `base`.pem and `base`.key.
    private func sign(subject: String, base: String, extensions: [String]) throws {
        let file = base + ".ext"
        guard let handle = fopen(file, "w") else { throw TestCertificateError("cannot write \(file)") }
        fputs(extensions.joined(separator: "\n") + "\n", handle)
        fclose(handle)
        try Self.openssl(
            [
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", base + ".key",
                "-out", base + ".csr", "-subj", "/CN=\(subject)",
            ], in: directory)
        try Self.openssl(
            [
                "x509", "-req", "-in", base + ".csr", "-CA", certificate, "-CAkey", key, "-CAcreateserial", "-out",
                base + ".pem", "-days", "2", "-extfile", file,
            ], in: directory)
    }

    private static func openssl(_ arguments: [String], in directory: TemporaryDirectory) throws {
        let result = try runCommand("/usr/bin/openssl", arguments, in: directory)
        guard result.status == 0 else {
            throw TestCertificateError(
                "openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(result.standardError)")
        }
    }
}

/// Minting a test certificate failed: what, and openssl's words. Its code is `opensslFailed`.
public struct TestCertificateError: CodedError {
    /// What kind of failure it is.
    public typealias Code = ErrorKind<TestCertificateError>

    /// `opensslFailed`.
    public var code: Code { .opensslFailed }
    /// What failed, and openssl's words.
    public let message: String

    init(_ message: String) { self.message = message }
}

extension ErrorKind where Domain == TestCertificateError {
    /// The `openssl` command that mints a test certificate failed; the message gives its words.
    public static var opensslFailed: Self { Self("opensslFailed") }
}
