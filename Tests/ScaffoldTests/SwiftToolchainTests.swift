import Foundation
import Testing
import VerticalsScaffold

/// `init` and `new` find Swift as the Makefiles' swift.mk does: `SWIFT` when it is a path, else
/// `swift` on PATH, else /opt/swift.
struct SwiftToolchainTests {
    /// The `PATH` the prefix leaves for a shell started with `path` and `swift`.
    static func path(after path: String, swift: String?) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", SwiftToolchain.shellPrefix + #"printf %s "$PATH""#]
        process.environment = ["PATH": path].merging(swift.map { ["SWIFT": $0] } ?? [:]) { a, _ in a }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    @Test func noSwiftOnPath_addsOptSwift() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("vt-noswift-\(getpid())").path
        #expect(try Self.path(after: empty, swift: nil) == "/opt/swift/usr/bin:\(empty)")
    }

    @Test func swiftNamedByPath_goesFirst_andABareNameChangesNothing() throws {
        #expect(
            try Self.path(after: "/usr/bin:/bin", swift: "/tools/swift-6/usr/bin/swift")
                == "/tools/swift-6/usr/bin:/usr/bin:/bin")
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("vt-swift-\(getpid())")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        let swift = bin.appendingPathComponent("swift")
        try "#!/bin/sh\n".write(to: swift, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        // A `swift` on PATH is the one used: nothing is added.
        #expect(try Self.path(after: "\(bin.path):/bin", swift: "swift") == "\(bin.path):/bin")
    }
}
