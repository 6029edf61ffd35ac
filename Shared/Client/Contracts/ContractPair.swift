import VerticalsContract
import VerticalsWire

/// How a caller built against one description of a callee gets on with the build of the callee
/// that serves: PROTOCOL.md § 8 read in one direction, for one pair of builds.
///
/// The guard (``Compatibility``) judges a change for every peer of either version, so it refuses
/// whatever could break some pair. A pair has roles instead: the caller writes each Input and the
/// callee reads it (a *request*); the callee writes each Output and the caller reads it (an
/// *answer*). What one side has and the other lacks then means one thing: a reader skips a field
/// it does not know, takes nil or the default for one it is not sent, and fails only on what it
/// requires and does not get, or on bytes that mean something else to it.
///
/// Each difference gets a ``Verdict`` from one table (``verdict(_:_:)``), which PROTOCOL.md § 8
/// prints and a test holds to it: ``Verdict/refuse`` when calls of the operation would fail or be
/// misread, ``Verdict/warn`` when some calls would fail with a typed error or something the caller
/// means would be lost without a word, ``Verdict/nothing`` when PROTOCOL.md § 8 makes the
/// difference harmless.
///
/// ```swift
/// let findings = ContractPair.compare(builtAgainst: callerBuild.builtAgainst("clinics")!, serves: served)
/// let refused = findings.filter { $0.verdict == .refuse }
/// ```
public enum ContractPair {
    /// What a difference comes to for the pair.
    public enum Verdict: String, Sendable, Hashable, CaseIterable, Comparable {
        /// Harmless: PROTOCOL.md § 8 says how the reader copes.
        case nothing
        /// Calls keep working, but some may fail with a typed error, or something the writer
        /// sends is skipped without a word: said once, never refused.
        case warn
        /// Calls of the operation would fail or be misread: refused.
        case refuse

        public static func < (lhs: Verdict, rhs: Verdict) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// Which message a difference is in, and so who writes and who reads it.
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        /// An Input: the caller writes, the callee reads.
        case request
        /// An Output: the callee writes, the caller reads.
        case answer
    }

    /// A kind of difference between the writer's and the reader's description of one message
    /// (or, for the operation's own rows, between the caller's and the callee's).
    public enum Difference: String, Sendable, Hashable, CaseIterable {
        /// A field only the writer has: the reader skips it.
        case fieldOnlyWriterHas
        /// A required field only the reader has: the writer never sends it.
        case requiredFieldOnlyReaderHas
        /// An optional, defaulted or repeated field only the reader has: it takes nil, the default or `[]`.
        case optionalFieldOnlyReaderHas
        /// A field the reader requires and the writer may leave out.
        case readerRequiresWhatWriterMayOmit
        /// One tag, two names: two fields that happen to share a tag.
        case tagNamesAnotherField
        /// One field, another type (or a single value against a list).
        case typeDiffers
        /// A defaulted field whose default differs: a value left out means two things.
        case defaultDiffers
        /// An enumeration case only the writer has.
        case caseOnlyWriterHas
        /// An enumeration case only the reader has.
        case caseOnlyReaderHas
        /// The reader bounds a field tighter than the writer does (or the writer not at all).
        case readerBoundTighter
        /// The reader bounds a field looser than the writer does (or not at all).
        case readerBoundLooser
        /// An operation the caller declares that the callee does not serve (or serves under
        /// another service's name).
        case operationNotServed
        /// An operation the callee serves that the caller does not declare.
        case operationNotDeclared
        /// An error code only the caller's build declares: the callee no longer answers it.
        case errorCodeOnlyCallerHas
        /// An error code only the callee declares: the caller's build does not expect it.
        case errorCodeOnlyCalleeHas
    }

    /// The table: what `difference` comes to in a message going in `direction`.
    public static func verdict(_ difference: Difference, _ direction: Direction) -> Verdict {
        switch difference {
        case .requiredFieldOnlyReaderHas, .readerRequiresWhatWriterMayOmit, .tagNamesAnotherField, .typeDiffers,
            .defaultDiffers, .operationNotServed:
            .refuse
        case .fieldOnlyWriterHas:
            // The callee skips what the caller sends: the caller's meaning is lost. The caller
            // skipping what the callee adds is a compatible change of PROTOCOL.md § 8.
            direction == .request ? .warn : .nothing
        case .caseOnlyWriterHas:
            // The callee answers invalidInput to a request with that case; the caller keeps an
            // unknown case it reads back as `unknown(name)`.
            direction == .request ? .warn : .nothing
        case .readerBoundTighter, .errorCodeOnlyCallerHas:
            .warn
        case .optionalFieldOnlyReaderHas, .caseOnlyReaderHas, .readerBoundLooser, .operationNotDeclared,
            .errorCodeOnlyCalleeHas:
            .nothing
        }
    }

