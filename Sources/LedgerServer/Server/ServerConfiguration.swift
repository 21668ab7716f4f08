import Ledger

/// How `progress-ledger serve` runs: where it listens, what it serves, its
/// secret and its limits (docs/sync.md, "Limits").
package struct ServerConfiguration: Sendable {
    /// Where the learner logs are kept: a ledger directory (made by `split`,
    /// or empty from `serve DIR`) or a PostgreSQL database (`serve --store URI`).
    package var store: StoreLocation
    /// The ledger directory served, when the store is one.
    package var directory: LedgerDirectory? {
        if case .directory(let directory) = store { return directory }
        return nil
    }
    /// Connections to the database (a PostgreSQL store) at most; nil: one per worker thread.
    package var storeConnections: Int?
    /// The host to listen on (`127.0.0.1`, `::1`, `0.0.0.0`, a name).
    package var host: String
    /// The port (0: a free one; the server says which).
    package var port: Int
    /// The HS256 secret tokens are signed with.
    package var secret: [UInt8]
    /// The largest request body, in bytes (`413` beyond, unread).
    package var maxBody = 8 << 20
    /// The largest request head (request line and header fields), in bytes (`431` beyond).
    package var maxHeaderBytes = 16 << 10
    /// Seconds a request head may take from its first byte (a new
    /// connection's: from its accept), and seconds a connection may send
    /// nothing (or take nothing of its answer), before it is closed. A body
    /// has this long plus a second per ``minimumBodyRate`` bytes.
    package var readTimeout = 30.0
    /// The slowest a body may come on average, in bytes a second (after
    /// ``readTimeout``'s grace): a client trickling a body is closed.
    package var minimumBodyRate = 1024
    /// Worker threads answering requests; appends of different learners fsync in parallel on them.
    package var threads = 64
    /// Learner logs kept open at most (one writer and descriptor each).
    package var openLogs = 1024
    /// Connections open at most; more wait in the listen queue.
    package var maxConnections = 4096
    /// Where each request's access line goes (nil: nowhere).
    package var accessLog: (@Sendable (String) -> Void)?
    /// The numeric address of the proxy in front (`serve --trust-proxy`):
    /// a connection from it is logged as the client `X-Forwarded-For` names.
    package var trustedProxy: String?
    /// The key learner checkpoints are signed with (`serve --key --origin`);
    /// nil: `GET /v1/learners/{user}/checkpoint` answers 404.
    package var checkpointKey: CheckpointKey?
    /// What `GET /metrics` reports (a registry of its own per server; name the version in it).
    package var metrics = ServerMetrics()
    /// Where `GET /metrics` is also served without a token (`serve --metrics-listen`; nil: nowhere).
    package var metricsListen: (host: String, port: Int)?
    /// Events a learner may push per second, sustained (`serve --max-push-rate`; nil: no limit).
    package var maxPushRate: Int?

    /// A configuration with the default limits.
    package init(directory: LedgerDirectory, host: String, port: Int, secret: [UInt8]) {
        self.init(store: .directory(directory), host: host, port: port, secret: secret)
    }

    /// A configuration over `store` with the default limits.
    package init(store: StoreLocation, host: String, port: Int, secret: [UInt8]) {
        self.store = store; self.host = host; self.port = port; self.secret = secret
    }

    /// The smallest secret taken: RFC 7518 wants an HS256 key of at least 256 bits.
    package static let minimumSecretBytes = 32

    /// The secret in a secret file's bytes: all of them, less one trailing
    /// LF (or CRLF). Refused when shorter than ``minimumSecretBytes``.
    package static func secret(fromFile bytes: [UInt8], path: String) throws(ServerError) -> [UInt8] {
        var secret = bytes
        if secret.last == 0x0A {
            secret.removeLast()
            if secret.last == 0x0D { secret.removeLast() }
        }
        guard secret.count >= minimumSecretBytes else {
            throw ServerError("\(path): the secret is \(secret.count) bytes; HS256 needs at least \(minimumSecretBytes) "
                              + "(make one: (umask 077; head -c 32 /dev/urandom | base64 > \(path)))")
        }
        return secret
    }

    /// Why a secret file with these permission bits may not be used (nil: it
    /// may): any group or other bit lets another account read or replace
    /// the secret, and so mint any learner's token.
    package static func secretFileProblem(permissions: UInt32, path: String) -> String? {
        guard permissions & 0o077 != 0 else { return nil }
        let mode = String(permissions & 0o777, radix: 8)
        return "\(path): the secret file's mode is 0\(mode): others on this machine may read it and mint any learner's token; "
            + "make it 0600 (chmod 600 \(path)), or give --allow-readable-secret"
    }

    /// `HOST:PORT` (`127.0.0.1:8080`, `[::1]:0`, `localhost:8080`) as host and port.
    package static func listenAddress(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard !portText.isEmpty, portText.utf8.count <= 5, portText.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
              let port = Int(portText), port <= 65_535 else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            return nil   // an IPv6 host goes in brackets
        }
        guard !host.isEmpty else { return nil }
        return (host, port)
    }
}

/// Where a server keeps its learner logs.
package enum StoreLocation: Sendable {
    /// A ledger directory: one log file a learner.
    case directory(LedgerDirectory)
    /// A PostgreSQL database, by a libpq connection URI (`postgresql://…`).
    case postgres(uri: String)
}

/// The key a server signs learner checkpoints with, and the origin prefix:
/// a learner's checkpoint has origin `ORIGIN/USER`, so no two learners' trees
/// share one (docs/receipts.md, "Origins").
package struct CheckpointKey: Sendable {
    /// The signing key (`keygen`'s private key file).
    package var signer: NoteSigner
    /// The origin prefix (`serve --origin`).
    package var origin: String

    /// A key signing with `signer` under `origin`.
    package init(signer: NoteSigner, origin: String) { self.signer = signer; self.origin = origin }

    /// The origin of `user`'s learner log.
    package func origin(user: String) -> String { origin + "/" + user }
}

/// Why the server could not start or stopped: a message naming what.
package struct ServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    package var message: String
    /// Makes one.
    package init(_ message: String) { self.message = message }
    /// The message.
    package var description: String { message }
}
