import Ledger

// A closed stdout is an error the tool reports (exit 1), not a silent SIGPIPE.
System.ignoreBrokenPipe()
System.exit(ProgressLedgerCLI.run(CommandLine.arguments))
