import Testing

@testable import LifetraceReport

@Suite struct TextWrappingTests {
    @Test func aLineBreaksAtSpacesWithItsContinuationsIndented() {
        #expect(
            TextWrapping.wrap("  time: active 9.73s, inactive 32.1ms", width: 20)
                == ["  time: active", "    9.73s, inactive", "    32.1ms"])
        #expect(TextWrapping.wrap("short", width: 20) == ["short"])
    }

    @Test func aPieceLongerThanTheWidthKeepsALineWhole() {
        #expect(
            TextWrapping.wrap("a/very/long/path/with/no/space x", width: 10) == [
                "a/very/long/path/with/no/space", "  x",
            ])
        #expect(
            TextWrapping.join(["file", "0 … 1s", "█ active"], separator: "  ", width: 14) == [
                "file  0 … 1s", "  █ active",
            ])
    }
}
