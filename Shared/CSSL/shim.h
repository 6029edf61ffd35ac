// OpenSSL 3 (Debian's libssl-dev) for the TLS streams of VerticalsEventLoop. The few calls that
// OpenSSL spells as macros (Swift imports no function-like macro) are wrapped here.
#ifndef VERTICALS_CSSL_SHIM_H
#define VERTICALS_CSSL_SHIM_H

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
#include <string.h>

/// TLS 1.3 and nothing older.
static inline int vt_ssl_ctx_tls13_only(SSL_CTX *ctx) {
    return SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION) == 1
        && SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION) == 1;
}

/// The peer certificate's first subjectAltName URI that starts with `prefix`, without the prefix,
/// copied into `out` (NUL-terminated); its length, 0 when there is none, -1 when it does not fit.
static inline int vt_ssl_peer_uri(SSL *ssl, const char *prefix, char *out, size_t capacity) {
    X509 *certificate = SSL_get1_peer_certificate(ssl);
    if (certificate == NULL) return 0;
    GENERAL_NAMES *names = X509_get_ext_d2i(certificate, NID_subject_alt_name, NULL, NULL);
    X509_free(certificate);
    if (names == NULL) return 0;
    int found = 0;
    size_t prefixLength = strlen(prefix);
    for (int i = 0; i < sk_GENERAL_NAME_num(names) && found == 0; i++) {
        GENERAL_NAME *name = sk_GENERAL_NAME_value(names, i);
        if (name->type != GEN_URI) continue;
        const unsigned char *bytes = ASN1_STRING_get0_data(name->d.uniformResourceIdentifier);
        size_t length = (size_t)ASN1_STRING_length(name->d.uniformResourceIdentifier);
        if (length <= prefixLength || memcmp(bytes, prefix, prefixLength) != 0) continue;
        size_t rest = length - prefixLength;
        if (rest + 1 > capacity || memchr(bytes + prefixLength, 0, rest) != NULL) {
            found = -1;
        } else {
            memcpy(out, bytes + prefixLength, rest);
            out[rest] = 0;
            found = (int)rest;
        }
    }
    GENERAL_NAMES_free(names);
    return found;
}

/// Whether the oldest error on this thread's OpenSSL queue (left queued) is about a
/// certificate: an alert in which the peer refused ours (bad, unsupported, revoked, expired,
/// unknown, from an unknown CA, access denied, or none given where one is required), or ours
/// refusing the peer's. Trying again with the same certificates cannot help.
static inline int vt_ssl_error_is_certificate(void) {
    unsigned long code = ERR_peek_error();
    if (code == 0 || ERR_GET_LIB(code) != ERR_LIB_SSL) return 0;
    switch (ERR_GET_REASON(code)) {
    case SSL_R_SSLV3_ALERT_BAD_CERTIFICATE:
    case SSL_R_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_REVOKED:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_EXPIRED:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_UNKNOWN:
    case SSL_R_TLSV1_ALERT_UNKNOWN_CA:
    case SSL_R_TLSV1_ALERT_ACCESS_DENIED:
    case SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED:
    case SSL_R_CERTIFICATE_VERIFY_FAILED:
    case SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE:
        return 1;
    default:
        return 0;
    }
}

/// The oldest error on this thread's OpenSSL queue, as text (cleared), for logs.
static inline void vt_ssl_error_text(char *out, size_t capacity) {
    unsigned long code = ERR_get_error();
    if (code == 0) {
        if (capacity > 0) out[0] = 0;
    } else {
        ERR_error_string_n(code, out, capacity);
    }
    ERR_clear_error();
}
#endif
