import ArgumentParser
import VerticalsContract
import VerticalsClient
import VerticalsWire

/// `svc-supervisor password`: changes the logged-in account's password through the operation
/// marked `changesPassword` of the vertical the manifest names to receive `password`, with the stored token;
/// the current and the new password are the fields it marks secret, read with echo off. Every
/// session of the account ends with it, the stored one too, which is then forgotten.
struct PasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password",
        abstract: "Change the logged-in account's password; every session of the account ends.",
        discussion: """
            Needs a login (svc-supervisor login). Each password the operation marks secret (the
            current one, then the new one) comes from a prompt with echo off, or from a line of standard
            input when it is not a terminal. Log in again afterwards, with the new password.
            """)

    @OptionGroup var connection: VerticalConnectionOptions

    func run() async throws {
        try await ControlClient.reporting {
            let store = try StoredLogin.forCurrentUser(environment: ProcessEnvironment.current)
            guard let session = try store.load() else {
                throw CLIError(.notLoggedIn, status: 77, "not logged in: svc-supervisor login first")
            }
            let (_, ended) = try await MarkedCall.call(
                .changesPassword, MarkedInput(words: [], token: session.token, asksSecrets: true),
                subject: "this account",
                connection: connection)
            try store.delete()
            let count = ended.number("count").map { "\($0)" } ?? "every"
            Terminal.print(
                "password changed; \(count) session(s) ended, this one too: svc-supervisor login with the new password")
        }
    }
}
