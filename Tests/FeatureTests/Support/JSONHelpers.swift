import BlocCore
import FeatureKit
import Foundation

/// Encodes with sorted keys and plain slashes, so that tests can compare exact text.
func json<Value: Encodable>(_ value: Value) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// Decodes `text` as `Value`.
func decode<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> Value {
  try JSONDecoder().decode(Value.self, from: Data(text.utf8))
}

/// The readable message of the refusal or `DecodingError` that decoding `text` throws, or nil
/// when it decodes (or throws something else).
func decodingMessage<Value: Decodable>(_ type: Value.Type, _ text: String) -> String? {
  do {
    _ = try decode(Value.self, text)
    return nil
  } catch let refusal as EventRefusal {
    return refusal.message
  } catch let error as DecodingError {
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .keyNotFound(_, let context), .dataCorrupted(let context):
      return context.debugDescription
    @unknown default:
      return "\(error)"
    }
  } catch {
    return nil
  }
}

/// The error's description when the outcome failed; nil otherwise.
func failure(_ outcome: EventOutcome) -> String? {
  if case .failed(let error) = outcome { return String(describing: error) }
  return nil
}

/// A fresh directory under the system's temporary directory.
func temporaryDirectory() -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "feature-tests-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// The text of `<directory>/<key>.json`.
func storedText(_ directory: URL, _ key: String) throws -> String {
  try String(contentsOf: directory.appendingPathComponent("\(key).json"), encoding: .utf8)
}
