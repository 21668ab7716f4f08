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

    /// Listens on the configured address (refusing a directory that is not a ledger directory).
    package init(_ configuration: ServerConfiguration) throws(ServerError) {
        self.configuration = configuration
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
    }

    /// Serves until ``stop()``: then stops accepting, closes idle
    /// connections, finishes the requests in flight, and returns.
    package func run() throws(ServerError) {
        let context = ServerContext(directory: configuration.directory, openLogs: configuration.openLogs,
                                    checkpointKey: configuration.checkpointKey)
        let jobs = JobQueue()
        let worker = Worker(intake: RequestIntake(configuration: configuration), context: context, jobs: jobs, inbox: inbox,
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
        Reactor(configuration: configuration, listener: listener, jobs: jobs, inbox: inbox).run()
        jobs.close()
        for worker in workers { worker.join() }
    }

    /// How long a worker waits for a keep-alive client's next request before
    /// giving the connection back to the reactor (only while no other request waits).
    static let keepWaitingMilliseconds = 5

    /// Asks the server to stop (any thread; a signal handler's): ``run()`` returns once in-flight requests are answered.
    package func stop() { inbox.requestStop() }
}
