// OpenSSL's libcrypto (Debian's libssl-dev), for Ed25519 on Linux: the
// signed checkpoints of docs/receipts.md. Apple platforms use CryptoKit
// instead. Only Sources/Ledger/Signing/Ed25519.swift calls it.
#include <openssl/evp.h>
