import ArgumentParser
import VerticalsContract
import VerticalsSupervisorClient

/// `svc-supervisor routes`: every URL route the running verticals declare, with the operation it
/// reaches and the parameters it takes.
struct RoutesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "List every route that `open` understands, with its operation and parameters.",
        discussion: """
            The routes are what the running verticals describe (daemon.describe): every vertical the
            supervisor runs, the manifest's (--manifest) and those with a socket, with a line for each one
            that does not answer. Exit status: 0 when every vertical answered, 69 when one does not.
            """)

    @OptionGroup var options: ListingOptions

    func run() async throws {
        try await ControlClient.reporting {
            let listed = try await LearnedListing.contracts(
                service: nil, manifest: options.manifest, connection: options.connection)
            let described = listed.entries.compactMap(\.contract)
            let table = RouteTable(described: described)
            let width = table.entries.map(\.route.template.count).max() ?? 0
            for entry in table.entries {
                let template = entry.route.template.padding(to: width)
                Terminal.print("\(template)  \(entry.operation.fullName)")
                Terminal.print("\(String(repeating: " ", count: width))    \(Self.parameters(entry))")
            }
            for entry in RouteTable.unowned(in: described) {
                Terminal.print(
                    "\(entry.operation.service): \(entry.route.template) is not served: a vertical's routes start with /\(entry.operation.service)/"
                )
            }
            for entry in listed.entries where entry.contract == nil {
                Terminal.print("\(entry.name): \(entry.silence)")
            }
            try listed.finish()
        }
    }

    /// The query parameters of a route, with their types and aliases: `lat=latitude: double`.
    static func parameters(_ entry: RouteTable.Entry) -> String {
        let inPath = Set(
            entry.route.segments.compactMap { segment -> String? in
                if case .parameter(let name) = segment { entry.route.field(named: name) } else { nil }
            })
        let alias = Dictionary(entry.route.aliases.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        let query = entry.operation.input.schema.fields.filter { !inPath.contains($0.name) }.map { field in
            let name = alias[field.name].map { "\($0)=\(field.name)" } ?? field.name
            let presence = field.presence == .required ? "" : ", \(field.presence)"
            return "\(name): \(field.type)\(presence)"
        }
        return query.isEmpty ? "(no query parameters)" : "?" + query.joined(separator: " &")
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
