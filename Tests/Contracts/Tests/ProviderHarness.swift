import Foundation
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsContractTesting
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// A provider under verification: its real daemon, alone with a fresh store (plus, for a
/// provider that itself calls another vertical, that vertical), and the provider states
/// consumers may ask for, each set up through public operations only.
final class ProviderHarness {
    /// Every account's password in the provider states.
    static let password = "correct horse battery staple"
    /// The providers some consumer relies on, and what each needs running.
    static let daemons: [String: [String]] = [
        "identity": ["identity"],
        "clinics": ["clinics"],
        // notifications.send asks identity whether the recipient exists: its own dependency.
        "notifications": ["identity", "notifications"],
    ]

    let provider: String
    let directory = TemporaryDirectory()
    let loop: EventLoop
    let client: ServiceClient
    private var processes: [DaemonProcess] = []
    private var counter = 0

    init(_ provider: String) throws {
        self.provider = provider
        let sockets = SocketDirectory(directory.file("sockets"))
        loop = try EventLoop(name: "provider-verification")
        client = ServiceClient(loop: loop, sockets: sockets, defaultTimeout: .seconds(10))
        for name in Self.daemons[provider] ?? [provider] {
            var environment = VerticalTestEnvironment.variables(
                for: name, sockets: sockets.path, runDirectory: directory.path)
            // identity's Argon2id at its cheapest: its real limits cost ~100 ms and 64 MiB a hash.
            environment["IDENTITY_PWHASH_OPSLIMIT"] = "1"
            environment["IDENTITY_PWHASH_MEMLIMIT"] = "8192"
            processes.append(try DaemonProcess("svc-\(name)", environment: environment))
            let path = sockets.socketPath(for: name)
            let listening = eventually(timeout: .seconds(20)) { (try? RawClient(path: path)) != nil }
            try #require(listening, "\(name) never listened at \(path)")
        }
    }

    deinit {
        for process in processes.reversed() { process.stop() }
        client.close()
        loop.shutdown()
    }

    /// Every way `interaction` of `contract` is not honoured; empty when it is (the library's check,
    /// with this suite's provider states and client).
    func verify(_ interaction: ConsumerContract.Interaction, of contract: ConsumerContract) async -> [String] {
        await ProviderVerification.problems(
            interaction, of: contract, provider: provider,
            operation: Contracts.operation("\(provider).\(interaction.operation)"),
            state: { try await self.state($0) },
            call: { operation, body in
                try await self.client.callRaw(service: self.provider, operation: operation.fullName, body: body)
            })
    }

    /// Sets up provider state `name` through public operations and returns its variables,
    /// or nil when this provider does not know the state.
    func state(_ name: String) async throws -> [String: JSONValue]? {
        counter += 1
        switch (provider, name) {
        case ("identity", "a logged-in patient"):
            let session = try await login(email: "patient\(counter)@example.org")
            return ["token": .string(session.token), "userID": .string(session.userID)]
        case ("identity", "a logged-in admin"):
            let session = try await loginAdmin()
            return ["token": .string(session.token), "userID": .string(session.userID)]
        case ("identity", "a logged-in admin and a registered user"):
            let session = try await loginAdmin()
            let account = try await register(email: "user\(counter)@example.org")
            return ["token": .string(session.token), "email": .string(account.email)]
        case ("identity", "a session that is no longer valid"):
            // Identity answers an expired and a logged-out token alike ("unknown, expired or logged
            // out"), and its shortest session lasts an hour (IDENTITY_SESSION_HOURS ≥ 1): logout is
            // the public operation that ends a session now.
            let session = try await login(email: "gone\(counter)@example.org")
            _ = try await client.call(Identity.logout, .init(token: session.token))
            return ["token": .string(session.token)]
        case ("identity", "a registered user"), ("notifications", "a registered user"):
            let account = try await register(email: "user\(counter)@example.org")
            return ["userID": .string(account.userID)]
        case ("notifications", "a notification already delivered to a registered user"):
            let account = try await register(email: "user\(counter)@example.org")
            let key = "appointments.booked:a_\(counter)"
            let sent = try await client.call(
                Notifications.send,
                .init(
                    userID: account.userID, title: "Appointment booked", body: "first delivery", deduplicationKey: key))
            return [
                "userID": .string(account.userID), "deduplicationKey": .string(key), "notificationID": .string(sent.id),
            ]
        case ("identity", "no user with id u_missing"):
            return [:]
        case ("clinics", "a clinic that offers gp"), ("clinics", "a clinic that offers pharmacy"):
            // The directory clinics seeds into a fresh store, found through its own search.
            let service: Clinics.Service = name.hasSuffix("pharmacy") ? .pharmacy : .gp
            let nearby = try await client.call(
                Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 1, service: service))
            guard let clinic = nearby.clinics.first?.clinic else { throw StateError("no clinic offers \(service)") }
            let json = try JSONValue(parsing: try clinic.jsonString())
            var variables: [String: JSONValue] = ["clinicID": .string(clinic.id), "clinicName": .string(clinic.name)]
            variables["latitude"] = json.member("latitude")
            variables["longitude"] = json.member("longitude")
            return variables
        case ("clinics", "no clinic with id c_missing"):
            return [:]
        default:
            return nil
        }
    }

    private func register(email: String) async throws -> Identity.Account {
        try await client.call(
            Identity.register, .init(email: email, password: Self.password, displayName: "Contract Test"))
    }

    private func login(email: String) async throws -> Identity.Session {
        _ = try await register(email: email)
        return try await client.call(Identity.login, .init(email: email, password: Self.password))
    }

    /// The suite's one admin, created as `svc-supervisor admin create` does (this test process is
    /// the operator: identity's own uid) the first time a state asks for it, logged in each time.
    private func loginAdmin() async throws -> Identity.Session {
        let email = "admin@example.org"
        do {
            _ = try await client.call(
                Identity.createAdmin, .init(email: email, password: Self.password, displayName: "Contract Admin"))
        } catch {
            guard error.code == .conflict else { throw error }
        }
        return try await client.call(Identity.login, .init(email: email, password: Self.password))
    }
}

/// A provider state that could not be set up.
struct StateError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
