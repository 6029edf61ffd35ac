import Testing
import Foundation
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting

/// The description cache of `svc-supervisor` as an earlier run leaves it, so a test can show
/// what the CLI does from what it learned while no vertical runs.
enum LearnedCache {
    /// Caches `contract`'s description for its socket in `socketDirectory`, under a cache folder of
    /// `directory`; returns the environment that points the CLI at that cache.
    static func plant(
        _ contract: any ServiceContract.Type, socketDirectory: String, in directory: TemporaryDirectory
    ) -> [String: String] {
        plant(ServiceDescription.of(contract), socketDirectory: socketDirectory, in: directory)
    }

    /// Runs `svc-supervisor <command> --socket-dir <sockets> <arguments…>` in a fresh folder where no
    /// vertical runs, with `contract`'s description cached as an earlier run leaves it: whatever the
    /// CLI answers, it answers from what it learned.
    static func runOffline(
        _ contract: any ServiceContract.Type, _ command: String, _ arguments: [String]
    ) throws -> CommandResult {
        let directory = TemporaryDirectory()
        let sockets = directory.file("sockets")
        let cache = plant(contract, socketDirectory: sockets, in: directory)
        return try runCommand(
            "svc-supervisor", [command, "--socket-dir", sockets] + arguments, environment: cache, in: directory)
    }

    /// Caches `description` (what an older build of its vertical said) for its socket in
    /// `socketDirectory`; returns the environment that points the CLI at that cache.
    static func plant(
        _ description: Daemon.Description, socketDirectory: String, in directory: TemporaryDirectory
    ) -> [String: String] {
        let home = directory.file("cache")
        let socket = "\(socketDirectory)/\(description.name).sock"
        let name = socket.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
        let folder = "\(home)/verticals/describe"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let bytes = description.encodedBody()
        _ = FileManager.default.createFile(atPath: "\(folder)/\(name).describe", contents: Data(bytes))
        return ["XDG_CACHE_HOME": home]
    }
}
