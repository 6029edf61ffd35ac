import Glibc
import Testing
@testable import VerticalsContractGen
import VerticalsDeployTesting
import VerticalsTesting

/// The author of a contract gets no more than the declarations they wrote: each place a
/// contract carries text, given each of ``HostileText``'s strings, is either refused by the
/// lexer (at file:line:column) or generates Swift that `swiftc -dump-parse` reads as the same
/// declarations as a plain text gives, and no error.
@Suite(.blocking) struct ContractHostileTextTests {
    /// The places a contract's text reaches the generated Swift.
    enum Position: String, CaseIterable, Sendable {
        case messageDoc, fieldDoc, caseDoc, stringDefault, fileName
    }

    /// A contract with `text` at `position`, as (path, text).
    static func contract(_ position: Position, _ text: String) -> (path: String, text: String) {
        func doc(_ at: Position) -> String { position == at ? text : "Plain." }
        var string = ""
        for scalar in (position == .stringDefault ? text : "plain").unicodeScalars {
            if scalar == "\"" || scalar == "\\" { string += "\\" }
            string.unicodeScalars.append(scalar)
        }
        let contract = """
            contract shop

            /// \(doc(.messageDoc))
            message Find {
                /// \(doc(.fieldDoc))
                1 text: string = "\(string)"
                /// Plain.
                2 colour: Colour?
            }

            /// A colour.
            enum Colour {
                /// \(doc(.caseDoc))
                red
                /// Plain.
                green
            }

            """
        return ("Sources/Shop/\(position == .fileName ? text : "shop").vcontract", contract)
    }

    /// The generated Swift, or nil when the contract is refused (each diagnostic at file:line:column).
    static func generated(_ position: Position, _ text: String) throws -> String? {
        let (path, contract) = contract(position, text)
        switch ContractGenerator.generate([.init(path: path, text: contract)]) {
        case .success(let sources): return sources.first
        case .failure(let error):
            for diagnostic in error.diagnostics {
                #expect(diagnostic.path == path && diagnostic.location.line >= 1 && diagnostic.location.column >= 1)
            }
            return nil
        }
    }

    /// Each declaration `swiftc -frontend -dump-parse` reads in `swift`: its kind and name.
    static func declarations(_ swift: String, in directory: TemporaryDirectory) throws -> [String] {
        let file = directory.file("generated.swift")
        #expect(writeText(swift, to: file))
        let result = try runCommand(swiftc, ["-frontend", "-dump-parse", file], in: directory, timeout: .seconds(120))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("error:"), "\(result.standardError)")
        return result.standardOutput.split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("("), let kind = trimmed.dropFirst().split(separator: " ").first,
                kind.hasSuffix("_decl")
            else { return nil }
            let afterRange = trimmed.range(of: "] ").map { trimmed[$0.upperBound...] } ?? ""
            let name =
                afterRange.hasPrefix("\"") || afterRange.hasPrefix("unbound \"")
                ? afterRange.split(separator: "\"", omittingEmptySubsequences: false).dropFirst().first.map(String.init)
                    ?? "" : ""
            return "\(kind) \(name)"
        }
    }

    /// The `swiftc` on this process's `PATH` (the one building the tests).
    static let swiftc = ToolLookup.which("swiftc") ?? "/usr/bin/swiftc"

    static let plainDeclarations: [String] = {
        let directory = TemporaryDirectory()
        guard let swift = try? generated(.fieldDoc, "Plain.") else { return [] }
        return (try? declarations(swift, in: directory)) ?? []
    }()

    @Test(arguments: Position.allCases, HostileText.cases)
    func aHostileText_isRefusedByTheLexer_orDeclaresNothingTheContractDidNot(position: Position, index: Int) throws {
        let text = HostileText.all[index]
        // A doc comment is one line: a line feed starts the contract's next line, which declares
        // what it says (a case `b`), so it is not a text of the comment.
        if position != .stringDefault && position != .fileName && text.contains("\n") { return }
        guard let swift = try Self.generated(position, text) else { return }
        let directory = TemporaryDirectory()
        #expect(!Self.plainDeclarations.isEmpty)
        #expect(try Self.declarations(swift, in: directory) == Self.plainDeclarations)
    }

    @Test func aDocCommentWithACarriageReturn_isRefusedAtItsLineAndColumn() {
        let doc = "Echoes a text.\r}\rpublic func owned() {}\rextension Evil {"
        let (path, contract) = Self.contract(.fieldDoc, doc)
        guard case .failure(let error) = ContractGenerator.generate([.init(path: path, text: contract)]) else {
            Issue.record("a carriage return in a doc comment was accepted")
            return
        }
        #expect(error.description.hasPrefix("\(path):5:23: error: a control character (U+000D) in a doc comment"))
    }

    @Test func thePlainContract_generates_soARefusalAboveIsTheTextsAlone() throws {
        for position in Position.allCases {
            #expect(try Self.generated(position, "Plain.") != nil, "\(position)")
        }
        #expect(Self.plainDeclarations.contains("struct_decl Find"))
    }

    @Test func aContractWrittenWithCRLFLineEnds_isStillRead() throws {
        let (path, contract) = Self.contract(.fieldDoc, "Plain.")
        let crlf = contract.replacing("\n", with: "\r\n")
        let result = ContractGenerator.generate([.init(path: path, text: crlf)])
        #expect((try? result.get()) != nil, "\(result)")
    }

    @Test func theEmittersSyntax_neverWritesAControlCharacterIntoACommentOrAStringLiteral() {
        for text in HostileText.all {
            let comment = SwiftSyntax.docComment(text)
            #expect(!comment.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x2028 })
            let literal = SwiftSyntax.stringLiteral(text)
            #expect(!literal.unicodeScalars.contains { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) })
        }
    }
}
