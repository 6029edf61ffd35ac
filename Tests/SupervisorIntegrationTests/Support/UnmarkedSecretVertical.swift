import Glibc
import Testing
import VerticalsTesting

/// vt-testd as `accounts` with `VT_TESTD_UNMARKED_SECRET=1`: a vertical whose `signIn` is marked as
/// the suite's login (`issuesSession`, `createsFirstAdmin`) but marks no field secret. Its socket
/// is held by this process's user, whom the CLI's listener check trusts.
enum UnmarkedSecretVertical {
    /// The vertical's name.
    static let name = "accounts"

    /// Starts it on `<directory>/sockets` and waits for its socket.
    static func start(in directory: TemporaryDirectory) throws -> DaemonProcess {
        let sockets = directory.file("sockets")
        mkdir(sockets, 0o700)
        let daemon = try DaemonProcess(
            "vt-testd", [name], environment: ["VERTICALS_SOCKET_DIR": sockets, "VT_TESTD_UNMARKED_SECRET": "1"])
        #expect(eventually { access("\(sockets)/\(name).sock", F_OK) == 0 }, "vt-testd never made its socket")
        return daemon
    }
}
