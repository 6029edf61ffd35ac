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
/// It is not a `CodedError`, on purpose: the generator depends on no other module (not even
/// VerticalsWire, where `CodedError` lives), so its build-tool plugin builds in seconds; a program
/// reads its ``diagnostics``.
public struct ContractGenerationError: Error, Sendable, CustomStringConvertible {
    /// The problems, in file order.
    public var diagnostics: [ContractDiagnostic]

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
