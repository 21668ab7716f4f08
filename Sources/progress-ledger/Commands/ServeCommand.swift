import Ledger
import LedgerServer

/// `progress-ledger serve DIR`: the HTTP API devices sync with (docs/sync.md,
/// docs/openapi.yaml). Parses the options and starts `LedgerServer`.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "an HTTP server over a ledger directory (or PostgreSQL) that devices sync with (per-learner tokens)"
    static let help = """
        Serves the ledger directory DIR (one log per learner; created, empty, if
        DIR does not exist) over HTTP/1.1: devices push their pending events and
        pull the learner log's lines after their replica's head (docs/sync.md;
        every endpoint in docs/openapi.yaml). The first line on stdout is the
        address it listens on ('listening on 127.0.0.1:8080'; with port 0, the
        port it picked).

        Every /v1 request carries 'Authorization: Bearer JWT': a token signed
        with HS256 under the secret in FILE (its bytes, less one trailing
        newline; at least 32; the file readable by its owner only, mode 0600,
        unless --allow-readable-secret), with 'sub' the learner, 'exp' its expiry and
        'scope' either 'learner' (only that learner's endpoints) or 'admin'
        (everything: the report and the digest). The app's backend mints them
        after its sign-in. Tokens with another alg (none included), a bad
        signature or past their exp are refused 401; another learner's path
        or event 403.

        A push is all or nothing and idempotent by id; an invalid event is
        400 naming its line and member, an id already used with other content
        409, and nothing is written. Bodies over --max-body are refused 413
        unread, request heads over 16 KiB 431. A request head must be whole
        within --read-timeout of its first byte, a body must keep coming (at
        least 1 KiB a second on average, after --read-timeout's grace), and a
        connection that sends nothing (or takes nothing of its answer) for
        --read-timeout is closed; slow or idle clients never hold up others.
        SIGTERM (or Ctrl-C) stops accepting, finishes the requests in flight
        and exits 0: appends are whole or absent. One access line a request
        on stderr (UTC time, client address, method, path without the
        query's values, status, body bytes, milliseconds) unless --quiet;
        behind a proxy, --trust-proxy ADDR logs the address the proxy at ADDR
        puts in X-Forwarded-For.

        With --store URI (a libpq connection URI, postgresql://...) instead of
        DIR, the learner logs are kept in that PostgreSQL database (15 or
        later; the table is made on first use), one row a line, each the same
        bytes DIR would hold: any number of serve processes may share one
        database, a push is answered once its transaction committed, and a
        database that cannot answer (a failover) is 503, retried by devices.
        Give the password in ~/.pgpass or PGPASSWORD, not in the URI, which
        ps shows; messages never print it. 'export --store URI DIR' writes
        the ledger directory; the report, the digest and checkpoints read
        that directory, written for the request. docs/scaling.md.

        With --key and --origin, GET /v1/learners/U/checkpoint answers U's
        learner log's signed checkpoint at its head (origin ORIGIN/U; the
        same text 'checkpoint DIR --user U --origin ORIGIN/U' prints), which a device checks
        against its replica with the key's verifier key (docs/receipts.md).

        GET /metrics answers the server's metrics in Prometheus's text format
        (requests by route and status, latencies, appends, fsync times, open
        connections and learner logs, refusals by kind) to an admin token;
        with --metrics-listen, also on that address without a token (a private
        network's scraper; its address is the second line on stdout, 'metrics
        on HOST:PORT'). With --max-push-rate, a learner pushing more events a
        second than that, sustained, is refused 429 rate_limited with
        Retry-After (a push is taken while the learner is at most a second's
        worth ahead, so a whole outbox goes in one push).
        """
    static let listen = Option.checked("--listen", value: "HOST:PORT", help: "where to listen (127.0.0.1:0 picks a free port; [::1]:8080 for IPv6)",
                                       takes: "HOST:PORT with a port from 0 to 65535") { text in
        ServerConfiguration.listenAddress(text).map { ListenAddress(host: $0.host, port: $0.port) }
    }.required
    static let secretFile = Option.nonEmpty("--secret-file", value: "FILE", help: "the HS256 secret tokens are signed with (the file's bytes "
        + "less one trailing newline, at least 32)", what: "a file name").required
    /// The server's own defaults (its limits), which the options show and use.
    static let defaults = ServerConfiguration(store: .postgres(uri: ""), host: "", port: 0, secret: [])
    static let maxBody = Option.integer("--max-body", value: "BYTES", help: "the largest request body; larger ones are refused 413 unread",
                                        range: 1...(1 << 40)).defaulting(to: defaults.maxBody, shown: "\(defaults.maxBody), \(defaults.maxBody >> 20) MiB")
    static let allowReadableSecret = Flag("--allow-readable-secret", help: "take a secret file others may read (mode wider than 0600); "
        + "refused otherwise")
    static let readTimeout = Option.integer("--read-timeout", value: "SECONDS", help: "close a connection whose request head is not whole this long "
        + "after its first byte, or that sends nothing (or takes nothing of its answer) for this long", range: 1...86_400)
        .defaulting(to: Int(defaults.readTimeout))
    static let threads = Option.integer("--threads", help: "worker threads answering requests: appends of different "
        + "learners fsync in parallel on them", range: 1...1024).defaulting(to: defaults.threads)
    static let metricsListen = Option.checked("--metrics-listen", value: "HOST:PORT", help: "also serve GET /metrics here, without a token "
        + "(a private network's scraper)", takes: "HOST:PORT with a port from 0 to 65535") { text in
        ServerConfiguration.listenAddress(text).map { ListenAddress(host: $0.host, port: $0.port) }
    }
    static let maxPushRate = Option.integer("--max-push-rate", value: "EVENTS/S", help: "events a learner may push a second, sustained; "
        + "beyond, 429 with Retry-After", range: 1...1_000_000_000).byDefault("no limit")
    static let quiet = Flag("--quiet", help: "no access line per request on stderr")
    static let trustProxy = Option.checked("--trust-proxy", value: "ADDR", help: "the access line's client is the last address in "
        + "X-Forwarded-For when the connection comes from ADDR (a numeric IPv4 or IPv6 address: the proxy's)",
                                           takes: "a numeric IPv4 or IPv6 address") { text in System.numericAddress(text) }
    static let origin = Option.nonEmpty("--origin", value: "ORIGIN", help: "with --key: the learner checkpoints' origin prefix "
                                        + "(U's is ORIGIN/U), e.g. school.example/progress", what: "a non-empty log name")
        .needing(Receipts.key)
    static let store = Option.nonEmpty("--store", value: "URI", help: "keep the learner logs in the PostgreSQL database at URI "
                                       + "(a libpq connection URI) instead of a directory", what: "a connection URI (postgresql://...)")
    static let storeConnections = Option.integer("--store-connections", help: "with --store: connections to the database at most",
                                                 range: 1...1024).byDefault("--threads").needing(store)
    static let options: [any OptionSpec] = [listen, secretFile, allowReadableSecret, maxBody, readTimeout, threads,
                                            Receipts.key.needing(origin), origin, trustProxy, maxPushRate, metricsListen, quiet,
                                            store, storeConnections]
    static let usage = [
        Form("DIR", Usage.of([listen, secretFile, allowReadableSecret, maxBody, readTimeout, threads])
             + [.optional([.option(Receipts.key), .option(origin)])] + Usage.of([trustProxy, maxPushRate, metricsListen, quiet])),
        Form("", [.option(store)] + Usage.of([listen, secretFile, storeConnections]) + [.optional([.operand("...")])]),
    ]
    static let examples = """
        (umask 077; head -c 32 /dev/urandom | base64 > server.secret)
        progress-ledger serve ledger.d --listen 127.0.0.1:8080 --secret-file server.secret
        progress-ledger serve ledger.d --listen 127.0.0.1:8080 --secret-file server.secret --key school.key --origin school.example/progress
        PGPASSWORD=... progress-ledger serve --store 'postgresql://ledger@db1,db2/ledger?target_session_attrs=read-write' --listen 0.0.0.0:8080 --secret-file server.secret
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let uri = args[Self.store]
        if uri != nil, !args.positionals.isEmpty { throw CLIError.usage("give DIR or --store URI, not both") }
        let address = try args.required(Self.listen)
        // Everything given is checked before DIR is made: a refusal leaves nothing behind.
        let secret = try readSecret(try args.required(Self.secretFile), allowReadable: args[Self.allowReadableSecret])
        var checkpointKey: CheckpointKey? = nil
        if let keyPath = args[Receipts.key], let origin = args[Self.origin] {
            checkpointKey = CheckpointKey(signer: try Receipts.failing { () throws(ReceiptError) in try NoteSigner(contentsOf: keyPath) },
                                          origin: origin)
        }
        let location: StoreLocation
        if let uri { location = .postgres(uri: uri) } else { location = .directory(try openOrCreate(try args.onePositional("DIR"), io)) }
        var configuration = ServerConfiguration(store: location, host: address.host, port: address.port, secret: secret)
        configuration.checkpointKey = checkpointKey
        configuration.maxBody = args[Self.maxBody]
        configuration.readTimeout = Double(args[Self.readTimeout])
        configuration.threads = args[Self.threads]
        configuration.trustedProxy = args[Self.trustProxy]
        configuration.metrics = ServerMetrics(version: ProgressLedgerCLI.version)
        if let metrics = args[Self.metricsListen] { configuration.metricsListen = (metrics.host, metrics.port) }
        configuration.maxPushRate = args[Self.maxPushRate]
        configuration.storeConnections = args[Self.storeConnections]
        if !args[Self.quiet] {
            configuration.accessLog = { line in
                _ = Array((line + "\n").utf8).withUnsafeBytes { try? System().writeAll(2, $0) }
            }
        }
        let server: LedgerServer
        do { server = try LedgerServer(configuration) } catch { throw CLIError.failure(error.description) }
        // The handlers are in place before the address is printed: a SIGTERM sent
        // as soon as a supervisor reads it stops the server (issue 31).
        let signals: StopSignalHandlers
        do { signals = try System.onStop { _ in server.stop() } } catch {
            throw CLIError.failure("cannot install the SIGTERM handler: \(error)")
        }
        defer { withExtendedLifetime(signals) {} }
        io.line("listening on \(server.address)")
        if let metrics = server.metricsAddress { io.line("metrics on \(metrics)") }
        io.flush()
        do { try server.run() } catch { throw CLIError.failure(error.description) }
        io.error("progress-ledger serve: stopped; every request in flight was answered")
        return ExitCode.ok
    }

    /// The secret in the file at `path`: refused when others may read the
    /// file (unless `allowReadable`) or it is too short.
    private static func readSecret(_ path: String, allowReadable: Bool) throws(CLIError) -> [UInt8] {
        let bytes: [UInt8]
        do { bytes = try SmallFile.read(path, limit: 64 << 10) } catch {
            throw .failure("\(error.path): cannot read the secret: \(error.detail)")
        }
        if !allowReadable, let permissions = try? System().status(of: path).permissions,
           let problem = ServerConfiguration.secretFileProblem(permissions: permissions, path: path) {
            throw .failure(problem)
        }
        do { return try ServerConfiguration.secret(fromFile: bytes, path: path) } catch { throw .failure(error.description) }
    }

    /// The ledger directory at `path`, made (empty) when nothing is there.
    private static func openOrCreate(_ path: String, _ io: Terminal) throws(CLIError) -> LedgerDirectory {
        if let directory = try LogInput.directory(path) { return directory }
        guard !LedgerDirectory.isFile(path) else {
            throw .failure("\(path): is not a ledger directory (no \(LedgerDirectory.manifestName)); give a new name or one made by 'split'")
        }
        do {
            let directory = try LedgerDirectory.create(at: path)
            io.error("progress-ledger serve: created the ledger directory \(path)")
            return directory
        } catch {
            throw .failure(error.description)
        }
    }
}

/// `--listen`'s value.
struct ListenAddress: Sendable {
    var host: String
    var port: Int
}
