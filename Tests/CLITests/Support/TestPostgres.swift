import Foundation
import Testing

/// Where the server tests keep learner logs: a ledger directory, or a fresh
/// PostgreSQL database of the cluster `PROGRESS_LEDGER_TEST_PG` names (a
/// connection URI to a database the tests may create others from, as
/// `.ci/run` exports it: `postgresql://postgres@127.0.0.1:PORT/postgres`).
enum TestStore: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case directory
    case postgres

    var testDescription: String { rawValue }

    /// The `serve` arguments for a fresh store of this kind, or nil when
    /// PostgreSQL is not there: then a note is printed, and outside CI the
    /// test stops passing nothing; in CI (`CI=true`) it is a failure.
    func serveArguments(directory: String) -> [String]? {
        switch self {
        case .directory: return [directory]
        case .postgres: return TestPostgres.newDatabase().map { ["--store", $0] }
        }
    }
}

enum TestPostgres {
    /// The cluster's URI, if the environment names one.
    static var clusterURI: String? {
        let value = ProcessInfo.processInfo.environment["PROGRESS_LEDGER_TEST_PG"] ?? ""
        return value.isEmpty ? nil : value
    }

    /// Whether CI runs the tests (there PostgreSQL must be present).
    static var inCI: Bool { ["true", "1"].contains(ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? "") }

    /// A new, empty database on the cluster: its URI; nil (with a note, or an
    /// issue recorded in CI) when no cluster is named or it cannot be reached.
    static func newDatabase(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        guard let cluster = clusterURI, let slash = cluster.lastIndex(of: "/") else {
            absent("PROGRESS_LEDGER_TEST_PG is not set (scripts/pg-cluster start DIR prints a URI for it)", sourceLocation)
            return nil
        }
        let name = "ledger_test_\(UInt64.random(in: 0...UInt64.max))"
        do {
            try psql(cluster, "CREATE DATABASE \(name)")
        } catch {
            absent("cannot create a database on \(cluster): \(error)", sourceLocation)
            return nil
        }
        return String(cluster[..<slash]) + "/" + name
    }

    /// Runs `sql` with psql against `uri`; throws with psql's stderr when it fails.
    @discardableResult
    static func psql(_ uri: String, _ sql: String) throws -> String {
        let result = try CLI.runTool(URL(fileURLWithPath: "/usr/bin/env"), ["psql", "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", uri, "-c", sql])
        guard result.status == 0 else { throw ServerFailure(message: "psql: \(result.stderr)") }
        return result.stdout
    }

    /// `'\\x…'`: a bytea literal of `bytes`.
    static func hex<S: Sequence<UInt8>>(_ bytes: S) -> String {
        "'\\x" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
    }

    private static func absent(_ why: String, _ location: SourceLocation) {
        if inCI {
            Issue.record("PostgreSQL is needed in CI: \(why)", sourceLocation: location)
        } else {
            print("note: skipping the PostgreSQL case: \(why)")
        }
    }
}
