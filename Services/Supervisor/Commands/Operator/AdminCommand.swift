import ArgumentParser
import VerticalsContract
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsWire

/// `svc-supervisor admin create|grant|revoke`: the first administrator and role management,
/// through the operations a running vertical marks `createsFirstAdmin`, `grantsRole` and
/// `revokesRole` (identity's `createAdmin`, `grantRole` and `revokeRole`), found through `daemon.describe`.
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

    /// `admin create EMAIL`: the password (each field the operation marks secret) from a prompt with
    /// echo off, or standard input's first line.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create the first admin (local operator only).")

        @Argument(help: "The admin's e-mail address.") var email: String
        @Option(help: "The name shown to other people (default: the part of the address before @).")
        var displayName: String?
        @OptionGroup var connection: VerticalConnectionOptions

        func run() async throws {
            try await ControlClient.reporting {
                let name = displayName ?? String(email.split(separator: "@").first ?? Substring(email))
                let (_, account) = try await MarkedCall.call(
                    .createsFirstAdmin, [("email", .string(email)), ("displayName", .string(name))], secretsFor: email,
                    connection: connection)
                print("created admin \(account.string("email") ?? email) (user \(account.string("userID") ?? "?"))")
            }
        }
    }

    /// `admin grant EMAIL ROLE`.
    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Grant a role (needs an admin's login).")
        @OptionGroup var change: RoleChangeArguments
        @OptionGroup var connection: VerticalConnectionOptions

        func run() async throws {
            try await ControlClient.reporting { try await change.apply(.grantsRole, connection: connection) }
        }
    }

    /// `admin revoke EMAIL ROLE`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a role (needs an admin's login).")
        @OptionGroup var change: RoleChangeArguments
        @OptionGroup var connection: VerticalConnectionOptions

        func run() async throws {
            try await ControlClient.reporting { try await change.apply(.revokesRole, connection: connection) }
        }
    }
}

/// The arguments `admin grant` and `admin revoke` share, and the call they make with the stored login.
struct RoleChangeArguments: ParsableArguments {
    @Argument(help: "The account's e-mail address.") var email: String
    @Argument(help: "The role, e.g. patient, clinician or admin (the roles the vertical describes).") var role: String

    /// Calls the operation marked `mark` with the stored login's token and prints the account's roles.
    func apply(_ mark: OperationMark, connection: VerticalConnectionOptions) async throws {
        guard let session = try StoredLogin.forCurrentUser(environment: ProcessEnvironment.current).load() else {
            throw CLIError(status: 77, "not logged in: svc-supervisor login EMAIL (as an admin) first")
        }
        let (_, account) = try await MarkedCall.call(
            mark, [("token", .string(session.token)), ("email", .string(email)), ("role", .string(role))],
            connection: connection, check: checkRole)
        print("\(account.string("email") ?? email): \(account.strings("roles").joined(separator: ", "))")
    }

    /// Refuses a role the operation's `role` enumeration does not have, naming the ones it has
    /// (``LearnedCall/Stale``: a newer vertical may have it).
    func checkRole(_ operation: DescribedOperation) throws {
        guard case .enumeration(let roles)? = operation.input.schema.field(named: "role")?.type,
            !roles.cases.contains(role)
        else { return }
        throw LearnedCall.Stale(refusal: CLIError(
            status: 64, "\"\(role)\" is not a role; roles: \(roles.cases.joined(separator: ", "))"))
    }
}
