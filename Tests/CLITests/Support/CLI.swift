import Foundation
import Testing

/// What one run of a command printed and returned.
struct CLIResult: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String
    let stdoutBytes: [UInt8]
}

/// Runs the built tools (`progress-ledger`, `ledger-stress`) as child processes.
enum CLI {
    /// The package root: three folders above this file.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder holding the built products (next to the test bundle).
    static let productsDirectory: URL = {
        var candidates: [URL] = []
        let bundle = Bundle.main.bundleURL
        candidates.append(bundle.hasDirectoryPath && bundle.pathExtension != "xctest" ? bundle : bundle.deletingLastPathComponent())
        candidates.append(bundle.deletingLastPathComponent())
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("progress-ledger").path) }
            ?? packageRoot.appendingPathComponent(".build/debug")
    }()

    /// The `progress-ledger` binary.
    static var tool: URL { productsDirectory.appendingPathComponent("progress-ledger") }

    /// Runs `progress-ledger` with `arguments`, feeding `stdin`, with extra environment variables.
    @discardableResult
    static func run(_ arguments: [String], stdin: [UInt8] = [], environment: [String: String] = [:],
                    in directory: URL? = nil) throws -> CLIResult {
        try runTool(tool, arguments, stdin: stdin, environment: environment, in: directory)
    }

    /// Runs `progress-ledger` with text on stdin.
    @discardableResult
    static func run(_ arguments: [String], input: String, environment: [String: String] = [:]) throws -> CLIResult {
        try run(arguments, stdin: Array(input.utf8), environment: environment)
    }

    /// Runs any executable, capturing stdout and stderr through files (no pipe deadlocks).
    static func runTool(_ executable: URL, _ arguments: [String], stdin: [UInt8] = [],
                        environment: [String: String] = [:], in directory: URL? = nil) throws -> CLIResult {
        let scratch = try TemporaryDirectory()
        let outURL = scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        let inURL = scratch.url.appendingPathComponent("stdin")
        try Data(stdin).write(to: inURL)
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let input = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        process.waitUntilExit()
        try out.close(); try err.close(); try input.close()
        let outData = try Data(contentsOf: outURL)
        let errData = try Data(contentsOf: errURL)
        return CLIResult(status: process.terminationStatus,
                         stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self),
                         stdoutBytes: Array(outData))
    }

    /// Runs a Python 3 script with arguments; fails the test if python3 is missing.
    static func python(_ script: String, _ arguments: [String] = []) throws -> CLIResult {
        try runTool(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments)
    }
}

/// A temporary directory removed when the value is released.
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("progress-ledger-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The bytes of a file inside the directory (empty if missing).
    func bytes(_ name: String) -> [UInt8] {
        (try? Data(contentsOf: url.appendingPathComponent(name))).map(Array.init) ?? []
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
