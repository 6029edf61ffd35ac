import Glibc

/// Where this process runs from and in: the folder of the `svc-supervisor` executable (where
/// vt-exec and the verticals it launches are built or installed) and the working directory.
///
/// ```swift
/// let shim = ProgramPaths.ownDirectory() + "/vt-exec"
/// ```
package enum ProgramPaths {
    /// The folder svc-supervisor runs from (`/proc/self/exe`), else the working directory.
    package static func ownDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return currentDirectory() }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    }

    /// The working directory, or `.` when it cannot be read.
    package static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        return getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? "."
    }
}
