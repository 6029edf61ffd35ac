import ArgumentParser
import VerticalsContract
import VerticalsClient
import VerticalsSupervisorClient

/// What `operations` and `routes` list: each vertical asked (one named, or every one of the
/// suite, ``SuiteVerticals``) with its fresh description, or why it gave none. Asking refreshes
/// the cache `call` uses.
struct LearnedListing {
    /// One vertical asked.
    struct Entry {
        /// Its name.
        let name: String
        /// Its description, when it answered.
        let contract: DescribedContract?
        /// Why it did not, e.g. `not running (no answer on .run/sockets/clinics.sock)`.
        let silence: String
    }

    /// Every vertical asked, in the suite's order.
    let entries: [Entry]
    /// The worst failure, to end the command with (after everything that answered was printed).
    let failure: CLIError?

    /// Throws ``failure``, if any.
    func finish() throws {
        if let failure { throw failure }
    }

    /// Asks `service` (or every vertical of the suite `connection` names, with `manifest`'s) for its description.
    static func contracts(
        service: String?, manifest: String?, connection: VerticalConnectionOptions
    ) async throws -> LearnedListing {
        let learned = LearnedContracts(connection: connection)
        let suite = await SuiteVerticals.find(connection: connection, manifest: manifest)
        let names = service.map { [$0] } ?? suite.names
        guard !names.isEmpty else {
            throw CLIError(
                .unreachable, status: 69,
                "no vertical found to ask: no supervisor at \(StreamCaller.runDirectory(of: connection.sockets).path), "
                    + "no manifest at \(manifest ?? SuiteVerticals.defaultManifest) and no socket in \(connection.sockets.path)"
            )
        }
        var entries: [Entry] = []
        var failure: CLIError?
        for name in names {
            do {
                entries.append(Entry(name: name, contract: try await learned.fetch(name), silence: ""))
            } catch let error as CLIError {
                if let service, !suite.names.contains(service), service != Supervisor.name, error.code == .unreachable {
                    throw CLIError(
                        .notFound, status: 64, "no vertical named \"\(service)\"; \(suite.known)", cause: error)
                }
                let silence =
                    error.code == .unreachable
                    ? "not running (no answer on \(learned.endpoint(of: name)))"
                    : "did not describe itself: \(error.description)"
                entries.append(Entry(name: name, contract: nil, silence: silence))
                if failure == nil || error.code == .unreachable {
                    failure = CLIError(error.code, status: error.status, "\(name): \(silence)", cause: error)
                }
            }
        }
        if service == nil, let first = failure {
            let silent = entries.filter { $0.contract == nil }.count
            failure = CLIError(
                first.code, status: first.status, "\(silent) of \(entries.count) verticals did not answer", cause: first
            )
        }
        return LearnedListing(entries: entries, failure: failure)
    }
}

/// The options of `operations` and `routes`: where the suite's sockets are, and a manifest whose
/// verticals to list too.
struct ListingOptions: ParsableArguments {
    @Option(
        name: .long,
        help: """
            A suite manifest whose verticals to list too, running or not (default: deploy/suite.toml when \
            present and no svc-supervisor answers on the run directory; a running suite is listed as it runs).
            """)
    var manifest: String?

    @OptionGroup var connection: VerticalConnectionOptions
}
