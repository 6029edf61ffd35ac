import VerticalsWire

// What is wrong with the replicas taken together: each vertical's copy and credential are its own.
extension Manifest {
    /// The services that replicate their store, each with its own replica (``Replica/forService(_:)``).
    public var replicas: [(service: ServiceSpec, replica: Replica)] {
        services.compactMap { service in service.replica.map { (service, $0.forService(service.name)) } }
    }

    /// Two services whose replicas share a credential file (one vertical could then read another's)
    /// or a destination (their copies would overwrite each other).
    public func replicaProblems() -> [ManifestError] {
        var problems: [ManifestError] = []
        var credentials = FirstClaims()
        var destinations = FirstClaims()
        for (service, replica) in replicas {
            if let file = replica.credentialFile,
                let problem = credentials.claim(
                    file, by: service.name, key: "replica", detail: "path",
                    {
                        "reads the credential \(file), as \($0) does: give each service its own, e.g. "
                            + "\"/etc/verticals/replica/\(Replica.namePlaceholder).key\" (\(Replica.namePlaceholder) "
                            + "is the service's name), so no vertical can read another's"
                    })
            {
                problems.append(problem)
            }
            let destination = replica.destination
            if let problem = destinations.claim(
                destination, by: service.name, key: "replica", detail: "destination",
                {
                    "writes to \(destination), as \($0) does: each store needs a replica of its own"
                })
            {
                problems.append(problem)
            }
        }
        return problems
    }

    /// A folder replica inside a store's state folder (`stateDirectory(NAME)`), or holding one: the
    /// copy would be lost with the store, or the store's folder would be the replica's. `layout`
    /// names the layout in the message (`"/var/lib/verticals"`).
    public func replicaFolderProblems(layout: String, stateDirectory: (String) -> String) -> [ManifestError] {
        let stores = services.filter { $0.store && !$0.isRemote }.map { ($0.name, stateDirectory($0.name)) }
        var problems: [ManifestError] = []
        for (service, replica) in replicas {
            guard case .folder(let folder) = replica.target else { continue }
            for (name, state) in stores where Self.isWithin(folder, state) || Self.isWithin(state, folder) {
                let whose = name == service.name ? "its own store's folder" : "\(name)'s store's folder"
                problems.append(
                    ManifestError(
                        .conflict, service: service.name, key: "replica.path",
                        "\(folder) overlaps \(whose) \(state) (\(layout)): a replica is meant to outlive the "
                            + "store's disk; name a folder on another disk, outside every state folder",
                        values: [ErrorDetail("path", folder), ErrorDetail("other", name)]))
            }
        }
        return problems
    }

    /// Whether `path` is `folder` or below it, comparing whole steps.
    static func isWithin(_ path: String, _ folder: String) -> Bool {
        let inner = path.split(separator: "/")
        let outer = folder.split(separator: "/")
        return inner.count >= outer.count && Array(inner.prefix(outer.count)) == outer
    }
}

extension Replica {
    /// Where the copies go, as one text: two replicas with the same one would share it.
    public var destination: String {
        switch target {
        case .folder(let path): "file://\(path)"
        case .sftp(let sftp): "sftp://\(sftp.user)@\(sftp.host):\(sftp.port)\(sftp.path)"
        case .s3(let s3): "s3://\(s3.endpoint ?? "aws")/\(s3.bucket)/\(s3.path)"
        }
    }
}
