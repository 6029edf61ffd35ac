import Testing
import VerticalsCertificates

/// ``SuiteCertificates/mint(services:namespace:days:now:)`` on its own: what it returns, and the
/// names it refuses to put in a certificate. (CertsCommandTests checks the files with OpenSSL's
/// tool and over a live mutual-TLS call.)
struct SuiteCertificatesTests {
    @Test func mint_givesEachServiceAndTheOperatorAKeyAndACertificate_eachKeyItsOwn() throws {
        let minted = try SuiteCertificates.mint(services: ["ledger", "catalog"], namespace: "verticals", days: 1)

        #expect(minted.identities.map(\.name) == ["ledger", "catalog", SuiteCertificates.operatorName])
        #expect(minted.authorityCertificate.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(minted.authorityKey.hasPrefix("-----BEGIN PRIVATE KEY-----\n"), "PKCS #8, unencrypted")
        for holder in minted.identities {
            #expect(
                holder.certificate.hasPrefix("-----BEGIN CERTIFICATE-----\n") && holder.certificate.hasSuffix("-----\n")
            )
            #expect(holder.key.hasPrefix("-----BEGIN PRIVATE KEY-----\n") && holder.key.hasSuffix("-----\n"))
        }
        #expect(Set(minted.identities.map(\.key) + [minted.authorityKey]).count == 4, "a key per holder")
        #expect(Set(minted.identities.map(\.certificate)).count == 3)
    }

    @Test(arguments: ["a,DNS:evil.example", "x:y", "", "sp ace", "é"])
    func mint_refusesANameThatIsNotPlain(name: String) {
        #expect(throws: CertificatesError.self) {
            try SuiteCertificates.mint(services: [name], namespace: "verticals", days: 1)
        }
        #expect(throws: CertificatesError.self) {
            try SuiteCertificates.mint(services: ["echo"], namespace: name, days: 1)
        }
    }

    @Test func mint_forNoDays_isAnError() {
        #expect(throws: CertificatesError.self) {
            try SuiteCertificates.mint(services: ["echo"], namespace: "v", days: 0)
        }
    }
}
