import Foundation
import IOInterface
import Testing
import VerticalsContract
import VerticalsWire

/// docs/PROTOCOL.md § 14 gives each `daemon.describe` message as a table of tag, field, type and
/// presence. These tests read those tables and require them to list exactly the fields of each
/// schema, with the same tags and presence, so a field added to a schema cannot go unmentioned.
@Suite("docs/PROTOCOL.md § 14 field tables")
struct ProtocolDocTableTests {
    static let schemas: [MessageSchema] = [
        Daemon.Description.schema, Daemon.OperationInfo.schema, Daemon.MessageInfo.schema, Daemon.FieldInfo.schema,
        Daemon.EnumInfo.schema, Daemon.RouteInfo.schema, Daemon.RouteAlias.schema,
    ]

    @Test(
        "PROTOCOL.md § 14's table of each describe message lists every field with its tag and presence",
        arguments: schemas)
    func describeTable_listsEveryFieldOfTheSchema(schema: MessageSchema) throws {
        let rows = try ProtocolPage.table(after: "#### `\(schema.name)`")
        let shown = rows.map { "\($0[0]) \($0[1]) \($0[3])" }
        let expected = schema.fields.map { field in
            "\(field.tag) `\(field.name)` \(Self.presence(field.presence))"
        }
        #expect(
            shown == expected,
            "docs/PROTOCOL.md § 14 should list \(schema.name) as:\n\(expected.joined(separator: "\n"))")
    }

    @Test func tableOfContents_linksEveryNumberedSection() throws {
        let page = try String(contentsOf: ProtocolPage.url, encoding: .utf8)
        let sections = page.split(separator: "\n").filter {
            $0.hasPrefix("## ") && $0.dropFirst(3).first?.isNumber == true
        }
        #expect(sections.count >= 15)
        for section in sections {
            let title = section.dropFirst(3)
            #expect(page.contains("- [\(title)]("), "the table of contents does not list \"\(title)\"")
        }
    }

    /// A presence as PROTOCOL.md § 14 spells it: `required`, `optional`, `repeated`, `defaulted <JSON default>`.
    static func presence(_ presence: FieldDescriptor.Presence) -> String {
        switch presence {
        case .required: "required"
        case .optional: "optional"
        case .repeated: "repeated"
        case .defaulted(.string(let text)): "defaulted `\"\(text)\"`"
        case .defaulted(let value): "defaulted `\(value)`"
        }
    }
}

extension ProtocolPage {
    /// The cells of each body row of the first Markdown table after the line `marker`.
    static func table(after marker: String) throws -> [[String]] {
        let lines = try String(contentsOf: url, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        guard let markerIndex = lines.firstIndex(where: { $0 == marker }),
            let header = lines[(markerIndex + 1)...].firstIndex(where: { $0.hasPrefix("|") })
        else { throw MissingBlock(marker: marker) }
        let body = lines[(header + 2)...].prefix { $0.hasPrefix("|") }
        return body.map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }
}
