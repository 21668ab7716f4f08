import Ledger

/// The HTTP/1.1 server of `progress-ledger serve`: the API of
/// docs/openapi.yaml over a ledger directory.
///
/// ```swift
/// let server = try LedgerServer(configuration)   // listening already
/// let signals = try System.onStop { _ in server.stop() }   // before the address is told: no SIGTERM lost
/// print(server.address)
/// try server.run()                              // until stop(): in-flight requests finished
/// ```
///
/// One thread (``Reactor``) reads and writes every socket without blocking;
/// `threads` workers answer the requests it hands them (an append's fsync
/// blocks only its worker; appends of different learners fsync in parallel).
package final class LedgerServer: Sendable {
    /// Where it listens (the port chosen when 0 was asked).
    package let address: SocketAddress
    private let configuration: ServerConfiguration
    private let listener: CInt
    private let inbox: Inbox
    private let metricsListener: MetricsListener?
    /// Where `GET /metrics` is served without a token (`--metrics-listen`; nil: not).
    package var metricsAddress: SocketAddress? { metricsListener?.address }
    private let store: any LearnerStore

    /// Listens on the configured address (refusing a directory that is not a ledger directory).
    package init(_ configuration: ServerConfiguration) throws(ServerError) {
        self.configuration = configuration
        store = try Self.open(configuration)
        let system = System()
        do {
            (listener, address) = try system.listen(host: configuration.host, port: configuration.port)
        } catch {
            throw ServerError("cannot listen on \(SocketAddress(host: configuration.host, port: configuration.port)): \(error)")
        }
        do { inbox = try Inbox() } catch {
            system.close(listener)
            throw ServerError("cannot make the reactor's wake-up pipe: \(error)")
        }
        do throws(ServerError) {
            metricsListener = try configuration.metricsListen.map { (address) throws(ServerError) in
                try MetricsListener(host: address.host, port: address.port, metrics: configuration.metrics)
            }
        } catch {
            system.close(listener)
            throw error
        }
    }

    /// Serves until ``stop()``: then stops accepting, closes idle
    /// connections, finishes the requests in flight, and returns.
    package func run() throws(ServerError) {
        let context = ServerContext(store: store, checkpointKey: configuration.checkpointKey, metrics: configuration.metrics,
                                    maxPushRate: configuration.maxPushRate)
        let jobs = JobQueue()
        let intake = RequestIntake(configuration: configuration, pushRate: context.pushRate)
        let worker = Worker(intake: intake, context: context, jobs: jobs, inbox: inbox,
                            keepWaiting: Self.keepWaitingMilliseconds)
        var workers: [SystemThread] = []
        for _ in 0..<max(1, configuration.threads) {
            do {
                workers.append(try SystemThread.start { worker.run() })
            } catch {
                jobs.close()
                for worker in workers { worker.join() }
                throw ServerError("cannot start worker thread \(workers.count + 1) of \(configuration.threads): \(error)")
            }
        }
        do throws(ServerError) { try metricsListener?.start() } catch {
            jobs.close()
            for worker in workers { worker.join() }
            throw error
        }
        Reactor(intake: intake, listener: listener, jobs: jobs, inbox: inbox).run()
        metricsListener?.stop()
        jobs.close()
        for worker in workers { worker.join() }
    }

    /// The store `configuration` names, opened (a database connected to, its table made when missing).
    private static func open(_ configuration: ServerConfiguration) throws(ServerError) -> any LearnerStore {
        switch configuration.store {
        case .directory(let directory):
            return DirectoryStore(directory: directory, openLogs: configuration.openLogs, metrics: configuration.metrics)
        case .postgres(let uri):
            #if canImport(CLibpq)
            do {
                return try PostgresStore(uri: uri, connections: configuration.storeConnections ?? configuration.threads)
            } catch {
                throw ServerError("the PostgreSQL store \(PGURI.redacted(uri)): \(error)")
            }
            #else
            throw ServerError("this build has no PostgreSQL support (libpq): serve a ledger directory instead")
            #endif
        }
    }

    /// How long a worker waits for a keep-alive client's next request before
    /// giving the connection back to the reactor (only while no other request waits).
    static let keepWaitingMilliseconds = 5

    /// Asks the server to stop (any thread; a signal handler's): ``run()`` returns once in-flight requests are answered.
    package func stop() { inbox.requestStop() }
}
