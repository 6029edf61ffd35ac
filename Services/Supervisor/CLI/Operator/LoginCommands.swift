import ArgumentParser
import IOInterface
import VerticalsContract
import VerticalsServiceKit

/// `svc-supervisor login EMAIL`: logs in at identity and keeps the session token for the
/// current user (``StoredLogin``), so `call` attaches it where an operation needs one.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in at identity and keep the session token for this user (mode 0600).",
        discussion: """
            The token goes to $XDG_STATE_HOME/verticals/session.json (else ~/.local/state/verticals/). The password
            comes from a prompt with echo off, or from standard input's first line when it is not a terminal.
            """)

    @Argument(help: "The account's e-mail address.") var email: String
    @OptionGroup var connection: VerticalConnectionOptions

    func run() async throws {
        try await ControlClient.reporting {
            let store = try StoredLogin.forCurrentUser(environment: ProcessEnvironment.current)
            let password = try PasswordPrompt.read(prompt: "Password for \(email): ")
            let session = try await VerticalCaller.call(
                Identity.login, .init(email: email, password: password), connection: connection)
            try store.save(session)
            print("logged in as \(email) until \(session.expiresAt); token kept in \(store.path)")
        }
    }
}

/// `svc-supervisor logout`: revokes the stored token at identity, then forgets it.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Revoke the stored session token at identity and delete it.")

    @OptionGroup var connection: VerticalConnectionOptions

    func run() async throws {
        try await ControlClient.reporting {
            let store = try StoredLogin.forCurrentUser(environment: ProcessEnvironment.current)
            guard let session = try store.load() else {
                print("not logged in")
                return
            }
            do {
                _ = try await VerticalCaller.call(Identity.logout, .init(token: session.token), connection: connection)
            } catch let error as CLIError {
                // Refused (expired or revoked already): nothing left to revoke; forget it anyway.
                guard error.status == 1 else { throw error }
                StandardError.write("note: \(error)\n")
            }
            try store.delete()
            print("logged out")
        }
    }
}
