import Glibc
import VerticalsSupervisorClient

/// A plain text table whose free-text columns give way to a width budget: each too-long cell of
/// a shrinkable column ends in "…", so one long exit reason does not wrap every row. Cells show
/// through ``VisibleText`` before they are measured: a service's words cannot steer the terminal,
/// and the columns line up with what it shows.
struct StatusTable {
    /// The budget when standard output is not a terminal (a pipe, a file, a test).
    static let defaultWidth = 160
    /// A shrinkable column keeps at least this many characters.
    static let minimumCell = 12

    let header: [String]
    let rows: [[String]]
    /// The columns that may be shortened (by index), the last ones first to give way.
    let shrinkable: [Int]

    init(header: [String], rows: [[String]], shrinkable: [Int]) {
        self.header = header
        self.rows = rows.map { $0.map { VisibleText.of($0) } }
        self.shrinkable = shrinkable
    }

    /// The table's lines, columns two spaces apart; shrinkable cells cut so that lines fit
    /// `width` where they can (nil: no limit).
    func text(width: Int?) -> [TerminalText] {
        let table = [header] + rows
        var widths = [Int](repeating: 0, count: header.count)
        for row in table {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        if let width {
            var excess = widths.reduce(0, +) + 2 * (widths.count - 1) - width
            for column in shrinkable.reversed() where excess > 0 {
                let cut = min(excess, widths[column] - max(Self.minimumCell, header[column].count))
                if cut > 0 {
                    widths[column] -= cut
                    excess -= cut
                }
            }
        }
        var lines: [TerminalText] = []
        for row in table {
            var line = ""
            for (column, cell) in row.enumerated() {
                let shown = cell.count > widths[column] ? String(cell.prefix(widths[column] - 1)) + "…" : cell
                line += shown
                if column < row.count - 1 { line += String(repeating: " ", count: widths[column] - shown.count + 2) }
            }
            lines.append("\(line)")
        }
        return lines
    }

    /// The terminal's width when standard output is one, else ``defaultWidth``.
    static func terminalWidth() -> Int {
        var size = winsize()
        if isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }), columns > 0 { return columns }
        return defaultWidth
    }
}
