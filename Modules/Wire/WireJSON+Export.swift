// WireJSON is re-exported so `import Wire` keeps giving messages and the JSON they carry.
@_exported import WireJSON
