import Glibc
import Testing
import VerticalsTesting

/// `svc-supervisor certs DIR`: a working mutual-TLS suite's certificates in one
/// command, checked by OpenSSL's own tool and by a live daemon over TCP.
@Suite(.blocking, .timeLimit(.minutes(2)))
struct CertsCommandTests {
    static let manifest =
        "[services.echo]\nexecutable = \"vt-testd\"\n[services.catalog]\nexecutable = \"vt-testd\"\nargs = [\"catalog\"]\n"

    static func write(_ text: String, to path: String) {
        let file = fopen(path, "w")
        fputs(text, file)
        fclose(file)
    }

    static func mint(in directory: TemporaryDirectory, _ extra: [String] = []) throws -> CommandResult {
        let manifest = directory.file("suite.toml")
        Self.write(Self.manifest, to: manifest)
        return try runCommand(
            "svc-supervisor", ["certs", directory.file("certs"), "--manifest", manifest] + extra, in: directory)
    }

    @Test func certs_writesACAAndOneIdentityPerServiceAndTheOperator_asOpenSSLReadsThem() throws {
        let directory = TemporaryDirectory()

        let minted = try Self.mint(in: directory)

        #expect(minted.status == 0, "\(minted.standardError)")
        let certs = directory.file("certs")
        for name in ["echo", "catalog", "operator"] {
            let verified = try runCommand(
                "/usr/bin/openssl", ["verify", "-CAfile", "\(certs)/ca.crt", "\(certs)/\(name)/tls.crt"], in: directory)
            #expect(
                verified.status == 0 && verified.standardOutput.contains(": OK"), "\(name): \(verified.standardError)")
            let text = try runCommand(
                "/usr/bin/openssl",
                ["x509", "-in", "\(certs)/\(name)/tls.crt", "-noout", "-ext", "subjectAltName,extendedKeyUsage"],
                in: directory)
            #expect(text.standardOutput.contains("URI:verticals://\(name)"), "\(text.standardOutput)")
            #expect(text.standardOutput.contains("TLS Web Server Authentication, TLS Web Client Authentication"))
            var info = stat()
            #expect(stat("\(certs)/\(name)/tls.key", &info) == 0 && info.st_mode & 0o777 == 0o600, "a key is 0600")
            #expect(
                readFile("\(certs)/\(name)/ca.crt") == readFile("\(certs)/ca.crt"), "the CA beside each, as in a Secret"
            )
        }
        let catalog = try runCommand(
            "/usr/bin/openssl", ["x509", "-in", "\(certs)/catalog/tls.crt", "-noout", "-ext", "subjectAltName"],
            in: directory)
        #expect(catalog.standardOutput.contains("DNS:catalog.verticals.svc"), "\(catalog.standardOutput)")
        var info = stat()
        #expect(stat("\(certs)/ca.key", &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func certs_refusesToReplaceACA_unlessForced() throws {
        let directory = TemporaryDirectory()
        _ = try Self.mint(in: directory)
        let authority = readFile(directory.file("certs/ca.crt"))

        let again = try Self.mint(in: directory)
        #expect(again.status == 73 && again.standardError.contains("--force"), "\(again.standardError)")
        #expect(readFile(directory.file("certs/ca.crt")) == authority, "nothing replaced")

        let forced = try Self.mint(in: directory, ["--force"])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(readFile(directory.file("certs/ca.crt")) != authority, "a new CA")
    }

    @Test func certs_withBadArguments_saysWhich() throws {
        let directory = TemporaryDirectory()
        let days = try Self.mint(in: directory, ["--days", "0"])
        #expect(days.status == 64 && days.standardError.contains("--days"), "\(days.standardError)")
        let broken = directory.file("broken.toml")
        Self.write("[services.x]\nexecutable = \"x\"\ndepends_on = [\"nobody\"]\n", to: broken)
        let problems = try runCommand(
            "svc-supervisor", ["certs", directory.file("c2"), "--manifest", broken], in: directory)
        #expect(problems.status == 65, "\(problems.standardOutput)\(problems.standardError)")
    }

    /// The minted identities work: a daemon over TCP with its certificate answers the CLI holding
    /// the operator's, and refuses a caller whose certificate another CA signed, or a vertical it does
    /// not admit.
    @Test func mintedIdentities_carryAMutualTLSCall_andAStrangerOrAnUndeclaredVerticalIsRefused() throws {
        let directory = TemporaryDirectory()
        let minted = try Self.mint(in: directory)
        try #require(minted.status == 0, "\(minted.standardError)")
        let certs = directory.file("certs")
        let port = try freeLoopbackPort()
        let daemon = try DaemonProcess(
            "vt-testd", ["echo"],
            environment: [
                "VERTICALS_SOCKET_DIR": directory.file("sockets"), "VERTICALS_LISTEN": "tcp:127.0.0.1:\(port)",
                "VERTICALS_TLS_CERT": "\(certs)/echo/tls.crt", "VERTICALS_TLS_KEY": "\(certs)/echo/tls.key",
                "VERTICALS_TLS_CA": "\(certs)/echo/ca.crt", "VERTICALS_ALLOWED_PEERS": "operator",
            ])
        defer { daemon.stop() }
        #expect(eventually { (try? RawClient(host: "127.0.0.1", port: port)) != nil }, "never listened on \(port)")
        func call(as holder: (cert: String, key: String, ca: String)) throws -> CommandResult {
            try runCommand(
                "svc-supervisor", ["call", "echo", "echo", #"{"text": "minted"}"#, "--timeout", "10"],
                environment: [
                    "VERTICALS_ENDPOINT_ECHO": "tcp:127.0.0.1:\(port)", "XDG_CACHE_HOME": directory.file("cache"),
                    "HOME": directory.path, "VERTICALS_TLS_CERT": holder.cert, "VERTICALS_TLS_KEY": holder.key,
                    "VERTICALS_TLS_CA": holder.ca,
                ], in: directory)
        }

        let answered = try call(
            as: ("\(certs)/operator/tls.crt", "\(certs)/operator/tls.key", "\(certs)/operator/ca.crt"))
        #expect(answered.status == 0 && answered.standardOutput.contains("\"minted\""), "\(answered.standardError)")

        let stranger = try TestCertificateAuthority(in: directory, name: "other-ca").issue("operator")
        let refused = try call(as: (stranger.certificate, stranger.key, "\(certs)/operator/ca.crt"))
        // Refused for its certificate, which no retry mends: permissionDenied (exit 1), not unreachable (69).
        #expect(
            refused.status == 1 && refused.standardError.contains("permissionDenied")
                && refused.standardError.contains("TLS"),
            "another CA's certificate: \(refused.status) \(refused.standardError)")

        // A minted certificate the daemon's allow-list does not name: served no request.
        let undeclared = try call(
            as: ("\(certs)/catalog/tls.crt", "\(certs)/catalog/tls.key", "\(certs)/catalog/ca.crt"))
        #expect(undeclared.standardError.contains("permissionDenied"), "\(undeclared.standardError)")
    }
}
