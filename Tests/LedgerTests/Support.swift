import Events
import Foundation
import Simulation
import Testing
@testable import Ledger

/// A fresh temporary directory, removed by `cleanup()`.
struct TempDir {
    let url: URL
    var path: String { url.path }

    init(_ name: String = "ledger") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Names of the files in the directory, sorted.
    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }

    func cleanup() { try? FileManager.default.removeItem(at: url) }
}

/// Makes valid events from JSON text (so the tests do not depend on the payload initialisers).
enum Make {
    static func event(_ json: String) throws -> NewEvent {
        try LineCodec.decodeNewEvent(Array(json.utf8))
    }

    /// A valid `answer.selected` with the given id (nil: let the ledger make one).
    static func answer(_ id: String?, user: String = "u-1", question: Int = 1) throws -> NewEvent {
        let idMember = id.map { #""id":"\#($0)","# } ?? ""
        return try event(#"{\#(idMember)"at":"2025-10-21T23:55:12.120+03:00","user":"\#(user)","type":"answer.selected","data":{"attempt":"a-1","question":"q\#(question)","choice":1,"correct":true}}"#)
    }

    static func answers(_ ids: some Sequence<Int>, prefix: String = "e-") throws -> [NewEvent] {
        try ids.map { try answer("\(prefix)\($0)", question: $0) }
    }
}

enum Files {
    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
    static func write(_ path: String, _ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
    static func append(_ path: String, _ bytes: [UInt8]) throws {
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? h.close() }
        try h.seekToEnd()
        try h.write(contentsOf: Data(bytes))
    }
    /// The file's lines (without LF), ignoring bytes after the last LF.
    static func lines(_ path: String) throws -> [[UInt8]] {
        let b = try bytes(path)
        var out: [[UInt8]] = []
        var start = 0
        for (i, c) in b.enumerated() where c == 0x0A {
            out.append(Array(b[start..<i]))
            start = i + 1
        }
        return out
    }
    static func text(_ path: String) throws -> String { String(decoding: try bytes(path), as: UTF8.self) }
    static func permissions(_ path: String) throws -> Int {
        let attrs = try FileManager.default.attributesOfItem(atPath: path)
        return (attrs[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

/// Runs a program and returns its exit status, stdout and stderr.
@discardableResult
func run(_ program: String, _ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: program)
    p.arguments = arguments
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    let input = Pipe()
    if stdin != nil { p.standardInput = input }
    try p.run()
    if let stdin {
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
    }
    // Read both pipes before waiting, so a full pipe never blocks the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// The package's build products directory (where `ledger-stress` is built).
enum Products {
    static var directory: URL {
        // Next to the test bundle first, then .build/debug under the package root.
        let nextToBundle = Bundle.main.bundleURL.deletingLastPathComponent()
        if FileManager.default.isExecutableFile(atPath: nextToBundle.appendingPathComponent("ledger-stress").path) {
            return nextToBundle
        }
        if FileManager.default.isExecutableFile(atPath: Bundle.main.bundleURL.appendingPathComponent("ledger-stress").path) {
            return Bundle.main.bundleURL
        }
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                return dir.appendingPathComponent(".build/debug")
            }
            dir.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug")
    }

    static var ledgerStress: String { directory.appendingPathComponent("ledger-stress").path }
}

/// The name the seeded tests used for their own copy of SplitMix64, kept so
/// that tests written against it (on branches made before the copies were
/// folded) still compile and draw the same numbers. It shadows Simulation's
/// `SeededGenerator` (the demo's xoshiro256**) in this target.
@available(*, deprecated, renamed: "SplitMix64", message: "use Simulation's SplitMix64")
typealias SeededGenerator = SplitMix64

/// An independent check of a log with Python: every line parses with `json`
/// (duplicate members refused), `seq` runs 1, 2, 3..., and `prev` is the
/// hashlib SHA-256 of the previous line's bytes. Returns the output ("ok N HEX") or the problem.
func pythonCheck(_ path: String) throws -> (status: Int32, out: String, err: String) {
    let script = #"""
    import hashlib, json, sys
    def no_dups(pairs):
        keys = [k for k, _ in pairs]
        if len(keys) != len(set(keys)):
            raise ValueError("duplicate member")
        return dict(pairs)
    data = open(sys.argv[1], "rb").read()
    if data and not data.endswith(b"\n"):
        print("torn tail"); sys.exit(1)
    prev = "0" * 64
    n = 0
    for n, line in enumerate(data.split(b"\n")[:-1], start=1):
        obj = json.loads(line.decode("utf-8"), object_pairs_hook=no_dups)
        if obj["seq"] != n:
            print(f"line {n}: seq {obj['seq']}"); sys.exit(1)
        if obj["prev"] != prev:
            print(f"line {n}: prev {obj['prev']} != {prev}"); sys.exit(1)
        if list(obj.keys())[:5] != ["v", "seq", "id", "at", "user"] or list(obj.keys())[-1] != "prev":
            print(f"line {n}: member order {list(obj.keys())}"); sys.exit(1)
        prev = hashlib.sha256(line).hexdigest()
    print(f"ok {n} {prev}")
    """#
    return try run("/usr/bin/python3", ["-c", script, path])
}
