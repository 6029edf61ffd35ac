import ArgumentParser
import Glibc
import VerticalsContract
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// `logs --all`: every `<name>.log` of the folder, merged by each line's timestamp and printed
/// as `<name> <line>`; with `-f`, new lines of every file (and of files that appear) as they
/// come, each batch in time order.
struct AllLogs {
    let folder: String
    /// Print the lines' bytes as they are (`--raw`), not shown through ``VisibleText``.
    var raw = false

    /// One service's file and the unfinished last line read from it.
    private final class Source {
        let name: String
        var file: LogFile
        var partial: [UInt8] = []

        init(name: String, folder: String) {
            self.name = name
            file = LogFile(path: "\(folder)/\(name).log")
        }

        /// The complete lines written since the last read.
        func newLines() -> [ArraySlice<UInt8>] {
            var text = partial + file.readToEnd()
            if file.wasReplaced {
                // Rotated: the rest of the old file was just read; now the new one from its start.
                file = LogFile(path: file.path)
                text += file.readToEnd()
            }
            guard let end = text.lastIndex(of: UInt8(ascii: "\n")) else {
                partial = text
                return []
            }
            partial = Array(text[(end + 1)...])
            return text[..<end].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        }
    }

    func run(lines: Int, follow: Bool) throws {
        var sources: [String: Source] = [:]
        let width = { (sources: [String: Source]) in sources.keys.map(\.count).max() ?? 0 }
        func discover() {
            for name in Self.serviceNames(in: folder) where sources[name] == nil {
                sources[name] = Source(name: name, folder: folder)
            }
        }
        discover()
        guard !sources.isEmpty || follow else {
            Terminal.error("error: no logs in \(folder): did the supervisor run with this --run-dir?")
            throw ExitCode(66)
        }
        let first = sources.values.flatMap { source in source.newLines().suffix(lines).map { (source.name, $0) } }
        print(Self.inTimeOrder(first).suffix(lines), width: width(sources))
        guard follow else { return }

        let watcher = try LogFile.watch(folder)
        var events = [UInt8](repeating: 0, count: 4096)
        while read(watcher, &events, events.count) > 0 {
            discover()
            let batch = sources.values.flatMap { source in source.newLines().map { (source.name, $0) } }
            print(Self.inTimeOrder(batch)[...], width: width(sources))
        }
    }

    /// `<name>.log` files of `folder`, as service names, sorted.
    static func serviceNames(in folder: String) -> [String] {
        FolderEntries.names(in: folder)
            .filter { $0.hasSuffix(".log") && !$0.hasPrefix(".") }.map { String($0.dropLast(4)) }.sorted()
    }

    /// Stable order by each line's leading RFC 3339 time; a line without one keeps its place
    /// after the line before it from the same file.
    static func inTimeOrder(_ lines: [(String, ArraySlice<UInt8>)]) -> [(String, ArraySlice<UInt8>)] {
        var last: [String: Int64] = [:]
        let keyed = lines.enumerated().map { index, entry -> (Int64, Int, (String, ArraySlice<UInt8>)) in
            let stamp = entry.1.split(separator: UInt8(ascii: " "), maxSplits: 1).first
                .flatMap { RFC3339.parse(String(decoding: $0, as: UTF8.self)) }
            let time = stamp?.microsecondsSinceEpoch ?? last[entry.0] ?? Int64.min
            last[entry.0] = time
            return (time, index, entry)
        }
        return keyed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    /// Prints each line led by its service's name, padded to `width`.
    private func print(_ lines: ArraySlice<(String, ArraySlice<UInt8>)>, width: Int) {
        guard !lines.isEmpty else { return }
        for (name, line) in lines {
            let lead = name + String(repeating: " ", count: max(width - name.count, 0)) + " "
            Terminal.logLine(Array(lead.utf8) + line, raw: raw)
        }
        Terminal.flush()
    }
}
