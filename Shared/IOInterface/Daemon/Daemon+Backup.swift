import VerticalsWire
extension Daemon {
    /// Writes a consistent copy of the vertical's store to a file while it keeps serving
    /// (`svc-supervisor backup NAME DIR`). The daemon writes the file itself (owner-only, 0600):
    /// at an absolute path in a folder its user can write, or, given a plain file name, under
    /// `backups/` in its state directory (the CLI then moves it to DIR). The file must not exist yet.
    public static let backup = Operation<BackupInput, Backup>(
        name, "backup",
        summary: "Write a consistent copy of the vertical's store to a new file, while serving.",
        errors: [.invalidInput, .conflict, .resourceExhausted, .unimplemented, .internal])

    /// The Input of ``Daemon/backup``.
    public struct BackupInput: WireMessage {
        /// Where the copy goes: an absolute path, or a file name under the state directory's
        /// `backups/`; it must not exist yet.
        public var path: String

        /// Creates the value from its fields.
        public init(path: String) {
            self.path = path
        }

        public static let schema = MessageSchema("daemon.BackupInput", [.required(1, "path", .string)])

        public func encode(to body: inout BodyWriter) {
            body.write(1, path)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
            var path: String?
            while let tag = try body.nextTag() {
                switch tag {
                case 1: path = try body.read()
                default: try body.skip()
                }
            }
            self.init(path: try body.required(path, 1))
        }
    }

    /// The Output of ``Daemon/backup``: the copy that was written.
    public struct Backup: WireMessage {
        /// The vertical whose store it is.
        public var service: String
        /// Where the copy is.
        public var path: String
        /// Its size in bytes.
        public var bytes: Int

        /// Creates the value from its fields.
        public init(service: String, path: String, bytes: Int) {
            self.service = service
            self.path = path
            self.bytes = bytes
        }

        public static let schema = MessageSchema(
            "daemon.Backup",
            [.required(1, "service", .string), .required(2, "path", .string), .required(3, "bytes", .int)])

        public func encode(to body: inout BodyWriter) {
            body.write(1, service)
            body.write(2, path)
            body.write(3, bytes)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
            var service: String?
            var path: String?
            var bytes: Int?
            while let tag = try body.nextTag() {
                switch tag {
                case 1: service = try body.read()
                case 2: path = try body.read()
                case 3: bytes = try body.read()
                default: try body.skip()
                }
            }
            self.init(
                service: try body.required(service, 1), path: try body.required(path, 2),
                bytes: try body.required(bytes, 3))
        }
    }
}
