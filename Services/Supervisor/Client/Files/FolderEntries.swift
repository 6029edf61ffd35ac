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
