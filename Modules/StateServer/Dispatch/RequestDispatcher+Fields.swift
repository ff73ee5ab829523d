import BlocCore
import Wire

/// Reading a request's fields, each with the protocol error that says what is accepted.
extension RequestDispatcher {
  func feature(of request: RequestHead) throws(WireError) -> Feature {
    // The common case: a name compared byte for byte with those served, no String made.
    if let feature = request.withPlainFeatureName({ name in served.first { $0.isNamed(name) } }) {
      return feature
    }
    // Built only for an error message.
    var known: String { registry.names.joined(separator: ", ") }
    let name = try request.withMember("feature") { value throws(WireError) in
      guard let value else {
        throw WireError(
          .missingField, "missing field 'feature' (a string naming a feature: \(known))")
      }
      guard let name = value.string else {
        throw WireError(
          .invalidField,
          "field 'feature' must be a string (one of: \(known)), got \(value.typeName)")
      }
      return name
    }
    guard let feature = served.first(where: { $0.name == name }) else {
      throw WireError(.unknownFeature, "unknown feature '\(name.prefix(64))'; features: \(known)")
    }
    return feature
  }

  /// `select` of `watch`: absent (or null) for the whole state.
  func selection(of request: RequestHead) throws(WireError) -> StateSelection? {
    guard let value = request["select"], !value.isNull else { return nil }
    guard case .string(let text) = value else {
      throw WireError(
        .invalidField,
        "field 'select' must be a string of member names separated by '.', like \"count\"; "
          + "got \(value.typeName)")
    }
    return try StateSelection(parsing: text)
  }

  /// `features` of `monitor`: absent (or null) for every feature.
  func monitoredFeatures(of request: RequestHead) throws(WireError) -> [Feature] {
    guard let value = request["features"], !value.isNull else { return registry.features }
    var known: String { registry.names.joined(separator: ", ") }
    guard case .array(let items) = value, !items.isEmpty else {
      throw WireError(
        .invalidField,
        "field 'features' must be a non-empty array of feature names (\(known)), or absent "
          + "for all; got \(value.typeName == "array" ? "an empty array" : value.typeName)")
    }
    var features: [Feature] = []
    for item in items {
      guard case .string(let name) = item else {
        throw WireError(
          .invalidField,
          "field 'features' must hold feature names (strings: \(known)); got \(item.typeName)")
      }
      guard let feature = registry.feature(named: name) else {
        throw WireError(
          .unknownFeature, "unknown feature '\(name.prefix(64))'; features: \(known)")
      }
      if !features.contains(where: { $0 === feature }) { features.append(feature) }
    }
    return features
  }
}
