import Testing
import VerticalsDeployTesting
import VerticalsTesting

/// The shared libraries a built program loads, as `ldd` reports them: what the image's runtime
/// stage must install, and (for a debug build) the Swift runtime a release build links in.
enum LinkedLibraries {
    /// The absolute paths of `ldd`'s output, in its order:
    /// "\tlibuv.so.1 => /lib/x86_64-linux-gnu/libuv.so.1 (0x…)".
    static func paths(lddOutput: String) -> [String] {
        lddOutput.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count >= 3, words[1] == "=>", words[2].hasPrefix("/") else { return nil }
            return String(words[2])
        }
    }

    /// Whether `path` is Swift's runtime, which lives in the toolchain and which the Containerfile's
    /// release build (`--static-swift-stdlib`) links into each program instead.
    static func isSwiftRuntime(_ path: String) -> Bool {
        path.contains("/swift/") || path.contains("/usr/lib/swift")
    }

    /// `ldd program`'s libraries; throws with ldd's words when it fails.
    static func of(_ program: String, ldd: String, in directory: TemporaryDirectory) throws -> [String] {
        let result = try runCommand(ldd, [program], in: directory)
        guard result.status == 0 else { throw FixtureError("ldd \(program): \(result.standardError)") }
        return paths(lddOutput: result.standardOutput)
    }
}
