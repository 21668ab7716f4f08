// serve-bench: scripts/bench's rows for `progress-ledger serve` (issue 23),
// each with its peer in the same run.
//
//   serve-bench push HOST:PORT --secret-file F [--devices 64] [--events N] [--prefix P] [--first K]
//       64 devices (threads), each its own learner P-K with a keep-alive
//       connection, push single events (`POST /v1/learners/P-K/events`, one
//       event a request, ids P-K-FIRST..., each answered after its fsync) as fast as they are
//       answered. Prints `push devices D events E seconds S rate R p50 A p99 B`
//       (latencies in ms, from the request's first byte sent to the answer's
//       last byte read) and `line-bytes L` (a log line's size, for the peer).
//   serve-bench plain-files DIR --threads 64 --events N --bytes L
//       The peer of push: T threads each write and fsync N lines of L bytes
//       to a file of their own in DIR (write + fsync a line, nothing else).
//       Prints `plain-files threads T events E seconds S rate R`.
//   serve-bench writers DIR --threads 64 --events N
//       Between the two: T threads each append N single events through a
//       LedgerWriter of their own (what the server's workers do, without HTTP).
//       Prints `writers threads T events E seconds S rate R`.
//   serve-bench pull HOST:PORT --secret-file F --user U [--limit N]
//       Pulls U's whole learner log from seq 0 page by page (`GET
//       .../events?after=SEQ&limit=N`, keep-alive) and counts its bytes.
//       Prints `pull lines L bytes B seconds S mbps M pages P`.
//   serve-bench socket-copy FILE
//       The peer of pull: a plain socket copy of FILE over loopback (a
//       thread reads FILE in 256 KiB pieces and sends them; this thread
//       reads them). Prints `socket-copy bytes B seconds S mbps M`.

import Events
import Ledger
import LedgerServer
import SyncWire
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func fail(_ message: String) -> Never {
    _ = Array("serve-bench: \(message)\n".utf8).withUnsafeBytes { try? System().writeAll(2, $0) }
    exit(1)
}

func say(_ text: String) {
    _ = Array((text + "\n").utf8).withUnsafeBytes { try? System().writeAll(1, $0) }
}

func seconds() -> Double { Double(System.monotonicNanoseconds()) / 1e9 }

struct Arguments {
    var words: [String] = []
    var options: [String: String] = [:]
    init(_ argv: ArraySlice<String>) {
        var it = argv.makeIterator()
        while let a = it.next() {
            if a.hasPrefix("--") { options[a] = it.next() ?? "" } else { words.append(a) }
        }
    }
    func int(_ name: String, _ fallback: Int) -> Int { options[name].flatMap { Int($0) } ?? fallback }
    func address() -> (String, Int) {
        guard let text = words.first, let a = ServerConfiguration.listenAddress(text) else { fail("give HOST:PORT") }
        return a
    }
    func minter() -> TokenMinter {
        guard let path = options["--secret-file"], let bytes = try? SmallFile.read(path),
              let secret = try? ServerConfiguration.secret(fromFile: bytes, path: path) else { fail("give --secret-file FILE") }
        return TokenMinter(secret: secret)
    }
}

/// A keep-alive HTTP/1.1 client on one blocking socket: enough for the bench.
final class Client {
    let fd: CInt
    let system = System()
    var buffer = [UInt8](repeating: 0, count: 256 << 10)
    var pending: [UInt8] = []

    init(host: String, port: Int) {
        do { fd = try system.connect(host: host, port: port) } catch { fail("connect: \(error)") }
    }
    deinit { system.close(fd) }

