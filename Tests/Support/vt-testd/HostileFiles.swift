// vt-testd's hostile behaviours against the root supervisor's file handling, for the tests that
// prove root trusts nothing a vertical says or leaves on disk. Chosen by VT_TESTD_HOSTILE_FILES,
// one behaviour, `NAME` or `NAME=PATH`:
//
//   backup-answer=PATH   serves daemon.backup itself: writes a real backup where it is asked to,
//                        and answers that it wrote PATH instead (a file it does not own).
//   backup-link=PATH     serves daemon.backup by planting a symbolic link to PATH where it is
//                        asked to write, and answers that path.
//   store-links=PATH     plants symbolic links to PATH where its store's lock file, `-wal` and
//                        `-shm` go, then exits 0 without serving (a vertical that was stopped).
//   folder-link=PATH     makes `sub/` in its state folder and then swaps it for a link to PATH,
//                        then exits 0 without serving.
//   escape               starts `setsid -f sleep 300`, a process outside its process group and
//                        session, then serves as usual.
//   upgrade-backup=PATH  once its store is open (VT_TESTD_MIGRATIONS), tells the supervisor over
//                        NOTIFY_SOCKET that it backed the store up as PATH, a file it did not write.
import Glibc
import VerticalsClient
import VerticalsStorage
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// The behaviour VT_TESTD_HOSTILE_FILES chose, and what it does.
enum HostileFiles {
    /// The behaviour's name and its path, from the environment (nil: behave).
    static var chosen: (name: String, path: String)? {
        guard let value = ProcessEnvironment.current["VT_TESTD_HOSTILE_FILES"], !value.isEmpty else { return nil }
        let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
        return (parts[0], parts.count > 1 ? parts[1] : "")
    }

    /// Does what the behaviour does before the daemon serves; true when the daemon then exits.
    static func actOnce(name: String) -> Bool {
        guard let (behaviour, path) = chosen else { return false }
        let state = DaemonPaths(name: name, environment: ProcessEnvironment.current).stateDirectory
        switch behaviour {
        case "store-links":
            mkdir(state, 0o700)
            for suffix in [".lock", "-wal", "-shm"] {
                unlink("\(state)/\(name).sqlite\(suffix)")
                symlink(path, "\(state)/\(name).sqlite\(suffix)")
            }
            return true
        case "folder-link":
            mkdir(state, 0o700)
            mkdir("\(state)/sub", 0o700)
            rmdir("\(state)/sub")
            symlink(path, "\(state)/sub")
            return true
        case "escape":
            var pid: pid_t = 0
            let arguments = ["/usr/bin/setsid", "-f", "/bin/sleep", "300"]
            var pointers = arguments.map { strdup($0) } + [nil]
            defer { for pointer in pointers { free(pointer) } }
            posix_spawn(&pid, arguments[0], nil, nil, &pointers, environ)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            return false
        default:
            return false
        }
    }

    /// Says what the behaviour says once the store is open: a backup it never made.
    static func afterStore(environment: [String: String]) {
        guard let (behaviour, path) = chosen, behaviour == "upgrade-backup" else { return }
        _ = Notifier(environment: environment).notify(
            "\(SQLiteStore.HandOver.backupKey)=\(path)", "STATUS=migrating the store")
        // Gives the supervisor's loop time to read the datagram before this process's exit: a
        // failure that lands first leaves nothing to put back, and the attack untried.
        usleep(300_000)
    }

    /// Adds the hostile `daemon.backup` to `router` when one was chosen (the built-in one then
    /// stays out of the way).
    static func add(to router: inout Router, stateDirectory: String) {
        guard let (behaviour, path) = chosen else { return }
        let backups = "\(stateDirectory)/backups"
        switch behaviour {
        case "backup-answer":
            router.on(Daemon.backup) { input, _ in
                mkdir(backups, 0o700)
                let bytes = Array("the vertical's real backup\n".utf8)
                let fd = open("\(backups)/\(input.path)", O_WRONLY | O_CREAT | O_EXCL, 0o600)
                if fd >= 0 {
                    _ = write(fd, bytes, bytes.count)
                    close(fd)
                }
                return .init(service: "hostile", path: path, bytes: bytes.count)
            }
        case "backup-link":
            router.on(Daemon.backup) { input, _ in
                mkdir(backups, 0o700)
                symlink(path, "\(backups)/\(input.path)")
                return .init(service: "hostile", path: "\(backups)/\(input.path)", bytes: 1)
            }
        default:
            return
        }
    }
}
