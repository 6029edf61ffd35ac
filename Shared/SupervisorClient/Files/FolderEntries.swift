#if canImport(Glibc)
import Glibc
#endif

/// The names in a folder, read once with `readdir`: the one place the supervisor and its CLI
/// list a folder (pid records, log files, sockets, generated units).
///
/// ```swift
/// let logs = FolderEntries.names(in: "\(run)/logs").filter { $0.hasSuffix(".log") }
/// ```
public enum FolderEntries {
    /// Every entry of `folder` but `.` and `..`, in the order the folder gives them; empty when
    /// the folder cannot be opened.
    public static func names(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        return names(reading: directory)
    }

    /// Every entry of the open folder `descriptor` but `.` and `..` (the descriptor stays open and
    /// its own); empty when it cannot be read.
    public static func names(inDescriptor descriptor: Int32) -> [String] {
        let copy = dup(descriptor)
        guard copy >= 0 else { return [] }
        guard let directory = fdopendir(copy) else {
            close(copy)
            return []
        }
        defer { closedir(directory) }
        rewinddir(directory)
        return names(reading: directory)
    }

    /// The entries `directory` has left to read, but `.` and `..`.
    private static func names(reading directory: OpaquePointer) -> [String] {
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
