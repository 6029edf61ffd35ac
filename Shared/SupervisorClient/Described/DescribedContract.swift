import VerticalsClient
import VerticalsContract
import VerticalsWire

/// A vertical's contract as its running daemon describes it (`daemon.describe`): what the CLI
/// calls, lists and routes with, learned at run time instead of compiled in, so a CLI built
/// before a vertical existed still calls it.
///
/// ```swift
/// let contract = try DescribedContract(description)
/// let nearest = contract.operation(named: "nearest")
/// let input = try MessageValue(json: text, as: nearest!.input.schema)
/// ```
public struct DescribedContract: Sendable {
    /// The description it was read from.
    public let description: Daemon.Description
    /// The description's messages and enumerations as schemas.
    public let schemas: SchemaCatalog
    /// Every operation it serves, in routing order (built-ins included).
    public let operations: [DescribedOperation]

    /// The vertical's name.
    public var name: String { description.name }
    /// One sentence about it.
    public var summary: String { description.summary }

    /// Reads `description`; throws, naming what is wrong, when it is not one a build of this
    /// framework could have made (a message it names but does not list, a bad route, a name
    /// outside the grammar or a count over `DescriptionBounds`), or when it speaks for another
    /// vertical: each operation travels under the description's own name or as a `daemon.*`
    /// built-in, so no vertical's description can claim another's operations or routes.
    public init(_ description: Daemon.Description) throws(SchemaCatalogError) {
        if let problem = DescriptionBounds.problem(description) {
            throw SchemaCatalogError(
                .refused, "the description of \(PeerText(description.name, maxBytes: 64)) is refused: \(problem)")
        }
        for info in description.operations where info.service != description.name && info.service != Daemon.name {
            throw SchemaCatalogError(
                .refused,
                "\(description.name) describes \(info.service).\(info.name): a description speaks for its own "
                    + "vertical (and daemon.*) only")
        }
        let schemas = try ServiceDescription.catalog(of: description)
        var operations: [DescribedOperation] = []
        for info in description.operations {
            func message(_ name: String, _ role: String) throws(SchemaCatalogError) -> MessageSchema {
                guard let schema = schemas.message(named: name) else {
                    throw SchemaCatalogError(
                        .notListed, "\(info.service).\(info.name): its \(role) \(name) is not among the messages")
                }
                return schema
            }
            var event: MessageSchema?
            if let name = info.event { event = try message(name, "event") }
            var route: Route?
            if let info = info.route { route = try ServiceDescription.route(of: info) }
            operations.append(
                DescribedOperation(
                    service: info.service, name: info.name, summary: info.summary,
                    input: try message(info.input, "input"), output: try message(info.output, "output"),
                    event: event, errors: info.errors, route: route,
                    marks: info.marks.map(OperationMark.init(rawValue:))))
        }
        self.description = description
        self.schemas = schemas
        self.operations = operations
    }

    /// The operation `name` names: `nearest` (the vertical's own), or a full `daemon.health`.
    public func operation(named name: String) -> DescribedOperation? {
        operations.first { $0.service == description.name && $0.name == name }
            ?? operations.first { $0.fullName == name }
    }

    /// The vertical's own operations (not the `daemon.*` built-ins).
    public var ownOperations: [DescribedOperation] {
        operations.filter { $0.service == description.name }
    }

    /// The first operation with `mark`.
    public func operation(marked mark: OperationMark) -> DescribedOperation? {
        operations.first { $0.marks.contains(mark) }
    }
}
