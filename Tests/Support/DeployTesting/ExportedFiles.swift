import Glibc
import VerticalsSupervisorClient
import VerticalsTesting

/// Exported files as a deploy test reads and writes them: a folder's files by relative path, a
/// unit's `key=` values, a file written whole.
public enum ExportedFiles {
    /// Every file under `folder`, by path relative to it (one level of sub-folders).
    public static func onDisk(_ folder: String) -> [String: String] {
        var files: [String: String] = [:]
        for name in FolderEntries.names(in: folder) {
            let path = "\(folder)/\(name)"
            let inner = FolderEntries.names(in: path)
            if inner.isEmpty, let text = readFile(path) {
                files[name] = text
            } else {
                for file in inner { files["\(name)/\(file)"] = readFile("\(path)/\(file)") }
            }
        }
        return files
    }

    /// The value of every `key=` line of `unit`, in order.
    public static func values(_ key: String, in unit: String) -> [String] {
        unit.split(separator: "\n").compactMap { line in
            line.hasPrefix("\(key)=") ? String(line.dropFirst(key.count + 1)) : nil
        }
    }

    /// The 1-based number of the first line where `a` and `b` differ.
    public static func firstDifference(_ a: String, _ b: String) -> Int {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false)
        let right = b.split(separator: "\n", omittingEmptySubsequences: false)
        return (Array(zip(left, right)).firstIndex { $0.0 != $0.1 } ?? min(left.count, right.count)) + 1
    }
}

/// Writes `text` to `path`; whether it worked.
public func writeText(_ text: String, to path: String) -> Bool {
    // Close-on-exec, so that a child another test spawns meanwhile keeps no write handle to it.
    guard let file = fopen(path, "we") else { return false }
    defer { fclose(file) }
    return fputs(text, file) >= 0
}

/// A fixture that could not be set up.
public struct FixtureError: Error, CustomStringConvertible {
    /// What went wrong, and what to do.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
