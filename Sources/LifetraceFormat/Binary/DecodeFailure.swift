/// Why a frame's bytes did not decode, and where in the frame's content.
///
/// The readers turn it into a ``TraceError`` that names the file, the frame and the byte.
package struct DecodeFailure: Error {
    /// The offset in the decoded content (or payload) at which decoding stopped.
    package var offset: Int
    /// What is wrong.
    package var message: String
}

extension DecodeFailure {
    /// A failure at `offset` saying `message`.
    package init(at offset: Int, _ message: String) {
        self.init(offset: offset, message: message)
    }
}
