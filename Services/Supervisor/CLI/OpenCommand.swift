import ArgumentParser
import IOInterface
import VerticalsContract
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsWire

/// `svc-supervisor open URL`: a URL as a call, after Boardy's URL openers. The URL is
/// matched against every contract's routes; its path and query become the typed Input.
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open a verticals:// URL: match it against the contracts' routes, call, print the JSON reply.",
        discussion: """
            Examples:
              svc-supervisor open 'verticals://clinics/nearest?lat=51.5&lon=-0.12&limit=3'
              svc-supervisor open 'verticals://clinics/search?q=bridge'
              svc-supervisor open "verticals://appointments/APPOINTMENT-ID?token=$TOKEN"
            `svc-supervisor routes` lists every route. Exit status: 0 on success, 1 when the vertical
            answers with an error, 64 when the URL matches no route, several, or does not convert,
            69 when the vertical cannot be reached.
            """)

    @Argument(help: "The URL: verticals://VERTICAL/PATH?QUERY, or /VERTICAL/PATH?QUERY.")
    var url: String

    @OptionGroup var connection: VerticalConnectionOptions

    @Flag(name: .long, help: "Print the operation and the Input the URL stands for, without calling.")
    var dryRun = false

    func run() async throws {
        do {
            let match: RouteTable.Match
            do {
                match = try RouteTable(contracts: Contracts.all).match(url)
            } catch {
                throw CLIError(status: 64, error.description)
            }
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
            print(try await VerticalCaller.callJSON(match.operation, input, connection: connection))
        } catch let error as CLIError {
            StandardError.write("error: \(error)\n")
            throw ExitCode(error.status)
        }
    }
}
