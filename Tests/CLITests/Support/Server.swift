import Foundation
import Ledger
import Testing

/// A `progress-ledger serve` process on 127.0.0.1 (port 0: it says which),
/// over a ledger directory of its own (or a new PostgreSQL database, ``TestStore``),
/// with a 32-byte secret.
final class ServerProcess: @unchecked Sendable {
    let scratch: TemporaryDirectory
    let directory: String
    /// `DIR`, or `--store URI` for a PostgreSQL store.
    let storeArguments: [String]
    /// The PostgreSQL store's URI (nil for a directory).
    var storeURI: String? { storeArguments.first == "--store" ? storeArguments.last : nil }
    let secretFile: String
    private(set) var process: Process
    private(set) var port = 0
    /// The `--metrics-listen` port (its second line), when given.
    private(set) var metricsPort: Int?
    let stderrURL: URL
    private let extra: [String]

    /// Starts a server over `directory` (a new one in a temporary folder when nil).
    init(directory: String? = nil, secretFile: String? = nil, _ extra: [String] = []) throws {
        scratch = try TemporaryDirectory()
        self.directory = directory ?? scratch.path("ledger.d")
        storeArguments = [self.directory]
        if let secretFile {
            self.secretFile = secretFile
        } else {
            self.secretFile = scratch.path("server.secret")
            try Self.writeSecret("test-secret-of-at-least-32-bytes-0123456789\n", to: self.secretFile)
        }
        stderrURL = scratch.url.appendingPathComponent("stderr")
        self.extra = extra
        process = Process()
        try start()
    }

    /// Starts a server over a new store of `kind`; nil when PostgreSQL is
    /// absent (said so: a note, or an issue in CI).
    init?(store kind: TestStore, storeArguments given: [String]? = nil, _ extra: [String] = []) throws {
        scratch = try TemporaryDirectory()
        directory = scratch.path("ledger.d")
        guard let arguments = given ?? kind.serveArguments(directory: directory) else { return nil }
        storeArguments = arguments
        secretFile = scratch.path("server.secret")
        try Self.writeSecret("test-secret-of-at-least-32-bytes-0123456789\n", to: secretFile)
        stderrURL = scratch.url.appendingPathComponent("stderr")
        self.extra = extra
        process = Process()
        try start()
    }

    /// The ledger directory the store's lines make: the directory itself, or
    /// a PostgreSQL store written out by `export --store URI DIR` (a new DIR each call).
    func ledgerDirectory() throws -> String {
        guard let uri = storeURI else { return directory }
        let out = scratch.path("export-\(UInt32.random(in: 0...UInt32.max))")
        let result = try CLI.run(["export", "--store", uri, out])
        guard result.status == 0 else { throw ServerFailure(message: "export --store: \(result.stderr)") }
        return out
    }

    /// Starts (or restarts) the process; waits for its first line.
    func start(port: Int = 0) throws {
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process = Process()
        process.executableURL = CLI.tool
        process.arguments = ["serve"] + storeArguments + ["--listen", "127.0.0.1:\(port)", "--secret-file", secretFile] + extra
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
        let lines = extra.contains("--metrics-listen") ? 2 : 1
        var line: [UInt8] = []
        while line.count(where: { $0 == 0x0A }) < lines {
            let data = out.fileHandleForReading.availableData
            guard !data.isEmpty else { throw ServerFailure(message: "serve exited before listening: \(stderr)") }
            line += data
        }
        let text = String(decoding: line.prefix { $0 != 0x0A }, as: UTF8.self)
        guard text.hasPrefix("listening on 127.0.0.1:"), let p = Int(text.dropFirst("listening on 127.0.0.1:".count)) else {
            throw ServerFailure(message: "unexpected first line: \(text)")
        }
        self.port = p
        if lines == 2 {
            let second = String(decoding: line.split(separator: 0x0A)[1], as: UTF8.self)
            guard second.hasPrefix("metrics on 127.0.0.1:"), let m = Int(second.dropFirst("metrics on 127.0.0.1:".count)) else {
                throw ServerFailure(message: "unexpected second line: \(second)")
            }
            metricsPort = m
        }
    }

