/// How a service's log is rotated beside its size limit (`log_max_bytes`): by age, how many
/// rotated files are kept, and whether they are gzip-compressed (with zlib).
///
/// ```toml
/// logs = { max_age = "24h", keep = 5, compress = true }
/// ```
///
/// `<name>.log` becomes `<name>.log.1.gz` (the older ones move up to `.2.gz` … `.<keep>.gz`;
/// past `keep` they are deleted). Compression runs off the loop thread.
public struct LogRotation: Sendable, Equatable {
    /// Rotate when the file's first line is older than this, at the next line written.
    public var maxAge: Duration?
    /// Rotated files kept (0: the old file is deleted at rotation).
    public var keep: Int
    /// gzip the rotated files.
    public var compress: Bool

    /// The defaults: no age limit, 5 files kept, compressed.
    public init(maxAge: Duration? = nil, keep: Int = 5, compress: Bool = true) {
        self.maxAge = maxAge
        self.keep = keep
        self.compress = compress
    }
}
