import ArgumentParser
import VerticalsContract
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// `svc-supervisor open URL`: a URL as a call, after Boardy's URL openers. The URL is
/// matched against the routes the running verticals describe; its path and query become the typed Input.
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract:
            "Open a verticals:// URL: match it against the running verticals' routes, call, print the JSON reply.",
        discussion: """
            Examples:
              svc-supervisor open 'verticals://orders/search?q=lamp&limit=3'
              svc-supervisor open verticals://orders/ORDER-ID   (after svc-supervisor login)
            The routes are those the verticals with a socket in the suite's socket folder describe
            (daemon.describe, cached per socket like `call`'s; asked again when no route matches, or when
            the vertical refuses the call as one its cached description may be out of date for).
            A URL carries no session token nor any field the operation marks secret (it would stay in
            the shell's history and the process list): the token comes from svc-supervisor login.
            `svc-supervisor routes` lists them. Exit status: 0 on success, 1 when the vertical answers
            with an error, 64 when the URL matches no route, several, or does not convert, 69 when the
            vertical cannot be reached.
            """)

    @Argument(help: "The URL: verticals://VERTICAL/PATH?QUERY, or /VERTICAL/PATH?QUERY.")
    var url: String

    @OptionGroup var connection: VerticalConnectionOptions

    @Flag(name: .long, help: "Print the operation and the Input the URL stands for, without calling.")
    var dryRun = false

    func run() async throws {
        try await ControlClient.reporting {
            let learned = LearnedContracts(connection: connection)
            // The verticals with a socket here, and those whose description is cached for one here
            // (a URL that does not fit a route is refused from what is known, running or not).
            let running = UnknownVertical.socketNames(in: connection.sockets.path)
            let names =
                running + learned.cache.names(inSocketFolder: connection.sockets.path).filter { !running.contains($0) }
            do {
                try await open(among: names, learned: learned, fresh: false)
            } catch is LearnedCall.Stale {
                // The vertical refused what its cached description promised (`unimplemented`,
                // `invalidInput`): the URL again, once, against what the verticals describe now.
                do {
                    try await open(among: names, learned: learned, fresh: true)
                } catch let again as LearnedCall.Stale {
                    throw again.refusal
                }
            }
        }
    }

    /// Matches the URL against the routes of `names` (cached descriptions first, unless `fresh`),
    /// calls the operation it reaches and prints its Output; ``LearnedCall/Stale`` when the
    /// vertical's refusal may come from a cached description.
    private func open(among names: [String], learned: LearnedContracts, fresh: Bool) async throws {
        let (match, contract): (RouteTable.Match, LearnedContracts.Found)
        do {
            (match, contract) = try await Self.resolve(url, verticals: names, learned: learned, fresh: fresh)
        } catch let error as RouteError {
            throw CLIError(.invalidInput, status: 64, "\(error)", cause: error)
        }
        let schema = match.operation.input.schema
        try Self.refuseSecrets(in: match.json, of: schema)
        let attacher = TokenAttacher.forCurrentUser(schema: schema)
        let input: MessageValue
        let attached = dryRun ? match.json : try attacher.attach(to: match.json)
        do {
            input = try match.input(attached)
        } catch {
            throw CLIError(.invalidInput, status: 64, "\(error)", cause: error)
        }
        if dryRun {
            Terminal.print("\(match.operation.fullName)")
            Terminal.json(try input.jsonText(as: schema, pretty: true))
            return
        }
        do {
            let credential = attacher.carriesCredential(attached)
            let output = try await CredentialCallee.checked(if: credential, connection: connection) {
                try await LearnedCall.send(match.operation, input, of: contract.contract, learned: learned)
            }
            Terminal.json(try output.jsonText(as: match.operation.output.schema, pretty: true))
        } catch let stale as LearnedCall.Stale where contract.fresh {
            throw stale.refusal
        }
    }

    /// Refuses (exit 64) a URL whose Input `json` gives a session token or a field `schema` marks
    /// secret: those come from the stored login, never from a command line.
    static func refuseSecrets(in json: JSONValue, of schema: MessageSchema) throws {
        guard case .object(let members) = json else { return }
        let secret = members.map(\.key).filter { key in
            key == TokenAttacher.field || schema.field(named: key)?.secret == true
        }
        guard let first = secret.first else { return }
        throw CLIError(
            .refused, status: 64,
            "the URL gives \"\(first)\": a secret in a URL stays in the shell's history and the process list. "
                + "Log in with svc-supervisor login and open the URL without it: the stored session's token is sent")
    }

    /// The route `url` matches among those of `verticals` (cached descriptions first), and the
    /// contract of the operation it reaches.
    static func resolve(
        _ url: String, verticals: [String], learned: LearnedContracts, fresh asked: Bool = false
    ) async throws -> (RouteTable.Match, LearnedContracts.Found) {
        let cached = await learned.contracts(of: verticals, fresh: false)
        if !asked {
            do {
                return try found(url, in: cached)
            } catch let error as RouteError {
                guard error.code == .noRoute, cached.contains(where: { !$0.fresh }) else { throw error }
            }
        }
        // A route the cache may lack (or a refusal it may explain): ask the verticals again, once
        // (keeping what is cached of those that do not answer).
        let fresh = await learned.contracts(of: verticals, fresh: true)
        return try found(
            url, in: fresh + cached.filter { old in !fresh.contains { $0.contract.name == old.contract.name } })
    }

    /// The route `url` matches among those of `contracts`, and the contract it belongs to; a
    /// vertical serves only URLs under its own name (``RouteTable/owns(_:of:)``).
    static func found(
        _ url: String, in contracts: [LearnedContracts.Found]
    ) throws -> (RouteTable.Match, LearnedContracts.Found) {
        let match = try RouteTable(described: contracts.map(\.contract)).match(url)
        guard let contract = contracts.first(where: { $0.contract.name == match.operation.service }) else {
            throw CLIError(
                .internal, status: 70, "\(match.operation.fullName) matched, but no contract of its vertical is known")
        }
        return (match, contract)
    }
}
