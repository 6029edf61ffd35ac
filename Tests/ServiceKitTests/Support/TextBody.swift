import VerticalsWire

extension BodyReader {
    /// The required text of field 1, the one field of the tests' one-text Inputs; any other
    /// field skipped.
    mutating func requiredText() throws(WireDecodingError) -> String {
        var text: String?
        while let tag = try nextTag() {
            switch tag {
            case 1: text = try read()
            default: try skip()
            }
        }
        return try required(text, 1)
    }
}
