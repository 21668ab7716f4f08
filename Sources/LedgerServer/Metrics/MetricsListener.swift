import Dispatch
import Ledger

/// `serve --metrics-listen HOST:PORT`: `GET /metrics` without a token, on an
/// address of its own (for a private network a Prometheus server scrapes).
/// One thread answers one scrape at a time and closes each connection; it
/// answers nothing else (`404`), and a client that does not send a whole
/// request head within two seconds is dropped. The API's listener is not
/// involved: a scrape neither waits for nor holds up a device.
final class MetricsListener: @unchecked Sendable {
    /// Where it listens (the port chosen when 0 was asked).
    let address: SocketAddress
    private let listener: CInt
    private let metrics: ServerMetrics
    /// Set once by ``stop()``; read by the thread between polls (ten times a second).
    private let stopping = StopFlag()
    private var thread: SystemThread?

    init(host: String, port: Int, metrics: ServerMetrics) throws(ServerError) {
        self.metrics = metrics
        do {
            (listener, address) = try System().listen(host: host, port: port, backlog: 64)
        } catch {
            throw ServerError("cannot listen for metrics on \(SocketAddress(host: host, port: port)): \(error)")
        }
    }

    /// Starts answering on a thread of its own.
    func start() throws(ServerError) {
        do {
            thread = try SystemThread.start { [self] in run() }
        } catch {
            throw ServerError("cannot start the metrics thread: \(error)")
        }
    }

    /// Stops answering and closes the listener (waits for the thread).
    func stop() {
        stopping.set()
        thread?.join()
        thread = nil
        System().close(listener)
    }

    private func run() {
        let system = System()
        while !stopping.isSet {
            guard let ready = try? system.poll([PollEntry(fd: listener, read: true, write: false)], timeout: 100),
                  ready.first?.readable == true else { continue }
            while let fd = try? system.accept(listener) {
                answer(fd, system)
                system.close(fd)
            }
        }
    }

    /// Reads one request head (at most 16 KiB, two seconds) and answers it.
    private func answer(_ fd: CInt, _ system: System) {
        var input: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = System.monotonicNanoseconds() + 2_000_000_000
        var response: Response?
        while response == nil {
            let now = System.monotonicNanoseconds()
            guard now < deadline else { return }
            guard let ready = try? system.poll([PollEntry(fd: fd, read: true, write: false)], timeout: Int((deadline - now) / 1_000_000) + 1),
                  let entry = ready.first, entry.readable || entry.failed else { continue }
            let got = buffer.withUnsafeMutableBytes { b in (try? system.receive(fd, into: b)) ?? nil }
            guard let got else { continue }
            guard got > 0 else { return }
            input += buffer[0..<got]
            let parsed = input.withUnsafeBytes { bytes in
                Result { () throws(HTTPError) in try RequestHead.parse(bytes, limit: 16 << 10) }
            }
            switch parsed {
            case .failure(let error): response = Response(error)
            case .success(.incomplete): continue
            case .success(.complete(let head, _)):
                if head.path != "/metrics" {
                    response = Response(HTTPError(404, "not_found", "this address answers GET /metrics only"))
                } else if head.method != "GET" {
                    var e = HTTPError(405, "method_not_allowed", "/metrics takes GET, not \(head.method)")
                    e.headers = [("Allow", "GET")]
                    response = Response(e)
                } else {
                    response = .metrics(metrics)
                }
            }
        }
        guard let response, case .bytes(let body) = response.body else { return }
        let bytes = response.head(keepAlive: false) + body
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { b in (try? system.send(fd, UnsafeRawBufferPointer(rebasing: b[sent...]))) ?? -1 }
            if n < 0 { return }
            if n == 0 {   // the client's buffer is full: wait a little for it, within the deadline
                let now = System.monotonicNanoseconds()
                guard now < deadline, (try? system.poll([PollEntry(fd: fd, read: false, write: true)], timeout: Int((deadline - now) / 1_000_000) + 1)) != nil else { return }
            }
            sent += max(0, n)
        }
    }
}

/// A flag one thread sets and another reads.
private final class StopFlag: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var value = false
    var isSet: Bool { lock.wait(); defer { lock.signal() }; return value }
    func set() { lock.wait(); value = true; lock.signal() }
}
