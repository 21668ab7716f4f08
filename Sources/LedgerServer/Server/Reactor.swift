import Ledger

/// The thread that watches every connection no worker holds: it accepts
/// connections, reads requests as their bytes come (non-blocking, one `poll`
/// over all of them), refuses what it must before a body is read
/// (``RequestIntake``), hands whole requests to the workers, and finishes
/// sending answers a client takes slowly. A slow or idle client holds only
/// its own connection: nothing here ever waits for one.
///
/// Deadlines (`Connection.deadline`): a request head not whole
/// `readTimeout` after its first byte (a new connection's: its accept), a
/// body not whole by its own deadline, and a connection that sends nothing,
/// or takes nothing of its answer, for `readTimeout` are closed; one a
/// worker holds has none.
final class Reactor {
    private let configuration: ServerConfiguration
    private let intake: RequestIntake
    private let system = System()
    private let jobs: JobQueue
    private let inbox: Inbox
    private var listener: CInt
    private var connections: [Int: Connection] = [:]
    private var nextID = 0
    /// Connections handed to workers and not given back.
    private var held = 0
    private var stopping = false
    /// While accept fails for lack of descriptors: when to try again.
    private var acceptPausedUntil: UInt64 = 0
    private let timeout: UInt64
    private var scratch = [UInt8](repeating: 0, count: 256 << 10)

    init(intake: RequestIntake, listener: CInt, jobs: JobQueue, inbox: Inbox) {
        configuration = intake.configuration
        self.intake = intake
        self.listener = listener
        self.jobs = jobs
        self.inbox = inbox
        timeout = Self.nanoseconds(configuration.readTimeout)
    }

    /// How long a connection whose answer ends it is read (and its bytes dropped) after the answer.
    static func linger(_ configuration: ServerConfiguration) -> UInt64 { min(nanoseconds(configuration.readTimeout), 2_000_000_000) }

    private static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0.001, seconds) * 1e9) }

    /// Runs until a stop was asked and every request in flight is answered.
    func run() {
        while !(stopping && connections.isEmpty && held == 0) {
            var entries: [PollEntry] = [PollEntry(fd: inbox.wakeRead, read: true, write: false)]
            let now = System.monotonicNanoseconds()
            let accepting = !stopping && connections.count < configuration.maxConnections && now >= acceptPausedUntil
            if accepting { entries.append(PollEntry(fd: listener, read: true, write: false)) }
            var order: [Connection] = []
            order.reserveCapacity(connections.count)
            var nearest = UInt64.max
            for connection in connections.values where !connection.heldByWorker {
                guard let deadline = connection.deadline(timeout: timeout) else { continue }
                nearest = min(nearest, deadline)
                entries.append(PollEntry(fd: connection.fd, read: connection.wantsRead, write: connection.wantsWrite))
                order.append(connection)
            }
            if acceptPausedUntil > now { nearest = min(nearest, acceptPausedUntil) }
            let wait = nearest == .max ? -1 : Int((nearest > now ? nearest - now : 0) / 1_000_000) + 1
            let ready: [PollEntry]
            do { ready = try system.poll(entries, timeout: wait) } catch {
                continue   // EINTR is retried inside; anything else (ENOMEM) is retried here
            }

            let (returned, stop) = inbox.take()
            if stop && !stopping { beginStop() }
            for connection in returned { resume(connection) }
            if accepting, ready[1].readable { acceptAll() }
            let first = accepting ? 2 : 1
            for (k, connection) in order.enumerated() {
                let entry = ready[first + k]
                guard connections[connection.id] != nil else { continue }
                if connection.wantsWrite, entry.writable || entry.failed { write(connection) }
                if connections[connection.id] != nil, connection.wantsRead, entry.readable || entry.failed { read(connection) }
            }
            expire(System.monotonicNanoseconds())
            configuration.metrics.connections(open: connections.count, accepted: nextID)
        }
        if listener >= 0 { system.close(listener); listener = -1 }
    }

    // MARK: accepting

    private func acceptAll() {
        while connections.count < configuration.maxConnections {
            let fd: CInt?
            do { fd = try system.accept(listener) } catch {
                if error.errno == .tooManyFiles || error.errno == .tooManyFilesInSystem {
                    acceptPausedUntil = System.monotonicNanoseconds() + 100_000_000   // descriptors freed by closing connections
                }
                return
            }
            guard let fd else { return }
            nextID += 1
            let peer = (try? system.peerAddress(fd).host) ?? "-"
            connections[nextID] = Connection(id: nextID, fd: fd, peer: peer, now: System.monotonicNanoseconds())
        }
    }

    // MARK: reading

    private func read(_ connection: Connection) {
        if connection.receive(system, into: &scratch) == .closed { return close(connection) }
        advance(connection)
    }

    /// Moves a connection on with the bytes it has: a whole request goes to a worker.
    private func advance(_ connection: Connection) {
        switch connection.phase {
        case .head, .body: break
        default: return
        }
        if stopping, connection.isBetweenRequests { return close(connection) }   // a request not started when the stop came
        switch intake.next(connection) {
        case .needMore:
            return
        case .refuse(let error):
            answer(connection, Response(error))
        case .job(let job):
            held += 1
            connection.heldByWorker = true
            jobs.push(job)
        }
    }

    /// A connection a worker gave back: its phase says what is next.
    private func resume(_ connection: Connection) {
        held -= 1
        connection.heldByWorker = false
        switch connection.phase {
        case .closed, .handling:   // the worker closed it (a worker gives back none it still handles)
            connections[connection.id] = nil
        case .writing:
            write(connection)
        case .head, .body:
            advance(connection)
        case .lingering:
            break
        }
    }

    // MARK: answering

    private func answer(_ connection: Connection, _ response: Response) {
        connection.startAnswer(response, keepAlive: connection.keepAlive && !response.closes && !stopping, metrics: configuration.metrics)
        write(connection)
    }

    private func write(_ connection: Connection) {
        switch connection.send(system) {
        case .blocked: return   // the client's buffer is full: wait until it is writable
        case .failed: return close(connection)
        case .finished:
            connection.finishAnswer(system, accessLog: configuration.accessLog, linger: Self.linger(configuration))
            advance(connection)   // a request already received (pipelined)
        }
    }

    private func close(_ connection: Connection) {
        connection.close(system)
        connections[connection.id] = nil
    }

    // MARK: deadlines and stopping

    private func expire(_ now: UInt64) {
        for connection in connections.values where !connection.heldByWorker {
            if let deadline = connection.deadline(timeout: timeout), now >= deadline { close(connection) }
        }
    }

    /// SIGTERM: no new connection, idle ones closed, requests in flight finished (then their connections closed).
    private func beginStop() {
        stopping = true
        system.close(listener)
        listener = -1
        for connection in connections.values where !connection.heldByWorker && connection.isBetweenRequests { close(connection) }
    }
}
