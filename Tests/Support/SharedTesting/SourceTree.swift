import Glibc
import VerticalsSupervisorClient

/// The repository's sources, as the rule tests that read them walk them.
public enum SourceTree {
    /// Every Swift file below `folder`, depth first.
    public static func swiftFiles(under folder: String) -> [String] {
        var pending = [folder]
        var files: [String] = []
        while let current = pending.popLast() {
            for name in FolderEntries.names(in: current) {
                let path = "\(current)/\(name)"
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    pending.append(path)
                } else if name.hasSuffix(".swift") {
                    files.append(path)
                }
            }
        }
        return files.sorted()
    }
}