    /// Sends `request`, reads the answer: status, the `Ledger-Head` field's
    /// head (``LedgerHeadField``; nil when absent or not a head), body bytes (kept only when `keep`).
    func exchange(_ request: [UInt8], keep: Bool) -> (status: Int, head: Head?, count: Int, body: [UInt8]) {
        request.withUnsafeBytes { bytes in
            do { try system.sendAll(fd, bytes) } catch { fail("send: \(error)") }
        }
        // The head.
        var headEnd: Int? = nil
        while true {
            if let end = find(pending) { headEnd = end; break }
            fill()
        }
        guard let headEnd else { fail("no head") }
        // Status, Content-Length and Ledger-Head read from the bytes.
        let status = Int(pending[9] - 48) * 100 + Int(pending[10] - 48) * 10 + Int(pending[11] - 48)
        var length = 0, ledgerHead: Head? = nil
        var lineStart = 0
        for i in 0..<headEnd where pending[i] == 10 {
            let line = pending[lineStart..<i]
            lineStart = i + 1
            guard let colon = line.firstIndex(of: 58) else { continue }
            let name = line[line.startIndex..<colon].map { $0 | 0x20 }
            var value = line[(colon + 1)...]
            while value.first == 32 { value = value.dropFirst() }
            if value.last == 13 { value = value.dropLast() }
            if name.elementsEqual("content-length".utf8) { length = value.reduce(0) { $0 * 10 + Int($1 - 48) } }
            if name.elementsEqual(Self.ledgerHeadName) { ledgerHead = LedgerHeadField.head(String(decoding: value, as: UTF8.self)) }
        }
        pending.removeSubrange(0..<headEnd)
        var body: [UInt8] = []
        var got = 0
        while got < length {
            if pending.isEmpty { fill() }
            let take = min(pending.count, length - got)
            if keep { body += pending[0..<take] }
            got += take
            pending.removeSubrange(0..<take)
        }
        return (status, ledgerHead, got, body)
    }

    /// `Ledger-Head` as the loop above compares names (ASCII lowercase).
    private static let ledgerHeadName = LedgerHeadField.name.utf8.map { $0 | 0x20 }

    private func fill() {
        let n = buffer.withUnsafeMutableBytes { b in (try? system.receive(fd, into: b)) ?? 0 }
        guard n > 0 else { fail("the server closed the connection") }
        pending += buffer[0..<n]
    }

    private func find(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 { return i + 4 }
        return nil
    }
}

extension Substring {
    func trimmingCharacters() -> String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

func format(_ x: Double, _ digits: Int = 3) -> String {
    let scale = Double([1, 10, 100, 1000, 10000][digits])
    return String(Double(Int((x * scale).rounded())) / scale)
}

/// The JSON line device `k` pushes as its `n`-th event.
func eventLine(prefix: String, device k: Int, _ n: Int) -> String {
    #"{"id":"\#(prefix)-\#(k)-\#(n)","at":"2025-10-21T08:15:00+03:00","user":"\#(prefix)-\#(k)","type":"hints.granted","data":{"amount":1,"reason":"grant"}}"#
}

/// Runs `count` threads of `body` started together; returns the seconds from the start to the last end.
/// Each thread runs `prepare` (not timed), waits for the others, then `body` with what `prepare` made.
func together<T>(_ count: Int, prepare: @escaping @Sendable (Int) -> T, _ body: @escaping @Sendable (Int, T) -> Void) -> Double {
    let gate = DispatchGate(count)
    var threads: [SystemThread] = []
    for k in 0..<count {
        do { threads.append(try SystemThread.start { let made = prepare(k); gate.arrive(); body(k, made) }) } catch { fail("thread: \(error)") }
    }
    let t0 = gate.open()
    for t in threads { t.join() }
    return seconds() - t0
}

/// Holds threads until all have arrived, then lets them go at once.
final class DispatchGate: @unchecked Sendable {
    private var arrived = 0
    private let count: Int
    private var mutex = pthread_mutex_t()
    private var cond = pthread_cond_t()
    private var opened = false
    init(_ count: Int) { self.count = count; pthread_mutex_init(&mutex, nil); pthread_cond_init(&cond, nil) }
    func arrive() {
        pthread_mutex_lock(&mutex)
        arrived += 1
        pthread_cond_broadcast(&cond)
        while !opened { pthread_cond_wait(&cond, &mutex) }
        pthread_mutex_unlock(&mutex)
    }
    /// Waits for every thread, opens; returns the time it opened.
    func open() -> Double {
        pthread_mutex_lock(&mutex)
        while arrived < count { pthread_cond_wait(&cond, &mutex) }
        opened = true
        let t = seconds()
        pthread_cond_broadcast(&cond)
        pthread_mutex_unlock(&mutex)
        return t
    }
}

/// Per-thread results gathered under a lock.
final class Gathered: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    var latencies: [Double] = []
    init() { pthread_mutex_init(&mutex, nil) }
    func add(_ values: [Double]) { pthread_mutex_lock(&mutex); latencies += values; pthread_mutex_unlock(&mutex) }
}

