import ArgumentParser
import VerticalsContract
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// `svc-supervisor admin create|grant|revoke`: the first administrator and role management,
/// through the operations marked `createsFirstAdmin`, `grantsRole` and `revokesRole` of the
/// vertical the manifest names to receive `first_admin` and `roles` (``SecretRecipients``); each Input is built from the operation's
/// schema (``MarkedInput``).
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Create the first admin of a fresh suite; grant and revoke roles.",
        discussion: """
            The values given fill the operation's required fields in order (svc-supervisor describe
            shows them); --field-name VALUE gives any field by name; each field it marks secret is read
            with echo off, or from a line of standard input when it is not a terminal.
            `create` works once, for the operator: run it as root, as a member of the operator group
            (its primary group) or as the user the vertical runs as, while no admin exists. `grant`
            and `revoke` need an admin's login (svc-supervisor login).
            Examples (the reference suite):
              svc-supervisor admin create ada@example.org --display-name "Ada Lovelace"
              printf '%s\\n' "$SECRET" | svc-supervisor admin create ada@example.org
              svc-supervisor admin grant grace@example.org clinician
            """,
        subcommands: [Create.self, Grant.self, Revoke.self])

    /// `admin create VALUE…`: the operation marked `createsFirstAdmin`; each field it marks secret
    /// from a prompt with echo off, or standard input's first line.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create the first admin (the operator only).")
        @OptionGroup var call: MarkedCallArguments

        func run() async throws {
            try await ControlClient.reporting {
                let input = MarkedInput(words: call.fields, asksSecrets: true)
                let (operation, account) = try await MarkedCall.call(
                    .createsFirstAdmin, input, subject: input.subject(else: "the first admin"),
                    connection: call.connection)
                Terminal.print("\(operation.fullName): \(account.serialized(pretty: false))")
            }
        }
    }

    /// `admin grant VALUE…`: the operation marked `grantsRole`, with the stored login's token.
    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Grant a role (needs an admin's login).")
        @OptionGroup var call: MarkedCallArguments

        func run() async throws {
            try await ControlClient.reporting {
                try await AdminCommand.changeRole(.grantsRole, call.fields, connection: call.connection)
            }
        }
    }

    /// `admin revoke VALUE…`: the operation marked `revokesRole`, with the stored login's token.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a role (needs an admin's login).")
        @OptionGroup var call: MarkedCallArguments

        func run() async throws {
            try await ControlClient.reporting {
                try await AdminCommand.changeRole(.revokesRole, call.fields, connection: call.connection)
            }
        }
    }

    /// Calls the operation marked `mark` with the stored login's token and `fields`, and prints its Output.
    static func changeRole(_ mark: OperationMark, _ fields: [String], connection: VerticalConnectionOptions)
        async throws
    {
        guard let session = try StoredLogin.forCurrentUser(environment: ProcessEnvironment.current).load() else {
            throw CLIError(.notLoggedIn, status: 77, "not logged in: svc-supervisor login (as an admin) first")
        }
        let input = MarkedInput(words: fields, token: session.token)
        let (operation, account) = try await MarkedCall.call(
            mark, input, subject: input.subject(else: "the account"), connection: connection)
        Terminal.print("\(operation.fullName): \(account.serialized(pretty: false))")
    }
}
