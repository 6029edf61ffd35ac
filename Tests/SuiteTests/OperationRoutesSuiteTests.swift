import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// Least privilege per operation on a live suite, as the issue checks it: from a vertical's
/// user (Unix sockets, root) and with a vertical's certificate (mutual TLS), an undeclared
/// operation of a declared vertical is refused naming the edge, `identity.grantRole` with an
/// admin's token is refused as operator-only, and the operator's own call still works and is
/// audited with its caller.
@Suite(.blocking, .serialized, .timeLimit(.minutes(3)))
struct OperationRoutesSuiteTests {
    /// The reference suite's operator-only operations carry the mark, `describe` says so, and
    /// nothing else does.
    @Test func theOperatorOnlyOperations_areMarked_andDescribeSaysSo() {
        var marked: [String] = []
        for contract in Contracts.all + Contracts.builtin {
            for operation in contract.operations where operation.marks.contains(.operatorOnly) {
                marked.append(operation.fullName)
            }
        }
        #expect(
            Set(marked) == [
                "daemon.backup", "daemon.setLogLevel", "identity.createAdmin", "identity.grantRole",
                "identity.revokeRole",
            ])
        let description = ServiceDescription.of(Identity.self)
        let grant = description.operations.first { $0.name == "grantRole" }
        #expect(grant?.marks.contains("operatorOnly") == true, "\(String(describing: grant?.marks))")
        #expect(description.operations.first { $0.name == "authenticate" }?.marks.contains("operatorOnly") == false)
    }

    /// clinics declares identity.authenticate alone; notifications authenticate and getUser.
    static func services(user prefix: String?) -> String {
        func user(_ name: String) -> String { prefix.map { "user = \"\($0)\(name)\"\n" } ?? "" }
        return """
            [services.identity]
            executable = "svc-identity"
            receives = ["sessions", "first_admin", "password", "roles", "logout"]
            \(user("identity"))env = { IDENTITY_PWHASH_OPSLIMIT = "1", IDENTITY_PWHASH_MEMLIMIT = "8192", VERTICALS_LOG_LEVEL = "notice" }
            [services.clinics]
            executable = "svc-clinics"
            \(user("clinics"))depends_on = ["identity.authenticate"]
            [services.notifications]
            executable = "svc-notifications"
            \(user("notifications"))depends_on = ["identity.authenticate", "identity.getUser"]
            """
    }

    /// A registered admin's token, the admin made by the operator (this test, as root or as the
    /// suite's own user).
    static func adminToken(_ client: ServiceClient) async throws -> (token: String, email: String) {
        let email = "admin-\(UInt32.random(in: 0...UInt32.max))@example.org"
        _ = try await client.call(
            Identity.createAdmin, .init(email: email, password: "correct-horse-battery", displayName: "Ada"))
        let token = try await client.call(Identity.login, .init(email: email, password: "correct-horse-battery")).token
        return (token, email)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root: runs each vertical as its own user"))
    func overUnixSockets_fromAVerticalsUser_anUndeclaredOperation_andGrantRole_areRefused_namingTheEdge() async throws {
        try await UserPerVerticalSuite.run(
            tag: "vtr", services: ["identity", "clinics", "notifications"],
            manifest: { prefix in
                "[defaults]\nstop_timeout = \"5s\"\n" + Self.services(user: prefix)
            }
        ) { suite in
            let (prefix, directory, bin, run) = (suite.prefix, suite.directory, suite.bin, suite.run)

            let loop = try EventLoop(name: "routes-suite-client")
            defer { loop.shutdown() }
            let client = ServiceClient(
                loop: loop, sockets: SocketDirectory("\(run)/sockets"), defaultTimeout: .seconds(10))
            defer { client.close() }
            let admin = try await Self.adminToken(client)
            let patient = "patient-\(UInt32.random(in: 0...UInt32.max))@example.org"
            let account = try await client.call(
                Identity.register, .init(email: patient, password: "correct-horse-battery", displayName: "Bo"))

            // Copied out at once: getpwnam's answer lives in a buffer the next look-up (another test's) reuses.
            let clinicsUID = try #require(getpwnam(prefix + "clinics")).pointee.pw_uid
            func asClinics(_ operation: String, _ json: String) throws -> CommandResult {
                try suite.call(as: "clinics", "identity", operation, json)
            }

            // Declared: identity.authenticate.
            let declared = try asClinics("authenticate", "{\"token\": \"\(admin.token)\"}")
            #expect(declared.status == 0, "clinics → identity.authenticate is declared: \(declared.standardError)")

            // An undeclared operation of a declared vertical.
            let undeclared = try asClinics("getUser", "{\"userID\": \"\(account.userID)\"}")
            #expect(undeclared.status != 0)
            #expect(
                undeclared.standardError.contains("clinics may not call identity.getUser: its depends_on lacks it"),
                "\(undeclared.standardError)")

            // grantRole with an admin's token: operator-only.
            let grant = try asClinics(
                "grantRole", "{\"token\": \"\(admin.token)\", \"email\": \"\(patient)\", \"role\": \"admin\"}")
            #expect(grant.status != 0)
            #expect(
                grant.standardError.contains("clinics may not call identity.grantRole: it is operator-only"),
                "\(grant.standardError)")

            // The operator (root) may, and each call of it is audited with its caller.
            let granted = try await client.call(
                Identity.grantRole, .init(token: admin.token, email: patient, role: .clinician))
            #expect(granted.roles.contains(.clinician))
            let profile = try await client.call(Identity.getUser, .init(userID: account.userID))
            #expect(profile.displayName == "Bo", "root reaches every operation")
            Self.expectIdentityAudited(
                run: run,
                [
                    "audit service=identity operation=identity.grantRole caller=\"vertical clinics\" caller_uid=\(clinicsUID)",
                    "outcome=permissionDenied",
                    "audit service=identity operation=identity.grantRole caller=root caller_uid=0",
                ])
            let logged = (readFile("\(run)/logs/identity.log") ?? "").contains("refused identity.getUser to clinics")
            #expect(logged, "the callee's log names the refused edge")

            // describe shows the mark, under the operation.
            let described = try runCommand(
                "\(bin)/svc-supervisor", ["describe", "identity", "--socket-dir", "\(run)/sockets"], in: directory)
            #expect(described.status == 0, "\(described.standardError)")
            #expect(
                described.standardOutput.contains(
                    "marks: grantsRole, operatorOnly (only the operator: root, the operator group or the operator certificate)"
                ),
                "\(described.standardOutput)")
        }
    }

    @Test func overMutualTLS_aVerticalsCertificate_getsOnlyItsOperations_andTheOperatorsGetsAll() async throws {
        let directory = TemporaryDirectory()
        let base = UInt16.random(in: 20_000...50_000)
        let ports = ["identity": base, "clinics": base + 1, "notifications": base + 2]
        var text = "[defaults]\nstop_timeout = \"5s\"\ncertificates = \"\(directory.file("certs"))\"\n"
        for line in Self.services(user: nil).split(separator: "\n", omittingEmptySubsequences: false) {
            text += line + "\n"
            if line.hasPrefix("[services."), let name = line.split(separator: ".").last?.dropLast() {
                text += "endpoint = \"tcp:127.0.0.1:\(ports[String(name)]!)\"\n"
            }
        }
        let manifest = directory.file("suite.toml")
        try Self.write(text, to: manifest)
        let minted = try runCommand(
            "svc-supervisor", ["certs", directory.file("certs"), "--manifest", manifest], in: directory)
        #expect(minted.status == 0, "certs: \(minted.standardError)")
        let run = directory.file("run")
        let supervisor = try DaemonProcess("svc-supervisor", ["up", "--manifest", manifest, "--run-dir", run])
        defer {
            _ = try? runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
            supervisor.waitForExit(timeout: .seconds(15))
            supervisor.stop()
        }
        let loop = try EventLoop(name: "routes-tls-client")
        defer { loop.shutdown() }
        func client(presenting name: String) -> ServiceClient {
            var environment = ["VERTICALS_SOCKET_DIR": directory.file("none")]
            for (service, port) in ports {
                environment["VERTICALS_ENDPOINT_\(service.uppercased())"] = "tcp:127.0.0.1:\(port)"
            }
            let folder = directory.file("certs/\(name)")
            environment["VERTICALS_TLS_CERT"] = "\(folder)/tls.crt"
            environment["VERTICALS_TLS_KEY"] = "\(folder)/tls.key"
            environment["VERTICALS_TLS_CA"] = "\(folder)/ca.crt"
            return ServiceClient(
                loop: loop, sockets: SocketDirectory.from(environment: environment), defaultTimeout: .seconds(10))
        }
        let operatorClient = client(presenting: "operator")
        defer { operatorClient.close() }
        let ready = await eventuallyAsync(timeout: .seconds(60), every: .milliseconds(200)) {
            let health = Empty().encodedBody()
            let identity = try? await operatorClient.callRaw(
                service: "identity", operation: Daemon.health.fullName, body: health)
            let clinics = try? await operatorClient.callRaw(
                service: "clinics", operation: Daemon.health.fullName, body: health)
            return identity != nil && clinics != nil
        }
        #expect(ready, "identity over TLS: \(readFile("\(run)/logs/identity.log") ?? "")")
        guard ready else { return }

        let patient = "patient-\(UInt32.random(in: 0...UInt32.max))@example.org"
        let account = try await operatorClient.call(
            Identity.register, .init(email: patient, password: "correct-horse-battery", displayName: "Bo"))
        let session = try await operatorClient.call(
            Identity.login, .init(email: patient, password: "correct-horse-battery"))

        let clinics = client(presenting: "clinics")
        defer { clinics.close() }
        let principal = try await clinics.call(Identity.authenticate, .init(token: session.token))
        #expect(principal.userID == account.userID, "clinics → identity.authenticate is declared")
        let undeclared = await SupervisedSuite.refusal {
            _ = try await clinics.call(Identity.getUser, .init(userID: account.userID))
        }
        #expect(undeclared?.code == .permissionDenied)
        #expect(
            undeclared?.message.hasPrefix("clinics may not call identity.getUser: its depends_on lacks it") == true,
            "\(String(describing: undeclared))")
        #expect(undeclared?.detail("edge") == "clinics → identity.getUser")
        let grant = await SupervisedSuite.refusal {
            _ = try await clinics.call(Identity.grantRole, .init(token: session.token, email: patient, role: .admin))
        }
        #expect(grant?.detail("reason") == "operatorOnly", "\(String(describing: grant))")
        #expect(grant?.message.hasPrefix("clinics may not call identity.grantRole: it is operator-only") == true)

        let notifications = client(presenting: "notifications")
        defer { notifications.close() }
        #expect(try await notifications.call(Identity.getUser, .init(userID: account.userID)).displayName == "Bo")
        let register = await SupervisedSuite.refusal {
            _ = try await notifications.call(
                Identity.register, .init(email: "x-\(patient)", password: "correct-horse-battery", displayName: "X"))
        }
        #expect(register?.detail("edge") == "notifications → identity.register", "\(String(describing: register))")

        // The operator's certificate reaches an operator-only operation, and the audit line names it.
        let answer = try await operatorClient.callRaw(
            service: "identity", operation: Daemon.setLogLevel.fullName, body: Daemon.LogLevelInput().encodedBody())
        #expect(!answer.isEmpty)
        let refusedLevel = await SupervisedSuite.refusal {
            _ = try await clinics.callRaw(
                service: "identity", operation: Daemon.setLogLevel.fullName, body: Daemon.LogLevelInput().encodedBody())
        }
        #expect(refusedLevel?.detail("reason") == "operatorOnly", "\(String(describing: refusedLevel))")
        Self.expectIdentityAudited(
            run: run,
            [
                "operation=identity.grantRole caller=clinics caller_certificate=verticals://clinics outcome=permissionDenied",
                "operation=daemon.setLogLevel caller=verticals://operator caller_certificate=verticals://operator outcome=ok",
                "operation=daemon.setLogLevel caller=clinics caller_certificate=verticals://clinics outcome=permissionDenied",
            ])
    }

    /// Expects identity's log in run directory `run` to hold every one of `lines` within 30 s.
    static func expectIdentityAudited(run: String, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation)
    {
        let log = "\(run)/logs/identity.log"
        let audited = eventually(timeout: .seconds(30)) {
            let text = readFile(log) ?? ""
            return lines.allSatisfy { text.contains($0) }
        }
        #expect(audited, "identity's audit lines: \(readFile(log) ?? "")", sourceLocation: sourceLocation)
    }

    static func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "w") else { throw RawSocketError("cannot write \(path)") }
        fputs(text, file)
        fclose(file)
    }
}
