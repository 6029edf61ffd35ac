import Glibc
import Testing
import VerticalsContract
import VerticalsSupervisorClient
import VerticalsTesting
import VerticalsWire
@testable import VerticalsSupervisorCommands

/// What the CLI learned (descriptions) and the session it keeps are read and written only in a
/// folder of the user's alone: root run with another user's `HOME` (`sudo -E`) neither believes
/// what that user planted there nor leaves its token to them.
struct OwnFolderTests {
    static let description = Daemon.Description(
        name: "shop", summary: "A test service.", operations: [], messages: [], enums: [])

    @Test func theDescribeCache_inAFolderOthersMayWrite_isNeitherReadNorWritten() {
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o700)
        let cache = DescriptionCache(folder: directory.file("cache/verticals/describe"))
        #expect(cache.store(Self.description, endpoint: "/run/shop.sock"))
        #expect(cache.load(endpoint: "/run/shop.sock")?.name == "shop")

        chmod(directory.file("cache/verticals/describe"), 0o777)
        #expect(cache.load(endpoint: "/run/shop.sock") == nil, "read from a folder others may write")
        #expect(!cache.store(Self.description, endpoint: "/run/shop.sock"), "written into a folder others may write")

        chmod(directory.file("cache/verticals/describe"), 0o700)
        chmod(directory.file("cache"), 0o777)
        #expect(cache.load(endpoint: "/run/shop.sock") == nil, "read below a folder others may write")
    }

    @Test func theStoredLogin_inAFolderOthersMayWrite_isRefused() throws {
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o700)
        let login = try StoredLogin.forCurrentUser(environment: ["XDG_STATE_HOME": directory.file("state")])
        let session = try #require(StoredSession(JSONValue.object([(key: "token", value: .string("t-1"))])))
        try login.save(session)
        #expect(try login.load()?.token == "t-1")
        chmod(directory.file("state/verticals"), 0o770)
        let refused = #expect(throws: CLIError.self) { _ = try login.load() }
        #expect(refused?.status == 77)
        #expect(throws: CLIError.self) { try login.save(session) }
    }
}