    /// One difference of the pair, judged.
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// What differs.
        public let difference: Difference
        /// In which message's direction (an operation's own rows count as requests).
        public let direction: Direction
        /// The operation, e.g. `book`.
        public let operation: String
        /// Where: `Message.field` (or empty for the operation itself).
        public let place: String
        /// What differs, in words, naming both sides.
        public let detail: String

        /// What it comes to (``ContractPair/verdict(_:_:)``).
        public var verdict: Verdict { ContractPair.verdict(difference, direction) }

        /// Creates a finding.
        public init(
            _ difference: Difference, _ direction: Direction, operation: String, place: String, _ detail: String
        ) {
            self.difference = difference
            self.direction = direction
            self.operation = operation
            self.place = place
            self.detail = detail
        }

        public var description: String {
            "\(verdict.rawValue) \(difference.rawValue): \(operation)" + (place.isEmpty ? "" : " \(place)")
                + ": \(detail)"
        }
    }

    /// Every difference between what a caller was built against (`builtAgainst`: the operations it
    /// declares) and what the callee's build `serves`, judged for the pair. A description that does
    /// not read back as schemas is a refusal of every operation the caller declares.
    public static func compare(builtAgainst: Daemon.Description, serves: Daemon.Description) -> [Finding] {
        let callerCatalog: SchemaCatalog
        let calleeCatalog: SchemaCatalog
        do {
            (callerCatalog, calleeCatalog) = try ServiceDescription.catalogs(of: builtAgainst, serves)
        } catch {
            return builtAgainst.operations.map {
                Finding(
                    .typeDiffers, .request, operation: $0.name, place: "",
                    "a description does not read back as schemas: \(error)")
            }
        }
        var findings: [Finding] = []
        for declared in builtAgainst.operations {
            guard let served = serves.operations.first(where: { $0.name == declared.name }) else {
                findings.append(
                    Finding(
                        .operationNotServed, .request, operation: declared.name, place: "",
                        "\(serves.name) does not serve it: every call is answered unimplemented"))
                continue
            }
            guard served.service == declared.service else {
                findings.append(
                    Finding(
                        .operationNotServed, .request, operation: declared.name, place: "",
                        "the caller sends it as \(declared.service).\(declared.name), the callee serves "
                            + "\(served.service).\(served.name)"))
                continue
            }
            for code in declared.errors where !served.errors.contains(code) {
                findings.append(
                    Finding(
                        .errorCodeOnlyCallerHas, .answer, operation: declared.name, place: "",
                        "the caller's build expects `\(code.wireName)`, which the callee no longer declares"))
            }
            for code in served.errors where !declared.errors.contains(code) {
                findings.append(
                    Finding(
                        .errorCodeOnlyCalleeHas, .answer, operation: declared.name, place: "",
                        "the callee may answer `\(code.wireName)`, which the caller's build does not declare"))
            }
            var walk = PairWalk(operation: declared.name)
            walk.compare(
                writer: (callerCatalog, declared.input), reader: (calleeCatalog, served.input), direction: .request)
            walk.compare(
                writer: (calleeCatalog, served.output), reader: (callerCatalog, declared.output), direction: .answer)
            findings += walk.findings
        }
        for served in serves.operations where !builtAgainst.operations.contains(where: { $0.name == served.name }) {
            findings.append(
                Finding(
                    .operationNotDeclared, .request, operation: served.name, place: "", "the caller does not call it"))
        }
        return findings.sorted { $0.verdict > $1.verdict }
    }
}

/// Walks one operation's messages as a writer and a reader see them, in pairs.
private struct PairWalk {
    let operation: String
    var findings: [ContractPair.Finding] = []
    private var compared: Set<String> = []
    /// How many messages deep the walk is: a description is a peer's answer, and a chain of
    /// messages each holding the next must not take the stack.
    private var depth = 0
    /// The deepest nesting compared; deeper is refused, unread.
    static let maxDepth = 64

    init(operation: String) {
        self.operation = operation
    }

    private mutating func note(
        _ difference: ContractPair.Difference, _ direction: ContractPair.Direction, _ place: String, _ detail: String
    ) {
        findings.append(ContractPair.Finding(difference, direction, operation: operation, place: place, detail))
    }

