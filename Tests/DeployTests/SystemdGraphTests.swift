import Testing
import VerticalsDeploy
import VerticalsManifest
import VerticalsSupervisor
import VerticalsWire

/// The systemd network allow-lists are the `depends_on` graph exactly, across hosts: every edge
/// is open at both ends (the caller's service may reach the callee's address, the callee's socket
/// admits the caller's), and every address a unit allows is its own or one of an edge's.
struct SystemdGraphTests {
    static func address(_ spec: ServiceSpec?) -> String? {
        guard case .tcp(let host, _) = spec?.endpoint else { return nil }
        return host
    }

    /// (unit file, its IPAddressAllow= addresses) of every unit of every host.
    static func allowLists() throws -> [String: Set<String>] {
        var lists: [String: Set<String>] = [:]
        for host in SystemdHostsFixture.hosts {
            for (path, text) in try SystemdHostsFixture.files(host: host) where path.hasPrefix("verticals-") {
                let words = SystemdHostsFixture.words("IPAddressAllow", in: text)
                if !words.isEmpty { lists[path] = Set(words) }
            }
        }
        return lists
    }

    @Test func everyEdge_isOpenAtBothEnds() throws {
        let manifest = try SystemdHostsFixture.manifest()
        let lists = try Self.allowLists()
        var edges = 0
        for caller in manifest.services {
            for name in caller.dependsOn {
                let callee = try #require(manifest[name])
                let calleeAddress = try #require(Self.address(callee))
                let callerAddress = try #require(Self.address(caller))
                #expect(
                    lists["verticals-\(caller.name).service"]?.contains(calleeAddress) == true,
                    "\(caller.name) may not reach \(name) at \(calleeAddress)")
                #expect(
                    lists["verticals-\(name).socket"]?.contains(callerAddress) == true,
                    "\(name)'s socket does not admit \(caller.name) from \(callerAddress)")
                edges += 1
            }
        }
        #expect(edges == manifest.services.reduce(0) { $0 + $1.dependsOn.count } && edges > 0)
    }

    @Test func everyAllowedAddress_isTheUnitsOwn_orAnEdges() throws {
        let manifest = try SystemdHostsFixture.manifest()
        let lists = try Self.allowLists()
        #expect(lists.count == 2 * manifest.services.count, "\(lists.keys.sorted())")
        for (path, allowed) in lists {
            let name = String(path.dropFirst("verticals-".count).prefix { $0 != "." })
            let spec = try #require(manifest[name])
            var justified = Set(spec.dependsOn.compactMap { Self.address(manifest[$0]) })
            justified.formUnion(ServiceAccounts.callers(of: name, in: manifest).compactMap(Self.address))
            if let own = Self.address(spec) { justified.insert(own) }
            #expect(allowed.isSubset(of: justified), "\(path) allows \(allowed.subtracting(justified).sorted())")
        }
    }

    /// The guard's own check: an edge dropped from the manifest closes the callee's socket to
    /// that caller when no other edge needs its address.
    @Test func aDroppedEdge_closesTheAddress() throws {
        var manifest = try SystemdHostsFixture.manifest()
        for index in manifest.services.indices {
            manifest.services[index].dependsOn.removeAll { $0 == "catalog" }
        }
        let socket = try #require(try SystemdExport.files(for: manifest, host: "a")["verticals-catalog.socket"])
        #expect(SystemdHostsFixture.words("IPAddressAllow", in: socket) == ["10.232.45.10"])
    }
}
