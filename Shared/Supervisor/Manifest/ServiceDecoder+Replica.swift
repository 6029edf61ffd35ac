import VerticalsManifest

// The `replica` table: where Litestream copies the service's store off the host.
extension ServiceDecoder {
    /// The `replica` table (or `false`, which turns an inherited one off) of `spec`, which must
    /// have a store; nil when there is none or it is wrong (with a problem for each mistake).
    mutating func replica(_ value: ManifestValue, of spec: ServiceSpec) -> Replica? {
        if value == .boolean(false) { return nil }
        guard
            let table = nestedTable(
                value, at: "replica", keys: ManifestKeys.replica,
                example: "{ type = \"folder\", path = \"/mnt/replica\" } (or false)")
        else { return nil }
        guard spec.store else {
            // One inherited from [defaults] passes by a service without a store.
            if isOwn("replica") {
                report(
                    "replica", "copies the service's store, but it has none (store = false): leave replica out",
                    always: true)
            }
            return nil
        }
        guard let typeValue = table["type"] else {
            report(
                "replica.type", "missing: say where the copies go, \"folder\", \"sftp\" or \"s3\"",
                always: isOwn("replica"))
            return nil
        }
        guard let type: ReplicaKind = choice(typeValue, at: "replica.type") else { return nil }
        for key in table.keys.sorted() where !type.keys.contains(key) && ManifestKeys.replica.contains(key) {
            report(
                "replica.\(key)",
                "is not a key of a \"\(type.rawValue)\" replica; it takes \(type.keys.joined(separator: ", "))")
        }
        let target: ReplicaTarget
        switch type {
        case .folder:
            guard let path = absolutePath(table, "path", example: "\"/mnt/replica\"") else { return nil }
            target = .folder(path: path)
        case .sftp:
            var host = required(table, "host", example: "\"backup.example.net\"")
            if let text = host { host = checkedHost(text) }
            let path = absolutePath(table, "path", example: "\"/replicas\"")
            let keyFile = absolutePath(table, "key_file", example: "\"/etc/verticals/replica/{name}.key\"")
            var hostKey = required(
                table, "host_key",
                example: "\"ssh-ed25519 AAAA…\" (ssh-keyscan HOST prints it; without it the server is not checked)")
            if let text = hostKey { hostKey = checkedHostKey(text) }
            var port = 22
            if let value = table["port"], let number = count(value, at: "replica.port", in: 1...65_535) {
                port = number
            }
            // The service's own user by default: under [defaults], `verticals-{name}`, each service's.
            var user =
                service == nil
                ? ServiceAccounts.defaultPrefix + Replica.namePlaceholder : ServiceAccounts.userName(spec)
            if let value = table["user"], let text = string(value, at: "replica.user") { user = text }
            guard let host, let path, let keyFile, let hostKey else { return nil }
            target = .sftp(
                SFTPReplica(host: host, port: port, user: user, path: path, keyFile: keyFile, hostKey: hostKey))
        case .s3:
            let bucket = required(table, "bucket", example: "\"verticals-replicas\"")
            let credentials = absolutePath(table, "credentials_file", example: "\"/etc/verticals/replica/{name}.s3\"")
            var path = ""
            if let value = table["path"], let text = string(value, at: "replica.path") {
                path = String(text.drop { $0 == "/" })
            }
            var endpoint: String?
            if let value = table["endpoint"], let text = string(value, at: "replica.endpoint") {
                if text.hasPrefix("https://") || text.hasPrefix("http://") {
                    endpoint = text
                } else {
                    report("replica.endpoint", "\"\(text)\" is not a URL: write e.g. \"https://s3.example.net:9000\"")
                }
            }
            var region: String?
            if let value = table["region"], let text = string(value, at: "replica.region") { region = text }
            guard let bucket, let credentials else { return nil }
            target = .s3(
                S3Replica(bucket: bucket, path: path, endpoint: endpoint, region: region, credentialsFile: credentials))
        }
        for (key, text) in Self.yamlSafeFields(of: target) where !Self.isPlainText(text) {
            report("replica.\(key)", "holds a control character or a line break; write it on one line")
        }
        var replica = Replica(target: target)
        if let value = table["sync_interval"], let interval = duration(value, at: "replica.sync_interval") {
            replica.syncInterval = interval
        }
        if let value = table["retention"], let retention = duration(value, at: "replica.retention") {
            replica.retention = retention
        }
        if replica.retention < replica.syncInterval && (isOwn("replica.retention") || isOwn("replica.sync_interval")) {
            report(
                "replica.retention",
                "is shorter than replica.sync_interval (\(ManifestUnits.text(replica.retention)) < "
                    + "\(ManifestUnits.text(replica.syncInterval))): the replica would keep nothing to restore",
                always: true)
        }
        return replica
    }

