#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract
import VerticalsWire

/// A service's log file, `<run>/logs/<name>.log`: every line of its stdout and stderr, and
/// the supervisor's own notes about it, stamped `RFC 3339 UTC` + stream:
///
/// ```
/// 2026-11-23T09:30:00.123456Z stdout serving identity on inherited fd 3
/// 2026-11-23T09:30:01.5Z supervisor exited with code 1; restarting in 100 ms
/// ```
///
/// When a line would take the file past `maxBytes`, or its first line is older than
/// `rotation.maxAge`, the file is rotated: it becomes `<name>.log.1.gz` (see ``LogArchive``;
/// `rotation.keep` files are kept) and a new file starts. Lines are written synchronously on the
/// loop thread (local appends, the lines of one chunk in one `write`, stamped with the time the
/// chunk was read); compression runs off it. Loop-confined.
final class ServiceLog {
    let path: String
    var maxBytes: Int
    var rotation: LogRotation
    private var fd: Int32 = -1
    private var size = 0
    /// Wall-clock seconds of the current file's first line, for rotation by age.
    private var firstLineAt: Int?
    private var rotations = 0
    /// The unfinished last line of each stream (1, 2).
    private var partial: [Int32: [UInt8]] = [:]
    /// How the Swift runtime's crash report begins.
    private static let crashHeadline = Array("*** Program crashed: ".utf8)
    /// A line longer than this is cut and written in pieces.
    private static let maxLineBytes = 16_384
    /// The last line the service wrote to stderr (at most 512 bytes of it), and when: the reason
    /// of a failed exit says it (see ``exitExplanation(neverReady:)``).
    var lastErrorLine: (text: String, at: ContinuousClock.Instant)? {
        lastErrorBytes.map { (PrintableText.of(String(decoding: $0.bytes, as: UTF8.self)), $0.at) }
    }
    /// The raw bytes of ``lastErrorLine``: made text only when asked, not for every line written.
    private var lastErrorBytes: (bytes: [UInt8], at: ContinuousClock.Instant)?
    /// The Swift runtime's crash report headline (`*** Program crashed: … ***`), if the process
    /// printed one: the lines after it are a backtrace, so its last line says nothing.
    private(set) var crashLine: String?
    /// How recent a stderr line must be to explain the exit of a process that was ready: an old
    /// warning is not why it ended.
    var explanationWindow = Duration.seconds(5)
    /// Who follows the log (``Supervisor/logs``): each gets every line written, without its
    /// newline, and is told when the log closes (its service left the manifest, or the supervisor ends).
    private var followers: [UInt64: (line: (String) -> Void, end: () -> Void)] = [:]
    /// Stamped lines not yet written: a chunk's lines go to the file in one `write`.
    private var batch: [UInt8] = []

    init(path: String, maxBytes: Int, rotation: LogRotation = LogRotation()) {
        self.path = path
        self.maxBytes = maxBytes
        self.rotation = rotation
        open()
    }