func push(_ args: Arguments) {
    let (host, port) = args.address()
    let minter = args.minter()
    let devices = args.int("--devices", 64), events = args.int("--events", 200), first = args.int("--first", 1)
    let prefix = args.options["--prefix"] ?? "bench-\(System.monotonicNanoseconds() % 1_000_000)"
    let gathered = Gathered()
    let exp = System.secondsSinceEpoch() + 3600
    let wall = together(devices, prepare: { k -> (Client, [[UInt8]]) in
        let client = Client(host: host, port: port)
        let user = "\(prefix)-\(k)"
        let token = minter.token(subject: user, scope: "learner", expires: exp)
        let head = Array("POST /v1/learners/\(user)/events HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/x-ndjson\r\nContent-Length: ".utf8)
        // Every request made before the clock starts: the timed loop sends and reads only.
        let requests = (first..<(first + max(1, events))).map { n in
            let line = Array(eventLine(prefix: prefix, device: k, n).utf8) + [10]
            return head + Array("\(line.count)\r\n\r\n".utf8) + line
        }
        return (client, requests)
    }) { k, made in
        let (client, requests) = made
        var latencies: [Double] = []
        latencies.reserveCapacity(events)
        for request in requests {
            let t = seconds()
            let answer = client.exchange(request, keep: false)
            latencies.append((seconds() - t) * 1000)
            guard answer.status == 200 else { fail("push answered \(answer.status)") }
        }
        gathered.add(latencies)
    }
    let sorted = gathered.latencies.sorted()
    let total = sorted.count
    guard let sample = try? LineCodec.decodeNewEvent(Array(eventLine(prefix: prefix, device: 0, events).utf8)) else { fail("bad event") }
    let lineBytes = LineCodec.encode(sample.sealed(seq: events, id: sample.id ?? "", prev: Envelope.genesis)).count + 1
    say("push devices \(devices) events \(total) seconds \(format(wall)) rate \(format(Double(total) / wall, 1)) "
        + "p50 \(format(percentile(sorted, 0.5))) p99 \(format(percentile(sorted, 0.99))) line-bytes \(lineBytes)")
}

