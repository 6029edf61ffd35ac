import Glibc
import Testing
import VerticalsSupervisorCommands
import VerticalsTesting

/// A socket only root can have placed (root's, in folders only root may write, through no link)
/// is vouched for whatever user listens on it; one anybody else could have put there is not.
@Suite(.enabled(if: geteuid() == 0, "needs root: the sockets and folders belong to root and to nobody"))
struct RootPlacedSocketTests {
    /// Binds a Unix socket at `path` (closed again: the file stays) and returns `path`.
    @discardableResult
    static func bindSocket(_ path: String) throws -> String {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let bound = withUnixSocketAddress(path) { bind(descriptor, $0, $1) }
        try #require(bound == 0, "bind \(path): \(String(cString: strerror(errno)))")
        return path
    }

    /// `directory/sockets` made with `mode`, a socket in it.
    static func socketIn(_ directory: TemporaryDirectory, mode: mode_t) throws -> String {
        let folder = directory.file("sockets")
        mkdir(folder, 0o700)
        chmod(folder, mode)
        return try bindSocket("\(folder)/ledger.sock")
    }

    @Test func rootsSocket_inRootsFolders_isRootPlaced() throws {
        let directory = TemporaryDirectory()
        let socket = try Self.socketIn(directory, mode: 0o750)

        #expect(RootPlacedSocket.isRootPlaced(socket, euid: 0))
    }

    @Test func aFolderAnybodyMayWrite_isNot() throws {
        let directory = TemporaryDirectory()
        let socket = try Self.socketIn(directory, mode: 0o777)

        #expect(!RootPlacedSocket.isRootPlaced(socket, euid: 0))
    }

    @Test func aFolderItsGroupMayWrite_isNot() throws {
        let directory = TemporaryDirectory()
        let socket = try Self.socketIn(directory, mode: 0o770)

        #expect(!RootPlacedSocket.isRootPlaced(socket, euid: 0))
    }

    @Test func aSocketAnotherUserOwns_isNot() throws {
        let directory = TemporaryDirectory()
        let socket = try Self.socketIn(directory, mode: 0o750)
        chown(socket, 65534, 65534)

        #expect(!RootPlacedSocket.isRootPlaced(socket, euid: 0))
    }

    @Test func aFolderAnotherUserOwns_isNot() throws {
        let directory = TemporaryDirectory()
        let socket = try Self.socketIn(directory, mode: 0o750)
        chown(directory.file("sockets"), 65534, 65534)

        #expect(!RootPlacedSocket.isRootPlaced(socket, euid: 0))
    }

    @Test func aPathThroughALink_isNot() throws {
        let directory = TemporaryDirectory()
        _ = try Self.socketIn(directory, mode: 0o750)
        symlink(directory.file("sockets"), directory.file("linked"))

        #expect(!RootPlacedSocket.isRootPlaced(directory.file("linked/ledger.sock"), euid: 0))
    }

    @Test func aFileThatIsNoSocket_orNoFile_isNot() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("ledger.sock")
        fclose(fopen(file, "w"))

        #expect(!RootPlacedSocket.isRootPlaced(file, euid: 0))
        #expect(!RootPlacedSocket.isRootPlaced(directory.file("none.sock"), euid: 0))
    }
}
