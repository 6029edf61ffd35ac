/// The whole generation step, pure: contract files' texts in, Swift sources or diagnostics out.
/// `vt-contractgen` is this plus file I/O; tests call it directly.
public enum ContractGenerator {
    /// One contract file to generate from.
    public struct Input: Sendable {
        /// The path diagnostics name.
        public var path: String
        /// The file's text.
        public var text: String

        /// Creates an input.
        public init(path: String, text: String) {
            self.path = path
            self.text = text
        }
    }

    /// The Swift source of every input, in order; or every problem found (syntax errors stop
    /// their own file only, so one run reports a problem in each file).
    public static func generate(_ inputs: [Input]) -> Result<[String], ContractGenerationError> {
        var files: [ContractFile] = []
        var problems: [ContractDiagnostic] = []
        for input in inputs {
            do {
                files.append(try ContractParser.parse(input.text, path: input.path))
            } catch {
                problems.append(error)
            }
        }
        let (checker, checkProblems) = ContractChecker.check(files)
        problems += checkProblems
        guard problems.isEmpty else { return .failure(ContractGenerationError(diagnostics: problems)) }
        return .success(files.map { SwiftEmitter.swift(for: $0, checker: checker) })
    }

    /// The output file name for a contract file: `clinics.vcontract` → `clinics.vcontract.swift`
    /// (never the name of a hand-written file beside it, which a module must not have twice).
    public static func outputName(for path: String) -> String {
        (path.split(separator: "/").last.map(String.init) ?? path) + ".swift"
    }
}

/// Why generation failed: every diagnostic, each `file:line:col: error: message`.
///
/// It has the framework's error shape without being a `CodedError`, on purpose: the generator
/// depends on no other module (not even VerticalsWire, where `CodedError` lives), so its
/// build-tool plugin builds in seconds. Its ``code`` is ``Code/invalidContracts``, its
/// ``message`` every diagnostic, and a program reads each one's code and place in ``diagnostics``.
public struct ContractGenerationError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is; its raw value is the code's name, as `ErrorKind` prints it.
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// One or more contract files have problems: the ``ContractGenerationError/diagnostics``.
        case invalidContracts
    }

    /// The problems, in file order.
    public var diagnostics: [ContractDiagnostic]

    /// Creates the error for `diagnostics`.
    public init(diagnostics: [ContractDiagnostic]) { self.diagnostics = diagnostics }

    /// What kind of failure it is: always ``Code/invalidContracts``.
    public var code: Code { .invalidContracts }

    /// Every diagnostic, one a line.
    public var message: String { diagnostics.map(\.description).joined(separator: "\n") }

    /// The ``message``.
    public var description: String { message }
}
