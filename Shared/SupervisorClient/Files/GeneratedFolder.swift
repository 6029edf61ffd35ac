#if canImport(Glibc)
import Glibc
import VerticalsClient
#endif

/// A folder of generated files (`deploy/systemd`): writes what changed, each whole
/// (``ReplacedFile``) so a reader never sees half a file, leaves the rest untouched, and removes the files it owns
/// that are no longer generated.
///
/// ```swift
/// let report = try GeneratedFolder(path: "deploy/systemd")
///     .replace(with: try SystemdExport.files(for: manifest)) { $0.hasPrefix("verticals-") }
/// ```
public struct GeneratedFolder: Sendable {
    /// The folder.
    public let path: String

    /// A folder at `path` (made when first written).
    public init(path: String) {
        self.path = path
    }

    /// Which files were written and removed, by path relative to the folder.
    public struct Report: Sendable, Equatable {
        /// Files that were missing or differed, now written.
        public var written: [String] = []
        /// Owned files that are no longer generated, now removed.
        public var removed: [String] = []
    }

    /// Makes the folder hold `files` (paths relative to it; sub-folders are made as needed);
    /// a top-level file for which `owning` holds and that `files` lacks is removed.
    public func replace(
        with files: [String: String], owning: (String) -> Bool
    ) throws(SupervisorError) -> Report {
        var report = Report()
        for (relative, text) in files.sorted(by: { $0.key < $1.key }) {
            let target = "\(path)/\(relative)"
            if WholeFile.read(target) == text { continue }
            try RunDirectory.makeDirectories(
                String(target[..<(target.lastIndex(of: "/") ?? target.startIndex)]), mode: 0o755)
            try ReplacedFile.write(Array(text.utf8), to: target, mode: 0o644)
            report.written.append(relative)
        }
        for name in topLevelNames().sorted() where owning(name) && files[name] == nil {
            guard unlink("\(path)/\(name)") == 0 else {
                throw SupervisorError.system("cannot remove \(path)/\(name)", path: "\(path)/\(name)")
            }
            report.removed.append(name)
        }
        return report
    }

    private func topLevelNames() -> [String] {
        FolderEntries.names(in: path)
    }
}
