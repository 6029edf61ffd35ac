import Glibc
import Testing
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

    /// The Swift files below `folders` and the `files` a rule test reads, each named from the
    /// repository's root (`Shared/Client/Calling`); records an issue unless the walk finds more
    /// than `least`, so that a rule over a moved folder fails rather than passes on nothing.
    public static func swiftFiles(
        in folders: [String], files: [String] = [], moreThan least: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [String] {
        let root = ManifestFixture.repositoryRoot
        let paths = folders.flatMap { swiftFiles(under: "\(root)/\($0)") } + files.map { "\(root)/\($0)" }
        #expect(paths.count > least, "the walk found the sources: \(paths.count)", sourceLocation: sourceLocation)
        return paths
    }
}
