import Glibc
import Testing
import VerticalsSupervisorClient
@testable import VerticalsSupervisorCommands
import VerticalsTesting

/// The CLI's cache of descriptions is bounded: a store past its count removes the least recently
/// written, and a file longer than any description is not read.
struct DescriptionCacheBoundTests {
    @Test func prune_pastItsCount_removesTheLeastRecentlyWritten() throws {
        let directory = TemporaryDirectory()
        for index in 0..<5 {
            let path = "\(directory.path)/n\(index).describe"
            let fd = open(path, O_CREAT | O_WRONLY, 0o600)
            #expect(fd >= 0)
            close(fd)
            var times = [timespec(tv_sec: 1_000 + index, tv_nsec: 0), timespec(tv_sec: 1_000 + index, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        }
        DescriptionCache.prune(directory.path, keeping: 3)
        let left = FolderEntries.names(in: directory.path).sorted()
        #expect(left == ["n2.describe", "n3.describe", "n4.describe"])
    }

    @Test func aFileLongerThanAFrame_isNotRead() throws {
        let directory = TemporaryDirectory()
        let path = "\(directory.path)/long.describe"
        let fd = open(path, O_CREAT | O_WRONLY, 0o600)
        #expect(ftruncate(fd, off_t(DescriptionCache.maxFileBytes + 1)) == 0)
        close(fd)
        #expect(DescriptionCache.contents(of: path) == nil)
    }
}
