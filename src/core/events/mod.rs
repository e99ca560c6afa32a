//! Recommendation events: model, composer and validation (service-interface.md 2.1-2.2,
//! decisions.md 14-17). Pure: no I/O.
