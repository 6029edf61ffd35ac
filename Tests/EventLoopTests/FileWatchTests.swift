import Glibc
import Testing
import VerticalsEventLoop

@Suite("FileWatch")
struct FileWatchTests {
    /// A certificate rotated the way cert-manager's Secret volume does it (a new file renamed
    /// over the old name) is a new inode: the folder's watch must see it.
    @Test func renameIntoTheFolder_callsBackOnTheLoop() async throws {
        try await withEventLoop { loop in
            try await withTemporaryDirectory { directory in
                let changes = Countdown(1, "a change in the folder")
                let onLoop = Recorder<Bool>()
                let watch = try await loop.submit {
                    try FileWatch(folder: directory, on: loop) {
                        onLoop.append(loop.inEventLoop)
                        changes.tick()
                    }
                }
                let fresh = "\(directory)/cert.pem.new"
                let fd = open(fresh, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
                Glibc.close(fd)
                #expect(rename(fresh, "\(directory)/cert.pem") == 0)
                try await changes.reached.value()
                #expect(onLoop.values.allSatisfy { $0 })
                try await loop.submit {
                    watch.close()
                    watch.close() // idempotent
                }
            }
        }
    }

    @Test func closedWatch_releasesItsCallback() async throws {
        try await withEventLoop { loop in
            try await withTemporaryDirectory { directory in
                try await expectReleasesItsCallback(on: loop) { token in
                    try FileWatch(folder: directory, on: loop) { _ = token }.close()
                }
            }
        }
    }

    @Test func missingFolder_throwsATypedError() async throws {
        try await withEventLoop { loop in
            let failed = try await loop.submit { () -> Bool in
                do {
                    _ = try FileWatch(folder: "/nonexistent/verticals-\(getpid())", on: loop) {}
                    return false
                } catch let error as EventLoopError {
                    return error == .notFound
                } catch {
                    return false
                }
            }
            #expect(failed)
        }
    }
}