func plainFiles(_ args: Arguments) {
    guard let dir = args.words.first else { fail("give DIR") }
    let threads = args.int("--threads", 64), events = args.int("--events", 200), bytes = max(2, args.int("--bytes", 300))
    let line = [UInt8](repeating: UInt8(ascii: "x"), count: bytes - 1) + [10]
    let wall = together(threads, prepare: { _ in () }) { k, _ in
        let fd = open("\(dir)/plain-\(k).log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { fail("open: \(errno)") }
        for _ in 0..<events {
            let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == line.count else { fail("write: \(errno)") }
            while fsync(fd) != 0 { if errno != EINTR { fail("fsync: \(errno)") } }
        }
        close(fd)
    }
    say("plain-files threads \(threads) events \(threads * events) seconds \(format(wall)) rate \(format(Double(threads * events) / wall, 1))")
}

func writers(_ args: Arguments) {
    guard let dir = args.words.first else { fail("give DIR") }
    let threads = args.int("--threads", 64), events = args.int("--events", 200)
    let prefix = "w\(System.monotonicNanoseconds() % 1_000_000)"
    let wall = together(threads, prepare: { k -> (LedgerWriter, [NewEvent]) in
        guard let writer = try? LedgerWriter(path: "\(dir)/\(prefix)-\(k).log") else { fail("open") }
        let list = (1...events).compactMap { try? LineCodec.decodeNewEvent(Array(eventLine(prefix: prefix, device: k, $0).utf8)) }
        return (writer, list)
    }) { _, made in
        for e in made.1 { guard (try? made.0.append(e)) != nil else { fail("append") } }
    }
    say("writers threads \(threads) events \(threads * events) seconds \(format(wall)) rate \(format(Double(threads * events) / wall, 1))")
}

func pull(_ args: Arguments) {
    let (host, port) = args.address()
    guard let user = args.options["--user"] else { fail("give --user U") }
    let token = args.minter().token(subject: user, scope: "learner", expires: System.secondsSinceEpoch() + 3600)
    let limit = args.int("--limit", 10_000)
    let client = Client(host: host, port: port)
    let t0 = seconds()
    var after = 0, bytes = 0, pages = 0, lines = 0
    while true {
        let path = "/v1/learners/\(user)/events?after=\(after)&limit=\(limit)"
        let request = Array("GET \(path) HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer \(token)\r\n\r\n".utf8)
        let answer = client.exchange(request, keep: false)
        guard answer.status == 200, let head = answer.head?.seq else { fail("pull answered \(answer.status)") }
        pages += 1
        bytes += answer.count
        let got = min(limit, head - after)
        lines += got
        after += got
        if after >= head { break }
    }
    let wall = seconds() - t0
    say("pull lines \(lines) bytes \(bytes) seconds \(format(wall, 4)) mbps \(format(Double(bytes) / wall / 1e6, 1)) pages \(pages)")
}

func socketCopy(_ args: Arguments) {
    guard let path = args.words.first else { fail("give FILE") }
    let system = System()
    let listener: (fd: CInt, address: SocketAddress)
    do { listener = try system.listen(host: "127.0.0.1", port: 0) } catch { fail("listen: \(error)") }
    let fd = listener.fd
    let sender: SystemThread
    do {
        sender = try SystemThread.start {
            var client: CInt? = nil
            while client == nil {
                _ = try? System().poll([PollEntry(fd: fd, read: true, write: false)], timeout: -1)
                client = (try? System().accept(fd)) ?? nil
            }
            guard let client else { return }
            try? System().setBlocking(client, timeout: 0)
            let file = open(path, O_RDONLY | O_CLOEXEC)
            var chunk = [UInt8](repeating: 0, count: 256 << 10)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                chunk.withUnsafeBytes { try? System().sendAll(client, UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            }
            close(file)
            System().close(client)
        }
    } catch { fail("thread: \(error)") }
    let t0 = seconds()
    let client: CInt
    do { client = try system.connect(host: "127.0.0.1", port: listener.address.port) } catch { fail("connect: \(error)") }
    var buffer = [UInt8](repeating: 0, count: 256 << 10)
    var bytes = 0
    while true {
        let n = buffer.withUnsafeMutableBytes { b in (try? system.receive(client, into: b)) ?? 0 }
        if n <= 0 { break }
        bytes += n
    }
    let wall = seconds() - t0
    sender.join()
    system.close(client)
    system.close(fd)
    say("socket-copy bytes \(bytes) seconds \(format(wall, 4)) mbps \(format(Double(bytes) / wall / 1e6, 1))")
}

let argv = CommandLine.arguments
switch argv.count > 1 ? argv[1] : "" {
case "push": push(Arguments(argv.dropFirst(2)))
case "plain-files": plainFiles(Arguments(argv.dropFirst(2)))
case "pull": pull(Arguments(argv.dropFirst(2)))
case "writers": writers(Arguments(argv.dropFirst(2)))
case "socket-copy": socketCopy(Arguments(argv.dropFirst(2)))
default: fail("usage: serve-bench push|plain-files|pull|socket-copy ... (see the comment at the top of Sources/serve-bench/main.swift)")
}
