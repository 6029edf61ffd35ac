import ArgumentParser
import IOInterface
import VerticalsContract
import VerticalsServiceKit

/// `svc-supervisor admin create|grant|revoke`: the first administrator and role management,
/// through identity's `createAdmin`, `grantRole` and `revokeRole`.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Create the first admin of a fresh suite; grant and revoke roles.",
        discussion: """
            `create` works once, for a local operator: run it as root or as the user identity runs as, while
            no admin exists. `grant` and `revoke` need an admin's login (svc-supervisor login EMAIL).
            Examples:
              svc-supervisor admin create ada@example.org --display-name "Ada Lovelace"
              printf '%s\\n' "$PASSWORD" | svc-supervisor admin create ada@example.org
              svc-supervisor admin grant grace@example.org clinician
            """,
        subcommands: [Create.self, Grant.self, Revoke.self])

    /// `admin create EMAIL`: the password from a prompt with echo off, or standard input's first line.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create the first admin (local operator only).")

        @Argument(help: "The admin's e-mail address.") var email: String
        @Option(help: "The name shown to other people (default: the part of the address before @).")
        var displayName: String?
        @OptionGroup var connection: VerticalConnectionOptions

        func run() async throws {
            try await ControlClient.reporting {
                let password = try PasswordPrompt.read(prompt: "Password for \(email): ")
                let name = displayName ?? String(email.split(separator: "@").first ?? Substring(email))
                let account = try await VerticalCaller.call(
                    Identity.createAdmin, .init(email: email, password: password, displayName: name),
                    connection: connection)
                print("created admin \(account.email) (user \(account.userID))")
            }
        }
    }

    /// `admin grant EMAIL ROLE`.
    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Grant a role (needs an admin's login).")
        @OptionGroup var change: RoleChangeArguments
        @OptionGroup var connection: VerticalConnectionOptions

        func run() async throws {
            try await ControlClient.reporting { try await change.apply(Identity.grantRole, connection: connection) }
        }
    }

    /// `admin revoke EMAIL ROLE`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a role (needs an admin's login).")
        @OptionGroup var change: RoleChangeArguments
        @OptionGroup var connection: VerticalConnectionOptions

        func run() async throws {
            try await ControlClient.reporting { try await change.apply(Identity.revokeRole, connection: connection) }
        }
    }
}

/// The arguments `admin grant` and `admin revoke` share, and the call they make with the stored login.
struct RoleChangeArguments: ParsableArguments {
    @Argument(help: "The account's e-mail address.") var email: String
    @Argument(help: "The role: patient, clinician or admin.") var role: String

    func validate() throws {
        guard Identity.Role.knownCases.contains(where: { $0.wireName == role }) else {
            throw ValidationError(
                "\"\(role)\" is not a role; roles: \(Identity.Role.knownCases.map { $0.wireName }.joined(separator: ", "))")
        }
    }

    /// Calls `operation` with the stored login's token and prints the account's roles.
    func apply(
        _ operation: Operation<Identity.RoleChangeInput, Identity.Account>, connection: VerticalConnectionOptions
    ) async throws {
        guard let session = try StoredLogin.forCurrentUser(environment: ProcessEnvironment.current).load() else {
            throw CLIError(status: 77, "not logged in: svc-supervisor login EMAIL (as an admin) first")
        }
        let account = try await VerticalCaller.call(
            operation, .init(token: session.token, email: email, role: Identity.Role(wireName: role)),
            connection: connection)
        print("\(account.email): \(account.roles.map { $0.wireName }.joined(separator: ", "))")
    }
}

