import Foundation
import Testing
@testable import progress_ledger

/// One output convention for every command that prints data (docs/cli.md,
/// "Conventions"): `--format` with the same names where they apply, `text` by
/// default, `--json` as the short form of `--format json`, and `--out FILE`.
/// Output formats are an enum per command: an unknown `--format` is a usage
/// error (exit 64) naming the formats, never a silent fall back to text.
@Suite("--format, --json and --out: the same on every command that prints data")
struct OutputFormatTests {
    static let events = [
        #"{"id":"e-1","at":"2025-10-21T08:15:00+03:00","user":"u-42","type":"hints.granted","data":{"amount":3,"reason":"seed"}}"#,
        #"{"id":"e-2","at":"2025-10-21T08:16:00+03:00","user":"u-42","type":"quiz.started","data":{"attempt":"a-1","quiz":"q","questions":2,"daily":true}}"#,
        #"{"id":"e-3","at":"2025-10-21T08:17:00+03:00","user":"u-42","type":"answer.selected","data":{"attempt":"a-1","question":"q1","choice":1,"correct":true,"skill":"s"}}"#,
        #"{"id":"e-4","at":"2025-10-21T08:18:00+03:00","user":"u-42","type":"quiz.finished","data":{"attempt":"a-1"}}"#,
    ]

    /// Each command that prints data, the arguments after LOG, and its formats as the error names them.
    static let dataCommands: [(name: String, arguments: [String], formats: String)] = [
        ("state", ["--user", "u-42"], "text, json, html"),
        ("audit", ["--user", "u-42"], "text, json"),
        ("report", [], "text, json, csv, html"),
        ("items", [], "text, json, csv, html"),
        ("leaderboard", ["--period", "week", "--on", "2025-10-21"], "text, json"),
        ("explain", ["hints.balance", "--user", "u-42"], "text, json"),
        ("review", ["--user", "u-42"], "text, json"),
    ]
    static let all = dataCommands + [("export", [], "jsonl, flat, xapi, revlog")]

    static func log(_ dir: TemporaryDirectory) throws -> String {
        let log = dir.path("learner.log")
        #expect(try CLI.run(["append", log], input: events.joined(separator: "\n") + "\n").status == 0)
        return log
    }

    @Test("an unknown --format exits 64, names the formats and prints nothing", arguments: all.map(\.name))
    func unknownFormat(_ name: String) throws {
        let dir = try TemporaryDirectory()
        let log = try Self.log(dir)
        let (_, arguments, formats) = try #require(Self.all.first { $0.name == name })
        for typo in ["jsn", "TEXT", ""] {
            let r = try CLI.run([name, log] + arguments + ["--format", typo])
            #expect(r.status == 64, "\(name) --format \(typo): \(r.stderr)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.contains("--format takes one of \(formats) (got '\(typo)')"), "\(r.stderr)")
            #expect(r.stderr.contains("Run 'progress-ledger \(name) --help' for usage."))
        }
    }

    @Test("text by default, --json is --format json, every format named works", arguments: dataCommands.map(\.name))
    func sameConvention(_ name: String) throws {
        let dir = try TemporaryDirectory()
        let log = try Self.log(dir)
        let (_, arguments, formats) = try #require(Self.dataCommands.first { $0.name == name })
        let run = { (extra: [String]) in try CLI.run([name, log] + arguments + extra) }
        let plain = try run([])
        #expect(plain.status == 0, "\(name): \(plain.stderr)")
        #expect(try run(["--format", "text"]).stdout == plain.stdout, "\(name): text is the default")
        let json = try run(["--json"])
        #expect(json.status == 0 && json.stdout != plain.stdout)
        #expect(try run(["--format", "json"]).stdout == json.stdout, "\(name): --json is --format json")
        // JSON for programs: every line parses (one value, or JSON lines where the command streams).
        for line in json.stdout.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(name) --json: \(line)")
        }
        let clash = try run(["--format", "text", "--json"])
        #expect(clash.status == 64 && clash.stderr.contains("--json and --format text disagree"), "\(clash.stderr)")
        for format in formats.split(separator: ",").map({ String($0.drop { $0 == " " }) }) {
            let r = try run(["--format", format])
            #expect(r.status == 0 && !r.stdout.isEmpty, "\(name) --format \(format): \(r.stderr)")
        }
    }

    @Test("--out FILE writes what stdout would show, whole, and prints nothing", arguments: dataCommands.map(\.name))
    func outFile(_ name: String) throws {
        let dir = try TemporaryDirectory()
        let log = try Self.log(dir)
        let (_, arguments, _) = try #require(Self.dataCommands.first { $0.name == name })
        for format in ["text", "json"] {
            let shown = try CLI.run([name, log] + arguments + ["--format", format])
            let file = dir.path("\(name).\(format)")
            let written = try CLI.run([name, log] + arguments + ["--format", format, "--out", file])
            #expect(written.status == 0 && written.stdout.isEmpty, "\(name) --out: \(written.stderr)")
            #expect(dir.bytes("\(name).\(format)") == shown.stdoutBytes, "\(name) --format \(format) --out")
        }
    }

    @Test("a format enum lists its cases as --format's choices, text first where it is one")
    func formatsFromTheEnum() {
        #expect(TableFormat.allCases.map(\.rawValue) == ["text", "json", "csv", "html"])
        #expect(StateFormat.allCases.map(\.rawValue) == ["text", "json", "html"])
        #expect(TextOrJSON.allCases.map(\.rawValue) == ["text", "json"])
        #expect(ExportFormat.allCases.map(\.rawValue) == ["jsonl", "flat", "xapi", "revlog"])
    }

    @Test("every command that prints data declares --format, --json and --out, and nothing else prints data in formats")
    func declaredEverywhere() {
        for command in ProgressLedgerCLI.commands {
            let names = Set(command.options.map(\.name))
            if Self.dataCommands.contains(where: { $0.name == command.name }) {
                #expect(names.isSuperset(of: ["--format", "--json", "--out"]), "\(command.name)")
            } else if command.name != "export" {
                #expect(!names.contains("--format") && !names.contains("--json"), "\(command.name)")
            }
        }
    }
}
