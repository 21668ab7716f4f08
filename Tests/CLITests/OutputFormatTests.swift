import Testing
@testable import progress_ledger

/// Output formats are an enum per command: an unknown `--format` is a usage
/// error (exit 64) naming the formats, never a silent fall back to text.
@Suite("--format: one of the command's formats, or a usage error naming them")
struct OutputFormatTests {
    static let event = #"{"id":"e-1","at":"2025-10-21T08:15:00+03:00","user":"u-42","type":"hints.granted","data":{"amount":3,"reason":"seed"}}"#

    /// Each command that takes --format, the arguments it needs, and its formats as the error names them.
    static let commands: [(arguments: [String], formats: String)] = [
        (["state", "--user", "u-42"], "text, json, html"),
        (["report"], "json, csv, text, html"),
        (["items"], "json, csv, text, html"),
        (["export"], "jsonl, flat, xapi, revlog"),
        (["review", "--user", "u-42"], "text, json"),
    ]

    @Test("an unknown --format exits 64, names the formats and prints nothing", arguments: [0, 1, 2, 3, 4])
    func unknownFormat(_ k: Int) throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("learner.log")
        #expect(try CLI.run(["append", log, "--event", Self.event]).status == 0)
        let (arguments, formats) = Self.commands[k]
        for typo in ["jsn", "TEXT", ""] {
            let r = try CLI.run([arguments[0], log] + arguments.dropFirst() + ["--format", typo])
            #expect(r.status == 64, "\(arguments) --format \(typo): \(r.stderr)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.contains("--format takes one of \(formats) (got '\(typo)')"), "\(r.stderr)")
            #expect(r.stderr.contains("Run 'progress-ledger \(arguments[0]) --help' for usage."))
        }
    }

    @Test("every format a command names is accepted (exit 0)", arguments: [0, 1, 2])
    func everyFormatWorks(_ k: Int) throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("learner.log")
        #expect(try CLI.run(["append", log, "--event", Self.event]).status == 0)
        let (arguments, formats) = Self.commands[k]
        for format in formats.split(separator: ",").map({ String($0.drop { $0 == " " }) }) {
            let r = try CLI.run([arguments[0], log] + arguments.dropFirst() + ["--format", format])
            #expect(r.status == 0, "\(arguments) --format \(format): \(r.stderr)")
            #expect(!r.stdout.isEmpty)
        }
    }

    @Test("--json is --format json; with another --format it is a usage error")
    func jsonAlias() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("learner.log")
        #expect(try CLI.run(["append", log, "--event", Self.event]).status == 0)
        let json = try CLI.run(["state", log, "--user", "u-42", "--json"])
        #expect(json.status == 0)
        #expect(try CLI.run(["state", log, "--user", "u-42", "--format", "json"]).stdout == json.stdout)
        #expect(try CLI.run(["state", log, "--user", "u-42", "--format", "json", "--json"]).stdout == json.stdout)
        let clash = try CLI.run(["state", log, "--user", "u-42", "--format", "html", "--json"])
        #expect(clash.status == 64 && clash.stderr.contains("--json and --format html disagree"))
    }

    @Test("report and items require --format, naming the formats")
    func requiredFormat() throws {
        for command in ["report", "items"] {
            let r = try CLI.run([command, "x.log"])
            #expect(r.status == 64 && r.stderr.contains("missing --format json|csv|text|html"), "\(r.stderr)")
        }
    }

    @Test("a format enum lists its cases as --format's choices")
    func formatsFromTheEnum() {
        #expect(TableFormat.allCases.map(\.rawValue) == ["json", "csv", "text", "html"])
        #expect(StateFormat.allCases.map(\.rawValue) == ["text", "json", "html"])
        #expect(ExportFormat.allCases.map(\.rawValue) == ["jsonl", "flat", "xapi", "revlog"])
        #expect(ReviewFormat.allCases.map(\.rawValue) == ["text", "json"])
    }
}
