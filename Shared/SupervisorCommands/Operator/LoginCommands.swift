import ArgumentParser
import VerticalsContract
import VerticalsClient
import VerticalsWire

/// `svc-supervisor login VALUE…`: logs in through the operation marked `issuesSession` of the
/// vertical the manifest names to receive sessions (``SecretRecipients``), its Input built from the operation's schema (``MarkedInput``), and keeps the session for the
/// current user (``StoredLogin``), so `call` attaches its token where an operation needs one.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract:
            "Log in through the operation marked issuesSession and keep the session token for this user (mode 0600).",
        discussion: """
            The vertical called is the one the manifest names to receive sessions (receives =
            ["sessions"]), as the supervisor's status says it, else verticals-secrets.conf beside the
            systemd units or VERTICALS_SECRETS_FILE: never one chosen by what verticals describe. Its
            operation marked issuesSession is called; a description that claims a kind of secret the
            manifest gives another vertical is refused. The values given fill its Input's required fields in order (svc-supervisor describe shows
            them); --field-name VALUE gives any field by name. Before a secret is sent, the vertical's
            socket must be held by root, this user, its verticals-NAME user or the process the supervisor
            runs as it, or lie where only root can have placed it (over TLS, its certificate must name it). The token goes to $XDG_STATE_HOME/verticals/session.json (else
            ~/.local/state/verticals/). Each field the operation marks secret comes from a prompt with
            echo off, or from a line of standard input when it is not a terminal.
            """)

    @OptionGroup var call: MarkedCallArguments

    func run() async throws {
        try await ControlClient.reporting {
            let store = try StoredLogin.forCurrentUser(environment: ProcessEnvironment.current)
            let input = MarkedInput(words: call.fields, asksSecrets: true)
            let subject = input.subject(else: "this account")
            let (operation, output) = try await MarkedCall.call(
                .issuesSession, input, subject: subject, connection: call.connection)
            guard let session = StoredSession(output) else {
                throw CLIError(
                    .badAnswer, status: 76,
                    "\(operation.fullName) answered a session without a \"\(OperationMark.sessionTokenField)\" string")
            }
            try store.save(session)
            Terminal.print("logged in as \(subject) through \(operation.fullName); token kept in \(store.path)")
        }
    }
}

/// `svc-supervisor logout`: revokes the stored token (the operation marked `endsSession`), then
/// forgets it; with `--everywhere`, every session of the user (the operation marked `endsAllSessions`).
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Revoke the stored session token (the operation marked endsSession) and delete it.")

    @Flag(help: "End every session of this account, on every device, not only this one.") var everywhere = false
    @OptionGroup var connection: VerticalConnectionOptions

    func run() async throws {
        try await ControlClient.reporting {
            let store = try StoredLogin.forCurrentUser(environment: ProcessEnvironment.current)
            guard let session = try store.load() else {
                Terminal.print("not logged in")
                return
            }
            do {
                let (_, ended) = try await MarkedCall.call(
                    everywhere ? .endsAllSessions : .endsSession, MarkedInput(words: [], token: session.token),
                    subject: "this account", connection: connection)
                if everywhere {
                    Terminal.print(
                        "ended \(ended.number("count").map { "\($0)" } ?? "every") session(s) of this account")
                }
            } catch let error as CLIError {
                // Refused (expired or revoked already): nothing left to revoke; forget it anyway.
                guard error.code == .refused else { throw error }
                Terminal.error("note: \(error)")
            }
            try store.delete()
            Terminal.print("logged out")
        }
    }
}
