/// The messages of `specimen.vcontract`: every kind of field, for the codec tests. A contract of
/// messages alone, which no daemon serves.
public enum Specimen {}
