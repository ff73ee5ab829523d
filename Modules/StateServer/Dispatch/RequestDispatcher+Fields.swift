import BlocCore
import Wire

/// Reading a request's fields, each with the protocol error that says what is accepted.
extension RequestDispatcher {
  func feature(of request: Request) throws(WireError) -> Feature {
    // Built only for an error message: this runs for every request.
    var known: String { registry.names.joined(separator: ", ") }
    guard let value = request["feature"] else {
      throw WireError(
        .missingField, "missing field 'feature' (a string naming a feature: \(known))")
    }
    guard case .string(let name) = value else {
      throw WireError(
        .invalidField, "field 'feature' must be a string (one of: \(known)), got \(value.typeName)")
    }
    guard let feature = registry.feature(named: name) else {
      throw WireError(.unknownFeature, "unknown feature '\(name.prefix(64))'; features: \(known)")
    }
    return feature
  }

  /// `select` of `watch`: absent (or null) for the whole state.
  func selection(of request: Request) throws(WireError) -> StateSelection? {
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
  func monitoredFeatures(of request: Request) throws(WireError) -> [Feature] {
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

  func event(of request: Request, _ feature: Feature) throws(WireError) -> EventPayload {
    var types: String { feature.eventTypes.joined(separator: ", ") }
    guard let value = request["event"] else {
      throw WireError(
        .missingField,
        "missing field 'event' (an object like {\"type\":\"…\"}; types of '\(feature.name)': \(types))"
      )
    }
    guard case .object(let object) = value else {
      throw WireError(
        .invalidField,
        "field 'event' must be an object like {\"type\":\"…\"}, got \(value.typeName)")
    }
    guard let type = object["type"] else {
      throw WireError(
        .missingField, "missing field 'event.type' (one of: \(types))")
    }
    guard case .string(let name) = type else {
      throw WireError(
        .invalidField,
        "field 'event.type' must be a string (one of: \(types)), got \(type.typeName)")
    }
    // The usual event has no other field: no copy of the object is made for it.
    var fields = JSONObject()
    if object.count > 1 {
      fields = object
      fields.removeValue(forKey: "type")
    }
    return EventPayload(type: name, fields: fields)
  }
}
