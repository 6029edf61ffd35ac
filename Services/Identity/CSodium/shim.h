#ifndef VERTICALS_CSODIUM_SHIM_H
#define VERTICALS_CSODIUM_SHIM_H

/* libsodium, from Debian's libsodium-dev (pkg-config: libsodium): Argon2id, SHA-256, randomness. */
#include <sodium.h>

#endif