    /// Compares the message the writer writes with the one the reader reads in its place.
    mutating func compare(
        writer: (catalog: SchemaCatalog, message: String), reader: (catalog: SchemaCatalog, message: String),
        direction: ContractPair.Direction
    ) {
        guard compared.insert("\(writer.message)|\(reader.message)|\(direction)").inserted else { return }
        let (writes, reads) = direction == .request ? ("the caller", "the callee") : ("the callee", "the caller")
        guard let written = writer.catalog.message(named: writer.message),
            let read = reader.catalog.message(named: reader.message)
        else {
            note(
                .typeDiffers, direction, reader.message,
                "message \(writer.message) or \(reader.message) has no field table")
            return
        }
        for field in written.fields {
            let at = "\(reader.message).\(field.name)"
            guard let other = read.field(tag: field.tag) else {
                note(
                    .fieldOnlyWriterHas, direction, at,
                    "\(writes) may send `\(field.name)` (tag \(field.tag)); \(reads) skips it")
                continue
            }
            if other.name != field.name {
                note(
                    .tagNamesAnotherField, direction, at,
                    "tag \(field.tag) is `\(field.name)` to \(writes), `\(other.name)` to \(reads)")
                continue
            }
            compareValues(
                writer: (writer.catalog, field), reader: (reader.catalog, other), direction: direction, at: at)
        }
        for field in read.fields where written.field(tag: field.tag) == nil {
            let at = "\(reader.message).\(field.name)"
            if field.presence == .required {
                note(
                    .requiredFieldOnlyReaderHas, direction, at,
                    "\(reads) requires `\(field.name)`, which \(writes) never sends")
            } else {
                note(
                    .optionalFieldOnlyReaderHas, direction, at,
                    "\(reads) reads `\(field.name)`, which \(writes) never sends")
            }
        }
    }

    private mutating func compareValues(
        writer: (catalog: SchemaCatalog, field: FieldDescriptor),
        reader: (catalog: SchemaCatalog, field: FieldDescriptor),
        direction: ContractPair.Direction, at: String
    ) {
        let (written, read) = (writer.field, reader.field)
        let (writes, reads) = direction == .request ? ("the caller", "the callee") : ("the callee", "the caller")
        switch (written.presence, read.presence) {
        case (.repeated, let other) where other != .repeated, (let other, .repeated) where other != .repeated:
            note(.typeDiffers, direction, at, "a list to one side, a single value to the other")
            return
        case (let presence, .required) where presence != .required:
            note(.readerRequiresWhatWriterMayOmit, direction, at, "\(reads) requires it; \(writes) may leave it out")
        case (.defaulted(let one), .defaulted(let other)) where one != other:
            note(.defaultDiffers, direction, at, "left out, it means one default to \(writes), another to \(reads)")
        default:
            break
        }
        switch (written.type, read.type) {
        case (.message(let one), .message(let other)):
            guard depth < Self.maxDepth else {
                note(.typeDiffers, direction, at, "messages nested deeper than \(Self.maxDepth): not compared")
                return
            }
            depth += 1
            compare(writer: (writer.catalog, one.name), reader: (reader.catalog, other.name), direction: direction)
            depth -= 1
        case (.enumeration(let one), .enumeration(let other)):
            for name in one.cases where !other.cases.contains(name) {
                note(
                    .caseOnlyWriterHas, direction, at, "\(writes) may send case `\(name)`, which \(reads) does not know"
                )
            }
            for name in other.cases where !one.cases.contains(name) {
                note(.caseOnlyReaderHas, direction, at, "\(reads) knows case `\(name)`, which \(writes) never sends")
            }
        case (let one, let other) where one != other:
            note(.typeDiffers, direction, at, "`\(one)` to \(writes), `\(other)` to \(reads)")
        default:
            break
        }
        let tighter: Bool
        switch (written.maxBytes, read.maxBytes) {
        case (let one?, let other?): tighter = other < one
        case (nil, _?): tighter = true
        default: tighter = false
        }
        if tighter {
            let writerBound = written.maxBytes.map { "\($0) bytes" } ?? "no bound"
            note(
                .readerBoundTighter, direction, at,
                "\(reads) refuses values over \(read.maxBytes ?? 0) bytes; \(writes) allows \(writerBound)")
        } else if written.maxBytes != read.maxBytes {
            note(.readerBoundLooser, direction, at, "\(reads) allows more than \(writes) sends")
        }
    }
}
