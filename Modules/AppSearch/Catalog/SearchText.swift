import Foundation

/// The byte form in which names, summaries and terms are compared.
///
/// Lowercased (Unicode-aware), NFC-normalized so "é" matches whether typed
/// composed or not, and with control bytes turned into spaces, so byte 0 is
/// free to separate entries inside a ``TextColumn``.
///
/// ```swift
/// SearchText.fold("Émacs-GTK")  // Array("émacs-gtk".utf8)
/// ```
enum SearchText {
  static func fold(_ text: String) -> [UInt8] {
    var bytes = Array(text.utf8)
    if bytes.allSatisfy({ $0 < 0x80 }) {
      // Fast path for the usual case (package names are ASCII).
      for index in bytes.indices {
        let byte = bytes[index]
        if byte >= 0x41 && byte <= 0x5a {
          bytes[index] = byte + 0x20
        } else if byte < 0x20 || byte == 0x7f {
          bytes[index] = 0x20
        }
      }
      return bytes
    }
    bytes = Array(text.lowercased().precomposedStringWithCanonicalMapping.utf8)
    for index in bytes.indices where bytes[index] < 0x20 || bytes[index] == 0x7f {
      bytes[index] = 0x20
    }
    return bytes
  }

  /// A word separator: any ASCII byte that is not a letter or digit
  /// (`-`, `.`, `+`, `_`, space, …). Non-ASCII bytes belong to words.
  @inline(__always)
  static func isSeparator(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5a, 0x61...0x7a, 0x80...0xff: return false
    default: return true
    }
  }
}