    /// Writes a secret file as `serve` takes it: readable by its owner only (0600).
    static func writeSecret(_ text: String, to path: String, permissions: Int = 0o600) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
    }

    /// What the server wrote on stderr so far.
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits: the exit status.
    @discardableResult
    func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends SIGKILL and waits.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The base URL.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Every file under the directory with its bytes (to show a refusal wrote nothing).
    func snapshot() -> [String: Data] {
        var files: [String: Data] = [:]
        if let walker = FileManager.default.enumerator(atPath: directory) {
            for case let name as String in walker {
                if let data = FileManager.default.contents(atPath: directory + "/" + name) { files[name] = data }
            }
        }
        return files
    }

    /// The learner log of `user`, as the directory's layout names it (`learners/HH/H64.log`)
    /// (of the store's export, for a PostgreSQL store).
    func learnerLog(_ user: String) -> String {
        let directory = (try? ledgerDirectory()) ?? self.directory
        return (try? LedgerDirectory(opening: directory))?.learnerPath(user: user) ?? ""
    }

    /// Replaces `user`'s learner log with the lines of the log file at `path`
    /// (a restored backup, behind the devices' backs); the server is stopped.
    func replaceLearnerLog(_ user: String, with path: String) throws {
        guard let uri = storeURI else {
            let log = learnerLog(user)
            try FileManager.default.removeItem(atPath: log)
            try FileManager.default.copyItem(atPath: path, toPath: log)
            return
        }
        func hex<S: Sequence<UInt8>>(_ bytes: S) -> String { TestPostgres.hex(bytes) }
        let lines = try Data(contentsOf: URL(fileURLWithPath: path)).split(separator: 0x0A)
        let rows = lines.enumerated().map { "(\(hex(Array(user.utf8))), \($0.offset + 1), \(hex($0.element)))" }
        try TestPostgres.psql(uri, "BEGIN; DELETE FROM progress_ledger_lines WHERE learner = \(hex(Array(user.utf8))); "
                                  + "INSERT INTO progress_ledger_lines (learner, seq, line) VALUES \(rows.joined(separator: ", ")); COMMIT")
    }

    deinit {
        if process.isRunning { kill() }
    }
}

