import Testing
import VerticalsContractGen

/// The Swift vt-contractgen writes for one contract file, and what the tests expect in it.
enum GeneratedSwift {
    /// The file vt-contractgen writes for `contract`, read from `path`.
    static func of(_ contract: String, path: String = "Sources/Shop/shop.vcontract") throws -> String {
        try ContractGenerator.generate([.init(path: path, text: contract)]).get()[0]
    }

    /// Expects each of `pieces` in `swift`, naming the one missing.
    static func expect(
        _ swift: String, contains pieces: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        for piece in pieces {
            #expect(swift.contains(piece), "missing: \(piece)\n\(swift)", sourceLocation: sourceLocation)
        }
    }
}
