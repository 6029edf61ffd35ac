import VerticalsWire

extension BuildDescription {
    /// The most bytes `--describe` output may take: a description of every operation of a large
    /// vertical and its callees is well under it.
    public static let maxBytes = 4 << 20

    /// `--describe`'s output: the JSON form, one line.
    public func printed() throws(WireValueError) -> String {
        try jsonString() + "\n"
    }

    /// Reads `--describe` output back, refusing anything malformed with a ``ReadError``: more
    /// than ``maxBytes``, not UTF-8, not the JSON form of a build description, or a description
    /// whose field tables do not read back as schemas.
    public static func read(_ bytes: [UInt8]) throws(ReadError) -> BuildDescription {
        guard !bytes.isEmpty else { throw ReadError(.empty, "printed nothing") }
        guard bytes.count <= maxBytes else {
            throw ReadError(.tooLarge, "printed more than \(maxBytes) bytes")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ReadError(.malformed, "printed bytes that are not UTF-8")
        }
        let build: BuildDescription
        do {
            build = try BuildDescription(json: text)
        } catch {
            throw ReadError(.malformed, "printed something that is not a build description: \(error)")
        }
        for description in [build.serves] + build.callees {
            do {
                _ = try ServiceDescription.catalog(of: description)
            } catch {
                throw ReadError(
                    .malformed, "describes \(description.name) with field tables that do not read back: \(error)")
            }
        }
        return build
    }

    /// `--describe` output that cannot be used.
    ///
    /// Its ``code`` follows its ``reason``: compare either with their static members.
    public struct ReadError: CodedError {
        /// What kind of problem it is: its ``reason``, as a code.
        public typealias Code = ErrorKind<ReadError>

        /// What was wrong.
        public enum Reason: String, Equatable, Sendable {
            /// No output at all.
            case empty
            /// More than ``BuildDescription/maxBytes``.
            case tooLarge
            /// Not the JSON form of a build description.
            case malformed
        }

        /// What was wrong.
        public var reason: Reason
        /// In words, after "the build …".
        public var detail: String

        /// Creates the error.
        public init(_ reason: Reason, _ detail: String) {
            self.reason = reason
            self.detail = detail
        }

        /// The ``reason``, as a code.
        public var code: Code { Code(reason.rawValue) }
        /// The ``detail``.
        public var message: String { detail }
    }
}

extension ErrorKind where Domain == BuildDescription.ReadError {
    /// No output at all.
    public static var empty: Self { Self(BuildDescription.ReadError.Reason.empty.rawValue) }
    /// More than ``BuildDescription/maxBytes``.
    public static var tooLarge: Self { Self(BuildDescription.ReadError.Reason.tooLarge.rawValue) }
    /// Not the JSON form of a build description.
    public static var malformed: Self { Self(BuildDescription.ReadError.Reason.malformed.rawValue) }
}