struct ServerFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Tokens minted by Python's standard library (hmac, hashlib, base64, json):
/// written apart from the server's verifier.
enum Tokens {
    /// One token per claim set, signed with the secret in `secretFile` (less a
    /// trailing newline). `header` replaces `{"alg":"HS256","typ":"JWT"}`;
    /// with `"alg":"none"` the signature is empty. `exp` is seconds from now.
    static func mint(_ secretFile: String, _ claims: [(sub: String, scope: String, exp: Int)], header: String? = nil,
                     signWith: String? = nil) throws -> [String] {
        let script = #"""
        import base64, hashlib, hmac, json, sys, time
        def b64(b): return base64.urlsafe_b64encode(b).rstrip(b"=").decode()
        secret = open(sys.argv[1], "rb").read()
        if secret.endswith(b"\n"): secret = secret[:-1]
        if sys.argv[3]: secret = sys.argv[3].encode()
        header = sys.argv[2] or json.dumps({"alg": "HS256", "typ": "JWT"})
        for spec in json.loads(sys.stdin.read()):
            claims = {"sub": spec[0], "scope": spec[1], "exp": int(time.time()) + spec[2]}
            signing = b64(header.encode()) + "." + b64(json.dumps(claims).encode())
            sig = "" if json.loads(header).get("alg") == "none" else b64(hmac.new(secret, signing.encode(), hashlib.sha256).digest())
            print(signing + "." + sig)
        """#
        let input = try JSONSerialization.data(withJSONObject: claims.map { [$0.sub, $0.scope, $0.exp] as [Any] })
        let result = try CLI.runTool(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, secretFile, header ?? "", signWith ?? ""],
                                     stdin: Array(input))
        guard result.status == 0 else { throw ServerFailure(message: "python3: \(result.stderr)") }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    static func one(_ secretFile: String, sub: String, scope: String = "learner", exp: Int = 3600) throws -> String {
        try mint(secretFile, [(sub, scope, exp)])[0]
    }
}

/// An HTTP/1.1 client on a raw socket: sends any bytes (malformed, slow,
/// oversized) and reads one answer.
final class RawHTTP {
    let fd: CInt
    private let system = System()
    private var pending: [UInt8] = []

    init(port: Int, timeout: Int = 10) throws {
        fd = try system.connect(host: "127.0.0.1", port: port)
        try system.setBlocking(fd, timeout: timeout)
    }

    deinit { system.close(fd) }

    func send(_ bytes: [UInt8]) throws {
        let fd = fd, system = system
        try bytes.withUnsafeBytes { b in Result { () throws(SystemCallError) in try system.sendAll(fd, b) } }.get()
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// A whole request: method, path, token, body.
    func request(_ method: String, _ path: String, token: String? = nil, body: [UInt8] = [], fields: [String] = []) throws -> HTTPAnswer {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: test\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        for field in fields { head += field + "\r\n" }
        if method == "POST" || !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        try send(Array((head + "\r\n").utf8) + body)
        return try answer()
    }

    /// Reads one answer (nil fields when the server closed first).
    func answer() throws -> HTTPAnswer {
        while true {
            if let (status, fields) = takeHead() {
                let length = Int(fields["content-length"] ?? "0") ?? 0
                while pending.count < length { guard try fill() else { throw ServerFailure(message: "closed mid-body") } }
                let body = Array(pending[0..<length])
                pending.removeSubrange(0..<length)
                return HTTPAnswer(status: status, fields: fields, body: body)
            }
            guard try fill() else { throw ServerFailure(message: "the server closed the connection without an answer") }
        }
    }

    /// Reads the head of one answer and no body (the answer to a `HEAD`).
    func answerHead() throws -> HTTPAnswer {
        while true {
            if let (status, fields) = takeHead() { return HTTPAnswer(status: status, fields: fields, body: []) }
            guard try fill() else { throw ServerFailure(message: "the server closed the connection without an answer") }
        }
    }

    /// Bytes received and not read as an answer yet.
    var unread: Int { pending.count }

    /// Whether the server has closed the connection (reads until the end or `seconds`).
    func isClosed() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { b in (try? system.receive(fd, into: b)) ?? nil }
            guard let n else { return false }   // timed out
            if n == 0 { return true }
        }
    }

    /// An answer's status and fields (names in lowercase), once its whole head came.
    private func takeHead() -> (Int, [String: String])? {
        guard let end = find(pending, [13, 10, 13, 10]) else { return nil }
        let head = String(decoding: pending[0..<end], as: UTF8.self)
        pending.removeSubrange(0..<(end + 4))
        let lines = head.components(separatedBy: "\r\n")
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { fields[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return (Int(lines[0].split(separator: " ")[1]) ?? 0, fields)
    }

    private func fill() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let fd = fd, system = system
        let n = try buffer.withUnsafeMutableBytes { b in Result { () throws(SystemCallError) in try system.receive(fd, into: b) } }.get()
        guard let n, n > 0 else { return false }
        pending += buffer[0..<n]
        return true
    }

    private func find(_ bytes: [UInt8], _ pattern: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for i in 0...(bytes.count - pattern.count) where Array(bytes[i..<(i + pattern.count)]) == pattern { return i }
        return nil
    }
}

/// One answer.
struct HTTPAnswer {
    var status: Int
    var fields: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The JSON body's `error` member.
    var kind: String? {
        (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["error"] as? String
    }
}