    /// Appends a chunk of `stream` (1 stdout, 2 stderr, ``replicaStreams`` Litestream's);
    /// complete lines are written now.
    func append(stream: Int32, _ bytes: [UInt8]) {
        let stamp = Stamp(Self.clock(), stream: Self.name(of: stream))
        var pending = partial[stream, default: []]
        pending.append(contentsOf: bytes)
        var start = 0
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            add(line: pending[start..<newline], stamp)
            start = newline + 1
        }
        pending.removeFirst(start)
        while pending.count > Self.maxLineBytes {
            add(line: pending[..<Self.maxLineBytes], stamp)
            pending.removeFirst(Self.maxLineBytes)
        }
        partial[stream] = pending
        writeBatch()
    }

    /// What begins each line of one chunk: its time and stream, made once for all of them.
    private struct Stamp {
        let head: [UInt8]
        let seconds: Int
        let isStandardError: Bool

        init(_ clock: (stamp: String, seconds: Int), stream: String) {
            head = Array("\(clock.stamp) \(stream) ".utf8)
            seconds = clock.seconds
            isStandardError = stream == "stderr"
        }
    }

    /// Writes what is left of unfinished lines (the process ended).
    func flush() {
        let clock = Self.clock()
        for (stream, pending) in partial.sorted(by: { $0.key < $1.key }) where !pending.isEmpty {
            add(line: pending[...], Stamp(clock, stream: Self.name(of: stream)))
        }
        partial.removeAll()
        writeBatch()
    }

    /// Writes a note of the supervisor's about this service.
    func note(_ text: String) {
        add(line: Array(text.utf8)[...], Stamp(Self.clock(), stream: "supervisor"))
        writeBatch()
    }

    func close() {
        flush()
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        let ended = followers.values
        followers.removeAll()
        for follower in ended { follower.end() }
    }

    /// Adds `line` to the batch after `stamp`, rotating first when it would take the file past
    /// its size or the file is too old.
    private func add(line: ArraySlice<UInt8>, _ stamp: Stamp) {
        if stamp.isStandardError, !line.isEmpty { noteErrorLine(line) }
        if !followers.isEmpty {
            let text = String(decoding: stamp.head + line, as: UTF8.self)
            for follower in followers.values { follower.line(text) }
        }
        let length = stamp.head.count + line.count + 1
        let written = size + batch.count
        if written > 0 && (written + length > maxBytes || isTooOld(at: stamp.seconds)) {
            writeBatch()
            rotate()
        }
        batch.append(contentsOf: stamp.head)
        batch.append(contentsOf: line)
        batch.append(UInt8(ascii: "\n"))
        if firstLineAt == nil && fd >= 0 { firstLineAt = stamp.seconds }
    }

    /// Writes the batch to the file, all of it (a short write is continued).
    private func writeBatch() {
        defer { batch.removeAll(keepingCapacity: batch.count <= 1 << 20) }
        guard fd >= 0, !batch.isEmpty else { return }
        batch.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
                size += written
            }
        }
    }

    /// Sends every line written from now on to `line` (under `id`), until ``unfollow(_:)``;
    /// `end` runs if the log closes first.
    func follow(_ id: UInt64, line: @escaping (String) -> Void, end: @escaping () -> Void) {
        followers[id] = (line, end)
    }

    /// Stops sending lines to the follower `id`.
    func unfollow(_ id: UInt64) {
        followers[id] = nil
    }

    /// The file's last `count` lines (its current file only, not rotated ones), without newlines.
    func lastLines(_ count: Int) -> [String] {
        guard count > 0 else { return [] }
        let reader = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard reader >= 0 else { return [] }
        defer { Glibc.close(reader) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while case let read = Glibc.read(reader, &chunk, chunk.count), read > 0 { bytes += chunk[..<read] }
        return bytes.split(separator: UInt8(ascii: "\n")).suffix(count).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Forgets what the last process said (a new one starts).
    func forgetErrorLines() {
        lastErrorBytes = nil
        crashLine = nil
    }

    /// Why the process said it ended, for the reason of a failed exit: the runtime's crash
    /// headline if it printed one, else its last stderr line if it never became ready or wrote
    /// that line in the last ``explanationWindow``.
    func exitExplanation(neverReady: Bool) -> String? {
        if let crashLine { return crashLine }
        guard let (text, at) = lastErrorLine, neverReady || at.duration(to: .now) <= explanationWindow else {
            return nil
        }
        return text
    }

    private func noteErrorLine(_ line: ArraySlice<UInt8>) {
        // It becomes part of `status` (the last exit's reason): nothing there may steer a terminal.
        lastErrorBytes = (Array(line.prefix(512)), .now)
        guard crashLine == nil, line.starts(with: Self.crashHeadline) else { return }
        let text = PrintableText.of(String(decoding: line.prefix(512), as: UTF8.self))
        let headline = "*** Program crashed: "
        if text.hasPrefix(headline) {
            var what = text.dropFirst(headline.count)
            if what.hasSuffix(" ***") { what = what.dropLast(4) }
            crashLine = "crashed: \(what)"
        }
    }

    private func isTooOld(at seconds: Int) -> Bool {
        guard let maxAge = rotation.maxAge, let firstLineAt else { return false }
        return Int64(seconds - firstLineAt) >= maxAge.components.seconds
    }

    /// Closes the file, hands it to the archive under a staging name, and starts a new one.
    private func rotate() {
        if fd >= 0 { Glibc.close(fd) }
        rotations += 1
        let staged = "\(path).rotating.\(getpid()).\(rotations)"
        if rename(path, staged) == 0 {
            LogArchive.archive(staged: staged, log: path, keep: rotation.keep, compress: rotation.compress)
        }
        open()
    }

    private func open() {
        fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o640)
        var info = stat()
        size = fd >= 0 && fstat(fd, &info) == 0 ? Int(info.st_size) : 0
        firstLineAt = size > 0 ? Self.firstLineSeconds(path) : nil
    }

    /// The wall-clock seconds stamped on the first line of the file at `path`.
    private static func firstLineSeconds(_ path: String) -> Int? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var head = [UInt8](repeating: 0, count: 40)
        let count = read(fd, &head, head.count)
        guard count > 0, let space = head[..<count].firstIndex(of: UInt8(ascii: " ")) else { return nil }
        return RFC3339.parse(String(decoding: head[..<space], as: UTF8.self)).map {
            Int($0.microsecondsSinceEpoch / 1_000_000)
        }
    }

    private static func name(of stream: Int32) -> String {
        switch stream {
        case 2: "stderr"
        case replicaStreams: "litestream"
        default: "stdout"
        }
    }

    /// The streams of the service's Litestream process (its stdout, its stderr): their lines are
    /// stamped `litestream`, told apart from the service's own, and never explain its exits.
    static let replicaStreams: ClosedRange<Int32> = 3...4

    /// The wall clock as RFC 3339 UTC with microseconds.
    static func now() -> String { clock().stamp }

    /// The wall clock as RFC 3339 UTC with microseconds, and in whole seconds.
    private static func clock() -> (stamp: String, seconds: Int) {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let micros = Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec / 1000)
        return (RFC3339.format(Timestamp(microsecondsSinceEpoch: micros)), time.tv_sec)
    }
}
