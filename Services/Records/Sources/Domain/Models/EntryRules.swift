import IOInterface
import VerticalsContract

/// What an entry must be to be stored.
package enum EntryRules {
    /// The longest text accepted, in characters.
    package static let maxTextLength = 10_000
    /// The longest text accepted, in UTF-8 bytes (the contract's bound): checked first, since one
    /// character may carry any number of combining marks.
    package static let maxTextBytes = 65_536

    /// Throws the first rule `input` breaks, naming the field.
    static func check(_ input: Records.AddEntryInput) throws(RecordsError) {
        guard input.kind.isKnown else {
            throw .invalid(field: "kind", reason: "\"\(input.kind)\" is not a kind of entry (\(knownKinds))")
        }
        guard input.text.utf8.count <= maxTextBytes else {
            throw .invalid(
                field: "text", reason: "must be at most \(maxTextBytes) bytes (got \(input.text.utf8.count))")
        }
        guard !input.text.allSatisfy(\.isWhitespace) else {
            throw .invalid(field: "text", reason: "must not be empty")
        }
        guard input.text.count <= maxTextLength else {
            throw .invalid(field: "text", reason: "must be at most 10,000 characters (got \(input.text.count))")
        }
        if let clinicID = input.clinicID, clinicID.isEmpty {
            throw .invalid(field: "clinicID", reason: "must name a clinic, or be left out")
        }
    }

    /// Throws unless `kind` (a history filter) is one this build knows.
    static func check(filter kind: Records.EntryKind?) throws(RecordsError) {
        if let kind, !kind.isKnown {
            throw .invalid(field: "kind", reason: "\"\(kind)\" is not a kind of entry (\(knownKinds))")
        }
    }

    private static var knownKinds: String {
        Records.EntryKind.knownCases.map(\.wireName).joined(separator: ", ")
    }
}
