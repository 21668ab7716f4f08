import Projections

extension Report {
    /// One row per day with the `days` members as columns, in the spec's order,
    /// after a header row. Null is an empty field; lines end with LF. No field
    /// needs quoting (days and integers only).
    public var csv: String {
        var table = Table(Report.dayColumns)
        for row in days { table.row([row.day.description] + row.counts.columns.map { $0.map(String.init) ?? "" }) }
        return table.csv
    }
}
