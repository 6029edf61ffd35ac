import ArgumentParser
import VerticalsContract
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsWire

/// `svc-supervisor open URL`: a URL as a call, after Boardy's URL openers. The URL is
/// matched against the routes the running verticals describe; its path and query become the typed Input.
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open a verticals:// URL: match it against the running verticals' routes, call, print the JSON reply.",
        discussion: """
            Examples:
              svc-supervisor open 'verticals://clinics/nearest?lat=51.5&lon=-0.12&limit=3'
              svc-supervisor open 'verticals://clinics/search?q=bridge'
              svc-supervisor open "verticals://appointments/APPOINTMENT-ID?token=$TOKEN"
            The routes are those the verticals with a socket in the suite's socket folder describe
            (daemon.describe, cached like `call`'s). `svc-supervisor routes` lists them. Exit status: 0 on
            success, 1 when the vertical answers with an error, 64 when the URL matches no route, several,
            or does not convert, 69 when the vertical cannot be reached.
            """)

    @Argument(help: "The URL: verticals://VERTICAL/PATH?QUERY, or /VERTICAL/PATH?QUERY.")
    var url: String

    @OptionGroup var connection: VerticalConnectionOptions

    @Flag(name: .long, help: "Print the operation and the Input the URL stands for, without calling.")
    var dryRun = false

    func run() async throws {
        try await ControlClient.reporting {
            let learned = LearnedContracts(connection: connection)
            let names = UnknownVertical.socketNames(in: connection.sockets.path)
            var contracts = await learned.contracts(of: names, fresh: false)
            var match = try? RouteTable(described: contracts.map(\.contract)).match(url)
            if match == nil, contracts.contains(where: { !$0.fresh }) {
                // A route the cache lacks: ask the verticals again, once.
                contracts = await learned.contracts(of: names, fresh: true)
            }
            if match == nil {
                do {
                    match = try RouteTable(described: contracts.map(\.contract)).match(url)
                } catch {
                    throw CLIError(status: 64, "\(error)")
                }
            }
            guard let match, let contract = contracts.first(where: { $0.contract.name == match.operation.service })
            else { return }
            let schema = match.operation.input.schema
            let attacher = TokenAttacher.forCurrentUser(schema: schema)
            let input: MessageValue
            do {
                input = try match.input(dryRun ? match.json : try attacher.attach(to: match.json))
            } catch let error as RouteError {
                throw CLIError(status: 64, error.description)
            }
            if dryRun {
                print(match.operation.fullName)
                print(try input.jsonText(as: schema, pretty: true))
                return
            }
            do {
                let output = try await LearnedCall.send(match.operation, input, of: contract.contract, learned: learned)
                print(try output.jsonText(as: match.operation.output.schema, pretty: true))
            } catch let stale as LearnedCall.Stale {
                throw stale.refusal
            }
        }
    }
}
