import Testing
import VerticalsTesting

/// THIRD-PARTY-NOTICES.md names every project the built programs carry: each package of
/// Package.swift (by `owner/name`) and each C library it links through pkg-config, so a new
/// dependency cannot ship without its notice.
@Suite struct ThirdPartyNoticesTests {
    /// The Debian package of each pkg-config name Package.swift links.
    static let debianPackages = [
        "libuv": "libuv1", "openssl": "libssl3", "zlib": "zlib1g", "libsodium": "libsodium23",
    ]

    @Test func everyDependencyOfThePackage_isNamed() throws {
        let root = DocsTests.packageRoot
        let package = try #require(readFile(root + "/Package.swift"))
        let notices = try #require(
            readFile(root + "/THIRD-PARTY-NOTICES.md"), "the repository has no THIRD-PARTY-NOTICES.md")
        #expect(readFile(root + "/LICENSE")?.contains("Apache License") == true, "LICENSE holds the Apache License 2.0")

        let urls = package.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: ".package(url: \"https://github.com/") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
        #expect(urls.count >= 5, "\(urls)")
        for url in urls { #expect(notices.contains(url), "THIRD-PARTY-NOTICES.md does not name \(url)") }

        let libraries = package.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "pkgConfig: \"") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
        #expect(
            Set(libraries) == Set(Self.debianPackages.keys),
            "a new C library: add it here and to THIRD-PARTY-NOTICES.md")
        for library in libraries {
            let debian = try #require(Self.debianPackages[library])
            #expect(notices.contains("| \(debian) |"), "THIRD-PARTY-NOTICES.md does not name \(library) (\(debian))")
        }
    }
}
