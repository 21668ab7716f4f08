import Testing

@Suite("The tool's help, usage errors and exit codes")
struct HelpTests {
    @Test("--help lists every command and exits 0")
    func overview() throws {
        let r = try CLI.run(["--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Usage: progress-ledger <command>"))
    }

    @Test("no command is a usage error on stderr, exit 64")
    func noCommand() throws {
        let r = try CLI.run([])
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("Usage: progress-ledger"))
    }

    @Test("an unknown command is a usage error, exit 64")
    func unknownCommand() throws {
        let r = try CLI.run(["frobnicate"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("unknown command 'frobnicate'"))
    }
}
