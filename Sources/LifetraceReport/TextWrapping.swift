/// Lines of text fitted to a terminal's width: broken between pieces (words, or a legend's items), each continuation
/// indented two columns past its line's own indentation, so that a summary's items stay apart.
enum TextWrapping {
    /// `line` as lines of at most `width` characters, broken at spaces where it has them; a word longer than the
    /// room (a path) keeps a line of its own, whole.
    static func wrap(_ line: String, width: Int) -> [String] {
        guard line.count > width else { return [line] }
        let indentation = line.prefix { $0 == " " }.count
        let words = line.dropFirst(indentation).split(separator: " ").map(String.init)
        return join(words, separator: " ", width: width, indentation: indentation)
    }

    /// `pieces` joined by `separator` on lines of at most `width` characters, the first indented `indentation`
    /// columns and the others two more; a piece is never split, so one longer than the room has a line of its own.
    static func join(_ pieces: [String], separator: String, width: Int, indentation: Int = 0) -> [String] {
        let continuation = String(repeating: " ", count: min(indentation + 2, width / 2))
        var lines: [String] = []
        var current = String(repeating: " ", count: indentation)
        var hasPiece = false
        for piece in pieces {
            if hasPiece, current.count + separator.count + piece.count > width {
                lines.append(current)
                current = continuation
                hasPiece = false
            }
            if hasPiece { current += separator }
            current += piece
            hasPiece = true
        }
        lines.append(current)
        return lines
    }
}
