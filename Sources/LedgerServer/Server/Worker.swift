import Ledger

/// A worker thread's loop: takes a request with its connection, answers it
/// (the handler runs here: an append's fsync blocks only this thread), sends
/// the answer, and reads the client's next request itself while it comes at
/// once: a keep-alive client that sends again within `keepWaiting` never goes
/// back through the reactor. A connection with nothing more to do now (no
/// next request yet, an answer the client takes slowly, one to end) is given
/// back to the reactor, so a slow client never holds a worker.
struct Worker: Sendable {
    let intake: RequestIntake
    let context: ServerContext
    let jobs: JobQueue
    let inbox: Inbox
    /// How long a worker waits for a client's next request before giving its connection back.
    let keepWaiting: Int

    /// Answers jobs until the queue is closed.
    func run() {
        let system = System()
        var scratch = [UInt8](repeating: 0, count: 64 << 10)
        while let job = jobs.pop() {
            serve(job, system, &scratch)
        }
    }

    private func serve(_ job: Job, _ system: System, _ scratch: inout [UInt8]) {
        let connection = job.connection
        var response = Self.answer(job, context)
        var waited = false
        while true {
            connection.startAnswer(response, keepAlive: connection.keepAlive && !response.closes && !inbox.isStopping,
                                    metrics: intake.configuration.metrics)
            switch connection.send(system) {
            case .blocked: return inbox.giveBack(connection)   // the reactor finishes sending
            case .failed:
                connection.close(system)
                return inbox.giveBack(connection)
            case .finished:
                connection.finishAnswer(system, accessLog: intake.configuration.accessLog, linger: Reactor.linger(intake.configuration))
            }
            guard case .head = connection.phase else { return inbox.giveBack(connection) }   // lingering before its close
            // Others' requests first: a client sending back to back (or pipelining)
            // does not keep this worker while jobs wait; the reactor takes its next
            // request in turn (`advance`).
            if jobs.hasWaiting || inbox.isStopping { return inbox.giveBack(connection) }
            // The next request: already received, or coming at once.
            while true {
                switch intake.next(connection) {
                case .job(let next):
                    response = Self.answer(next, context)
                    waited = false
                case .refuse(let error):
                    response = Response(error)
                case .needMore:
                    if waited || jobs.hasWaiting || inbox.isStopping { return inbox.giveBack(connection) }
                    waited = true
                    let ready = (try? system.poll([PollEntry(fd: connection.fd, read: true, write: false)], timeout: keepWaiting))?.first
                    guard let ready, ready.readable || ready.failed else { return inbox.giveBack(connection) }
                    if connection.receive(system, into: &scratch) == .closed {
                        connection.close(system)
                        return inbox.giveBack(connection)
                    }
                    continue
                }
                break
            }
        }
    }

    /// The route's answer to a job (a refusal's, when it refuses).
    static func answer(_ job: Job, _ context: ServerContext) -> Response {
        do throws(HTTPError) { return try job.route.handle(job.request, context) } catch { return Response(error) }
    }
}
