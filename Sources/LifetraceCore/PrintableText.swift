/// Text from a trace (scene names, labels, file names) made safe to print on a terminal line.
public enum PrintableText {
    /// `text` with every control character — C0 but tab (so NUL, BEL, ESC, CR and LF), DEL and C1 — shown as
    /// `\u{1B}`, so that a name read from an input can neither move the terminal's cursor, set its title or
    /// colours, nor split a line of output (or a GitHub workflow command) in two.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether `scalar` is a control character ``escaped(_:)`` rewrites.
    @inline(__always)
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }
}