    /// The kinds of replica, as `replica.type` names them, and the keys each takes.
    enum ReplicaKind: String, CaseIterable {
        case folder
        case sftp
        case s3

        var keys: [String] {
            let common = ["type", "path", "sync_interval", "retention"]
            switch self {
            case .folder: return common
            case .sftp: return common + ["host", "port", "user", "key_file", "host_key"]
            case .s3: return common + ["bucket", "endpoint", "region", "credentials_file"]
            }
        }
    }

    private mutating func required(_ table: [String: ManifestValue], _ key: String, example: String) -> String? {
        guard let value = table[key] else {
            report("replica.\(key)", "missing: e.g. \(key) = \(example)", as: .missing, always: isOwn("replica"))
            return nil
        }
        return string(value, at: "replica.\(key)")
    }

    /// A path that must be absolute and plain: no `.` or `..` steps, which would let it leave the
    /// folder it names.
    private mutating func absolutePath(_ table: [String: ManifestValue], _ key: String, example: String) -> String? {
        guard let text = required(table, key, example: example) else { return nil }
        let steps = text.split(separator: "/")
        guard text.hasPrefix("/"), !steps.contains("."), !steps.contains("..") else {
            report(
                "replica.\(key)", "\"\(text)\" must be an absolute path without . or .. steps, e.g. \(key) = \(example)"
            )
            return nil
        }
        return text
    }

    private mutating func checkedHost(_ host: String) -> String? {
        let allowed = host.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || ".-:".unicodeScalars
                    .contains($0)
        }
        guard allowed, !host.hasPrefix("-") else {
            report("replica.host", "\"\(host)\" is not a host name or address; the port goes in replica.port")
            return nil
        }
        return host
    }

    /// `ssh-ed25519 AAAA…` (a comment after it is allowed): the type Litestream's SSH client knows,
    /// and a base64 key.
    private mutating func checkedHostKey(_ key: String) -> String? {
        let parts = key.split(separator: " ", omittingEmptySubsequences: true)
        let types = [
            "ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-rsa",
        ]
        let base64 =
            parts.count >= 2 && parts[1].count >= 16
            && parts[1].unicodeScalars.allSatisfy {
                ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0)
                    || "+/=".unicodeScalars
                        .contains($0)
            }
        guard parts.count >= 2, types.contains(String(parts[0])), base64 else {
            report(
                "replica.host_key",
                "is not a host key: write the server's key as known_hosts has it, without the host name, "
                    + "e.g. \"ssh-ed25519 AAAAC3Nza…\" (ssh-keyscan -t ed25519 HOST prints it)")
            return nil
        }
        return "\(parts[0]) \(parts[1])"
    }

    /// The texts of `target` that reach Litestream's configuration.
    static func yamlSafeFields(of target: ReplicaTarget) -> [(String, String)] {
        switch target {
        case .folder(let path): [("path", path)]
        case .sftp(let sftp):
            [("host", sftp.host), ("user", sftp.user), ("path", sftp.path), ("key_file", sftp.keyFile)]
        case .s3(let s3):
            [
                ("bucket", s3.bucket), ("path", s3.path), ("endpoint", s3.endpoint ?? ""), ("region", s3.region ?? ""),
                ("credentials_file", s3.credentialsFile),
            ]
        }
    }

    private static func isPlainText(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
    }
}
