import Foundation

extension UUID {
    /// The UUID of sixteen zero bytes: a placeholder no row's id takes.
    public static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// The UUID as lowercase text (`3f2b…-…`), as the API and the database write it. Written by
    /// hand: `uuidString` formats through `sprintf`, which showed in a dashboard's profile (every
    /// object in a response carries ids).
    public var lowercasedString: String {
        let digits: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { output in
                digits.withUTF8Buffer { hex in
                    var index = 0
                    for (position, byte) in raw.enumerated() {
                        if position == 4 || position == 6 || position == 8 || position == 10 {
                            output[index] = 0x2D
                            index += 1
                        }
                        output[index] = hex[Int(byte >> 4)]
                        output[index + 1] = hex[Int(byte & 0x0F)]
                        index += 2
                    }
                    return index
                }
            }
        }
    }
}
