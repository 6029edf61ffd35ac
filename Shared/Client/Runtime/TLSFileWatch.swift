#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract
import VerticalsEventLoop

/// Tells a listener when its TLS files may have changed, so a rotated certificate serves the
/// next connection: by watching the folders that hold them (inotify), so an idle daemon that
/// serves TLS still wakes for nothing, and only where that cannot be done (a folder that cannot
/// be watched, or `VERTICALS_TLS_RELOAD_SECONDS` set by the operator, e.g. for a network file
/// system inotify does not see) by looking on a timer.
///
/// Both the folder a path names and the folder its symlinks resolve to are watched: a
/// Kubernetes Secret volume swaps its `..data` link in the first, a link into another folder
/// changes in the second. Loop-confined, like its owner.
package final class TLSFileWatch {
    private var watches: [FileWatch] = []
    private var timer: LoopTimer?

    /// How the files are watched, for the start-up log.
    package let description: String

    /// Starts watching `files`; `onChange` runs on `loop`'s thread, maybe more than once per
    /// rotation (the owner's look decides whether anything changed).
    package init(files: TLSFiles, environment: [String: String], loop: EventLoop, onChange: @escaping () -> Void) {
        if let seconds = environment[DaemonSettings.tlsReloadSeconds.name].flatMap(Double.init) {
            let timer = Self.timer(every: seconds, loop: loop, onChange: onChange)
            self.timer = timer
            description = "every \(seconds) s (VERTICALS_TLS_RELOAD_SECONDS)"
            return
        }
        let folders = Self.folders(of: [files.certificate, files.key, files.authority])
        var watches: [FileWatch] = []
        var failure: String?
        for folder in folders {
            do {
                watches.append(try FileWatch(folder: folder, on: loop, onChange: onChange))
            } catch {
                failure = "\(folder): \(error)"
                break
            }
        }
        if let failure {
            for watch in watches { watch.close() }
            timer = Self.timer(every: 5, loop: loop, onChange: onChange)
            description = "every 5 s, since a folder cannot be watched (\(failure))"
        } else {
            self.watches = watches
            description = "when \(folders.joined(separator: ", ")) change"
        }
    }

    /// Stops watching. Idempotent.
    package func close() {
        for watch in watches { watch.close() }
        watches.removeAll()
        timer?.close()
        timer = nil
    }

    private static func timer(every seconds: Double, loop: EventLoop, onChange: @escaping () -> Void) -> LoopTimer {
        let interval = Duration.milliseconds(Int64(max(seconds, 0.05) * 1000))
        let timer = LoopTimer(loop: loop)
        timer.start(after: interval, repeating: interval, onChange)
        return timer
    }

    /// The distinct folders holding `paths`, as named and as their symlinks resolve.
    package static func folders(of paths: [String]) -> [String] {
        var folders: [String] = []
        for path in paths {
            var candidates = [folder(of: path)]
            if let resolved = realpath(path, nil) {
                candidates.append(folder(of: String(cString: resolved)))
                free(resolved)
            }
            for candidate in candidates where !folders.contains(candidate) { folders.append(candidate) }
        }
        return folders
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
